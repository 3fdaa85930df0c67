//===- LowerCombines.cpp - Reductions and scans with a combine ------------===//
//
// reduce, associative_scan, cumsum and cumprod: the user's combine (a
// lambda or a function) becomes the op's region.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"
#include "ir/TypeRules.h"

namespace tilecc::frontend::lowering {

/// reduce<Axis, KeepDims>(x, combine), associative_scan<Axis,
/// Reverse>(x, combine), cumsum and cumprod, where x is a tile or a
/// std::tuple of tiles of one shape. The combine becomes the op's region.
std::optional<Values> KernelLowering::lowerCombineOp(TileOperation TO,
                                                     const CallExpr *CE) {
  SourceLocation L = CE->getExprLoc();
  const FunctionDecl *Callee = CE->getDirectCallee();
  const bool IsScan = TO.Kind == OpKind::Scan;
  Values Xs;
  if (stdTuple(CE->getArg(0)->getType())) {
    auto T = lowerTuple(CE->getArg(0));
    if (!T)
      return std::nullopt;
    Xs = *T;
  } else if (Value *X = lowerExpr(CE->getArg(0))) {
    Xs.push_back(X);
  } else {
    return std::nullopt;
  }
  setLoc(L);
  for (Value *X : Xs)
    if (X->type().isScalar()) {
      error(L, IsScan ? "cannot scan a scalar" : "cannot reduce a scalar");
      return std::nullopt;
    }
  // cumsum and cumprod accumulate in the header's result type.
  if (TO.cumulative()) {
    auto RT = lowerType(CE->getType(), L);
    if (!RT)
      return std::nullopt;
    Xs[0] = B.cast(Xs[0], RT->Elem);
  }
  const Type &XT = Xs[0]->type();
  int64_t Rank = XT.rank();
  auto NormalAxis = axisOf(templateIntArg(Callee, 0).value_or(0), Rank,
                           IsScan ? "scan" : "reduction", L);
  if (!NormalAxis)
    return std::nullopt;
  int64_t A = *NormalAxis;
  if (IsScan && !llvm::isPowerOf2_64(XT.Shape[A])) {
    error(L, "a scan needs a power-of-two size along its axis, but axis " +
                 std::to_string(A) + " has " + std::to_string(XT.Shape[A]));
    return std::nullopt;
  }
  bool Flag = templateIntArg(Callee, 1).value_or(0); // KeepDims, Reverse

  auto NewOp =
      std::make_unique<ir::Op>(IsScan ? OpKind::Scan : OpKind::Reduce, B.loc());
  if (IsScan)
    NewOp->setScan(A, Flag);
  else
    NewOp->setAxis(A);
  llvm::SmallVector<int64_t, 2> Shape(XT.Shape);
  if (!IsScan)
    Shape.erase(Shape.begin() + A);
  for (Value *X : Xs) {
    NewOp->addOperand(X);
    NewOp->addResult(F.newValue(Type::tensor(X->type().Elem, Shape)));
  }
  ir::Op *Op = B.block()->append(std::move(NewOp));
  if (!lowerCombine(TO, CE, *Op))
    return std::nullopt;

  Values Out;
  for (const auto &R : Op->results()) {
    Value *V = R.get();
    if (!IsScan && Flag) { // KeepDims
      Type KT = XT;
      KT.Elem = V->type().Elem;
      KT.Shape[A] = 1;
      V = B.create(OpKind::ExpandDims, KT, {V});
      V->definingOp()->setAxis(A);
    }
    Out.push_back(V);
  }
  return Out;
}

/// Builds Op's combine region: (accumulated..., next...) -> new values,
/// from the user's combine (a lambda or a function) or, for cumsum and
/// cumprod, an add or multiply.
bool KernelLowering::lowerCombine(TileOperation TO, const CallExpr *CE,
                                  ir::Op &Op) {
  unsigned N = Op.numResults();
  Block *Region = Op.addRegion();
  for (unsigned I = 0; I < 2 * N; ++I)
    Region->addArgument(
        F.newValue(Type::scalar(Op.result(I % N)->type().Elem)));
  Block *Outer = B.block();
  B.setBlock(*Region);
  Values Yields;
  if (TO.cumulative()) {
    Region->argument(0)->setName("a");
    Region->argument(1)->setName("b");
    Yields.push_back(B.create(
        TO.Spelled == TileOperation::CumulativeSum ? OpKind::Add : OpKind::Mul,
        Region->argument(0)->type(),
        {Region->argument(0), Region->argument(1)}));
  } else {
    const FunctionDecl *Fn = combineFunction(CE->getArg(1), Op);
    if (!Fn)
      return false;
    for (unsigned I = 0; I < 2 * N; ++I) {
      const ParmVarDecl *P = Fn->getParamDecl(I);
      Region->argument(I)->setName(P->getName());
      Env[P] = B.cast(Region->argument(I), *elemType(P->getType()));
    }
    std::optional<Values> TupleRet;
    Value *R = inlineBody(CE->getExprLoc(), Fn, N > 1 ? &TupleRet : nullptr);
    if (Failed)
      return false;
    if (N > 1 && TupleRet)
      Yields = *TupleRet;
    else if (N == 1 && R)
      Yields.push_back(R);
    if (Yields.size() != N) {
      error(CE->getArg(1)->getExprLoc(),
            "the combine must return " +
                (N == 1 ? std::string("one value")
                        : "a std::tuple of " + std::to_string(N) + " values"));
      return false;
    }
    for (unsigned I = 0; I < N; ++I) {
      if (!Yields[I]->type().isScalar()) {
        error(CE->getArg(1)->getExprLoc(),
              "the combine must return scalars, not tiles");
        return false;
      }
      Yields[I] = B.cast(Yields[I], Op.result(I)->type().Elem);
    }
  }
  B.createVoid(OpKind::Yield, Yields);
  B.setBlock(*Outer);
  return true;
}

/// The function a combine argument calls: a lambda's call operator (for a
/// generic lambda, its instantiation for the op's element types) or a
/// function passed by name.
const FunctionDecl *KernelLowering::combineFunction(const Expr *Arg,
                                                    const ir::Op &Op) {
  const FunctionDecl *Fn = nullptr;
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    Fn = dyn_cast<FunctionDecl>(DR->getDecl());
  const CXXRecordDecl *RD = Arg->getType()->getAsCXXRecordDecl();
  if (RD && RD->isLambda()) {
    if (const FunctionTemplateDecl *FT = RD->getDependentLambdaCallOperator()) {
      for (const FunctionDecl *S : FT->specializations())
        if (takesCombineArgs(S, Op, /*Exact=*/true))
          Fn = S;
    } else {
      Fn = RD->getLambdaCallOperator();
    }
  }
  const FunctionDecl *Def = nullptr;
  if (!Fn || !Fn->hasBody(Def) || !Def) {
    error(Arg->getExprLoc(), "the combine must be a lambda or a function "
                             "whose definition is visible");
    return nullptr;
  }
  if (!takesCombineArgs(Def, Op)) {
    error(Arg->getExprLoc(),
          "the combine must take " + std::to_string(2 * Op.numResults()) +
              " scalars: the accumulated values, then the next ones");
    return nullptr;
  }
  return Def;
}

/// Whether Fn takes 2N scalars (converted from the elements as a C++
/// call would; Exact: of the elements' own types).
bool KernelLowering::takesCombineArgs(const FunctionDecl *Fn, const ir::Op &Op,
                                      bool Exact) {
  unsigned N = Op.numResults();
  if (Fn->getNumParams() != 2 * N)
    return false;
  for (unsigned I = 0; I < 2 * N; ++I) {
    auto E = elemType(Fn->getParamDecl(I)->getType());
    if (!E || E->isPointer() || (Exact && *E != Op.result(I % N)->type().Elem))
      return false;
  }
  return true;
}

} // namespace tilecc::frontend::lowering
