//===- LowerExpressions.cpp - Expressions to TileIR -----------------------===//
//
// Operators, casts, constants, variables and std::tuple values.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"
#include "ir/TypeRules.h"

namespace tilecc::frontend::lowering {

/// Lowers an expression of std::tuple type to one value per element:
/// std::tuple{...}, std::make_tuple and std::tie, tuple variables, the
/// tuple forms of tile::reduce and tile::associative_scan, and inlined
/// calls that return a tuple.
std::optional<Values> KernelLowering::lowerTuple(const Expr *E) {
  const bool IsAggregate = isAggregate(E->getType());
  E = skipTemporaries(E);
  std::optional<Values> Out;
  setLoc(E->getExprLoc());
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (AggregateVars.count(DR->getDecl()))
      Out = aggregateValues(DR->getDecl());
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
    if (CC->getNumArgs() == 1 && isAggregate(CC->getArg(0)->getType()))
      Out = lowerTuple(CC->getArg(0)); // a copy or a conversion
    else
      Out = lowerElements(CC->arguments());
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Out = lowerPairMember(ME);
  } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    llvm::StringRef Op = Callee ? tileOpName(Callee) : "";
    auto TO = tileOperation(Op);
    if (Callee && isStdFunction(Callee, "get"))
      Out = lowerTupleElement(Call);
    else if (Callee && (isStdFunction(Callee, "make_tuple") ||
                        isStdFunction(Callee, "make_pair") ||
                        isStdFunction(Callee, "tie") ||
                        isStdFunction(Callee, "forward_as_tuple")))
      Out = lowerElements(Call->arguments());
    else if (TO && TO->combines() && !TO->cumulative())
      Out = lowerCombineOp(*TO, Call);
    else if (TO && TO->Kind == OpKind::Split)
      Out = lowerSplit(Call);
    else if (Op == "make_tensor_descriptor" || Op == "make_block_ptr" ||
             Op == "advance")
      Out = lowerDescriptor(Op, Call);
    else if (Callee && Op.empty())
      inlineCall(Call, Callee, &Out);
  }
  if (Failed)
    return std::nullopt;
  if (!Out || !IsAggregate) {
    error(E->getExprLoc(), "this expression of type '" +
                               E->getType().getAsString() +
                               "' is not supported in a tile kernel");
    return std::nullopt;
  }
  // Elements take the tuple's element types.
  llvm::SmallVector<QualType, 4> Elems;
  appendLeafTypes(E->getType(), Elems);
  if (Elems.size() != Out->size()) {
    error(E->getExprLoc(), "'" + E->getType().getAsString() +
                               "' has the wrong number of elements");
    return std::nullopt;
  }
  for (unsigned I = 0; I < Elems.size(); ++I) {
    auto T = lowerType(Elems[I], E->getExprLoc());
    if (!T)
      return std::nullopt;
    if (T->isScalar())
      (*Out)[I] = B.cast((*Out)[I], T->Elem);
  }
  return Out;
}

/// Names the variables of a tile aggregate's fields after their meaning
/// (p_base, p_shape0, ...), a tuple's after their position.
static std::string leafName(const ValueDecl *D, unsigned I) {
  const std::string Name = D->getName().str();
  const auto *TS = tileAggregate(D->getType());
  if (!TS)
    return Name + "_" + std::to_string(I);
  if (I == 0)
    return Name + "_base";
  // A rank's worth of each array field.
  static const char *const Fields[] = {"shape", "stride", "offset"};
  const unsigned Rank = aggregateBlock(TS).size();
  return Name + "_" + Fields[(I - 1) / Rank] + std::to_string((I - 1) % Rank);
}

void KernelLowering::bindAggregate(const ValueDecl *D, const Values &V) {
  llvm::SmallVector<QualType, 8> Types;
  appendLeafTypes(D->getType(), Types);
  auto &Vars = AggregateVars[D];
  Vars.clear();
  for (auto [I, Leaf] : llvm::enumerate(V)) {
    const std::string Name = leafName(D, I);
    const VarDecl *Var = variable(D->getLocation(), Name, Types[I]);
    // A tuple's values keep the names their uses give them (`auto [p, q]`).
    if (Leaf->name().empty() && tileAggregate(D->getType()))
      Leaf->setName(Name);
    Env[Var] = Leaf;
    Vars.push_back(Var);
  }
}

