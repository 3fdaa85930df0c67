//===- Pipelining.cpp -----------------------------------------------------===//
#include "analysis/Pipelining.h"
#include "analysis/LoopAdvances.h"
#include "analysis/LoopInvariantA.h"
#include "analysis/PointerRoots.h"
#include "analysis/ShapeLayouts.h"
#include "llvm/ADT/MapVector.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

bool isTensorCoreDot(const Op &O, const LayoutMap &LM) {
  return O.kind() == OpKind::Dot && LM.get(O.result()).isMmaAccumulator();
}

namespace {

/// Ops a prefetch may re-run: pure index and mask arithmetic (a trans is
/// a staged operand's, never an address's), not what passes through the
/// scratch buffer.
bool recomputable(const Op &O, const LayoutMap &LM) {
  return isPure(O) && O.kind() != OpKind::Trans &&
         !movesThroughSharedMemory(O, LM);
}

class Planner {
public:
  Planner(const Function &F, const Op &Loop, const LayoutMap &LM)
      : Loop(Loop), Body(*Loop.region(0)), LM(LM), Users(users(Body)), Roots(F),
        Steps(Body, [&LM](const Op &O) { return recomputable(O, LM); }) {}

  std::optional<PipelinedLoop> run(unsigned NumStages, unsigned Threads,
                                   PipelineTarget Target) {
    PipelinedLoop P;
    const unsigned Hint = Loop.numStagesHint();
    P.NumStages = Hint ? Hint : NumStages;
    P.Threads = Threads;
    if (P.NumStages < 2)
      return std::nullopt;
    // Iterations ahead come later when the step is positive: a constant
    // step must be; a loop that names its stages may step by a value known
    // at run time, which its prefetches check.
    const Op *Step = Loop.operand(2)->definingOp();
    P.ConstantStep = Step && Step->kind() == OpKind::Const;
    if (P.ConstantStep ? Step->intValue() <= 0 : !Hint) {
      Why = "its step is not positive";
      return std::nullopt;
    }
    llvm::DenseSet<const Op *> Candidates;
    for (const auto &O : Body.ops())
      if (O->kind() == OpKind::Load && stageable(*O))
        Candidates.insert(O.get());
    // A dot is pipelined when b is staged and a is staged or held in
    // registers as mma fragments; a load stays staged only if every dot it
    // feeds is.
    for (bool Changed = true; Changed;) {
      Changed = false;
      P.Dots.clear();
      for (const auto &O : Body.ops())
        if (isTensorCoreDot(*O, LM) &&
            (source(O->operand(0), Candidates) || fragmentsOfA(*O)) &&
            source(O->operand(1), Candidates))
          P.Dots.insert(O.get());
      for (const Op *L : llvm::SmallVector<const Op *, 4>(Candidates.begin(),
                                                          Candidates.end()))
        if (!onlyFeeds(*L, P.Dots)) {
          Candidates.erase(L);
          Changed = true;
        }
    }
    llvm::DenseSet<const Op *> InSlice;
    for (const auto &O : Body.ops())
      if (Candidates.count(O.get())) {
        P.Loads.push_back(O.get());
        for (const Value *V : O->operands())
          if (!addSlice(V, InSlice)) {
            Why = lineOf(*O) + " " + CannotPrefetch;
            return std::nullopt;
          }
      }
    // In a loop that names its stages, the other tile loads whose
    // pointers and mask can be re-run are staged by their own threads.
    if (Hint && Target.AsyncCopies)
      for (const auto &O : Body.ops()) {
        if (O->kind() != OpKind::Load || O->result()->type().isScalar() ||
            O->isVolatileAccess() || Candidates.count(O.get()) ||
            writtenInLoop(*O))
          continue;
        llvm::DenseSet<const Op *> With = InSlice;
        auto AdvancesBefore = Advances;
        if (addSlice(O->operand(0), With) &&
            (!O->mask() || addSlice(O->mask(), With))) {
          P.OwnLoads.push_back(O.get());
          InSlice = std::move(With);
        } else {
          Advances = std::move(AdvancesBefore);
        }
      }
    if (P.Loads.empty() && P.OwnLoads.empty()) {
      Why = whyNothingStaged();
      return std::nullopt;
    }
    if (Hint && Target.AsyncCopies)
      for (const auto &O : Body.ops())
        if (O->kind() == OpKind::Load && !O->result()->type().isScalar() &&
            !Candidates.count(O.get()) &&
            !llvm::is_contained(P.OwnLoads, O.get()))
          UnstagedLoads.push_back({O.get(), whyNotStaged(*O)});
    // The steps of carried pointers come first: the prefetch advances
    // the pointers before re-running the rest.
    for (const auto &O : Body.ops())
      if (InSlice.count(O.get()) && Steps.stepOps().count(O.get()))
        P.Slice.push_back(O.get());
    P.StepOps = P.Slice.size();
    for (const auto &O : Body.ops())
      if (InSlice.count(O.get()) && !Steps.stepOps().count(O.get()))
        P.Slice.push_back(O.get());
    for (const auto &[Arg, Step] : Advances)
      P.Advances.push_back({Arg, Step});
    chooseResident(P, Target);
    chooseResidentB(P);
    // A dot left in flight reads its staged operands, which stay until
    // their stage is refilled; registers would be rewritten sooner.
    P.AsyncMma = P.NumStages >= 3 && !P.Dots.empty() &&
                 llvm::all_of(P.Dots, [&](const Op *D) {
                   return onlyAccumulates(*D) &&
                          (!fragmentsOfA(*D) ||
                           llvm::is_contained(P.Resident, D->operand(0)));
                 });
    P.RefillBarrier = !(Target.Wgmma && Threads <= 128);
    P.WaitAtFirstUse = Target.Wgmma && !P.AsyncMma;
    // Staged loads feeding dots, their trans, and slice ops nobody else
    // needs; a thread-staged load needs its pointers only to prefetch.
    for (const Op *L : P.Loads) {
      P.ProducerOnly.insert(L);
      for (const Op *U : Users.lookup(L->result()))
        if (U->kind() == OpKind::Trans)
          P.ProducerOnly.insert(U);
    }
    auto PrefetchOnly = [&](const Op *U, const Value *V) {
      return P.ProducerOnly.count(U) || (llvm::is_contained(P.OwnLoads, U) &&
                                         U->mask() != V && U->other() != V);
    };
    for (auto It = P.Slice.rbegin(); It != P.Slice.rend(); ++It)
      if (llvm::all_of((*It)->results(), [&](const auto &R) {
            return llvm::all_of(Users.lookup(R.get()), [&](const Op *U) {
              return PrefetchOnly(U, R.get());
            });
          }))
        P.ProducerOnly.insert(*It);
    return P;
  }

