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
  // reads.
  const unsigned NumParams = Instances.front()->Params.size();
  llvm::SmallVector<unsigned> Readers(NumParams), StrideReaders(NumParams);
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
    }
  }
  std::vector<ParamSpec> Unit, Aligned;
  bool AnyAligned = false, AnyUnit = false;
  for (unsigned I = 0; I < NumParams; ++I) {
    const Param &P = Instances.front()->Params[I];
    // A parameter no body reads (one a selection or grid rule reads)
    // tells the variants nothing.
    bool Pointer = Readers[I] > 0 && P.Arg->type().Elem.isPointer();
    bool Integer = Readers[I] == Instances.size() && isIntegerParam(P);
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
