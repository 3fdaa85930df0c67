//===- LowerCalls.cpp - Calls to TileIR -----------------------------------===//
//
// A call is a tile:: operation (by its TILE_OP annotation), a <cmath> or
// <algorithm> function, or a helper or lambda whose body is inlined.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"
#include "ir/TypeRules.h"

namespace tilecc::frontend::lowering {

Value *KernelLowering::lowerCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee) {
    error(CE->getExprLoc(), "indirect calls are not supported in a tile "
                            "kernel");
    return nullptr;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && MD->isVirtual()) {
    error(CE->getExprLoc(), "virtual calls are not supported in a tile "
                            "kernel");
    return nullptr;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD &&
      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
      isAggregate(CE->getArg(0)->getType())) {
    assignAggregate(CE->getArg(0), CE->getArg(1));
    return nullptr;
  }
  llvm::StringRef OpName = tileOpName(Callee);
  if (OpName.starts_with("descriptor_") || OpName.starts_with("block_"))
    return lowerDescriptorAccess(OpName, CE);
  if (OpName == "inline_asm_elementwise")
    return lowerInlineAsm(CE);
  if (OpName == "static_print") {
    lowerStaticPrint(CE);
    return nullptr;
  }
  if (!OpName.empty())
    return lowerTileOp(OpName, CE);
  if (isStdFunction(Callee, "get") && CE->getNumArgs() == 1 &&
      stdTuple(CE->getArg(0)->getType())) {
    auto T = lowerTupleElement(CE);
    return T ? T->front() : nullptr;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
    return assign(CE->getArg(0), lowerExpr(CE->getArg(1)));
  if (llvm::StringRef Name = libraryFunction(Callee); !Name.empty())
    return lowerLibraryCall(Name, CE);
  return inlineCall(CE, Callee);
}

/// The <cmath> or <algorithm> function that Callee is, by its standard
/// name (std::sqrt, ::sqrtf and __builtin_sqrtf are all "sqrt"), or ""
/// for any other function, whose body is inlined instead.
llvm::StringRef KernelLowering::libraryFunction(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {
      "sqrt",  "exp",      "exp2",  "log",   "log2",      "sin",   "cos",
      "tanh",  "pow",      "floor", "ceil",  "erf",       "fabs",  "abs",
      "fma",   "fmax",     "fmin",  "max",   "min",       "clamp", "isnan",
      "isinf", "isfinite", "tan",   "asin",  "acos",      "atan",  "sinh",
      "cosh",  "asinh",    "acosh", "atanh", "log10",     "log1p", "expm1",
      "cbrt",  "erfc",     "trunc", "rint",  "nearbyint", "round", "atan2",
      "hypot", "copysign"};
  if (!Callee->getIdentifier())
    return "";
  llvm::StringRef N = Callee->getName();
  const bool Std = Callee->isInStdNamespace();
  // C's math library (::sqrtf) or a compiler builtin (__builtin_sqrtf);
  // a function of the user's that shares a name is inlined.
  const bool C = Callee->isExternC() || Callee->getBuiltinID() != 0;
  if (!Std && !C)
    return "";
  N.consume_front("__builtin_");
  if (!Names.contains(N) && (N.ends_with("f") || N.ends_with("l")) &&
      Names.contains(N.drop_back()))
    N = N.drop_back();
  // <algorithm>'s are std:: only; a user's ::max is the user's.
  if (!Names.contains(N) ||
      (!Std && (N == "max" || N == "min" || N == "clamp")))
    return "";
  return N;
}