Values KernelLowering::aggregateValues(const ValueDecl *D) {
  Values Out;
  for (const VarDecl *Var : AggregateVars.lookup(D))
    Out.push_back(Env.lookup(Var));
  return Out;
}

void KernelLowering::assignAggregate(const Expr *Target, const Expr *ValueE) {
  const auto *DR = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
  auto It = DR ? AggregateVars.find(DR->getDecl()) : AggregateVars.end();
  if (It == AggregateVars.end()) {
    error(Target->getExprLoc(),
          "only local variables can be assigned in a tile kernel");
    return;
  }
  auto V = lowerTuple(ValueE);
  if (!V)
    return;
  for (auto [Var, Leaf] : llvm::zip(It->second, *V))
    assignVariable(Var, Leaf);
}

/// The values of std::get<I>(tuple): one, or a nested tuple's.
std::optional<Values> KernelLowering::lowerTupleElement(const CallExpr *CE) {
  const auto *TS =
      CE->getNumArgs() == 1 ? stdTuple(CE->getArg(0)->getType()) : nullptr;
  auto I = templateIntArg(CE->getDirectCallee(), 0);
  if (!TS || !I || *I < 0 || size_t(*I) >= tupleElements(TS).size()) {
    error(CE->getExprLoc(), "std::get on a tuple in a tile kernel needs "
                            "an element index");
    return std::nullopt;
  }
  auto T = lowerTuple(CE->getArg(0));
  if (!T)
    return std::nullopt;
  auto [Offset, Count] = elementLeaves(TS, *I);
  return Values(T->begin() + Offset, T->begin() + Offset + Count);
}

/// The values of pair.first or pair.second: one, or a nested tuple's.
std::optional<Values> KernelLowering::lowerPairMember(const MemberExpr *ME) {
  const auto *TS = stdTuple(ME->getBase()->getType());
  const llvm::StringRef Name = ME->getMemberDecl()->getName();
  if (!TS || TS->getName() != "pair" || (Name != "first" && Name != "second")) {
    error(ME->getExprLoc(), "only a std::pair's first and second can be "
                            "read in a tile kernel");
    return std::nullopt;
  }
  auto T = lowerTuple(ME->getBase());
  if (!T)
    return std::nullopt;
  auto [Offset, Count] = elementLeaves(TS, Name == "first" ? 0 : 1);
  return Values(T->begin() + Offset, T->begin() + Offset + Count);
}

/// The values of the arguments that build a tuple; a tuple among them
/// contributes its own.
std::optional<Values>
KernelLowering::lowerElements(CallExpr::const_arg_range Args) {
  Values Out;
  for (const Expr *A : Args) {
    if (isAggregate(A->getType())) {
      auto T = lowerTuple(A);
      if (!T)
        return std::nullopt;
      Out.append(T->begin(), T->end());
      continue;
    }
    Value *V = lowerExpr(A);
    if (!V)
      return std::nullopt;
    Out.push_back(V);
  }
  return Out;
}

/// Folds side-effect-free scalar expressions Clang can evaluate (template
/// arguments, literals, constexpr values) into constants.
Value *KernelLowering::tryConstant(const Expr *E) {
  if (E->isValueDependent() || E->HasSideEffects(Ctx))
    return nullptr;
  auto T = elemType(E->getType());
  if (!T || T->isPointer())
    return nullptr;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || !R.Val.isInt() && !R.Val.isFloat())
    return nullptr;
  if (R.Val.isInt())
    return B.intConst(R.Val.getInt().getExtValue(), T->Kind);
  return B.floatConst(R.Val.getFloat().convertToDouble(), T->Kind);
}

