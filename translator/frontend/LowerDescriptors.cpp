//===- LowerDescriptors.cpp - Tensor descriptors and block pointers -------===//
//
// tile::tensor_descriptor and tile::block_ptr are aggregates of scalars (a
// base pointer, the tensor's shape and strides, a block pointer's offsets)
// that the lowering holds like a tuple's values. Their accesses become the
// pointer tiles and masks a kernel would write by hand:
//   ptrs = base + (o0 + arange)[:, None] * s0 + (o1 + arange)[None, :]
//   mask = (0 <= o0 + arange < b0)[:, None] & (0 <= o1 + arange < b1)[None, :]
// the form analysis/TensorMaps recognizes, so that on sm_90 a 2-D box is a
// TMA copy where the launch's alignment allows, and a vectorized, pipelined
// access elsewhere.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"

namespace tilecc::frontend::lowering {

namespace {

/// E without the temporaries and conversions around a braced list
/// (`std::array<int, 2>{i, j}` too).
const Expr *bracedList(const Expr *E) {
  E = skipTemporaries(E);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    E = skipTemporaries(F->getSubExpr());
  return E;
}

/// The written elements of a braced list, nested lists (brace elision of
/// std::array's inner array) flattened; false where an element was left to
/// value-initialization.
bool listElements(const InitListExpr *IL,
                  llvm::SmallVectorImpl<const Expr *> &Out) {
  for (const Expr *Init : IL->inits()) {
    if (isa<ImplicitValueInitExpr>(Init))
      return false;
    if (const auto *Inner = dyn_cast<InitListExpr>(Init->IgnoreImplicit())) {
      if (!listElements(Inner, Out))
        return false;
      continue;
    }
    Out.push_back(Init);
  }
  return true;
}

/// The dimensions a boundary_check_t<Dims...> type names, as bits.
std::optional<unsigned> checkedDimensions(QualType QT, unsigned Rank) {
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      QT.getNonReferenceType()->getAsCXXRecordDecl());
  if (!TS || !isInTileNamespace(TS, "boundary_check_t"))
    return std::nullopt;
  unsigned Bits = 0;
  for (const TemplateArgument &A : TS->getTemplateArgs()[0].pack_elements()) {
    int64_t D = A.getAsIntegral().getExtValue();
    Bits |= 1u << (D < 0 ? D + Rank : D);
  }
  return Bits;
}

/// The shape two tiles of one rank broadcast to.
llvm::SmallVector<int64_t, 5> joinedShape(const Value *A, const Value *B) {
  llvm::SmallVector<int64_t, 5> Out(A->type().Shape.begin(),
                                    A->type().Shape.end());
  for (auto [O, S] : llvm::zip(Out, B->type().Shape))
    O = std::max(O, S);
  return Out;
}

} // namespace

std::optional<Values> KernelLowering::lowerCoordinates(const Expr *E,
                                                       unsigned Rank,
                                                       llvm::StringRef What) {
  const auto *IL = dyn_cast<InitListExpr>(bracedList(E));
  llvm::SmallVector<const Expr *, 5> Elements;
  if (!IL || !listElements(IL, Elements) || Elements.size() != Rank) {
    error(E->getExprLoc(), What.str() + " must be a braced list of " +
                               std::to_string(Rank) + " integers, {" +
                               (Rank == 1 ? "i" : "i, j") +
                               (Rank > 2 ? ", ..." : "") + "}");
    return std::nullopt;
  }
  Values Out;
  for (const Expr *El : Elements) {
    Value *V = lowerExpr(El);
    if (!V)
      return std::nullopt;
    if (!V->type().isScalar() || !isInteger(V->type().Elem.Kind)) {
      error(El->getExprLoc(), What.str() + " are integer scalars");
      return std::nullopt;
    }
    Out.push_back(B.cast(V, ElemType{ScalarKind::I32}));
  }
  return Out;
}

