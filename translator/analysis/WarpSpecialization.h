//===- WarpSpecialization.h - Loops a producer warpgroup feeds -*- C++ -*-===//
//
// On sm_90a a kernel's TMA-pipelined loops can have their copies issued by
// a warpgroup of their own (the producer) while the program's warps only
// compute (the consumers): the producer waits for a stage to be released,
// arms its mbarrier and asks for the boxes; the consumers wait for the
// stage, compute, and release it once their dots no longer read it.
// Neither waits for the other at a block barrier.
//
// tilecc splits the program at its top: the producer computes only the
// scalars its loops' bounds and box starts need, walks every pipelined
// loop's iterations in program order through one ring of stages, and
// returns; the consumers run the whole body. The pipelined loops may sit in
// `for` loops (a persistent program's loop over its tiles), which the
// producer walks too: it then runs ahead into the next tile's stages while
// the consumers finish the last one. So the pipelined loops must all be TMA
// loops with the same stages (their rings are one), outside any `if` or
// `while`; the scalars must be computable from the kernel's parameters,
// program ids and the enclosing loops' induction variables alone; and the
// consumers' block barriers become named barriers among them (the helpers
// that pass tiles through shared memory, dots of register operands
// included, take the consumers' count): the barriers tile::rt helpers still
// hide (scans, atomics run once per program) rule it out.
//
// The producer also copies the tiles the loops' dots take as A from outside
// them (attention's Q) when it can: a load before the loops, at the top
// level or in a loop it walks, whose tile feeds only those dots (through
// layout conversions), is a row-major box TMA can copy, and starts where
// the producer's scalars say. It goes to a buffer of its own, with a full
// barrier the consumers wait for where the load was and an empty one they
// arrive at after the last statement using it; in a persistent program the
// next tile's copy is under way while the consumers finish this one, and
// the dots read the buffer instead of registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_WARPSPECIALIZATION_H
#define TILECC_ANALYSIS_WARPSPECIALIZATION_H

#include "analysis/Pipelining.h"
#include "analysis/TensorMaps.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace tilecc::analysis {

struct WarpSpecialization {
  /// The pipelined loops the producer feeds, in program order; empty if
  /// the kernel is not specialized.
  llvm::SmallVector<const ir::Op *, 2> Loops;
  /// The `for` loops around them, which the producer walks as well.
  llvm::SmallVector<const ir::Op *, 1> Enclosing;
  /// The scalar ops the producer re-runs, at the top level or in the
  /// enclosing loops' bodies, in program order.
  llvm::SmallVector<const ir::Op *, 16> ProducerSlice;
  /// Loads outside the loops whose tiles are only the loops' dots' A
  /// operands, which the producer copies by TMA, in program order.
  TensorMapOps OperandLoads;
  /// Why the kernel is not warp-specialized, for its comment.
  std::string WhyNot;
};

/// Whether F's TMA-pipelined loops (Plans, copies in Tma) can be fed by a
/// producer warpgroup, which A operands it copies too (launches with the
/// facts Specs), and which scalars it needs.
WarpSpecialization planWarpSpecialization(
    const ir::Function &F, const LayoutMap &LM,
    const llvm::DenseMap<const ir::Op *, PipelinedLoop> &Plans,
    const TensorMapOps &Tma, llvm::ArrayRef<ir::ParamSpec> Specs);

} // namespace tilecc::analysis

#endif