  /// Why the last run planned nothing, where the loop names its stages.
  std::string Why;
  /// The tile loads the last run's plan leaves unstaged in a loop that
  /// names its stages, each with why.
  llvm::SmallVector<std::pair<const Op *, std::string>, 2> UnstagedLoads;

private:
  static constexpr const char *CannotPrefetch =
      "has pointers or a mask that depend on values a prefetch cannot "
      "compute ahead (what the loop loads, or a carried value not advanced "
      "by a fixed step)";

  static std::string lineOf(const Op &O) {
    return "the " + spell(O.kind()).str() + " at line " +
           std::to_string(O.loc().Line);
  }

  /// Why tile load L of the body is not staged, as a predicate.
  std::string whyNotStaged(const Op &L) {
    if (L.isVolatileAccess())
      return "is volatile";
    if (writtenInLoop(L))
      return "reads memory the loop writes, which a copy issued iterations "
             "ahead would read before the write";
    return CannotPrefetch;
  }

  /// Why no load of the loop is staged: the first tile load's reason.
  std::string whyNothingStaged() {
    for (const auto &O : Body.ops())
      if (O->kind() == OpKind::Load && !O->result()->type().isScalar())
        return lineOf(*O) + " " + whyNotStaged(*O);
    return "it has no tile load of its own to prefetch (loads of scalars, "
           "or under an if or an inner loop, are not staged)";
  }

  /// A 2-D load whose masked-off elements read as zero (cp.async fills
  /// zeros); not a volatile one, which reads where written.
  bool stageable(const Op &L) {
    return L.result()->type().rank() == 2 && !L.isVolatileAccess() &&
           (!L.other() || isZeroConstant(L.other())) && !writtenInLoop(L);
  }

