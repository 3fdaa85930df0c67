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
  /// What nvcc 13 takes to compile a kernel for one arch, in milliseconds
  /// of one core, fitted to the samples' shards on the 2-core machine: some
  /// 3 ms per unrolled element-loop iteration, half a millisecond per step
  /// of a product of tiles (unrolled in its helper), 40 ms per step of an
  /// 8-bit float product on mma.sync, whose fragments are widened or
  /// rearranged a byte at a time (a 128x256x128 one: 21 s), and 0.3 s
  /// however small. (Before the layout helpers' tables, cicc's time grew
  /// with the square of the iterations.)
  static uint64_t compileCost(uint64_t UnrolledSteps, uint64_t DotSteps,
                              uint64_t Float8MmaSteps) {
    return 300 + 3 * UnrolledSteps + DotSteps / 2 + 40 * Float8MmaSteps;
  }
  /// A shard's cost before the next one is used: 30 s.
  static constexpr uint64_t ShardCost = 30'000;

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