std::optional<Values> KernelLowering::lowerDescriptor(llvm::StringRef Name,
                                                      const CallExpr *CE) {
  const auto *TS = tileAggregate(CE->getType());
  if (!TS)
    return std::nullopt;
  const unsigned Rank = aggregateBlock(TS).size();
  if (Name == "advance") {
    auto P = lowerTuple(CE->getArg(0));
    auto Delta = lowerCoordinates(CE->getArg(1), Rank, "advance's offsets");
    if (!P || !Delta)
      return std::nullopt;
    for (unsigned D = 0; D < Rank; ++D) {
      Value *&Offset = (*P)[1 + 2 * Rank + D];
      Offset = B.create(OpKind::Add, Offset->type(), {Offset, (*Delta)[D]});
    }
    return P;
  }
  Value *Base = lowerExpr(CE->getArg(0));
  if (!Base)
    return std::nullopt;
  if (!Base->type().isScalar() || !Base->type().Elem.isPointer()) {
    error(CE->getArg(0)->getExprLoc(), "the tensor's base is a pointer");
    return std::nullopt;
  }
  Values Out{Base};
  static const char *const Lists[] = {
      "the tensor's shape", "the tensor's strides", "the block's offsets"};
  const unsigned NumLists = Name == "make_block_ptr" ? 3 : 2;
  for (unsigned I = 0; I < NumLists; ++I) {
    auto L = lowerCoordinates(CE->getArg(1 + I), Rank, Lists[I]);
    if (!L)
      return std::nullopt;
    Out.append(L->begin(), L->end());
  }
  if (templateIntArg(CE->getDirectCallee(), 2).value_or(0))
    checkTensorReach(llvm::ArrayRef<Value *>(Out).slice(1, Rank),
                     llvm::ArrayRef<Value *>(Out).slice(1 + Rank, Rank));
  // TMA and the vectorized accesses need the rows contiguous; Triton asks
  // the same of a descriptor.
  if (Name == "make_tensor_descriptor") {
    if (constantInt(Out[2 * Rank]) != 1) {
      error(CE->getArg(2)->getExprLoc(),
            "a tensor descriptor's last stride must be the constant 1");
      return std::nullopt;
    }
  }
  return Out;
}

void KernelLowering::checkTensorReach(llvm::ArrayRef<Value *> Shape,
                                      llvm::ArrayRef<Value *> Strides) {
  const Type I64 = Type::scalar(ScalarKind::I64),
             I1 = Type::scalar(ScalarKind::I1);
  auto Op = [&](OpKind K, Value *A, Value *Bv, const Type &T) {
    return lowerElementwise(K, {A, Bv}, T);
  };
  auto Clamped = [&](OpKind Keep, Value *V) { // V where `V keep 0`, else 0
    Value *Zero = B.intConst(0, ScalarKind::I64);
    return lowerElementwise(OpKind::Select, {Op(Keep, V, Zero, I1), V, Zero},
                            I64);
  };
  Value *Ok = B.boolConst(true);
  Value *Last = B.intConst(0, ScalarKind::I64), *First = Last;
  for (auto [S, St] : llvm::zip(Shape, Strides)) {
    Value *Extent = B.cast(S, I64.Elem);
    Ok = Op(OpKind::LogicalAnd, Ok,
            Op(OpKind::CmpGE, Extent, B.intConst(0, ScalarKind::I64), I1), I1);
    Value *Reach =
        Op(OpKind::Mul,
           Op(OpKind::Sub, Extent, B.intConst(1, ScalarKind::I64), I64),
           B.cast(St, I64.Elem), I64);
    Reach = lowerElementwise(
        OpKind::Select,
        {Op(OpKind::CmpGT, Extent, B.intConst(0, ScalarKind::I64), I1), Reach,
         B.intConst(0, ScalarKind::I64)},
        I64);
    Last = Op(OpKind::Add, Last, Clamped(OpKind::CmpGT, Reach), I64);
    First = Op(OpKind::Add, First, Clamped(OpKind::CmpLT, Reach), I64);
  }
  Ok = Op(OpKind::LogicalAnd, Ok,
          Op(OpKind::CmpLE, Last, B.intConst(INT32_MAX, ScalarKind::I64), I1),
          I1);
  Ok = Op(OpKind::LogicalAnd, Ok,
          Op(OpKind::CmpGE, First, B.intConst(INT32_MIN, ScalarKind::I64), I1),
          I1);
  B.createVoid(OpKind::Assert, {Ok})
      ->setMessage("a tensor descriptor or block pointer addresses its "
                   "elements with 32-bit offsets");
}

