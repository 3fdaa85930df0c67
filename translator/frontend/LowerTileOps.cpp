//===- LowerTileOps.cpp - tile:: operations to TileIR ---------------------===//
//
// One op per tile:: operation, its operands converted to the types the
// header declared; loads, stores, dots, atomics, reductions.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"
#include "ir/TypeRules.h"
#include "llvm/ADT/StringExtras.h"

namespace tilecc::frontend::lowering {

/// Broadcasts V (scalar or tile) to Shape after casting its elements to E.
Value *KernelLowering::operand(Value *V, ElemType E,
                               llvm::ArrayRef<int64_t> Shape) {
  return B.broadcastTo(B.cast(V, E), Shape);
}

Value *KernelLowering::lowerTileOp(llvm::StringRef Name, const CallExpr *CE) {
  SourceLocation L = CE->getExprLoc();
  const auto TO = tileOperation(Name);
  if (!TO) {
    error(L, "tile operation '" + Name.str() +
                 "' is not supported by this version of tilecc");
    return nullptr;
  }
  if (TO->combines()) {
    auto R = lowerCombineOp(*TO, CE);
    return R ? R->front() : nullptr;
  }
  if (categoryOf(TO->Kind) == OpCategory::Debug) {
    lowerDebugOp(TO->Kind, CE);
    return nullptr;
  }
  return lowerTileCall(*TO, Name, CE);
}

/// A tile:: operation of one op (or none: a store) on values.
Value *KernelLowering::lowerTileCall(TileOperation TO, llvm::StringRef Name,
                                     const CallExpr *CE) {
  const SourceLocation L = CE->getExprLoc();
  const FunctionDecl *Callee = CE->getDirectCallee();
  llvm::SmallVector<const Expr *, 4> ArgEs(CE->arguments());
  // Compound assignment operators (`acc += x`) are the binary op followed
  // by an assignment to the left operand, whose type the result has.
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  const bool Compound = OC && OC->isAssignmentOp();
  std::optional<Type> RT;
  if (QualType QT = Compound ? ArgEs[0]->getType() : CE->getType();
      !QT->isVoidType() && !(RT = lowerType(QT, L)))
    return nullptr;

  const OpKind K = TO.Kind;
  // Atomics' memory order and scope, and dot's input precision, are
  // compile-time enumerators.
  bool IsAtomic = isAtomicRMW(K) || K == OpKind::AtomicCas;
  if (IsAtomic && ArgEs.size() > 3)
    ArgEs.resize(3);
  // assume's and gather's source locations are emulation's, for their
  // debug checks.
  if (K == OpKind::Assume)
    ArgEs.resize(1);
  if (K == OpKind::Gather)
    ArgEs.resize(2);
  // sum's dtype is the result's element type (the header's).
  if (K == OpKind::ReduceSum)
    ArgEs.resize(1);
  std::optional<int64_t> Precision;
  if (K == OpKind::Dot) {
    Precision = constantArg(ArgEs.back(), "the input precision");
    if (!Precision)
      return nullptr;
    ArgEs.pop_back();
  }
  llvm::SmallVector<Value *, 4> Args;
  // Axes and zeros' shape are compile-time arguments, not values.
  if (TO.Spelled != TileOperation::Zeros && K != OpKind::ProgramId &&
      K != OpKind::NumPrograms)
    for (const Expr *A : ArgEs)
      if (!Args.emplace_back(lowerExpr(A)))
        return nullptr;
  setLoc(L);

  Value *Result = nullptr;
  switch (K) {
  case OpKind::ProgramId:
  case OpKind::NumPrograms:
    Result = lowerGridQuery(K, Name, ArgEs[0]);
    break;
  case OpKind::Arange:
    Result = lowerArange(Callee, *RT);
    break;
  case OpKind::Splat:
    if (TO.Spelled == TileOperation::Zeros)
      Result = B.broadcastTo(B.cast(B.intConst(0), RT->Elem), RT->Shape);
    else
      Result = operand(Args[0], RT->Elem, RT->Shape);
    break;
  case OpKind::ExpandDims:
    Result = lowerExpandDims(Callee, Args[0], *RT);
    break;
  case OpKind::Cast:
    // cast<U, rounding::rtz> is a cast op even of a constant, which
    // Builder::cast would round to nearest.
    if (templateIntArg(Callee, 1).value_or(0) == 1) {
      Result = B.create(OpKind::Cast, *RT, {Args[0]});
      Result->definingOp()->setRoundsTowardZero(true);
    } else {
      Result = B.cast(Args[0], RT->Elem);
    }
    break;
  case OpKind::Bitcast: // the header checked the widths
    Result = B.create(OpKind::Bitcast, *RT, {Args[0]});
    break;
  case OpKind::Philox:
    Result = lowerPhilox(Callee, Args, *RT);
    break;
  case OpKind::MultipleOf:
  case OpKind::MaxContiguous:
    Result = lowerHint(K, Callee, Args[0], L);
    break;
  case OpKind::Cdiv:
    Result = B.create(OpKind::Cdiv, *RT,
                      {B.cast(Args[0], RT->Elem), B.cast(Args[1], RT->Elem)});
    break;
  case OpKind::AddPtr:
    Result = lowerAddPtr(Args, *RT, /*Subtract=*/TO.Spelled ==
                                        TileOperation::SubtractPointer,
                         L);
    break;
  case OpKind::Load:
    Result = lowerLoad(Callee, Args, *RT, L);
    break;
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceXor:
  case OpKind::ArgMax:
  case OpKind::ArgMin:
    Result = lowerReduce(K, Callee, Args[0], *RT, L);
    break;
  case OpKind::Dot:
    Result = lowerDot(Args, *RT, *Precision);
    break;
  case OpKind::Trans:
  case OpKind::Reshape:
  case OpKind::Cat:
    Result = B.create(K, *RT, {Args[0]});
    if (K == OpKind::Cat)
      Result->definingOp()->addOperand(Args[1]);
    break;
  case OpKind::Permute:
    Result = lowerPermute(Callee, Args[0], *RT);
    break;
  case OpKind::Join:
    Result = lowerJoin(Args, *RT, TO.Spelled == TileOperation::Interleave);
    break;
  case OpKind::Sort:
    Result =
        lowerSort(Callee, Args[0], *RT, TO.Spelled == TileOperation::TopK, L);
    break;
  case OpKind::Gather:
    Result = lowerGather(Callee, Args, *RT, L);
    break;
  case OpKind::Exp2Cubic: { // the header checked K and the type
    // None of 8 is exp2 itself.
    const unsigned Eighths = templateIntArg(Callee, 0).value_or(0);
    Result = B.create(Eighths ? K : OpKind::Exp2, *RT, {Args[0]});
    if (Eighths)
      Result->definingOp()->setCubicEighths(Eighths);
    break;
  }
  case OpKind::Flip:
    Result = B.create(K, *RT, {Args[0]});
    Result->definingOp()->setAxis(
        axisOf(templateIntArg(Callee, 0).value_or(-1), RT->rank(), "flip", L)
            .value_or(0)); // the header checked it
    break;
  case OpKind::Histogram:
    if (Args.size() == 2)
      Args[1] =
          operand(Args[1], ElemType{ScalarKind::I1}, Args[0]->type().Shape);
    Result = B.create(K, *RT, Args);
    break;
  case OpKind::Store:
    lowerStore(Callee, Args, L);
    return nullptr;
  case OpKind::Assume:
    lowerAssume(Callee, B.cast(Args[0], ElemType{ScalarKind::I1}));
    return nullptr;
  case OpKind::DebugBarrier:
  case OpKind::GdcWait:
  case OpKind::GdcLaunchDependents:
    B.createVoid(K, {});
    return nullptr;
  default:
    if (IsAtomic) {
      Result = lowerAtomic(K, Args, *RT, CE, L);
      break;
    }
    if (!constantsFit(K, ArgEs, Args, *RT))
      return nullptr;
    Result = lowerElementwise(K, Args, *RT);
    break;
  }
  if (Compound && Result)
    return assign(ArgEs[0], Result);
  return Result;
}

std::optional<KernelLowering::TileOperation>
KernelLowering::tileOperation(llvm::StringRef Name) {
  using T = TileOperation;
  static constexpr struct {
    llvm::StringLiteral Name;
    T Op;
  } Aliases[] = {
      {"subptr", {OpKind::AddPtr, T::SubtractPointer}},
      {"zeros", {OpKind::Splat, T::Zeros}},
      {"full", {OpKind::Splat}},
      {"broadcast_to", {OpKind::Splat}},
      {"associative_scan", {OpKind::Scan}},
      {"cumsum", {OpKind::Scan, T::CumulativeSum}},
      {"cumprod", {OpKind::Scan, T::CumulativeProduct}},
      {"interleave", {OpKind::Join, T::Interleave}},
      {"topk", {OpKind::Sort, T::TopK}},
  };
  for (const auto &A : Aliases)
    if (A.Name == Name)
      return A.Op;
  if (auto K = opKindFromSpelling(Name))
    return T{*K};
  return std::nullopt;
}

Value *KernelLowering::lowerInlineAsm(const CallExpr *CE) {
  const auto *Text =
      dyn_cast<StringLiteral>(CE->getArg(0)->IgnoreParenImpCasts());
  const auto *Constraints =
      dyn_cast<StringLiteral>(CE->getArg(1)->IgnoreParenImpCasts());
  if (!Text || !Constraints) {
    error(CE->getExprLoc(), "inline assembly's text and constraints are "
                            "string literals");
    return nullptr;
  }
  auto RT = lowerType(CE->getType(), CE->getExprLoc());
  if (!RT)
    return nullptr;
  // A power of two up to 16: tile.hpp's static_assert says so at the call.
  const unsigned Pack = templateIntArg(CE->getDirectCallee(), 1).value_or(1);
  if (Pack > 1 && RT->isScalar()) {
    error(CE->getExprLoc(), "pack " + std::to_string(Pack) +
                                " groups a tile's elements; these arguments "
                                "are scalars");
    return nullptr;
  }
  llvm::SmallVector<Value *, 4> Operands;
  for (const Expr *A : llvm::drop_begin(CE->arguments(), 3)) {
    Value *V = lowerExpr(A);
    if (!V)
      return nullptr;
    Operands.push_back(B.broadcastTo(V, RT->Shape));
  }
  if (Operands.size() >= Op::AsmMaxOperands) {
    error(CE->getExprLoc(), "inline assembly takes at most " +
                                std::to_string(Op::AsmMaxOperands - 1) +
                                " arguments");
    return nullptr;
  }
  // One run of the text takes Pack elements of each value: those narrower
  // than 32 bits share registers of up to 32 bits, the first element in the
  // low bits; wider ones take a register each.
  const auto PerRegister = [&](const ElemType &E) {
    return Op::asmElementsPerRegister(E, Pack);
  };
  llvm::SmallVector<const ElemType *, 4> Values = {&RT->Elem};
  unsigned Registers = 0;
  for (Value *V : Operands)
    Values.push_back(&V->type().Elem);
  for (const ElemType *E : Values)
    Registers += Pack / PerRegister(*E);
  // "=r,r,r": the result's registers, then each argument's.
  llvm::SmallVector<llvm::StringRef, 4> Letters;
  Constraints->getString().split(Letters, ',');
  if (Letters.size() != Registers) {
    error(CE->getArg(1)->getExprLoc(),
          "constraints name " + std::to_string(Letters.size()) +
              " registers; a result and " + std::to_string(Operands.size()) +
              " arguments take " + std::to_string(Registers) +
              (Pack > 1 ? " with pack " + std::to_string(Pack) : ""));
    return nullptr;
  }
  const auto Width = [](char L) {
    return L == 'h' ? 2u : L == 'r' || L == 'f' ? 4u : 8u;
  };
  llvm::SmallVector<char, 4> ValueLetters;
  unsigned Next = 0; // the first letter of the value's registers
  for (auto [I, E] : llvm::enumerate(Values)) {
    const bool Output = I == 0;
    const unsigned Count = Pack / PerRegister(*E);
    const Expr *Where = CE->getArg(Output ? 1 : 2 + I);
    char Letter = 0;
    for (llvm::StringRef L : llvm::ArrayRef(Letters).slice(Next, Count)) {
      L = L.trim();
      if ((Output && !L.consume_front("=")) || L.size() != 1 ||
          !llvm::StringRef("rlhfd").contains(L[0])) {
        error(CE->getArg(1)->getExprLoc(),
              "constraints are \"=X\" for the result's registers, then \"X\" "
              "for each argument's, X one of r, l, h, f, d");
        return nullptr;
      }
      if (Letter && L[0] != Letter) {
        error(CE->getArg(1)->getExprLoc(),
              "the registers of one value take one letter, not '" +
                  std::string(1, Letter) + "' and '" + L.str() + "'");
        return nullptr;
      }
      Letter = L[0];
    }
    Next += Count;
    const unsigned Bytes = PerRegister(*E) * storageBytes(E->Kind);
    if (Bytes != Width(Letter) || E->isPointer()) {
      const std::string Held = PerRegister(*E) > 1
                                   ? std::to_string(PerRegister(*E)) + " " +
                                         E->str() + "s (" +
                                         std::to_string(Bytes) + " bytes)"
                                   : "a " + E->str();
      error(Where->getExprLoc(),
            "register '" + std::string(1, Letter) + "' holds " +
                std::to_string(Width(Letter)) + " bytes, not " + Held);
      return nullptr;
    }
    ValueLetters.push_back(Letter);
  }
  // $N names register N: within range, and written as %N for nvcc.
  std::string Body;
  llvm::StringRef S = Text->getString();
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '$' || I + 1 == S.size() || !llvm::isDigit(S[I + 1])) {
      Body += S[I] == '%' ? "%%" : std::string(1, S[I]);
      continue;
    }
    unsigned N = 0;
    while (I + 1 < S.size() && llvm::isDigit(S[I + 1]))
      N = N * 10 + (S[++I] - '0');
    if (N >= Registers) {
      const unsigned Results = Pack / PerRegister(RT->Elem);
      auto Range = [](unsigned First, unsigned Last) {
        return "$" + std::to_string(First) +
               (First == Last ? "" : " to $" + std::to_string(Last));
      };
      error(CE->getArg(0)->getExprLoc(),
            "$" + std::to_string(N) + " names no register: " +
                Range(0, Results - 1) + " the result, " +
                Range(Results, Registers - 1) + " the arguments");
      return nullptr;
    }
    Body += "%" + std::to_string(N);
  }
  setLoc(CE->getExprLoc());
  Value *R = B.create(OpKind::InlineAsm, *RT, Operands);
  Op &Asm = *R->definingOp();
  Asm.setMessage(Body);
  Asm.setAsmPack(Pack);
  for (auto [I, Letter] : llvm::enumerate(ValueLetters))
    Asm.setAsmRegister(I, Letter);
  return R;
}

