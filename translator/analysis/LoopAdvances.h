//===- LoopAdvances.h - Pointer tiles a loop advances by a step -*- C++ -*-===//
//
// Triton's `a_ptrs += BK * stride_ak`: a loop carries a pointer tile and
// adds the same amount to it every iteration. A pipeliner that computes an
// address for a later iteration needs that amount, computed from values
// outside the loop, so that the tile k iterations ahead is the carried one
// plus k steps.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LOOPADVANCES_H
#define TILECC_ANALYSIS_LOOPADVANCES_H

#include "ir/IR.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

namespace tilecc::analysis {

class LoopAdvances {
public:
  /// For the loop whose body is Body; Recomputable says which body ops a
  /// step may be computed by, beside their reading only values from
  /// outside the loop.
  LoopAdvances(const ir::Block &Body,
               std::function<bool(const ir::Op &)> Recomputable)
      : Body(Body), Recomputable(std::move(Recomputable)) {}

  /// The loop-invariant step carried pointer tile Arg advances by each
  /// iteration (its yield is `addptr Arg, Step`), or null; the body ops
  /// computing it join stepOps().
  ir::Value *stepOf(const ir::Value *Arg);

  /// The body ops computing the steps stepOf has found.
  const llvm::DenseSet<const ir::Op *> &stepOps() const { return StepOps; }

private:
  bool addStepOps(const ir::Value *V);

  const ir::Block &Body;
  std::function<bool(const ir::Op &)> Recomputable;
  llvm::DenseSet<const ir::Op *> StepOps;
};

} // namespace tilecc::analysis

#endif
