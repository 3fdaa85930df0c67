//===- RegisterPrefetch.cpp -----------------------------------------------===//
#include "transforms/RegisterPrefetch.h"
#include "analysis/LoopAdvances.h"
#include "analysis/Pipelining.h"
#include "analysis/PointerRoots.h"
#include "ir/Builder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include <algorithm>

using namespace tilecc::ir;

namespace tilecc::transforms {

namespace {

using ValueMap = llvm::DenseMap<const Value *, Value *>;

/// V as M maps it, or V itself.
Value *mapped(const ValueMap &M, Value *V) {
  Value *To = M.lookup(V);
  return To ? To : V;
}

/// Which of a loop's tile loads to prefetch.
struct Selection {
  /// Only those that feed dots; else any, while they fit in MaxRegisters a
  /// thread of a program of Threads.
  bool DotOperands;
  unsigned MaxRegisters = 0, Threads = 0;
};

class Prefetcher {
public:
  Prefetcher(Function &F, Op &Loop, Selection Select)
      : F(F), Loop(Loop), Body(*Loop.region(0)), Select(Select),
        Users(users(Body)), Roots(F), Steps(Body, [](const Op &O) {
          return isPure(O) && O.regions().empty();
        }) {}

  /// The source lines of the loads it moved, in program order.
  llvm::SmallVector<unsigned, 4> run() {
    llvm::SmallVector<Op *, 2> Loads;
    llvm::DenseSet<const Op *> Slice;
    unsigned Registers = 0;
    for (const auto &O : Body.ops()) {
      if (O->kind() != OpKind::Load || O->result()->type().isScalar() ||
          O->isVolatileAccess() ||
          // Read an iteration early, it would miss the loop's write.
          Roots.writtenIn(Body, O->operand(0)))
        continue;
      const unsigned Held =
          Select.DotOperands
              ? 0
              : analysis::tileRegisters(*O->result(), Select.Threads);
      if (Select.DotOperands ? !onlyFeedsDots(*O)
                             : Registers + Held > Select.MaxRegisters)
        continue;
      llvm::DenseSet<const Op *> With = Slice;
      auto AdvancesBefore = Advances;
      if (llvm::all_of(O->operands(),
                       [&](const Value *V) { return addSlice(V, With); })) {
        Loads.push_back(O.get());
        Slice = std::move(With);
        Registers += Held;
      } else {
        Advances = std::move(AdvancesBefore);
      }
    }
    if (Loads.empty())
      return {};
    llvm::SmallVector<Value *, 2> First = prologue(Loads, Slice);
    llvm::SmallVector<Value *, 2> Next = nextIteration(Loads, Slice);
    Op &Yield = *Body.terminator();
    for (auto [L, Init, Ahead] : llvm::zip_equal(Loads, First, Next)) {
      Value *Carried = Body.addArgument(F.newValue(L->result()->type()));
      Carried->setName(L->result()->name());
      Loop.addOperand(Init);
      Loop.addResult(F.newValue(L->result()->type()))
          ->setName(L->result()->name());
      Yield.addOperand(Ahead);
      replaceUses(Body, L->result(), Carried);
    }
    llvm::SmallVector<unsigned, 4> Lines;
    for (const Op *L : Loads)
      Lines.push_back(L->loc().Line);
    llvm::erase_if(Body.ops(), [&](const std::unique_ptr<Op> &O) {
      return llvm::is_contained(Loads, O.get());
    });
    return Lines;
  }

private:
  /// Whether every use of L's tile is a dot's a or b operand, maybe through
  /// a trans used only there.
  bool onlyFeedsDots(const Op &L) const {
    auto IsOperand = [](const Op *U, const Value *V) {
      return U->kind() == OpKind::Dot && U->operand(2) != V;
    };
    auto Uses = Users.lookup(L.result());
    return !Uses.empty() && llvm::all_of(Uses, [&](const Op *U) {
      if (U->kind() != OpKind::Trans)
        return IsOperand(U, L.result());
      const Op *Only = onlyUser(Users, U->result());
      return Only && IsOperand(Only, U->result());
    });
  }