void KernelLowering::lowerStaticPrint(const CallExpr *CE) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (const Expr *A : CE->arguments()) {
    const Expr *E = A->IgnoreParenImpCasts();
    if (const auto *SL = dyn_cast<StringLiteral>(E)) {
      OS << (Text.empty() ? "" : " ") << SL->getString();
      continue;
    }
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsRValue(R, Ctx) ||
        !(R.Val.isInt() || R.Val.isFloat())) {
      error(A->getExprLoc(), "static_print prints values known when the "
                             "kernel is translated: string literals, "
                             "meta-parameters, constexpr numbers");
      return;
    }
    OS << (Text.empty() ? "" : " ");
    if (R.Val.isInt()) {
      OS << R.Val.getInt();
    } else {
      llvm::SmallString<24> F;
      R.Val.getFloat().toString(F);
      OS << F;
    }
  }
  Diags.Report(userLoc(CE->getExprLoc()),
               Diags.getCustomDiagID(DiagnosticsEngine::Remark, "%0"))
      << Text;
}

/// device_print(prefix, values...) and device_assert<Enabled>(cond, message
/// [, mask]): the text is a string literal; an assert whose Enabled (true
/// where TILE_DEBUG is defined) is false makes no op.
void KernelLowering::lowerDebugOp(OpKind K, const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const llvm::SmallVector<const Expr *, 4> ArgEs(CE->arguments());
  const bool IsPrint = K == OpKind::Print;
  const Expr *TextArg = ArgEs[IsPrint ? 0 : 1]->IgnoreParenImpCasts();
  const auto *Text = dyn_cast<StringLiteral>(TextArg);
  if (!Text || !Text->isOrdinary()) {
    error(TextArg->getExprLoc(),
          std::string(IsPrint ? "device_print's prefix"
                              : "device_assert's message") +
              " must be a string literal");
    return;
  }
  if (!IsPrint && !templateIntArg(Callee, 0).value_or(0))
    return;
  Values Ops;
  // device_print's values; device_assert's condition and, where given, its
  // mask (a source_location follows in emulation).
  auto Operands = IsPrint ? llvm::ArrayRef(ArgEs).drop_front()
                          : llvm::ArrayRef(ArgEs).take_front(1);
  for (const Expr *A : Operands)
    if (!Ops.emplace_back(lowerExpr(A)))
      return;
  if (!IsPrint) {
    Value *Cond = B.cast(Ops[0], ElemType{ScalarKind::I1});
    if (Callee->getNumParams() == 4) {
      Value *Mask = lowerExpr(ArgEs[2]);
      if (!Mask)
        return;
      Values Both = {Cond, B.cast(Mask, ElemType{ScalarKind::I1})};
      const Type &T =
          Both[0]->type().isScalar() ? Both[1]->type() : Both[0]->type();
      Value *Unmasked = lowerElementwise(OpKind::LogicalNot, {Both[1]},
                                         T.withElem(ElemType{ScalarKind::I1}));
      Cond = lowerElementwise(OpKind::LogicalOr, {Both[0], Unmasked},
                              T.withElem(ElemType{ScalarKind::I1}));
    }
    Ops = {Cond};
  }
  setLoc(CE->getExprLoc());
  Op *Debug = B.createVoid(K, Ops);
  Debug->setMessage(Text->getString().str());
  if (IsPrint) // device_print<Format>: tile::print_format::hex is 1
    Debug->setPrintsHex(templateIntArg(Callee, 0).value_or(0) == 1);
}

