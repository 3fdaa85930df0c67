//===- WarpSpecialization.cpp - Loops a producer warpgroup feeds ----------===//
//
// Finds the loops and the producer's scalars, and checks the conditions
// WarpSpecialization.h states.
//
//===----------------------------------------------------------------------===//
#include "analysis/WarpSpecialization.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

std::string where(const Op &O) {
  return std::string(spell(O.kind())) + " at line " +
         std::to_string(O.loc().Line);
}

/// Whether pipelined loops A and B fill stages alike: the same count, and
/// boxes of the same tiles, stored the same way round.
bool sameRing(const PipelinedLoop &A, const PipelinedLoop &B,
              const TensorMapOps &Tma) {
  if (A.NumStages != B.NumStages || A.Loads.size() != B.Loads.size())
    return false;
  for (unsigned I = 0; I < A.Loads.size(); ++I) {
    const Type &TA = A.Loads[I]->result()->type(),
               &TB = B.Loads[I]->result()->type();
    if (TA.Shape != TB.Shape || TA.Elem.Kind != TB.Elem.Kind ||
        Tma.find(A.Loads[I])->second.InnerDim !=
            Tma.find(B.Loads[I])->second.InnerDim)
      return false;
  }
  return true;
}

/// Why op O, which the consumers run, rules the split out, if it does: a
/// tile::rt helper would wait at a block barrier for the producer. (Dots
/// that stage their operands, transposes, layout conversions and
/// reductions meet at the consumers' own barrier.)
std::string hiddenBarrier(const Op &O) {
  if (O.kind() == OpKind::Scan)
    return "a scan";
  bool Atomic = isAtomicRMW(O.kind()) || O.kind() == OpKind::AtomicCas;
  if (Atomic && O.operand(0)->type().isScalar())
    return "an atomic run once per program";
  return "";
}

std::string loopAt(const Op &Loop) {
  return "the loop at line " + std::to_string(Loop.loc().Line);
}

/// The loops around Loop up to F's body, outermost first, or why the
/// producer cannot walk them.
std::string
enclosingLoops(const Function &F, const Op &Loop,
               const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
               llvm::SmallVectorImpl<const Op *> &Around) {
  for (const Block *B = Loop.parentBlock(); B != &F.body();
       B = B->parentOp()->parentBlock()) {
    const Op *Parent = B->parentOp();
    if (Parent->kind() != OpKind::For)
      return loopAt(Loop) + " is inside the " + where(*Parent);
    if (Plans.count(Parent))
      return loopAt(Loop) + " is inside the pipelined " + where(*Parent);
    Around.insert(Around.begin(), Parent);
  }
  return "";
}

/// Whether every use of tile V, through layout conversions, is the A
/// operand of a tensor-core dot of one of the fed loops.
bool onlyOperandA(const Value *V, const UserMap &Users,
                  const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
                  llvm::ArrayRef<const Op *> Fed) {
  auto Uses = Users.lookup(V);
  return !Uses.empty() && llvm::all_of(Uses, [&](const Op *U) {
    if (U->kind() == OpKind::ConvertLayout)
      return onlyOperandA(U->result(), Users, Plans, Fed);
    const Op *Loop = U->parentBlock()->parentOp();
    return U->kind() == OpKind::Dot && U->operand(0) == V &&
           U->operand(1) != V && U->operand(2) != V && Loop &&
           llvm::is_contained(Fed, Loop) &&
           Plans.find(Loop)->second.Dots.count(U);
  });
}

/// The box TMA copies for operand load L into a row-major tile, if it can
/// (its masked-off elements read as zero).
std::optional<TensorMapAccess> operandBox(const Op &L, const Function &F,
                                          const LayoutMap &LM,
                                          llvm::ArrayRef<ParamSpec> Specs) {
  const Type &T = L.result()->type();
  if (T.rank() != 2 || T.Shape[0] > 256 ||
      LM.get(L.result()).fastestDim() != 1 ||
      (L.other() && !isZeroConstant(L.other())))
    return std::nullopt;
  auto A = matchTensorMap(L);
  if (!A || A->InnerDim != 1 || !tensorMapUsable(*A, F, Specs))
    return std::nullopt;
  return A;
}

} // namespace