  /// Adds the body ops V is computed by; false if the next iteration's V
  /// cannot be computed at the top of this one.
  bool addSlice(const Value *V, llvm::DenseSet<const Op *> &InSlice) {
    if (const Block *Owner = V->ownerBlock()) {
      if (Owner != &Body || V == Body.argument(0)) // from outside, or the IV
        return true;
      Value *Arg = Body.argument(Body.argumentNumber(V));
      if (Advances.count(Arg))
        return true;
      Value *Step = Steps.stepOf(Arg);
      if (!Step)
        return false;
      Advances[Arg] = Step;
      return true;
    }
    const Op *D = V->definingOp();
    if (D->parentBlock() != &Body || InSlice.count(D))
      return true;
    if (!isPure(*D) || !D->regions().empty())
      return false;
    InSlice.insert(D);
    return llvm::all_of(D->operands(),
                        [&](const Value *O) { return addSlice(O, InSlice); });
  }

  /// The body ops of Set in program order, listed before clones are
  /// appended to the body (which moves its ops).
  llvm::SmallVector<const Op *, 16>
  inProgramOrder(const llvm::DenseSet<const Op *> &Set) const {
    llvm::SmallVector<const Op *, 16> Ordered;
    for (const auto &O : Body.ops())
      if (Set.count(O.get()))
        Ordered.push_back(O.get());
    return Ordered;
  }

  /// A clone of D's computation with its operands mapped by M; maps D's
  /// results to the clone's.
  void clone(Builder &B, const Op &D, ValueMap &M) {
    llvm::SmallVector<Value *, 3> Operands;
    for (Value *V : D.operands())
      Operands.push_back(mapped(M, V));
    B.setLoc(D.loc());
    Op *C = B.createVoid(D.kind(), Operands);
    C->copyAttributes(D);
    for (const auto &R : D.results()) {
      Value *CR = C->addResult(F.newValue(R->type()));
      CR->setName(R->name());
      M[R.get()] = CR;
    }
  }

  /// The loads of one iteration, where Runs (an i1 scalar) says whether it
  /// runs, with M mapping the induction variable and the advanced tiles to
  /// that iteration's: the slice cloned in program order, each load masked
  /// by Runs as well.
  llvm::SmallVector<Value *, 2> loadsOf(Builder &B, llvm::ArrayRef<Op *> Loads,
                                        const llvm::DenseSet<const Op *> &Slice,
                                        Value *Runs, ValueMap &M) {
    for (const Op *O : inProgramOrder(Slice))
      clone(B, *O, M);
    llvm::SmallVector<Value *, 2> Tiles;
    for (Op *L : Loads) {
      B.setLoc(L->loc());
      const Type &T = L->result()->type();
      Value *Mask =
          B.create(OpKind::Splat, T.withElem(ElemType{ScalarKind::I1}), {Runs});
      if (Value *Own = L->mask())
        Mask =
            B.create(OpKind::LogicalAnd, Mask->type(), {mapped(M, Own), Mask});
      llvm::SmallVector<Value *, 3> Operands = {mapped(M, L->operand(0)), Mask};
      if (Value *Other = L->other())
        Operands.push_back(mapped(M, Other));
      Op *C = B.createVoid(OpKind::Load, Operands);
      C->copyAttributes(*L);
      Value *R = C->addResult(F.newValue(T));
      R->setName(L->result()->name());
      Tiles.push_back(R);
    }
    return Tiles;
  }

  /// The first iteration's loads, before the loop: the induction variable
  /// is the loop's start and the advanced tiles their initial values.
  llvm::SmallVector<Value *, 2>
  prologue(llvm::ArrayRef<Op *> Loads,
           const llvm::DenseSet<const Op *> &Slice) {
    Block Before(nullptr);
    Builder B(F, Before);
    B.setLoc(Loop.loc());
    ValueMap M;
    M[Body.argument(0)] = Loop.operand(0);
    for (const auto &[Arg, Step] : Advances)
      M[Arg] = Loop.operand(2 + Body.argumentNumber(Arg));
    Value *Runs = B.create(OpKind::CmpLT, Type::scalar(ScalarKind::I1),
                           {Loop.operand(0), Loop.operand(1)});
    llvm::SmallVector<Value *, 2> Tiles = loadsOf(B, Loads, Slice, Runs, M);
    Block &Outer = *Loop.parentBlock();
    auto At = llvm::find_if(Outer.ops(), [&](const std::unique_ptr<Op> &O) {
      return O.get() == &Loop;
    });
    size_t Pos = At - Outer.ops().begin();
    for (auto &O : Before.ops())
      Outer.insert(Pos++, std::move(O));
    return Tiles;
  }