/// multiple_of<N...>(x) and max_contiguous<N...>(x): x, with what the user
/// states of it (one value for every dimension, or one each), powers of
/// two. Under TILE_DEBUG (the Checked argument) an integer multiple_of is
/// checked: each element must be a multiple of the smallest value.
Value *KernelLowering::lowerHint(OpKind K, const FunctionDecl *Callee, Value *X,
                                 SourceLocation L) {
  const std::string Name = spell(K).str();
  auto Values =
      templateIntPack(Callee, 0).value_or(llvm::SmallVector<int64_t, 4>{});
  const unsigned Dims = std::max<unsigned>(X->type().rank(), 1);
  if (Values.size() != 1 && Values.size() != Dims) {
    error(L, Name + " takes one value, or one per dimension of the tile");
    return nullptr;
  }
  for (int64_t V : Values)
    if (V < 1 || V > (1 << 30) || !llvm::isPowerOf2_64(V)) {
      error(L, Name + " takes powers of two, not " + std::to_string(V));
      return nullptr;
    }
  Value *R = B.create(K, X->type(), {X});
  for (unsigned D = 0; D < Dims; ++D)
    R->definingOp()->setHint(D, Values[Values.size() == 1 ? 0 : D]);
  const int64_t Smallest = *llvm::min_element(Values);
  if (K == OpKind::MultipleOf && templateIntArg(Callee, 2).value_or(0) &&
      isInteger(X->type().Elem.Kind) && Smallest > 1) {
    Value *N = B.cast(B.intConst(Smallest), X->type().Elem);
    Value *Rem = lowerElementwise(OpKind::Rem, {X, N}, X->type());
    Value *Zero = B.cast(B.intConst(0), X->type().Elem);
    Value *Ok = lowerElementwise(OpKind::CmpEQ, {Rem, Zero},
                                 X->type().withElem(ElemType{ScalarKind::I1}));
    B.createVoid(OpKind::Assert, {Ok})
        ->setMessage("multiple_of: a value is not a multiple of " +
                     std::to_string(Smallest));
  }
  return R;
}