Value *KernelLowering::lowerExpr(const Expr *E) {
  if (Failed || !E)
    return nullptr;
  setLoc(E->getExprLoc());
  if (isa<DeclRefExpr>(E) || isa<IntegerLiteral>(E) ||
      isa<FloatingLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<SubstNonTypeTemplateParmExpr>(E) || isa<ConstantExpr>(E) ||
      isa<BinaryOperator>(E) || isa<UnaryOperator>(E) ||
      isa<ImplicitCastExpr>(E))
    if (!isAssignmentLike(E))
      if (Value *C = tryConstant(E))
        return C;

  if (const auto *P = dyn_cast<ParenExpr>(E))
    return lowerExpr(P->getSubExpr());
  if (const auto *C = dyn_cast<ExprWithCleanups>(E))
    return lowerExpr(C->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return lowerExpr(M->getSubExpr());
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return lowerExpr(BT->getSubExpr());
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return lowerExpr(CE->getSubExpr());
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return lowerExpr(S->getReplacement());
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
    return lowerExpr(D->getExpr());
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return lowerCast(CE);
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E))
    return lowerConstruct(CC);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return lowerDeclRef(DR);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return lowerBinary(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return lowerUnary(UO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // A condition known at translation time (a template argument's test)
    // picks its operand, which alone is lowered, as C++ evaluates it.
    if (bool Known; !CO->getCond()->isValueDependent() &&
                    !CO->getCond()->HasSideEffects(Ctx) &&
                    CO->getCond()->EvaluateAsBooleanCondition(Known, Ctx)) {
      Value *V = lowerExpr(Known ? CO->getTrueExpr() : CO->getFalseExpr());
      auto RT = lowerType(CO->getType(), CO->getExprLoc());
      return V && RT ? B.cast(V, RT->Elem) : nullptr;
    }
    Value *C = lowerExpr(CO->getCond());
    Value *T = lowerExpr(CO->getTrueExpr());
    Value *Fv = lowerExpr(CO->getFalseExpr());
    auto RT = lowerType(CO->getType(), CO->getExprLoc());
    if (!C || !T || !Fv || !RT)
      return nullptr;
    return B.create(OpKind::Select, *RT,
                    {B.cast(C, ElemType{ScalarKind::I1}), B.cast(T, RT->Elem),
                     B.cast(Fv, RT->Elem)});
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return lowerCall(CE);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    auto V = lowerPairMember(ME);
    return V ? V->front() : nullptr;
  }
  if (isa<CXXThrowExpr>(E))
    return error(E->getExprLoc(), "exceptions cannot be used in a tile kernel"),
           nullptr;
  if (isa<CXXNewExpr>(E) || isa<CXXDeleteExpr>(E))
    return error(E->getExprLoc(),
                 "heap allocation cannot be used in a tile kernel"),
           nullptr;
  if (isa<LambdaExpr>(E))
    return error(E->getExprLoc(), "a lambda must be bound to a variable "
                                  "and then called"),
           nullptr;
  error(E->getExprLoc(), std::string("'") + E->getStmtClassName() +
                             "' expressions are not supported in a tile "
                             "kernel yet");
  return nullptr;
}

bool KernelLowering::isAssignmentLike(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAssignmentOp();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->isIncrementDecrementOp();
  return false;
}

Value *KernelLowering::lowerDeclRef(const DeclRefExpr *DR) {
  const ValueDecl *D = DR->getDecl();
  auto It = Env.find(D);
  if (It != Env.end())
    return It->second;
  if (isa<FunctionDecl>(D))
    return error(DR->getExprLoc(), "functions cannot be used as values in "
                                   "a tile kernel"),
           nullptr;
  error(DR->getExprLoc(),
        "'" + D->getNameAsString() +
            "' cannot be used in a tile kernel: only its parameters, its "
            "local variables and constant expressions can be");
  return nullptr;
}