/// A <cmath> or <algorithm> function on scalars, as the tile operations
/// that compute the same value, so that it translates and emulates
/// alike. Arguments convert to the call's type as C++ converts them
/// (std::sqrt of an int is a double). std::max and std::min keep their
/// definitions' comparisons, so a NaN argument gives what C++ gives
/// (std::max(NaN, 1.0f) is NaN, std::max(1.0f, NaN) is 1); std::fmax
/// and std::fmin ignore a NaN, as tile::maximum and tile::minimum do.
Value *KernelLowering::lowerLibraryCall(llvm::StringRef Name,
                                        const CallExpr *CE) {
  const SourceLocation L = CE->getExprLoc();
  static const llvm::StringSet<> Binary = {
      "fmax", "fmin", "max", "min", "pow", "atan2", "hypot", "copysign"};
  const unsigned Arity = Name == "fma" || Name == "clamp" ? 3
                         : Binary.contains(Name)          ? 2
                                                          : 1;
  if (CE->getNumArgs() != Arity) {
    const bool Algorithm = Name == "max" || Name == "min" || Name == "clamp";
    error(L, "std::" + Name.str() +
                 (Algorithm ? " of an initializer list or with a comparator"
                            : " with " + std::to_string(CE->getNumArgs()) +
                                  " arguments") +
                 " is not supported in a tile kernel: call it with " +
                 (Arity == 1   ? "one value"
                  : Arity == 2 ? "two values"
                               : "three values"));
    return nullptr;
  }
  auto RT = lowerType(CE->getType(), L);
  if (!RT)
    return nullptr;
  llvm::SmallVector<Value *, 3> Args;
  for (const Expr *A : CE->arguments()) {
    Value *V = lowerExpr(A);
    if (!V)
      return nullptr;
    if (!V->type().isScalar()) {
      error(A->getExprLoc(), "std::" + Name.str() +
                                 " takes scalars; for a tile use tile::" +
                                 tileSpelling(Name).str());
      return nullptr;
    }
    Args.push_back(V);
  }
  setLoc(L);
  const Type Bool = Type::scalar(ScalarKind::I1);
  // x < y in the arguments' common type, as the templates compare them.
  auto Less = [&](Value *X, Value *Y) {
    return lowerElementwise(OpKind::CmpLT, {X, Y}, Bool);
  };
  auto Select = [&](Value *C, Value *X, Value *Y) {
    return lowerElementwise(OpKind::Select, {C, X, Y}, *RT);
  };
  if (Name == "max")
    return Select(Less(Args[0], Args[1]), Args[1], Args[0]);
  if (Name == "min")
    return Select(Less(Args[1], Args[0]), Args[1], Args[0]);
  if (Name == "clamp")
    return Select(Less(Args[0], Args[1]), Args[1],
                  Select(Less(Args[2], Args[0]), Args[2], Args[0]));
  if (Name == "isnan" || Name == "isinf" || Name == "isfinite") {
    Value *X = Args[0];
    if (!isFloat(X->type().Elem.Kind))
      return B.boolConst(Name == "isfinite");
    if (Name == "isnan")
      return lowerElementwise(OpKind::CmpNE, {X, X}, Bool);
    Value *Abs = B.create(OpKind::Abs, X->type(), {X});
    Value *Inf = B.floatConst(std::numeric_limits<double>::infinity(),
                              X->type().Elem.Kind);
    return lowerElementwise(Name == "isinf" ? OpKind::CmpEQ : OpKind::CmpLT,
                            {Abs, Inf}, Bool);
  }
  std::optional<OpKind> K = opKindFromSpelling(tileSpelling(Name));
  assert(K && "every library function has a tile operation");
  return lowerElementwise(*K, Args, *RT);
}

/// The tile operation that computes library function Name.
llvm::StringRef KernelLowering::tileSpelling(llvm::StringRef Name) {
  return llvm::StringSwitch<llvm::StringRef>(Name)
      .Case("fabs", "abs")
      .Case("fmax", "maximum")
      .Case("max", "maximum")
      .Case("fmin", "minimum")
      .Case("min", "minimum")
      .Case("nearbyint", "rint")
      .Default(Name);
}