/// assume(cond), checked first where the header's Checked is set
/// (TILE_DEBUG).
void KernelLowering::lowerAssume(const FunctionDecl *Callee, Value *Cond) {
  if (templateIntArg(Callee, 0).value_or(0))
    B.createVoid(OpKind::Assert, {Cond})
        ->setMessage("assume: the condition is false");
  B.createVoid(OpKind::Assume, {Cond});
}

/// arange<End>() or arange<Start, End>().
Value *KernelLowering::lowerArange(const FunctionDecl *Callee, const Type &RT) {
  const TemplateArgumentList *TA = Callee->getTemplateSpecializationArgs();
  Value *R = B.create(OpKind::Arange, RT, {});
  R->definingOp()->setArangeStart(
      TA && TA->size() == 2 ? *templateIntArg(Callee, 0) : 0);
  return R;
}

/// expand_dims<Axis>(x), the axis counted from the end when negative.
Value *KernelLowering::lowerExpandDims(const FunctionDecl *Callee, Value *X,
                                       const Type &RT) {
  int64_t A = templateIntArg(Callee, 0).value_or(0);
  if (A < 0)
    A += RT.rank();
  Value *R = B.create(OpKind::ExpandDims, RT, {X});
  R->definingOp()->setAxis(A);
  return R;
}

