//===- WarpSpecialization.h - Which loop a producer warpgroup feeds -*- C++
//-*-===//
//
// On sm_90a a TMA-pipelined loop can have its copies issued by a warpgroup
// of its own (the producer) while the program's warps only compute (the
// consumers): the producer waits for a stage to be released, arms its
// mbarrier and asks for the boxes; the consumers wait for the stage,
// compute, and release the stage their previous dot read. Neither waits
// for the other at a block barrier.
//
// tilecc splits the program at the loop: the producer warpgroup runs what
// comes before it (with the consumers) and then returns once its copies
// are issued. So what comes before may only compute in registers (threads
// past the consumers' own would hold no elements of a tile), the loop's
// body must need no block barrier (the producer is not there to arrive),
// and the dots must be left in flight (wgmma), whose retirement releases
// a stage. What follows the loop is the consumers' alone: the producer
// exits after its last copy, which releases barriers waiting for it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_WARPSPECIALIZATION_H
#define TILECC_ANALYSIS_WARPSPECIALIZATION_H

#include "analysis/Pipelining.h"
#include "analysis/TensorMaps.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include <string>

namespace tilecc::analysis {

struct WarpSpecialization {
  /// The pipelined loop the producer feeds; null if there is none.
  const ir::Op *Loop = nullptr;
  /// Why the kernel is not warp-specialized, for its comment.
  std::string WhyNot;
};

/// The first top-level loop of F that Plans pipeline with TMA copies
/// (those in Tma) and dots left in flight, if a producer warpgroup can
/// issue its copies.
WarpSpecialization planWarpSpecialization(
    const ir::Function &F,
    const llvm::DenseMap<const ir::Op *, PipelinedLoop> &Plans,
    const TensorMapOps &Tma);

} // namespace tilecc::analysis

#endif
