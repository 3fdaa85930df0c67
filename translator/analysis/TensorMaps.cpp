//===- TensorMaps.cpp -----------------------------------------------------===//
#include "analysis/TensorMaps.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// A pointer offset term: Index (a 1-D tile) along tile dimension Dim,
/// times Stride (a scalar; null for 1).
struct OffsetTerm {
  unsigned Dim;
  const Value *Index;
  const Value *Stride;
};

/// The scalar V splats, if it is a splat.
const Value *splatted(const Value *V) {
  const Op *D = V->definingOp();
  return D && D->kind() == OpKind::Splat && D->operand(0)->type().isScalar()
             ? D->operand(0)
             : nullptr;
}

/// The rank-2 dimension a 1-D tile expanded at Axis varies along.
unsigned expandedDim(const Op &ExpandDims) {
  return ExpandDims.axis() == 1 ? 0 : 1;
}

/// Decomposes an integer offset tile into terms; false if it is not a sum
/// of expanded 1-D tiles, each times at most one splatted scalar.
bool offsetTerms(const Value *V, llvm::SmallVectorImpl<OffsetTerm> &Out) {
  const Op *D = V->definingOp();
  if (!D)
    return false;
  switch (D->kind()) {
  case OpKind::Broadcast:
    return offsetTerms(D->operand(0), Out);
  case OpKind::Add:
    return offsetTerms(D->operand(0), Out) && offsetTerms(D->operand(1), Out);
  case OpKind::Mul:
    for (unsigned I = 0; I < 2; ++I)
      if (const Value *S = splatted(D->operand(1 - I))) {
        llvm::SmallVector<OffsetTerm, 2> Scaled;
        if (!offsetTerms(D->operand(I), Scaled) ||
            llvm::any_of(Scaled, [](const OffsetTerm &T) { return T.Stride; }))
          return false;
        // A constant 1 (a block pointer's unit stride, carried through its
        // loop) is a unit stride.
        const bool One = constantInt(S) == 1;
        for (OffsetTerm &T : Scaled)
          Out.push_back({T.Dim, T.Index, One ? nullptr : S});
        return true;
      }
    return false;
  case OpKind::ExpandDims:
    if (D->operand(0)->type().rank() != 1 || V->type().rank() != 2)
      return false;
    Out.push_back({expandedDim(*D), D->operand(0), nullptr});
    return true;
  default:
    return false;
  }
}

/// The scalar base pointer of a pointer tile, adding its offset terms.
const Value *pointerBase(const Value *V,
                         llvm::SmallVectorImpl<OffsetTerm> &Terms) {
  const Op *D = V->definingOp();
  if (!D)
    return nullptr;
  switch (D->kind()) {
  case OpKind::Broadcast:
    return pointerBase(D->operand(0), Terms);
  case OpKind::AddPtr: {
    const Value *Base = pointerBase(D->operand(0), Terms);
    return Base && offsetTerms(D->operand(1), Terms) ? Base : nullptr;
  }
  case OpKind::Splat:
    return splatted(V);
  default:
    return nullptr;
  }
}

/// Reads a box start from Index: arange, or a splatted scalar plus arange.
bool boxStart(const Value *Index, TensorMapAxis &A) {
  const Op *D = Index->definingOp();
  if (!D)
    return false;
  if (D->kind() == OpKind::Arange) {
    A.Start = D->arangeStart();
    return true;
  }
  if (D->kind() != OpKind::Add)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    const Op *R = D->operand(I)->definingOp();
    if (const Value *S = splatted(D->operand(1 - I));
        S && R && R->kind() == OpKind::Arange) {
      A.Offset = S;
      A.Start = R->arangeStart();
      return true;
    }
  }
  return false;
}

const Op *constant(const Value *V) {
  const Op *D = V ? V->definingOp() : nullptr;
  return D && D->kind() == OpKind::Const ? D : nullptr;
}