WarpSpecialization
planWarpSpecialization(const Function &F, const LayoutMap &LM,
                       const llvm::DenseMap<const Op *, PipelinedLoop> &Plans,
                       const TensorMapOps &Tma,
                       llvm::ArrayRef<ParamSpec> Specs) {
  WarpSpecialization WS;
  std::string Why;
  const PipelinedLoop *First = nullptr;
  walk(F.body(), [&](const Op &O) {
    if (!Why.empty())
      return;
    auto It = Plans.find(&O);
    if (It == Plans.end()) {
      if (std::string Barrier = hiddenBarrier(O); !Barrier.empty())
        Why = "the " + where(O) + " is " + Barrier +
              ", whose block barrier would wait for the producer";
      return;
    }
    const PipelinedLoop &P = It->second;
    llvm::SmallVector<const Op *, 2> Around;
    Why = enclosingLoops(F, O, Plans, Around);
    if (!Why.empty())
      return;
    if (P.Loads.empty() || !Tma.count(P.Loads.front()) || !P.OwnLoads.empty())
      Why = loopAt(O) + " copies its stages without TMA";
    else if (First && !sameRing(*First, P, Tma))
      Why = loopAt(O) + " stages other tiles than the loop at line " +
            std::to_string(WS.Loops.front()->loc().Line);
    if (!Why.empty())
      return;
    First = First ? First : &P;
    WS.Loops.push_back(&O);
    for (const Op *A : Around)
      if (!llvm::is_contained(WS.Enclosing, A))
        WS.Enclosing.push_back(A);
  });
  if (Why.empty() && WS.Loops.empty())
    Why = "no loop is software-pipelined";

  // The scalars the producer needs: bounds, steps and box starts, down to
  // parameters, program ids and the induction variables of the loops it
  // walks.
  llvm::DenseSet<const Block *> Walked{&F.body()};
  llvm::DenseSet<const Value *> Inductions;
  for (const Op *L : WS.Enclosing) {
    Walked.insert(L->region(0));
    Inductions.insert(L->region(0)->argument(0));
  }
  for (const Op *L : WS.Loops)
    Inductions.insert(L->region(0)->argument(0));
  llvm::DenseSet<const Op *> Needed;
  // What the loop being looked at re-runs for each prefetch itself.
  const Op *Loop = nullptr;
  llvm::DenseSet<const Op *> InLoop;
  std::function<void(const Value *)> Need = [&](const Value *V) {
    const Op *D = V ? V->definingOp() : nullptr;
    if (!Why.empty() || !V || Needed.count(D))
      return;
    if (!D) {
      if (!paramIndex(F, V) && !Inductions.count(V))
        Why = loopAt(*Loop) + " needs a value a loop carries";
      return;
    }
    if (InLoop.count(D)) {
      llvm::for_each(D->operands(), Need);
      return;
    }
    bool Scalar = llvm::all_of(
        D->results(), [](const auto &R) { return R->type().isScalar(); });
    if (!Walked.count(D->parentBlock()) || !isPure(*D) || !Scalar) {
      Why = loopAt(*Loop) + " needs the " + where(*D) +
            ", which the producer cannot compute on its own";
      return;
    }
    Needed.insert(D);
    llvm::for_each(D->operands(), Need);
  };
  for (const Op *L : WS.Enclosing) {
    Loop = L;
    llvm::for_each(L->operands().take_front(3), Need);
  }
  for (const Op *L : WS.Loops) {
    const PipelinedLoop &P = Plans.find(L)->second;
    Loop = L;
    InLoop = boxStartSlice(P, Tma);
    llvm::for_each(L->operands().take_front(3), Need);
    for (const Op *Load : P.Loads)
      llvm::for_each(Tma.find(Load)->second.coordinates(), Need);
  }
  if (!Why.empty())
    return {{}, {}, {}, {}, Why};
  // The A operands the producer copies too: where it can compute their
  // boxes' corners, which a load that cannot be copied leaves out.
  const UserMap Users = users(F.body());
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Load || O.isVolatileAccess() ||
        !Walked.count(O.parentBlock()) ||
        !onlyOperandA(O.result(), Users, Plans, WS.Loops))
      return;
    auto Box = operandBox(O, F, LM, Specs);
    if (!Box)
      return;
    Loop = &O;
    InLoop.clear();
    const llvm::DenseSet<const Op *> Before = Needed;
    llvm::for_each(Box->coordinates(), Need);
    if (Why.empty())
      WS.OperandLoads.insert({&O, *Box});
    else
      Needed = Before;
    Why.clear();
  });
  walk(F.body(), [&](const Op &O) {
    if (Needed.count(&O))
      WS.ProducerSlice.push_back(&O);
  });
  return WS;
}

} // namespace tilecc::analysis
