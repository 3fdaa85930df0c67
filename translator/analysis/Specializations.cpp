//===- Specializations.cpp ------------------------------------------------===//
#include "analysis/Specializations.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cassert>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

bool isIntegerParam(const Param &P) {
  const ElemType &E = P.Arg->type().Elem;
  return !E.isPointer() && isInteger(E.Kind) && E.Kind != ScalarKind::I1;
}

/// The value V was made from by splat, broadcast, expand_dims or casts.
const Value *origin(const Value *V) {
  while (const Op *D = V->definingOp()) {
    OpKind K = D->kind();
    if (K != OpKind::Splat && K != OpKind::Broadcast &&
        K != OpKind::ExpandDims && K != OpKind::Cast)
      break;
    V = D->operand(0);
  }
  return V;
}

/// Whether index I, multiplied by a stride, ends up along a tile's last
/// (fastest) dimension: a scalar does not (a row or program offset); a tile
/// does unless it is 1 wide there or its product is expanded with a new
/// last dimension.
bool alongLastDim(const Value *I, const Op &Mul) {
  const Type &T = I->type();
  if (T.isScalar())
    return false;
  if (T.Shape.back() == 1)
    return false;
  bool Expanded = false;
  walk(*Mul.parentBlock(), [&](const Op &U) {
    if (U.kind() == OpKind::ExpandDims && U.operand(0) == Mul.result() &&
        U.axis() == int64_t(T.rank()))
      Expanded = true;
  });
  return !Expanded;
}

/// Integer parameters that are only ever inner strides: factors of an
/// index along a tile's last dimension, which are often 1 and then make
/// offsets contiguous. Parameters also used as row strides (factors of a
/// scalar, or of an index along another dimension) are left out:
/// a row stride of 1 is a degenerate case not worth a variant.
llvm::DenseSet<const Value *> strideLike(const Function &F) {
  llvm::DenseSet<const Value *> Inner, Outer;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Mul)
      return;
    for (unsigned I = 0; I < 2; ++I) {
      const Value *P = origin(O.operand(I));
      const Op *Factor = origin(O.operand(1 - I))->definingOp();
      // A constant times a stride is a step along that dimension (`BK *
      // stride_ak`), no sign of another role.
      if (P->definingOp() || (Factor && Factor->kind() == OpKind::Const))
        continue;
      (alongLastDim(O.operand(1 - I), O) ? Inner : Outer).insert(P);
    }
  });
  for (const Value *P : Outer)
    Inner.erase(P);
  return Inner;
}

/// Whether values computed from Arg reach an access's pointers or a mask
/// (the only places where an integer's divisibility changes the code: the
/// vector width and the accesses' alignment). A value a loop or an `if`
/// carries, or that a region yields, counts as computed from Arg once any
/// operand of that op is, so the answer errs toward reaching.
bool reachesAccess(const Value *Arg, const UserMap &Users) {
  llvm::SmallVector<const Value *, 16> Work{Arg};
  llvm::DenseSet<const Value *> Seen{Arg};
  auto Add = [&](const Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  auto AddOp = [&](const Op &O) {
    for (const auto &R : O.results())
      Add(R.get());
    for (const auto &Region : O.regions())
      for (const auto &A : Region->arguments())
        Add(A.get());
  };
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Op *U : Users.lookup(V)) {
      if (categoryOf(U->kind()) == OpCategory::Memory &&
          (U->operand(0) == V || V->type().Elem.Kind == ScalarKind::I1))
        return true;
      AddOp(*U);
      // A region's terminator hands its operands to the op that holds it.
      if (U == U->parentBlock()->terminator())
        if (const Op *Parent = U->parentBlock()->parentOp())
          AddOp(*Parent);
    }
  }
  return false;
}

} // namespace

std::vector<Specialization>
specializations(llvm::ArrayRef<const Function *> Instances) {
  // One launch wrapper checks the arguments for every configuration. A
  // pointer is specialized when any configuration reads it: aligned
  // allocations are the rule, and a configuration that leaves it unread
  // (an output only some configurations write) must not cost the others
  // their vector accesses. An integer is specialized only when every
  // configuration reads it: divisibility depends on the problem, and a
  // configuration should not lose its fast variants over a size it never
  // reads; and only where it reaches an access's pointers or masks (a
  // target's ignore_index, a count compared with, tell the accesses
  // nothing, and a value such as -100 would cost every access its vectors).
  const unsigned NumParams = Instances.front()->Params.size();
  llvm::SmallVector<unsigned> Readers(NumParams), StrideReaders(NumParams),
      AddressReaders(NumParams);
  for (const Function *F : Instances) {
    assert(F->Params.size() == NumParams && "configurations of one kernel");
    llvm::DenseSet<const Value *> Strides = strideLike(*F);
    UserMap Users = users(F->body());
    for (unsigned I = 0; I < NumParams; ++I) {
      const Value *Arg = F->Params[I].Arg;
      if (Users.lookup(Arg).empty())
        continue;
      ++Readers[I];
      StrideReaders[I] += Strides.count(Arg);
      AddressReaders[I] += reachesAccess(Arg, Users);
    }
  }
  std::vector<ParamSpec> Unit, Aligned;
  bool AnyAligned = false, AnyUnit = false;
  for (unsigned I = 0; I < NumParams; ++I) {
    const Param &P = Instances.front()->Params[I];
    // A parameter no body reads (one a selection or grid rule reads)
    // tells the variants nothing.
    bool Pointer = Readers[I] > 0 && P.Arg->type().Elem.isPointer();
    bool Integer = Readers[I] == Instances.size() && isIntegerParam(P) &&
                   AddressReaders[I] > 0;
    ParamSpec A = Pointer || Integer ? ParamSpec::Aligned16 : ParamSpec::None;
    Aligned.push_back(A);
    AnyAligned |= A != ParamSpec::None;
    bool Stride = Integer && StrideReaders[I] == Instances.size();
    Unit.push_back(Stride ? ParamSpec::EqualsOne : A);
    AnyUnit |= Stride;
  }
  std::vector<Specialization> Out;
  if (AnyUnit)
    Out.push_back({"unit",
                   "pointers 16-byte aligned, strides == 1, other integers "
                   "divisible by 16",
                   Unit, Assumption::UnitStride});
  if (AnyAligned)
    Out.push_back({"aligned16",
                   "pointers 16-byte aligned, integers divisible by 16",
                   Aligned, Assumption::Aligned16});
  Out.push_back({"generic", "none (any arguments)",
                 std::vector<ParamSpec>(NumParams, ParamSpec::None),
                 Assumption::None});
  return Out;
}

} // namespace tilecc::analysis