/// Reads `index < bound`, or `index >= 0 && index < bound` (TMA reads zeros
/// below the tensor too): a 1-D index tile and the scalar bound.
bool indexBelowBound(const Value *Test, const Value *&Index,
                     const Value *&Bound) {
  const Op *D = Test->definingOp();
  if (D && (D->kind() == OpKind::And || D->kind() == OpKind::LogicalAnd)) {
    for (unsigned I = 0; I < 2; ++I) {
      const Op *Ge = D->operand(1 - I)->definingOp();
      const Value *Zero = Ge && Ge->kind() == OpKind::CmpGE
                              ? splatted(Ge->operand(1))
                              : nullptr;
      if (Zero && constantInt(Zero) == 0 &&
          indexBelowBound(D->operand(I), Index, Bound) &&
          Index == Ge->operand(0))
        return true;
    }
    return false;
  }
  if (!D || D->kind() != OpKind::CmpLT || !(Bound = splatted(D->operand(1))))
    return false;
  Index = D->operand(0);
  return true;
}

/// Reads the per-dimension bounds of a mask that is a conjunction of
/// expanded `index < bound` tests, one per dimension.
bool maskBounds(const Value *M, const Value *Index[2], const Value *Bound[2]) {
  const Op *D = M->definingOp();
  if (!D)
    return false;
  switch (D->kind()) {
  case OpKind::Broadcast:
    return maskBounds(D->operand(0), Index, Bound);
  case OpKind::LogicalAnd:
  case OpKind::And:
    return maskBounds(D->operand(0), Index, Bound) &&
           maskBounds(D->operand(1), Index, Bound);
  case OpKind::ExpandDims: {
    const Value *I = nullptr, *B = nullptr;
    if (M->type().rank() != 2 || !indexBelowBound(D->operand(0), I, B))
      return false;
    unsigned Dim = expandedDim(*D);
    if (Bound[Dim])
      return false;
    Index[Dim] = I;
    Bound[Dim] = B;
    return true;
  }
  default:
    return false;
  }
}

/// V without the integer widenings around it.
const Value *unwidened(const Value *V) {
  for (const Op *D = V->definingOp(); D && D->kind() == OpKind::Cast;
       D = V->definingOp()) {
    ScalarKind From = D->operand(0)->type().Elem.Kind, To = V->type().Elem.Kind;
    if (!isInteger(From) || !isInteger(To) || From == ScalarKind::I1 ||
        bitWidth(From) > bitWidth(To))
      break;
    V = D->operand(0);
  }
  return V;
}

/// The factors of a scalar product, widenings removed.
void factors(const Value *V, llvm::SmallVectorImpl<const Value *> &Out) {
  V = unwidened(V);
  const Op *D = V->definingOp();
  if (D && D->kind() == OpKind::Mul && V->type().isScalar()) {
    factors(D->operand(0), Out);
    factors(D->operand(1), Out);
    return;
  }
  Out.push_back(V);
}

/// Reads Base = param + batch * (Bound * Stride) of A's outer axis into
/// A.Base and A.Batch; an outer axis without a mask ends with its box
/// (OuterEnd: a head's D rows of V transposed), a constant factor.
bool batchOf(TensorMapAccess &A, int64_t OuterEnd) {
  const Op *D = A.Base->definingOp();
  const TensorMapAxis &Outer = A.Axes[A.outerDim()];
  if (!D || D->kind() != OpKind::AddPtr || !Outer.Stride ||
      (!Outer.Bound && Outer.Offset))
    return false;
  llvm::SmallVector<const Value *, 4> Factors;
  factors(D->operand(1), Factors);
  auto Take = [&](auto Matches) {
    auto *It = llvm::find_if(Factors, Matches);
    if (It == Factors.end())
      return false;
    Factors.erase(It);
    return true;
  };
  auto IsEnd = [&](const Value *F) {
    return constant(F) && constant(F)->intValue() == OuterEnd;
  };
  auto Same = [&](const Value *Known) {
    return
        [&, Known](const Value *F) { return sameScalar(unwidened(Known), F); };
  };
  if (!(Outer.Bound ? Take(Same(Outer.Bound)) : Take(IsEnd)) ||
      !Take(Same(Outer.Stride)))
    return false;
  // TMA coordinates are 32-bit signed integers.
  if (Factors.size() != 1 || Factors[0]->type().Elem.Kind != ScalarKind::I32)
    return false;
  A.Base = D->operand(0);
  A.Batch = Factors[0];
  return true;
}

} // namespace

