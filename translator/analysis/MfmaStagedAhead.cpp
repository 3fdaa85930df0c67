//===- MfmaStagedAhead.cpp - Matrix-core operands staged ahead ------------===//
//
// mfmaStagedAhead: finds the dots whose carried operands the loop stages
// an iteration ahead.
//
//===----------------------------------------------------------------------===//
#include "analysis/MfmaStagedAhead.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

MfmaStagedAhead mfmaStagedAhead(const Function &F, const LayoutMap &LM,
                                llvm::function_ref<bool(const Op &)> Skip) {
  MfmaStagedAhead Out;
  walk(F.body(), [&](const Op &Loop) {
    if (Loop.kind() != OpKind::For || Skip(Loop))
      return;
    const Block &Body = *Loop.region(0);
    // Argument 0 is the induction variable; the others are carried.
    auto Carried = [&](const Value *V) {
      return V->ownerBlock() == &Body && V != Body.argument(0);
    };
    for (const auto &O : Body.ops())
      if (O->kind() == OpKind::Dot && LM.get(O->result()).isMfmaAccumulator() &&
          Carried(O->operand(0)) && Carried(O->operand(1)))
        Out[&Loop].push_back(O.get());
  });
  return Out;
}

} // namespace tilecc::analysis
