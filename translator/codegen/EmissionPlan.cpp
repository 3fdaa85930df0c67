//===- EmissionPlan.cpp - What a variant's device code leaves out ---------===//
//
// planEmission: the TMA pipelines flattened into their outer loop, the
// loads a producer warpgroup copies, the addressing TMA computes instead
// of the threads, the transposes dots absorb, the deferred lane sums, the
// histograms loops sum in shared memory and the matrix-core operands loops
// stage ahead.
//
//===----------------------------------------------------------------------===//
#include "codegen/EmissionPlan.h"
#include "ir/Type.h"
#include "llvm/ADT/SmallVector.h"

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::codegen {

bool tmaStoreAddressing(const TensorMapOps &Tma, const Op &O, const Value *V) {
  return writesBox(O) && Tma.count(&O) && (V == O.operand(0) || V == O.mask());
}

namespace {

class EmissionPlanner {
public:
  EmissionPlanner(const Function &F, const LayoutMap &LM,
                  const Pipelines &Plans, const TensorMapOps &Tma,
                  const ProducerPlan &Producer, bool StageAhead)
      : F(F), LM(LM), Plans(Plans), Tma(Tma), Producer(Producer),
        StageAhead(StageAhead), Users(users(F.body())) {}

  EmissionPlan run() {
    flattenTmaPipelines();
    if (!Tma.empty()) {
      dropProducerLoads();
      dropTmaAddressing();
    }
    foldTransposes();
    Plan.LaneSums = deferredLaneSums(F, LM);
    auto Pipelined = [&](const Op &Loop) { return Plans.count(&Loop) > 0; };
    Plan.Histograms = loopHistograms(F, LM, Pipelined);
    if (StageAhead)
      Plan.StagedAhead = mfmaStagedAhead(F, LM, Pipelined);
    Plan.Divisors = invariantDivisors(F);
    return std::move(Plan);
  }

private:
  /// The TMA pipelines that run on into the loop around them.
  void flattenTmaPipelines();
  /// The producer copies its operand loads: the consumers neither load nor
  /// convert them.
  void dropProducerLoads();
  void bufferFrom(const Value *V, const Op *Load);
  /// With TMA copies, the per-element pointers and masks of staged loads
  /// are never computed: drops the ops that only they needed, in the loop
  /// and before it. The prefetches re-run the ops computing where boxes
  /// start, so the body drops those too, except what the prefetch reads.
  void dropTmaAddressing();
  /// Drops the pure ops outside Kept whose every use is dropped (or is a
  /// TMA store's addressing), until none is left.
  void dropUnused(const llvm::DenseSet<const Op *> &Kept);
  /// Finds the transposes that only make 16-bit A operands of tensor-core
  /// dots outside pipelines: those dots take the untransposed tile
  /// (rt::dot_mma_trans_a) and the transposes are not emitted.
  void foldTransposes();

  const Function &F;
  const LayoutMap &LM;
  const Pipelines &Plans;
  const TensorMapOps &Tma;
  const ProducerPlan &Producer;
  const bool StageAhead;
  const UserMap Users;
  EmissionPlan Plan;
};

void EmissionPlanner::flattenTmaPipelines() {
  walk(F.body(), [&](const Op &O) {
    auto It = Plans.find(&O);
    // A producer warpgroup runs ahead through the enclosing loops itself.
    if (It == Plans.end() || !byTma(It->second, Tma) || Producer.feeds(O))
      return;
    auto Flat = flattenPipeline(O, It->second, Tma);
    // A flattened pipeline's stages stay filled through the whole outer
    // body, so no other pipeline there may take the same shared memory.
    unsigned Pipelines = 0;
    if (Flat)
      walk(*Flat->Outer->region(0),
           [&](const Op &Inner) { Pipelines += Plans.count(&Inner); });
    if (Flat && Pipelines == 1) {
      Plan.FlatHosts[Flat->Outer] = &O;
      Plan.Flats[&O] = std::move(*Flat);
    }
  });
}

void EmissionPlanner::bufferFrom(const Value *V, const Op *Load) {
  Plan.BufferedFrom[V] = Load;
  for (const Op *U : Users.lookup(V))
    if (U->kind() == OpKind::ConvertLayout) {
      Plan.Dropped.insert(U);
      bufferFrom(U->result(), Load);
    }
}

void EmissionPlanner::dropProducerLoads() {
  for (const Op *L : Producer.OperandLoads) {
    Plan.Dropped.insert(L);
    bufferFrom(L->result(), L);
  }
}

void EmissionPlanner::dropTmaAddressing() {
  llvm::DenseSet<const Op *> Rerun, Inputs;
  auto AddDefinitions = [&](auto &&Values) {
    for (const Value *V : Values)
      if (V->definingOp())
        Inputs.insert(V->definingOp());
  };
  for (const auto &[Loop, P] : Plans) {
    if (!byTma(P, Tma))
      continue;
    llvm::DenseSet<const Op *> Slice = boxStartSlice(P, Tma);
    for (const Op *O : P.ProducerOnly)
      Plan.Dropped.insert(O);
    if (auto It = Plan.Flats.find(Loop); It != Plan.Flats.end())
      Slice.insert(It->second.OuterSlice.begin(), It->second.OuterSlice.end());
    Rerun.insert(Slice.begin(), Slice.end());
    // A producer warpgroup computes what its copies read itself.
    if (Producer.feeds(*Loop))
      continue;
    for (const Op *L : P.Loads)
      AddDefinitions(Tma.find(L)->second.coordinates());
    for (const Op *O : Slice)
      AddDefinitions(O->operands());
  }
  // What a prefetch reads but does not re-run stays in the body, as does
  // what TMA stores read.
  for (const Op *O : Rerun)
    Inputs.erase(O);
  for (const auto &[O, Map] : Tma)
    if (writesBox(*O))
      AddDefinitions(Map.coordinates());
  dropUnused(Inputs);
}

void EmissionPlanner::dropUnused(const llvm::DenseSet<const Op *> &Kept) {
  llvm::SmallVector<const Op *, 64> Pure;
  walk(F.body(), [&](const Op &O) {
    if (isPure(O) && !Kept.count(&O))
      Pure.push_back(&O);
  });
  auto Gone = [&](const Op *U, const Value *V) {
    return Plan.Dropped.count(U) || tmaStoreAddressing(Tma, *U, V);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Op *O : Pure) {
      auto Uses = Users.lookup(O->result());
      if (!Plan.Dropped.count(O) && !Uses.empty() &&
          llvm::all_of(Uses,
                       [&](const Op *U) { return Gone(U, O->result()); })) {
        Plan.Dropped.insert(O);
        Changed = true;
      }
    }
  }
}

void EmissionPlanner::foldTransposes() {
  auto Staged = [&](const Op *D) {
    return llvm::any_of(Plans,
                        [&](const auto &P) { return P.second.Dots.count(D); });
  };
  walk(F.body(), [&](const Op &O) {
    const Value *T = O.kind() == OpKind::Trans ? O.result() : nullptr;
    // Kept to A tiles of whole 64-row blocks, the ones wgmma reads M-major
    // (the GPU tests' case); smaller ones keep the transpose.
    if (!T || storageBytes(T->type().Elem.Kind) != 2 ||
        T->type().Shape[0] % 64 != 0)
      return;
    auto It = Users.find(T);
    if (It == Users.end() || !llvm::all_of(It->second, [&](const Op *D) {
          return D->kind() == OpKind::Dot && D->operand(0) == T &&
                 D->operand(1) != T && !Staged(D) &&
                 LM.get(D->result()).isMmaAccumulator();
        }))
      return;
    Plan.FoldedTransposes.insert(&O);
  });
}

} // namespace

EmissionPlan planEmission(const Function &F, const LayoutMap &LM,
                          const Pipelines &Plans, const TensorMapOps &Tma,
                          const ProducerPlan &Producer, bool StageAhead) {
  return EmissionPlanner(F, LM, Plans, Tma, Producer, StageAhead).run();
}

} // namespace tilecc::codegen