/// permute<Dims...>(x) and trans<Dims...>(x): the dimensions are the
/// leading integer template arguments (the header checked them).
Value *KernelLowering::lowerPermute(const FunctionDecl *Callee, Value *X,
                                    const Type &RT) {
  Value *R = B.create(OpKind::Permute, RT, {X});
  unsigned Dim = 0;
  for (const TemplateArgument &A :
       Callee->getTemplateSpecializationArgs()->asArray()) {
    if (A.getKind() == TemplateArgument::Integral)
      R->definingOp()->setPermutedDim(Dim++, A.getAsIntegral().getExtValue());
    else if (A.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &P : A.pack_elements())
        R->definingOp()->setPermutedDim(Dim++, P.getAsIntegral().getExtValue());
    if (Dim == RT.rank())
      break;
  }
  return R;
}

/// join(a, b), and interleave(a, b): their join reshaped to RT. Two
/// scalars join as two 1-element tiles, reshaped to [2].
Value *KernelLowering::lowerJoin(llvm::ArrayRef<Value *> Args, const Type &RT,
                                 bool Interleave) {
  if (RT.rank() > 1 && !Interleave)
    return B.create(OpKind::Join, RT, Args);
  llvm::SmallVector<int64_t, 2> Shape(Args[0]->type().Shape);
  if (Shape.empty())
    Shape.push_back(1);
  Value *A = operand(Args[0], RT.Elem, Shape);
  Value *C = operand(Args[1], RT.Elem, Shape);
  Shape.push_back(2);
  Value *J = B.create(OpKind::Join, Type::tensor(RT.Elem, Shape), {A, C});
  return B.create(OpKind::Reshape, RT, {J});
}