  /// Whether the loop writes memory load L may read: a prefetch, issued
  /// iterations ahead, would read it before the write.
  bool writtenInLoop(const Op &L) {
    return Roots.writtenIn(Body, L.operand(0));
  }

  /// Whether dot D's A operand is held in registers as mma fragments.
  bool fragmentsOfA(const Op &D) const {
    const Value *A = D.operand(0);
    return holdsOperandA(LM.get(A), LM.get(D.result()), A->type().Shape[1],
                         storageBytes(A->type().Elem.Kind));
  }

  /// Moves the loop-invariant A fragments of P's dots to shared memory when
  /// registers would not hold them beside the carried tiles (a dK/dV loop
  /// carries two accumulators and reads K and V every iteration; three
  /// programs an SM leave it 168 registers); with wgmma, those ptxas may
  /// overwrite go there anyway (LoopInvariantA.h), and 8-bit ones, which
  /// each iteration would exchange among threads, always do.
  void chooseResident(PipelinedLoop &P, PipelineTarget Target) const {
    llvm::SmallVector<const Value *, 2> Invariant, AtRisk, Exchanged;
    unsigned Registers = 0;
    for (const auto &O : Body.ops()) {
      if (!P.Dots.count(O.get()) || !fragmentsOfA(*O))
        continue;
      const Value *A = O->operand(0);
      const Op *D = A->definingOp();
      bool Inside = D ? D->parentBlock() == &Body : A->ownerBlock() == &Body;
      if (Inside || llvm::is_contained(Invariant, A))
        continue;
      Invariant.push_back(A);
      Registers += tileRegisters(*A, P.Threads);
      if (Target.Wgmma && invariantInChoosingLoop(*O))
        AtRisk.push_back(A);
      else if (storageBytes(A->type().Elem.Kind) == 1)
        Exchanged.push_back(A);
    }
    for (unsigned I = 0; I < Loop.numResults(); ++I)
      if (!Loop.result(I)->type().isScalar())
        Registers += tileRegisters(*Loop.result(I), P.Threads);
    using Residence = PipelinedLoop::Residence;
    if (Registers + IterationRegisters > Target.Registers) {
      P.Resident = std::move(Invariant);
    } else if (!AtRisk.empty()) {
      // Exchanged ones go too, in program order.
      for (const Value *A : Invariant)
        if (llvm::is_contained(AtRisk, A) || llvm::is_contained(Exchanged, A))
          P.Resident.push_back(A);
      P.ResidentReason = Residence::PtxasOverwrite;
    } else if (!Exchanged.empty()) {
      P.Resident = std::move(Exchanged);
      P.ResidentReason = Residence::Exchange;
    }
  }

  /// Keeps in shared memory, from before the loop, the loop-invariant B
  /// operands of the body's tensor-core dots that P does not stage: each
  /// call would write its registers there again (rt::stage_b).
  void chooseResidentB(PipelinedLoop &P) const {
    for (const auto &O : Body.ops()) {
      if (O->kind() != OpKind::Dot || P.Dots.count(O.get()) ||
          !LM.get(O->result()).isMmaAccumulator())
        continue;
      const Value *B = O->operand(1);
      const Op *D = B->definingOp();
      bool Inside = D ? D->parentBlock() == &Body : B->ownerBlock() == &Body;
      if (!Inside && !llvm::is_contained(P.ResidentB, B))
        P.ResidentB.push_back(B);
    }
  }

  /// The candidate load V comes from, directly or through one trans used
  /// only here.
  const Op *source(const Value *V,
                   const llvm::DenseSet<const Op *> &Candidates) const {
    const Op *D = V->definingOp();
    if (D && D->kind() == OpKind::Trans && D->parentBlock() == &Body &&
        Users.lookup(V).size() == 1)
      D = D->operand(0)->definingOp();
    return D && Candidates.count(D) ? D : nullptr;
  }

  /// Whether every use of L's tile is an operand of a dot in Dots (maybe
  /// through a trans whose only use is).
  bool onlyFeeds(const Op &L, const llvm::DenseSet<const Op *> &Dots) const {
    auto Uses = Users.lookup(L.result());
    return !Uses.empty() && llvm::all_of(Uses, [&](const Op *U) {
      if (U->kind() == OpKind::Trans) {
        auto TU = Users.lookup(U->result());
        return TU.size() == 1 && Dots.count(TU.front()) &&
               TU.front()->operand(2) != U->result();
      }
      return Dots.count(U) && U->operand(2) != L.result();
    });
  }

