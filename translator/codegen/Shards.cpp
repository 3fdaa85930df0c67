//===- Shards.cpp ---------------------------------------------------------===//
#include "codegen/Shards.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace tilecc::codegen {

unsigned ShardPlanner::place(llvm::StringRef KernelFile, uint64_t WithTma,
                             uint64_t WithoutTma) {
  // A shard's compile for one arch is as long as the code of that arch.
  auto Peak = [&](const Shard &S) {
    return std::max(S.WithTma + WithTma, S.WithoutTma + WithoutTma);
  };
  unsigned Best = 0;
  for (unsigned I = 1; I < InUse; ++I)
    if (Peak(Shards[I]) < Peak(Shards[Best]))
      Best = I;
  if (Peak(Shards[Best]) > ShardCost && InUse < Shards.size() &&
      (Shards[Best].WithTma || Shards[Best].WithoutTma))
    Best = InUse++;
  Shard &S = Shards[Best];
  S.WithTma += WithTma;
  S.WithoutTma += WithoutTma;
  if (!llvm::is_contained(S.Files, KernelFile))
    S.Files.push_back(KernelFile.str());
  return Best;
}

} // namespace tilecc::codegen