/// Inlines a helper function or lambda whose body is visible. A callee
/// returning a std::tuple leaves its values in TupleRet.
Value *KernelLowering::inlineCall(const CallExpr *CE,
                                  const FunctionDecl *Callee,
                                  std::optional<Values> *TupleRet) {
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def) {
    error(CE->getExprLoc(),
          "call to '" + Callee->getQualifiedNameAsString() +
              "' cannot be translated: a tile kernel can call tile:: "
              "operations and functions whose definition is visible");
    return nullptr;
  }
  if (llvm::is_contained(InlineStack, Def->getCanonicalDecl())) {
    error(CE->getExprLoc(), "recursive call to '" + Callee->getNameAsString() +
                                "' cannot be translated");
    return nullptr;
  }
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  bool IsLambda = MD && MD->getParent()->isLambda();
  if (MD && !MD->isStatic() && !IsLambda) {
    error(CE->getExprLoc(), "member functions cannot be called from a tile "
                            "kernel");
    return nullptr;
  }
  // A lambda call is an operator call whose first argument is the closure.
  unsigned First = IsLambda && isa<CXXOperatorCallExpr>(CE) ? 1 : 0;
  if (CE->getNumArgs() - First != Def->getNumParams()) {
    error(CE->getExprLoc(), "cannot inline a call with default or variadic "
                            "arguments");
    return nullptr;
  }
  for (unsigned I = First; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I - First);
    if (isClosure(P->getType())) {
      // A lambda passed on: calls of it inline its body, which needs no
      // value; one written in the call captures here.
      if (const LambdaExpr *LE = lambdaOf(CE->getArg(I));
          LE && !recordCaptures(LE))
        return nullptr;
      continue;
    }
    if (isAggregate(P->getType())) {
      auto T = lowerTuple(CE->getArg(I));
      if (!T)
        return nullptr;
      bindAggregate(P, *T);
      continue;
    }
    Value *V = lowerExpr(CE->getArg(I));
    if (!V)
      return nullptr;
    Env[P] = V;
  }
  Value *R = inlineBody(CE->getExprLoc(), Def, TupleRet);
  if (TupleRet && *TupleRet)
    return nullptr;
  if (!R && !Def->getReturnType()->isVoidType() && !Failed)
    error(CE->getExprLoc(),
          "'" + Callee->getNameAsString() + "' must end with a 'return'");
  if (R && !Def->getReturnType()->isVoidType())
    if (auto RT = lowerType(Def->getReturnType(), CE->getExprLoc()))
      R = RT->isScalar() ? B.cast(R, RT->Elem) : R;
  return R;
}

/// Takes the values lambda LE captures by copy where it is evaluated, as
/// C++ copies them into the closure: a later assignment to the variable
/// must not reach the lambda's body.
bool KernelLowering::recordCaptures(const LambdaExpr *LE) {
  if (LE->isMutable()) {
    error(LE->getBeginLoc(), "mutable lambdas cannot be used in a tile kernel");
    return false;
  }
  auto &Copies = CopiedCaptures[LE->getLambdaClass()];
  Copies.clear();
  for (const LambdaCapture &C : LE->captures())
    if (C.getCaptureKind() == LCK_ByCopy && C.capturesVariable())
      if (Value *V = Env.lookup(C.getCapturedVar()))
        Copies.push_back({C.getCapturedVar(), V});
  return true;
}

/// Lowers Def's body where it is called from (its parameters already
/// bound); diagnostics inside it point at the call in the user's file.
Value *KernelLowering::inlineBody(SourceLocation CallLoc,
                                  const FunctionDecl *Def,
                                  std::optional<Values> *TupleRet) {
  SourceLocation SavedCallSite = CallSite;
  if (CallSite.isInvalid() || isUserFile(SM.getExpansionLoc(CallLoc)))
    CallSite = SM.getExpansionLoc(CallLoc);
  // A lambda's body sees what it captured by copy as it was then.
  llvm::SmallVector<std::pair<const ValueDecl *, Value *>, 4> Outer;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda())
    for (auto [VD, V] : CopiedCaptures.lookup(MD->getParent())) {
      Outer.push_back({VD, Env.lookup(VD)});
      Env[VD] = V;
    }
  InlineStack.push_back(Def->getCanonicalDecl());
  Value *R = lowerBody(*Def, /*IsKernel=*/false, TupleRet);
  InlineStack.pop_back();
  for (auto [VD, V] : Outer)
    Env[VD] = V;
  CallSite = SavedCallSite;
  return R;
}

/// The integer value of a constant call argument, or an error.
std::optional<int64_t> KernelLowering::constantArg(const Expr *E,
                                                   llvm::StringRef What) {
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  error(E->getExprLoc(), What.str() + " must be a compile-time constant");
  return std::nullopt;
}

std::optional<int64_t> KernelLowering::templateIntArg(const FunctionDecl *FD,
                                                      unsigned I) {
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || I >= Args->size() ||
      (*Args)[I].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return (*Args)[I].getAsIntegral().getExtValue();
}

std::optional<llvm::SmallVector<int64_t, 4>>
KernelLowering::templateIntPack(const FunctionDecl *FD, unsigned I) {
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || I >= Args->size() ||
      (*Args)[I].getKind() != TemplateArgument::Pack)
    return std::nullopt;
  llvm::SmallVector<int64_t, 4> Values;
  for (const TemplateArgument &A : (*Args)[I].pack_elements()) {
    if (A.getKind() != TemplateArgument::Integral)
      return std::nullopt;
    Values.push_back(A.getAsIntegral().getExtValue());
  }
  return Values;
}

} // namespace tilecc::frontend::lowering