/// sort<Dim, Descending>(x) and topk<K, Dim>(x): one sort op, which keeps
/// the first K of each line.
Value *KernelLowering::lowerSort(const FunctionDecl *Callee, Value *X,
                                 const Type &RT, bool TopK, SourceLocation L) {
  const int64_t Dim = templateIntArg(Callee, TopK ? 1 : 0).value_or(-1);
  const bool Descending = TopK || templateIntArg(Callee, 1).value_or(0);
  Value *R = B.create(OpKind::Sort, RT, {X});
  // The header checked the dimension.
  R->definingOp()->setSort(axisOf(Dim, RT.rank(), "sort", L).value_or(0),
                           Descending);
  return R;
}

/// gather<Axis, Checked>(src, index); with Checked (TILE_DEBUG) an index
/// outside src stops the program, as in emulation.
Value *KernelLowering::lowerGather(const FunctionDecl *Callee,
                                   llvm::ArrayRef<Value *> Args, const Type &RT,
                                   SourceLocation L) {
  const unsigned Axis =
      axisOf(templateIntArg(Callee, 0).value_or(0), RT.rank(), "gather", L)
          .value_or(0);
  Value *Index = Args[1];
  if (templateIntArg(Callee, 1).value_or(0)) {
    const ElemType IE = Index->type().Elem;
    const ElemType Bool{ScalarKind::I1};
    const Type Mask = Type::tensor(Bool, RT.Shape);
    Value *Low = B.create(OpKind::CmpGE, Mask,
                          {Index, operand(B.intConst(0), IE, RT.Shape)});
    Value *High =
        B.create(OpKind::CmpLT, Mask,
                 {Index, operand(B.intConst(Args[0]->type().Shape[Axis]), IE,
                                 RT.Shape)});
    B.createVoid(OpKind::Assert,
                 {B.create(OpKind::LogicalAnd, Mask, {Low, High})})
        ->setMessage("gather: index out of range");
  }
  Value *R = B.create(OpKind::Gather, RT, {Args[0], Index});
  R->definingOp()->setAxis(Axis);
  return R;
}

/// split(x): its two halves.
std::optional<Values> KernelLowering::lowerSplit(const CallExpr *CE) {
  Value *X = lowerExpr(CE->getArg(0));
  if (!X)
    return std::nullopt;
  setLoc(CE->getExprLoc());
  llvm::SmallVector<int64_t, 2> Half(X->type().Shape);
  Half.pop_back();
  Op *S = B.createVoid(OpKind::Split, {X});
  Values Out;
  for (int I = 0; I < 2; ++I)
    Out.push_back(S->addResult(F.newValue(Type::tensor(X->type().Elem, Half))));
  return Out;
}

/// detail::philox<Word, Rounds>(seed, offset): the seed as a 64-bit key,
/// the offsets as they are (the runtime reads them as unsigned).
Value *KernelLowering::lowerPhilox(const FunctionDecl *Callee,
                                   llvm::ArrayRef<Value *> Args,
                                   const Type &RT) {
  Value *Seed = operand(Args[0], ElemType{ScalarKind::U64}, RT.Shape);
  Value *Offset = B.broadcastTo(Args[1], RT.Shape);
  Value *R = B.create(OpKind::Philox, RT, {Seed, Offset});
  R->definingOp()->setPhilox(templateIntArg(Callee, 0).value_or(0),
                             templateIntArg(Callee, 1).value_or(10));
  return R;
}

/// program_id(axis) and num_programs(axis), the axis a constant 0-2.
Value *KernelLowering::lowerGridQuery(OpKind K, llvm::StringRef Name,
                                      const Expr *AxisArg) {
  auto Axis = constantArg(AxisArg, "the axis of " + Name.str());
  if (!Axis)
    return nullptr;
  if (*Axis < 0 || *Axis > 2) {
    error(AxisArg->getExprLoc(), Name.str() +
                                     " axis must be 0, 1, or 2 but got " +
                                     std::to_string(*Axis));
    return nullptr;
  }
  Value *R = B.create(K, Type::scalar(ScalarKind::I32), {});
  R->definingOp()->setAxis(*Axis);
  return R;
}

/// A pointer (tile) plus or, for subptr, minus an integer offset (tile),
/// in either order.
Value *KernelLowering::lowerAddPtr(llvm::ArrayRef<Value *> Args, const Type &RT,
                                   bool Subtract, SourceLocation L) {
  unsigned P = Args[0]->type().Elem.isPointer() ? 0 : 1;
  Value *Off = Args[1 - P];
  if (!isInteger(Off->type().Elem.Kind)) {
    error(L, "pointer offsets must be integers");
    return nullptr;
  }
  if (Subtract)
    Off = B.create(OpKind::Neg, Off->type(), {Off});
  return B.create(
      OpKind::AddPtr, RT,
      {B.broadcastTo(Args[P], RT.Shape), B.broadcastTo(Off, RT.Shape)});
}