KernelLowering::Box KernelLowering::lowerBox(llvm::ArrayRef<Value *> Fields,
                                             llvm::ArrayRef<int64_t> Block,
                                             llvm::ArrayRef<Value *> Offsets,
                                             unsigned Checked) {
  const unsigned Rank = Block.size();
  const ElemType I32{ScalarKind::I32}, I1{ScalarKind::I1};
  Value *Base = Fields[0];
  Box Out;
  Value *Offset = nullptr;
  for (unsigned D = 0; D < Rank; ++D) {
    // The tensor's indices along D, then the same with the other
    // dimensions inserted as 1s.
    const Type Line = Type::tensor(I32, {Block[D]});
    Value *Arange = B.create(OpKind::Arange, Line, {});
    Arange->definingOp()->setArangeStart(0);
    Value *Index = lowerElementwise(OpKind::Add, {Offsets[D], Arange}, Line);
    auto Expanded = [&](Value *V) {
      llvm::SmallVector<int64_t, 5> Shape{Block[D]};
      for (unsigned A = 0; A < Rank; ++A) {
        if (A == D)
          continue;
        Shape.insert(Shape.begin() + A, 1);
        V = B.create(OpKind::ExpandDims, V->type().withShape(Shape), {V});
        V->definingOp()->setAxis(A);
      }
      return V;
    };
    Value *Term = Expanded(Index);
    Value *Stride = Fields[1 + Rank + D];
    if (constantInt(Stride) != 1)
      Term = lowerElementwise(OpKind::Mul, {Term, Stride}, Term->type());
    Offset =
        Offset ? lowerElementwise(OpKind::Add, {Offset, Term},
                                  Type::tensor(I32, joinedShape(Offset, Term)))
               : Term;
    if (!(Checked >> D & 1))
      continue;
    Value *Bound = Fields[1 + D];
    Value *Inside = lowerElementwise(
        OpKind::LogicalAnd,
        {lowerElementwise(OpKind::CmpGE, {Index, B.intConst(0)},
                          Line.withElem(I1)),
         lowerElementwise(OpKind::CmpLT, {Index, Bound}, Line.withElem(I1))},
        Line.withElem(I1));
    Inside = Expanded(Inside);
    Out.Mask =
        Out.Mask
            ? lowerElementwise(OpKind::LogicalAnd, {Out.Mask, Inside},
                               Type::tensor(I1, joinedShape(Out.Mask, Inside)))
            : Inside;
  }
  const Type Ptrs = Type::tensor(Base->type().Elem, Block);
  Out.Ptrs =
      B.create(OpKind::AddPtr, Ptrs,
               {B.broadcastTo(Base, Block), B.broadcastTo(Offset, Block)});
  if (Out.Mask)
    Out.Mask = B.broadcastTo(Out.Mask, Block);
  return Out;
}