llvm::SmallVector<const Value *, 3> TensorMapAccess::coordinates() const {
  llvm::SmallVector<const Value *, 3> Out;
  for (const TensorMapAxis &Axis : Axes)
    if (Axis.Offset)
      Out.push_back(Axis.Offset);
  if (Batch)
    Out.push_back(Batch);
  return Out;
}

std::optional<unsigned> paramIndex(const Function &F, const Value *V) {
  for (unsigned I = 0; I < F.Params.size(); ++I)
    if (F.Params[I].Arg == V)
      return I;
  return std::nullopt;
}

std::optional<TensorMapAccess> matchTensorMap(const Op &Load) {
  const Value *Ptrs = Load.operand(0);
  if (Ptrs->type().rank() != 2 || Load.isVolatileAccess())
    return std::nullopt;
  TensorMapAccess A;
  llvm::SmallVector<OffsetTerm, 2> Terms;
  A.Base = pointerBase(Ptrs, Terms);
  const Value *Index[2] = {nullptr, nullptr};
  const Value *Bound[2] = {nullptr, nullptr};
  if (!A.Base || Terms.size() != 2 || Terms[0].Dim == Terms[1].Dim ||
      (Load.mask() && !maskBounds(Load.mask(), Index, Bound)))
    return std::nullopt;
  unsigned Unit = 0;
  for (const OffsetTerm &T : Terms) {
    TensorMapAxis &Axis = A.Axes[T.Dim];
    if (!boxStart(T.Index, Axis))
      return std::nullopt;
    // An axis without a mask must have a box fixed at translation time.
    if (Index[T.Dim] ? Index[T.Dim] != T.Index : Axis.Offset != nullptr)
      return std::nullopt;
    Axis.Stride = T.Stride;
    Axis.Bound = Bound[T.Dim];
    if (!T.Stride) {
      A.InnerDim = T.Dim;
      ++Unit;
    }
  }
  // With two unit strides neither is a row stride; with none, the inner
  // stride may still be a parameter the unit specialization makes 1.
  if (Unit == 0)
    A.InnerDim = constant(A.Axes[0].Stride) ? 1 : 0;
  if (Unit == 2)
    return std::nullopt;
  const TensorMapAxis &Outer = A.Axes[A.outerDim()];
  if (A.Base->definingOp() &&
      !batchOf(A, Outer.Start + Ptrs->type().Shape[A.outerDim()]))
    return std::nullopt;
  return A;
}

bool storableByTma(const Op &O, const UserMap &Users) {
  if (O.kind() == OpKind::Store)
    return !O.isVolatileAccess(); // written where it stands
  if (O.kind() != OpKind::AtomicAdd || O.memOrder() != MemOrder::Relaxed ||
      O.memScope() == MemScope::Sys || !Users.lookup(O.result()).empty())
    return false;
  ScalarKind K = O.operand(1)->type().Elem.Kind;
  return K == ScalarKind::F32 || K == ScalarKind::I32 || K == ScalarKind::U32;
}