/// Axis counted from the end when negative, or an error naming What
/// ("reduction", "scan") when the tile has no such axis.
std::optional<int64_t> KernelLowering::axisOf(int64_t Axis, int64_t Rank,
                                              llvm::StringRef What,
                                              SourceLocation L) {
  int64_t A = Axis < 0 ? Axis + Rank : Axis;
  if (A >= 0 && A < Rank)
    return A;
  error(L, What.str() + " axis " + std::to_string(Axis) +
               " is out of range for a rank-" + std::to_string(Rank) + " tile");
  return std::nullopt;
}

/// sum<Axis, KeepDims>(x) and friends; without an axis, the whole tile.
/// The header gives the result's element type (the accumulation type:
/// sums of half accumulate in float); the input is converted to it first.
Value *KernelLowering::lowerReduce(OpKind K, const FunctionDecl *Callee,
                                   Value *X, const Type &RT, SourceLocation L) {
  if (X->type().isScalar()) {
    error(L, "cannot reduce a scalar");
    return nullptr;
  }
  bool IsArg = K == OpKind::ArgMax || K == OpKind::ArgMin;
  if (!IsArg)
    X = B.cast(X, RT.Elem);
  int64_t Rank = X->type().rank();
  auto Reduce = [&](Value *In, int64_t Axis) {
    llvm::SmallVector<int64_t, 2> Shape(In->type().Shape);
    Shape.erase(Shape.begin() + Axis);
    Value *R = B.create(K, Type::tensor(RT.Elem, Shape), {In});
    R->definingOp()->setAxis(Axis);
    return R;
  };
  auto Axis = templateIntArg(Callee, 0);
  if (!Axis) {
    // The whole tile: innermost axis first, down to a scalar.
    if (IsArg && Rank > 1) {
      error(L, "argmax and argmin of a whole tile need a 1-D tile");
      return nullptr;
    }
    for (int64_t A = Rank - 1; A >= 0; --A)
      X = Reduce(X, A);
    return X;
  }
  auto NormalAxis = axisOf(*Axis, Rank, "reduction", L);
  if (!NormalAxis)
    return nullptr;
  int64_t A = *NormalAxis;
  Value *R = Reduce(X, A);
  if (templateIntArg(Callee, 1).value_or(0)) { // KeepDims
    Value *E = B.create(OpKind::ExpandDims, RT, {R});
    E->definingOp()->setAxis(A);
    return E;
  }
  return R;
}

/// dot(a, b[, acc]): without acc, the result starts from zeros. (The
/// generator checks the shared memory its operands are staged in against
/// the target's.)
Value *KernelLowering::lowerDot(llvm::ArrayRef<Value *> Args, const Type &RT,
                                int64_t Precision) {
  Value *Acc = Args.size() > 2
                   ? B.cast(Args[2], RT.Elem)
                   : B.broadcastTo(B.cast(B.intConst(0), RT.Elem), RT.Shape);
  Value *R = B.create(OpKind::Dot, RT, {Args[0], Args[1], Acc});
  R->definingOp()->setPrecision(DotPrecision(Precision));
  return R;
}

void KernelLowering::setAccessHints(const FunctionDecl *Callee, Op &Access) {
  Access.setAccessHints(CacheModifier(templateIntArg(Callee, 0).value_or(0)),
                        EvictionPolicy(templateIntArg(Callee, 1).value_or(0)));
}

Value *KernelLowering::lowerLoad(const FunctionDecl *Callee,
                                 llvm::ArrayRef<Value *> Args, const Type &RT,
                                 SourceLocation L) {
  Value *Ptrs = Args[0];
  llvm::SmallVector<Value *, 3> Ops{Ptrs};
  if (Args.size() >= 2)
    Ops.push_back(
        operand(Args[1], ElemType{ScalarKind::I1}, Ptrs->type().Shape));
  if (Args.size() >= 3)
    Ops.push_back(operand(Args[2], RT.Elem, Ptrs->type().Shape));
  Value *R = B.create(OpKind::Load, RT, Ops);
  setAccessHints(Callee, *R->definingOp());
  return R;
}

void KernelLowering::lowerStore(const FunctionDecl *Callee,
                                llvm::ArrayRef<Value *> Args,
                                SourceLocation L) {
  Value *Ptrs = Args[0];
  ElemType Pointee{Ptrs->type().Elem.Pointee};
  if (Ptrs->type().Elem.PointeeConst) {
    error(L, "cannot store through a pointer to const");
    return;
  }
  llvm::SmallVector<Value *, 3> Ops{
      Ptrs, operand(Args[1], Pointee, Ptrs->type().Shape)};
  if (Args.size() >= 3)
    Ops.push_back(
        operand(Args[2], ElemType{ScalarKind::I1}, Ptrs->type().Shape));
  setAccessHints(Callee, *B.createVoid(OpKind::Store, Ops));
}