Value *KernelLowering::lowerCast(const CastExpr *CE) {
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
    // Tile copies and moves, and conversions the header spells as
    // constructors or conversion operators (handled at the call).
    return lowerExpr(CE->getSubExpr());
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean:
  case CK_BooleanToSignedIntegral: {
    Value *V = lowerExpr(CE->getSubExpr());
    auto T = lowerType(CE->getType(), CE->getExprLoc());
    if (!V || !T)
      return nullptr;
    return B.cast(V, T->Elem);
  }
  case CK_NullToPointer: { // an unused pointer argument, say
    auto T = lowerType(CE->getType(), CE->getExprLoc());
    return T ? B.nullPointer(T->Elem) : nullptr;
  }
  default:
    error(CE->getExprLoc(), std::string("the '") + CE->getCastKindName() +
                                "' conversion is not supported in a tile "
                                "kernel");
    return nullptr;
  }
}

Value *KernelLowering::lowerConstruct(const CXXConstructExpr *CC) {
  const CXXConstructorDecl *Ctor = CC->getConstructor();
  if (Ctor->getParent()->isPolymorphic()) {
    error(CC->getExprLoc(), "classes with virtual functions cannot be used "
                            "in a tile kernel: virtual calls are not "
                            "supported");
    return nullptr;
  }
  if ((Ctor->isCopyOrMoveConstructor() || Ctor->isConvertingConstructor(
                                              /*AllowExplicit=*/true)) &&
      CC->getNumArgs() == 1) {
    Value *V = lowerExpr(CC->getArg(0));
    auto T = lowerType(CC->getType(), CC->getExprLoc());
    if (!V || !T)
      return nullptr;
    return T->isScalar() ? B.cast(V, T->Elem) : V;
  }
  error(CC->getExprLoc(), "constructing '" + CC->getType().getAsString() +
                              "' this way is not supported in a tile "
                              "kernel");
  return nullptr;
}

/// Assigns V to the local variable E names; returns V.
Value *KernelLowering::assign(const Expr *Target, Value *V) {
  const auto *DR = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts());
      ME && stdTuple(ME->getBase()->getType())) {
    error(Target->getExprLoc(), "a std::pair's elements cannot be assigned "
                                "one by one in a tile kernel; assign the "
                                "whole pair");
    return nullptr;
  }
  if (!VD || !Env.count(VD)) {
    error(Target->getExprLoc(),
          "only local variables can be assigned in a tile kernel");
    return nullptr;
  }
  return V ? assignVariable(VD, V) : nullptr;
}

Value *KernelLowering::assignVariable(const VarDecl *VD, Value *V) {
  V = B.cast(V, Env[VD]->type().Elem);
  if (V->name().empty())
    V->setName(VD->getName());
  Env[VD] = V;
  return V;
}

std::optional<OpKind> KernelLowering::binaryOpKind(BinaryOperatorKind K) {
  if (BinaryOperator::isCompoundAssignmentOp(K))
    K = BinaryOperator::getOpForCompoundAssignment(K);
  switch (K) {
  case BO_Add:
    return OpKind::Add;
  case BO_Sub:
    return OpKind::Sub;
  case BO_Mul:
    return OpKind::Mul;
  case BO_Div:
    return OpKind::Div;
  case BO_Rem:
    return OpKind::Rem;
  case BO_And:
    return OpKind::And;
  case BO_Or:
    return OpKind::Or;
  case BO_Xor:
    return OpKind::Xor;
  case BO_Shl:
    return OpKind::Shl;
  case BO_Shr:
    return OpKind::Shr;
  case BO_EQ:
    return OpKind::CmpEQ;
  case BO_NE:
    return OpKind::CmpNE;
  case BO_LT:
    return OpKind::CmpLT;
  case BO_LE:
    return OpKind::CmpLE;
  case BO_GT:
    return OpKind::CmpGT;
  case BO_GE:
    return OpKind::CmpGE;
  case BO_LAnd:
    return OpKind::LogicalAnd;
  case BO_LOr:
    return OpKind::LogicalOr;
  default:
    return std::nullopt;
  }
}