  /// The next iteration's loads, at the top of the body: the induction
  /// variable advanced by the step (compared with the end in 64 bits, so
  /// that the last iteration's sum cannot wrap) and the advanced tiles by
  /// theirs.
  llvm::SmallVector<Value *, 2>
  nextIteration(llvm::ArrayRef<Op *> Loads,
                const llvm::DenseSet<const Op *> &Slice) {
    const size_t OpsBefore = Body.ops().size();
    const Op &Yield = *Body.terminator();
    Builder B(F, Body);
    B.setLoc(Loop.loc());
    Value *IV = Body.argument(0);
    ValueMap M;
    Value *NextIV = B.create(OpKind::Add, IV->type(), {IV, Loop.operand(2)});
    NextIV->setName(IV->name());
    M[IV] = NextIV;
    const ElemType Wide{ScalarKind::I64};
    Value *Runs =
        B.create(OpKind::CmpLT, Type::scalar(ScalarKind::I1),
                 {B.create(OpKind::Add, Type::scalar(Wide),
                           {B.cast(IV, Wide), B.cast(Loop.operand(2), Wide)}),
                  B.cast(Loop.operand(1), Wide)});
    for (const Op *O : inProgramOrder(Steps.stepOps()))
      clone(B, *O, M);
    // The advanced tiles are what the iteration yields for the next: the
    // body's own advance is then left unused.
    for (const auto &[Arg, Step] : Advances) {
      Value *Yielded = Yield.operand(Body.argumentNumber(Arg) - 1);
      B.setLoc(Yielded->definingOp()->loc());
      Value *Ahead =
          B.create(OpKind::AddPtr, Arg->type(), {Arg, mapped(M, Step)});
      Ahead->setName(Arg->name());
      replaceUses(Body, Yielded, Ahead);
      M[Arg] = Ahead;
    }
    llvm::SmallVector<Value *, 2> Tiles = loadsOf(B, Loads, Slice, Runs, M);
    // The ops just appended after the yield go first.
    auto &Ops = Body.ops();
    std::rotate(Ops.begin(), Ops.begin() + OpsBefore, Ops.end());
    return Tiles;
  }

  Function &F;
  Op &Loop;
  Block &Body;
  const Selection Select;
  UserMap Users;
  analysis::PointerRoots Roots;
  analysis::LoopAdvances Steps;
  /// Carried pointer tiles the slices read, with their steps.
  llvm::MapVector<Value *, Value *> Advances;
};

/// Whether prefetching may move loads ahead in Loop: a `for` with a positive
/// constant step.
bool stepsForward(const Op &Loop) {
  if (Loop.kind() != OpKind::For)
    return false;
  auto Step = constantInt(Loop.operand(2));
  return Step && *Step > 0;
}

/// Whether anything in Loop, at any depth, is a dot or orders memory.
bool dotsOrOrders(const Op &Loop) {
  bool Found = false;
  walk(*Loop.region(0), [&](const Op &O) {
    Found |= categoryOf(O.kind()) == OpCategory::Matmul ||
             isAtomicRMW(O.kind()) || O.kind() == OpKind::AtomicCas ||
             opInfo(O.kind()).Effect == OpEffect::Sync || O.isVolatileAccess();
  });
  return Found;
}

/// Prefetches the loads Select picks in F's loops that step forward and
/// that Takes takes; returns the moved loads' source lines.
llvm::SmallVector<unsigned, 4>
prefetchLoops(Function &F, llvm::function_ref<bool(const Op &)> Takes,
              Selection Select) {
  llvm::SmallVector<Op *, 4> Loops;
  walk(F.body(), [&](Op &O) {
    if (stepsForward(O) && Takes(O))
      Loops.push_back(&O);
  });
  llvm::SmallVector<unsigned, 4> Lines;
  for (Op *L : Loops)
    Lines.append(Prefetcher(F, *L, Select).run());
  return Lines;
}

} // namespace

unsigned prefetchIntoRegisters(Function &F, unsigned NumStages) {
  return prefetchLoops(F,
                       [&](const Op &Loop) {
                         return (Loop.numStagesHint() ? Loop.numStagesHint()
                                                      : NumStages) >= 2;
                       },
                       {.DotOperands = true})
      .size();
}

llvm::SmallVector<unsigned, 4> prefetchStreamingLoads(Function &F,
                                                      unsigned Threads) {
  return prefetchLoops(F,
                       [](const Op &Loop) {
                         return Loop.numStagesHint() == 0 &&
                                !dotsOrOrders(Loop);
                       },
                       {.DotOperands = false,
                        .MaxRegisters = MaxStreamingPrefetchRegisters,
                        .Threads = Threads});
}

} // namespace tilecc::transforms