/// atomic_*(ptrs, value, mask, order, scope) and atomic_cas(ptrs, cmp,
/// value, order, scope): values take the pointee type and the pointers'
/// shape; order and scope are constants.
Value *KernelLowering::lowerAtomic(OpKind K, llvm::ArrayRef<Value *> Args,
                                   const Type &RT, const CallExpr *CE,
                                   SourceLocation L) {
  Value *Ptrs = Args[0];
  if (Ptrs->type().Elem.PointeeConst) {
    error(L, "atomics need a pointer to non-const");
    return nullptr;
  }
  llvm::ArrayRef<int64_t> Shape = Ptrs->type().Shape;
  llvm::SmallVector<Value *, 3> Ops{Ptrs};
  for (unsigned I = 1; I < Args.size(); ++I) {
    bool IsMask = K != OpKind::AtomicCas && I == 2;
    Ops.push_back(
        operand(Args[I], IsMask ? ElemType{ScalarKind::I1} : RT.Elem, Shape));
  }
  auto Order = constantArg(CE->getArg(3), "the memory order");
  auto Scope = constantArg(CE->getArg(4), "the memory scope");
  if (!Order || !Scope)
    return nullptr;
  if (MemScope(*Scope) == MemScope::Sys) {
    error(CE->getArg(4)->getExprLoc(),
          "system-scope atomics are not supported yet");
    return nullptr;
  }
  Value *R = B.create(K, RT, Ops);
  R->definingOp()->setMemory(MemOrder(*Order), MemScope(*Scope));
  return R;
}

/// Whether every integer constant among a tile operation's scalar
/// operands fits the integer type it is converted to (the weak scalar
/// rule gives it the tile's type): `int8_tile + 300` would otherwise be
/// `+ 44`. An error at the constant, as Triton's "value exceeds the range"
/// is, where it does not.
bool KernelLowering::constantsFit(OpKind K, llvm::ArrayRef<const Expr *> ArgEs,
                                  llvm::ArrayRef<Value *> Args,
                                  const Type &RT) {
  const ElemType To = isComparison(K) && Args.size() == 2
                          ? compareType(Args[0], Args[1])
                          : RT.Elem;
  if (!isInteger(To.Kind) || To.Kind == ScalarKind::I1)
    return true;
  const unsigned Bits = bitWidth(To.Kind);
  const bool Unsigned = !isSigned(To.Kind);
  const llvm::APSInt Min = llvm::APSInt::getMinValue(Bits, Unsigned),
                     Max = llvm::APSInt::getMaxValue(Bits, Unsigned);
  for (auto [E, V] : llvm::zip(ArgEs, Args)) {
    if (!V->type().isScalar() || !E->getType()->isIntegerType())
      continue;
    std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx);
    if (!C)
      continue;
    if (llvm::APSInt::compareValues(*C, Min) < 0 ||
        llvm::APSInt::compareValues(*C, Max) > 0) {
      llvm::SmallString<24> Text;
      C->toString(Text);
      error(E->getExprLoc(),
            "the constant " + Text.str().str() +
                " does not fit the tile's element type " +
                ElemType{To.Kind}.str() +
                " it is converted to; cast the tile first, or use a "
                "constant in range");
      return false;
    }
  }
  return true;
}

/// The element type both operands of a comparison are converted to.
ElemType KernelLowering::compareType(Value *A, Value *Bv) {
  const ElemType &EA = A->type().Elem, &EB = Bv->type().Elem;
  if (EA.isPointer())
    return EA;
  bool SA = A->type().isScalar(), SB = Bv->type().isScalar();
  if (SA != SB)
    return ElemType{
        promoteWithScalar(SA ? EB.Kind : EA.Kind, SA ? EA.Kind : EB.Kind)};
  return ElemType{promote(EA.Kind, EB.Kind)};
}

Value *KernelLowering::lowerElementwise(OpKind K, llvm::ArrayRef<Value *> Args,
                                        const Type &RT) {
  llvm::SmallVector<Value *, 3> Ops;
  ElemType OperandElem = RT.Elem;
  if (isComparison(K))
    OperandElem = compareType(Args[0], Args[1]);
  for (unsigned I = 0; I < Args.size(); ++I) {
    ElemType E = OperandElem;
    if ((K == OpKind::Select && I == 0) || K == OpKind::LogicalAnd ||
        K == OpKind::LogicalOr || K == OpKind::LogicalNot)
      E = ElemType{ScalarKind::I1};
    Ops.push_back(operand(Args[I], E, RT.Shape));
  }
  return B.create(K, RT, Ops);
}

} // namespace tilecc::frontend::lowering
