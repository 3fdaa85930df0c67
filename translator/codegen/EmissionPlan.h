//===- EmissionPlan.h - What a variant's device code leaves out -*- C++ -*-===//
//
// Decisions about one variant's device code that are made before any of it
// is printed: the TMA pipelines that run on through the loop around them,
// the addressing TMA makes unnecessary, the transposes dots absorb, the
// tiles a producer warpgroup buffers, the sums whose lanes combine after
// their loop, the histograms a loop sums in shared memory and the
// matrix-core operands a loop stages an iteration ahead. The device
// emitter reads the plan and prints; it decides none of this.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_EMISSIONPLAN_H
#define TILECC_CODEGEN_EMISSIONPLAN_H

#include "analysis/DeferredLaneSums.h"
#include "analysis/InvariantDivisors.h"
#include "analysis/LoopHistograms.h"
#include "analysis/MfmaStagedAhead.h"
#include "codegen/DeviceEmitter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace tilecc::codegen {

struct EmissionPlan {
  /// Ops the variant does not emit (TMA variants' addressing, the loads a
  /// producer warpgroup copies and their layout conversions).
  llvm::DenseSet<const ir::Op *> Dropped;
  /// Transposes folded into the dots reading them.
  llvm::DenseSet<const ir::Op *> FoldedTransposes;
  /// Loop-carried sums whose lanes combine after their loop.
  analysis::DeferredLaneSums LaneSums;
  /// Loop-carried sums of histograms counted in bins kept through the loop.
  analysis::LoopHistograms Histograms;
  /// TMA pipelines flattened into the loop around them, and those loops
  /// with the pipeline each hosts.
  llvm::DenseMap<const ir::Op *, analysis::FlattenedPipeline> Flats;
  llvm::DenseMap<const ir::Op *, const ir::Op *> FlatHosts;
  /// The tiles dots read from an operand buffer (a producer-copied load's
  /// and its layout conversions'), with the load.
  llvm::DenseMap<const ir::Value *, const ir::Op *> BufferedFrom;
  /// Matrix-core dots whose carried operands their loop stages in shared
  /// memory an iteration ahead, in two buffers.
  analysis::MfmaStagedAhead StagedAhead;
  /// Divisions in loops by a kernel argument, made once at the start.
  analysis::InvariantDivisors Divisors;
};

/// StageAhead: whether matrix-core operands may be staged an iteration
/// ahead (twice the shared memory of staging them in each iteration).
EmissionPlan planEmission(const ir::Function &F, const analysis::LayoutMap &LM,
                          const Pipelines &Plans, const TensorMapOps &Tma,
                          const ProducerPlan &Producer, bool StageAhead);

/// Whether TMA copies the stages of pipelined loop P.
inline bool byTma(const analysis::PipelinedLoop &P, const TensorMapOps &Tma) {
  return !P.Loads.empty() && Tma.count(P.Loads.front());
}

/// Whether V is the pointers or the mask of TMA store O, which the TMA unit
/// computes instead.
bool tmaStoreAddressing(const TensorMapOps &Tma, const ir::Op &O,
                        const ir::Value *V);

} // namespace tilecc::codegen

#endif