  /// Whether dot D's result is only yielded, as the next value of the
  /// carried accumulator it adds to, which nothing else reads, and the
  /// tensor cores accumulate in its type (a half one is rounded at once).
  bool onlyAccumulates(const Op &D) const {
    const Value *Acc = D.operand(2);
    if (Acc->type().Elem.Kind == ScalarKind::F16)
      return false;
    const Op *Yield = Body.terminator();
    auto Uses = Users.lookup(D.result());
    if (Uses.size() != 1 || Uses.front() != Yield ||
        Acc->ownerBlock() != &Body || Users.lookup(Acc).size() != 1)
      return false;
    for (unsigned I = 0; I < Yield->numOperands(); ++I)
      if (Yield->operand(I) == D.result())
        return Body.argument(I + 1) == Acc;
    return false;
  }

  /// Adds the body ops V is computed by; false if one cannot be re-run
  /// for a later iteration.
  bool addSlice(const Value *V, llvm::DenseSet<const Op *> &InSlice) {
    if (const Block *Owner = V->ownerBlock()) {
      if (Owner != &Body || V == Body.argument(0)) // from outside, or the IV
        return true;
      if (Advances.count(V))
        return addSlice(Advances[V], InSlice);
      const Value *Step = Steps.stepOf(V);
      if (!Step)
        return false;
      Advances[V] = Step;
      return addSlice(Step, InSlice);
    }
    const Op *D = V->definingOp();
    if (!D || D->parentBlock() != &Body)
      return true; // defined outside the loop
    if (InSlice.count(D))
      return true;
    if (!recomputable(*D, LM))
      return false;
    InSlice.insert(D);
    return llvm::all_of(D->operands(),
                        [&](const Value *O) { return addSlice(O, InSlice); });
  }

  const Op &Loop;
  const Block &Body;
  const LayoutMap &LM;
  UserMap Users;
  PointerRoots Roots;
  LoopAdvances Steps;
  /// Carried pointer tiles the slices read, with their steps.
  llvm::MapVector<const Value *, const Value *> Advances;
};

} // namespace

llvm::DenseMap<const Op *, PipelinedLoop>
planPipelines(const Function &F, const LayoutMap &LM, unsigned NumStages,
              unsigned Threads, PipelineTarget Target,
              std::vector<UnstagedLoop> *Unstaged) {
  llvm::DenseMap<const Op *, PipelinedLoop> Plans;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::For)
      return;
    Planner Plan(F, O, LM);
    auto P = Plan.run(NumStages, Threads, Target);
    if (P)
      Plans[&O] = std::move(*P);
    if (!Unstaged || !Target.AsyncCopies || O.numStagesHint() < 2)
      return;
    if (!P)
      Unstaged->push_back({&O, nullptr, std::move(Plan.Why)});
    for (auto &[Load, Why] : Plan.UnstagedLoads)
      Unstaged->push_back({&O, Load, std::move(Why)});
  });
  return Plans;
}

unsigned tileRegisters(const Value &V, unsigned Threads) {
  const Type &T = V.type();
  unsigned Bytes = T.numel() * storageBytes(T.Elem.Kind);
  return (Bytes + 4 * Threads - 1) / (4 * Threads);
}

bool isZeroConstant(const Value *V) {
  const Op *D = V->definingOp();
  while (D && (D->kind() == OpKind::Splat || D->kind() == OpKind::Broadcast))
    D = D->operand(0)->definingOp();
  return D && D->kind() == OpKind::Const && D->intValue() == 0 &&
         D->floatValue() == 0.0;
}

std::pair<const Op *, bool> stagedSource(const PipelinedLoop &P,
                                         const Value *Operand) {
  const Op *D = Operand->definingOp();
  bool Trans = D && D->kind() == OpKind::Trans;
  if (Trans)
    D = D->operand(0)->definingOp();
  if (D && llvm::is_contained(P.Loads, D))
    return {D, Trans};
  return {nullptr, false};
}

} // namespace tilecc::analysis