bool tensorMapUsable(const TensorMapAccess &A, const Function &F,
                     llvm::ArrayRef<ParamSpec> Specs) {
  auto Spec = [&](const Value *V) {
    auto I = paramIndex(F, V);
    return I ? std::optional<ParamSpec>(Specs[*I]) : std::nullopt;
  };
  unsigned Bytes = A.Base->type().Elem.pointeeBytes();
  const TensorMapAxis &Inner = A.Axes[A.InnerDim];
  const TensorMapAxis &Outer = A.Axes[A.outerDim()];
  bool InnerUnit =
      !Inner.Stride ||
      (constant(Inner.Stride) && constant(Inner.Stride)->intValue() == 1) ||
      Spec(Inner.Stride) == ParamSpec::EqualsOne;
  bool OuterAligned =
      Outer.Stride &&
      ((constant(Outer.Stride) &&
        constant(Outer.Stride)->intValue() * Bytes % 16 == 0 &&
        constant(Outer.Stride)->intValue() > 0) ||
       divisorOf(Spec(Outer.Stride).value_or(ParamSpec::None)) * Bytes % 16 ==
           0);
  // A bound the mask leaves out is the box's end.
  auto BoundOk = [&](const Value *B) {
    return !B || Spec(B) || (constant(B) && constant(B)->intValue() > 0);
  };
  return Spec(A.Base) == ParamSpec::Aligned16 && InnerUnit && OuterAligned &&
         BoundOk(Inner.Bound) && BoundOk(Outer.Bound);
}

llvm::DenseSet<const Op *> boxStartSlice(const PipelinedLoop &P,
                                         const TensorMapOps &Maps) {
  llvm::DenseSet<const Op *> Needed;
  std::function<void(const Value *)> Need = [&](const Value *V) {
    const Op *D = V ? V->definingOp() : nullptr;
    if (D && llvm::is_contained(P.Slice, D) && Needed.insert(D).second)
      llvm::for_each(D->operands(), Need);
  };
  for (const Op *L : P.Loads)
    llvm::for_each(Maps.find(L)->second.coordinates(), Need);
  return Needed;
}

std::optional<FlattenedPipeline> flattenPipeline(const Op &Loop,
                                                 const PipelinedLoop &P,
                                                 const TensorMapOps &Maps) {
  const Block *Around = Loop.parentBlock();
  const Op *Outer = Around ? Around->parentOp() : nullptr;
  if (!Outer || Outer->kind() != OpKind::For)
    return std::nullopt;
  // Whether V is defined in the outer loop's body, at any depth.
  auto Inside = [&](const Value *V) { return definedInside(V, *Outer); };
  // Constants are the same wherever they are made.
  if (llvm::any_of(Loop.operands().take_front(3),
                   [&](const Value *V) { return Inside(V) && !constant(V); }))
    return std::nullopt;
  llvm::DenseSet<const Op *> InnerSlice = boxStartSlice(P, Maps);
  llvm::DenseSet<const Op *> Needed;
  bool Recomputable = true;
  std::function<void(const Value *)> Need = [&](const Value *V) {
    if (!Recomputable || !V || !Inside(V) || V == Around->argument(0) ||
        V == Loop.region(0)->argument(0))
      return;
    const Op *D = V->definingOp();
    if (D && InnerSlice.count(D)) {
      llvm::for_each(D->operands(), Need);
      return;
    }
    if (!D || D->parentBlock() != Around || !isPure(*D) ||
        !V->type().isScalar()) {
      Recomputable = false;
      return;
    }
    if (Needed.insert(D).second)
      llvm::for_each(D->operands(), Need);
  };
  for (const Op *L : P.Loads)
    llvm::for_each(Maps.find(L)->second.coordinates(), Need);
  if (!Recomputable)
    return std::nullopt;
  FlattenedPipeline F{Outer, {}, {}};
  for (const auto &O : Around->ops())
    if (Needed.count(O.get()))
      F.OuterSlice.push_back(O.get());
  auto Carry = [&](const Value *V) {
    if (V && V->definingOp() && Needed.count(V->definingOp()) &&
        !llvm::is_contained(F.Carried, V))
      F.Carried.push_back(V);
  };
  for (const Op *L : P.Loads)
    llvm::for_each(Maps.find(L)->second.coordinates(), Carry);
  for (const Op *O : P.Slice)
    if (InnerSlice.count(O))
      llvm::for_each(O->operands(), Carry);
  return F;
}

} // namespace tilecc::analysis