/// Built-in operators on scalars: C++ semantics, operands already converted
/// by Clang.
Value *KernelLowering::lowerBinary(const BinaryOperator *BO) {
  if (BO->getOpcode() == BO_Assign)
    return assign(BO->getLHS(), lowerExpr(BO->getRHS()));
  if (BO->getLHS()->getType()->isPointerType() ||
      BO->getRHS()->getType()->isPointerType())
    return lowerScalarPointerArith(BO);
  auto K = binaryOpKind(BO->getOpcode());
  if (!K) {
    error(BO->getOperatorLoc(), "operator '" + BO->getOpcodeStr().str() +
                                    "' is not supported in a tile kernel");
    return nullptr;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO)) {
    Value *L = lowerExpr(BO->getLHS());
    Value *R = lowerExpr(BO->getRHS());
    auto CT = lowerType(CA->getComputationResultType(), BO->getExprLoc());
    if (!L || !R || !CT)
      return nullptr;
    Value *V = B.create(*K, *CT, {B.cast(L, CT->Elem), B.cast(R, CT->Elem)});
    return assign(BO->getLHS(), V);
  }
  Value *L = lowerExpr(BO->getLHS());
  Value *R = lowerExpr(BO->getRHS());
  auto RT = lowerType(BO->getType(), BO->getExprLoc());
  if (!L || !R || !RT)
    return nullptr;
  if (*K == OpKind::LogicalAnd || *K == OpKind::LogicalOr) {
    ElemType I1{ScalarKind::I1};
    return B.create(*K, *RT, {B.cast(L, I1), B.cast(R, I1)});
  }
  return B.create(*K, *RT, {L, R});
}

Value *KernelLowering::lowerScalarPointerArith(const BinaryOperator *BO) {
  bool PtrOnLeft = BO->getLHS()->getType()->isPointerType();
  const Expr *PtrE = PtrOnLeft ? BO->getLHS() : BO->getRHS();
  const Expr *OffE = PtrOnLeft ? BO->getRHS() : BO->getLHS();
  if (OffE->getType()->isPointerType() ||
      (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub) ||
      (BO->getOpcode() == BO_Sub && !PtrOnLeft)) {
    error(BO->getOperatorLoc(), "only 'pointer + integer' and 'pointer - "
                                "integer' are supported on pointers");
    return nullptr;
  }
  Value *P = lowerExpr(PtrE);
  Value *O = lowerExpr(OffE);
  if (!P || !O)
    return nullptr;
  if (BO->getOpcode() == BO_Sub)
    O = B.create(OpKind::Neg, O->type(), {O});
  return B.create(OpKind::AddPtr, P->type(), {P, O});
}

Value *KernelLowering::lowerUnary(const UnaryOperator *UO) {
  if (UO->isIncrementDecrementOp()) {
    Value *Old = lowerExpr(UO->getSubExpr());
    if (!Old)
      return nullptr;
    Value *One = B.cast(B.intConst(1), Old->type().Elem);
    Value *New = B.create(UO->isIncrementOp() ? OpKind::Add : OpKind::Sub,
                          Old->type(), {Old, One});
    assign(UO->getSubExpr(), New);
    return UO->isPrefix() ? New : Old;
  }
  Value *V = lowerExpr(UO->getSubExpr());
  auto RT = lowerType(UO->getType(), UO->getExprLoc());
  if (!V || !RT)
    return nullptr;
  switch (UO->getOpcode()) {
  case UO_Plus:
    return B.cast(V, RT->Elem);
  case UO_Minus:
    return B.create(OpKind::Neg, *RT, {B.cast(V, RT->Elem)});
  case UO_Not:
    return B.create(OpKind::Not, *RT, {B.cast(V, RT->Elem)});
  case UO_LNot:
    return B.create(OpKind::LogicalNot, *RT,
                    {B.cast(V, ElemType{ScalarKind::I1})});
  default:
    error(UO->getOperatorLoc(),
          "operator '" + UnaryOperator::getOpcodeStr(UO->getOpcode()).str() +
              "' is not supported in a tile kernel");
    return nullptr;
  }
}

} // namespace tilecc::frontend::lowering