Value *KernelLowering::lowerDescriptorAccess(llvm::StringRef Name,
                                             const CallExpr *CE) {
  const SourceLocation L = CE->getExprLoc();
  setLoc(L);
  const FunctionDecl *Callee = CE->getDirectCallee();
  // A descriptor's methods take the descriptor as their object, a block
  // pointer's load and store as their first argument.
  const bool IsMethod = Name.starts_with("descriptor_");
  const Expr *Object =
      IsMethod ? cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument()
               : CE->getArg(0);
  const auto *TS = tileAggregate(Object->getType());
  auto Fields = lowerTuple(Object);
  if (!TS || !Fields)
    return nullptr;
  const llvm::SmallVector<int64_t, 4> Block = aggregateBlock(TS);
  const unsigned Rank = Block.size();
  if (Name == "descriptor_shape" || Name == "descriptor_stride") {
    auto D = constantArg(CE->getArg(0), "the dimension");
    if (!D)
      return nullptr;
    if (*D < 0 || *D >= Rank) {
      error(CE->getArg(0)->getExprLoc(),
            "the descriptor has no dimension " + std::to_string(*D));
      return nullptr;
    }
    return (*Fields)[1 + (Name == "descriptor_stride" ? Rank : 0) + *D];
  }
  Values Offsets;
  unsigned Checked = (1u << Rank) - 1;
  if (IsMethod) {
    auto O = lowerCoordinates(CE->getArg(0), Rank, "the box's offsets");
    if (!O)
      return nullptr;
    Offsets = *O;
  } else {
    Offsets.assign(Fields->begin() + 1 + 2 * Rank, Fields->end());
    const Expr *CheckArg = CE->getArg(Name == "block_load" ? 1 : 2);
    auto Bits = checkedDimensions(CheckArg->getType(), Rank);
    if (!Bits)
      return nullptr;
    Checked = *Bits;
  }
  Box Access = lowerBox(*Fields, Block, Offsets, Checked);
  const Type Ptrs = Access.Ptrs->type();
  const ElemType Pointee{Ptrs.Elem.Pointee};
  const Type Tile = Type::tensor(Pointee, Block);
  llvm::SmallVector<Value *, 3> Ops{Access.Ptrs};

  if (Name == "descriptor_load" || Name == "block_load") {
    if (Access.Mask)
      Ops.push_back(Access.Mask);
    if (Name == "block_load") {
      auto Padding = constantArg(CE->getArg(2), "the padding");
      if (!Padding)
        return nullptr;
      if (*Padding == 1) {
        if (!isFloat(Pointee.Kind)) {
          error(CE->getArg(2)->getExprLoc(),
                "padding::nan pads floating-point tiles only");
          return nullptr;
        }
        if (Access.Mask)
          Ops.push_back(
              operand(B.floatConst(std::numeric_limits<double>::quiet_NaN(),
                                   Pointee.Kind),
                      Pointee, Block));
      }
    }
    Value *R = B.create(OpKind::Load, Tile, Ops);
    if (Name == "block_load")
      setAccessHints(Callee, *R->definingOp());
    return R;
  }

  if (Ptrs.Elem.PointeeConst) {
    error(L, "cannot write through a pointer to const");
    return nullptr;
  }
  Value *V = lowerExpr(CE->getArg(1));
  if (!V)
    return nullptr;
  // (The header checked that it broadcasts to the box.)
  Ops.push_back(operand(V, Pointee, Block));
  if (Name == "descriptor_store" || Name == "block_store") {
    if (Access.Mask)
      Ops.push_back(Access.Mask);
    Op *S = B.createVoid(OpKind::Store, Ops);
    if (Name == "block_store")
      setAccessHints(Callee, *S);
    return nullptr;
  }

  // Atomics: relaxed, at GPU scope, as Triton's descriptor atomics.
  static const std::pair<llvm::StringRef, OpKind> Atomics[] = {
      {"descriptor_atomic_add", OpKind::AtomicAdd},
      {"descriptor_atomic_min", OpKind::AtomicMin},
      {"descriptor_atomic_max", OpKind::AtomicMax},
      {"descriptor_atomic_and", OpKind::AtomicAnd},
      {"descriptor_atomic_or", OpKind::AtomicOr},
      {"descriptor_atomic_xor", OpKind::AtomicXor}};
  const auto *It =
      llvm::find_if(Atomics, [&](const auto &A) { return A.first == Name; });
  if (It == std::end(Atomics)) {
    error(L, "tile operation '" + Name.str() +
                 "' is not supported by this version of tilecc");
    return nullptr;
  }
  Ops.push_back(Access.Mask ? Access.Mask
                            : operand(B.boolConst(true),
                                      ElemType{ScalarKind::I1}, Block));
  Value *R = B.create(It->second, Tile, Ops);
  R->definingOp()->setMemory(MemOrder::Relaxed, MemScope::Gpu);
  return nullptr;
}

} // namespace tilecc::frontend::lowering
