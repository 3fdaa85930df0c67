//===- Pipelining.h - Loops whose dot operands can be prefetched -*- C++
//-*-===//
//
// Triton's software pipelining, decided here and carried out by the device
// emitter: in a `for` loop, a load whose tile feeds only tensor-core dots
// (directly or through trans) is "staged": it becomes an asynchronous copy
// into one of num_stages shared-memory buffers, issued num_stages - 1
// iterations ahead, and the dots read the buffer. The ops that compute a
// staged load's pointers and mask (its slice) are re-run for the iteration
// being prefetched, so they may depend only on the induction variable and
// values from outside the loop.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_PIPELINING_H
#define TILECC_ANALYSIS_PIPELINING_H

#include "analysis/LayoutAssignment.h"
#include "ir/IR.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc::analysis {

struct PipelinedLoop {
  unsigned NumStages = 0;
  /// Staged loads, in program order.
  llvm::SmallVector<const ir::Op *, 4> Loads;
  /// The loads' slices in program order: what the prefetch re-runs.
  llvm::SmallVector<const ir::Op *, 16> Slice;
  /// Ops of the loop body that the pipelined body leaves out: the staged
  /// loads, trans of them, and slice ops nothing else uses.
  llvm::DenseSet<const ir::Op *> ProducerOnly;
  /// Dots whose operands both come from staged loads.
  llvm::DenseSet<const ir::Op *> Dots;
  /// Whether the dots may stay in flight while the iteration goes on
  /// (wgmma): each only accumulates into a loop-carried value nothing else
  /// in the loop reads. The previous iteration's stage is then free only
  /// once every warp has waited for its previous dot, so the prefetch
  /// comes after the body and a barrier.
  bool AsyncMma = false;
};

/// Pipelined loops of F by their For op, for configurations with
/// NumStages >= 2.
llvm::DenseMap<const ir::Op *, PipelinedLoop>
planPipelines(const ir::Function &F, const LayoutMap &LM, unsigned NumStages);

/// The staged load a dot operand reads (through one trans or none), and
/// whether a trans sits in between; null if the operand is not staged.
std::pair<const ir::Op *, bool> stagedSource(const PipelinedLoop &P,
                                             const ir::Value *Operand);

} // namespace tilecc::analysis

#endif
