//===- Shards.h - Translation units of a source file's kernels --*- C++ -*-===//
//
// nvcc spends most of a build on tilecc's output, and one file of many
// kernels is one compile that a build can neither spread over cores nor
// cache in pieces. With --shards N, a source file's kernel variants are
// dealt into N translation units, stem.tile.shardI.cu: each defines
// TILECC_SHARD and includes the kernel files, which guard each variant with
// its shard, so that build systems know the file names in advance. A TMA
// variant goes with its twin (one of the two is compiled for each arch);
// the other variants go one by one, the largest of a kernel first.
//
// Shards are taken as needed: a group goes to the least loaded shard in
// use, or to a new one where that would pass ShardCost, so a small file
// stays one translation unit and its other shards are empty.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_SHARDS_H
#define TILECC_CODEGEN_SHARDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tilecc::codegen {

class ShardPlanner {
public:
  /// What nvcc 13 takes to compile a kernel for one arch, in units of
  /// about 3 us of one core, from its unrolled element-loop iterations and
  /// its products of tiles: cicc's optimizer, most of the time, grows with
  /// the square of the iterations (attention kernels of 2,400 and 4,900:
  /// 19 s and 78 s), but a product unrolled inside its helper takes some
  /// 5 s however few the kernel's own, more below sm_90 (mma.sync's
  /// fragments) than with wgmma (matmul kernels of 400-1,000 iterations
  /// and one product: 7 s for sm_90a, 10 s for sm_80), and a kernel about
  /// a second however small.
  static uint64_t compileCost(uint64_t UnrolledSteps, unsigned Dots,
                              bool Wgmma) {
    const uint64_t PerDot = Wgmma ? 1'500'000 : 2'200'000;
    return std::max<uint64_t>(UnrolledSteps * UnrolledSteps, PerDot * Dots) +
           300'000;
  }
  /// A shard's cost before the next one is used: about 45 s.
  static constexpr uint64_t ShardCost = 14'000'000;

  explicit ShardPlanner(unsigned Count) : Shards(Count) {}
  unsigned count() const { return Shards.size(); }

  /// The shard of a group of variants of the kernel file KernelFile, which
  /// costs WithTma to compile for archs with TMA (sm_90 on) and WithoutTma
  /// for the others.
  unsigned place(llvm::StringRef KernelFile, uint64_t WithTma,
                 uint64_t WithoutTma);

  /// The kernel files with variants in shard I, in the order they came.
  llvm::ArrayRef<std::string> filesIn(unsigned I) const {
    return Shards[I].Files;
  }

private:
  struct Shard {
    uint64_t WithTma = 0, WithoutTma = 0;
    llvm::SmallVector<std::string, 4> Files;
  };
  std::vector<Shard> Shards;
  unsigned InUse = 1;
};

} // namespace tilecc::codegen

#endif
