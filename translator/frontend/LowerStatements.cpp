//===- LowerStatements.cpp - Statements to TileIR -------------------------===//
//
// Blocks, declarations, `if`, loops and jumps. Structured IR from
// unstructured jumps: the statements after one that may jump are lowered
// where it does not, and loops that may exit early carry a flag.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstQueries.h"
#include "frontend/KernelLowering.h"
#include "ir/TypeRules.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace tilecc::frontend::lowering {

namespace {

/// Collects the local variables a statement assigns to: they become results
/// of `if` and carried values of `for`.
class AssignedVars : public RecursiveASTVisitor<AssignedVars> {
public:
  explicit AssignedVars(ASTContext &Ctx) : Ctx(Ctx) {}

  llvm::SetVector<const VarDecl *> Vars;
  /// The variables the statement declares itself.
  llvm::DenseSet<const VarDecl *> Declared;

  /// Of an 'if' whose condition is known at translation time only the
  /// branch taken is lowered (Lowering::lowerIf), so only it assigns.
  bool TraverseIfStmt(IfStmt *IS) {
    auto Taken = constantCondition(IS->getCond(), Ctx);
    if (IS->getInit() || IS->getConditionVariable() || !Taken)
      return RecursiveASTVisitor::TraverseIfStmt(IS);
    Stmt *Branch = *Taken ? IS->getThen() : IS->getElse();
    return !Branch || TraverseStmt(Branch);
  }

  bool VisitVarDecl(VarDecl *VD) {
    Declared.insert(VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      note(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() && C->getNumArgs() >= 1)
      note(C->getArg(0));
    return true;
  }

private:
  void note(const Expr *E) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        Vars.insert(VD);
  }

  ASTContext &Ctx;
};

} // namespace

Value *KernelLowering::lowerBody(const FunctionDecl &Fn, bool IsKernel,
                                 std::optional<Values> *TupleRet) {
  const JumpContext Saved = Jumps;
  Jumps = JumpContext{&Fn, IsKernel, TupleRet != nullptr};
  Values Ret = lowerSequence(statementsOf(Fn.getBody()));
  Jumps = Saved;
  if (Ret.empty() || Failed)
    return nullptr;
  if (TupleRet) {
    *TupleRet = std::move(Ret);
    return nullptr;
  }
  return Ret.front();
}

/// Lowers a list of statements some of which may jump (an early `return`,
/// a `continue`): the statements after one that may jump are lowered on
/// the paths where it does not, inside the branches of its `if`, so the IR
/// stays structured. Returns the values every path of a helper returns.
Values KernelLowering::lowerSequence(llvm::ArrayRef<const Stmt *> Stmts) {
  for (auto [I, S] : llvm::enumerate(Stmts)) {
    if (Failed)
      return {};
    const Stmt *Jump = firstJump(S);
    if (!Jump) {
      lowerStmt(S);
      continue;
    }
    setLoc(S->getBeginLoc());
    llvm::ArrayRef<const Stmt *> Rest = Stmts.drop_front(I + 1);
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      if (!Jumps.Broken)
        return lowerReturn(R);
      // Inside a loop: the loops end early (lowerBreakingLoop), what
      // follows them is skipped (below), and a value waits in the
      // function's result variable.
      if (R->getRetValue()) {
        Values V = resultOf(lowerReturn(R), R->getBeginLoc());
        if (V.size() != Jumps.Results.size())
          return {};
        for (auto [Var, Leaf] : llvm::zip(Jumps.Results, V))
          Env[Var] = Leaf;
      }
      Env[Jumps.Returned] = Env[Jumps.Broken] = B.boolConst(true);
      return {};
    }
    if (isLoop(S) && returns(S)) {
      if (!Jumps.Returned)
        Jumps.Returned = flag(S->getBeginLoc(), "returned");
      if (!Env.count(Jumps.Returned))
        Env[Jumps.Returned] = B.boolConst(false);
      if (!startResult(S))
        return {};
      lowerStmt(S);
      if (Failed)
        return {};
      setLoc(S->getBeginLoc());
      Value *Returned = Env[Jumps.Returned];
      // An enclosing loop ends too.
      if (Jumps.Broken)
        Env[Jumps.Broken] = Returned;
      return lowerWhere(
          B.create(OpKind::LogicalNot, Returned->type(), {Returned}), Rest);
    }
    if (isa<ContinueStmt>(S))
      return {}; // the rest of the iteration is skipped
    if (isa<BreakStmt>(S)) {
      // The rest of the iteration is skipped, and the loop's condition
      // reads the flag (lowerBreakingLoop).
      Env[Jumps.Broken] = B.boolConst(true);
      return {};
    }
    if (isa<CompoundStmt>(S)) {
      llvm::SmallVector<const Stmt *, 8> Flat = statementsOf(S);
      Flat.append(Rest.begin(), Rest.end());
      return lowerSequence(Flat);
    }
    if (const auto *IS = dyn_cast<IfStmt>(S))
      return lowerIf(IS, Rest);
    error(Jump->getBeginLoc(),
          "this jump is not supported in a tile kernel yet");
    return {};
  }
  return {};
}

/// An `if` on Cond, its regions yet to be added.
ir::Op *KernelLowering::appendIf(Value *Cond) {
  auto Op = std::make_unique<ir::Op>(OpKind::If, B.loc());
  Op->addOperand(Cond);
  return B.block()->append(std::move(Op));
}

/// What a list of statements assigns (carriedVars of each).
llvm::SetVector<const VarDecl *>
KernelLowering::carriedVars(llvm::ArrayRef<const Stmt *> Stmts) {
  llvm::SetVector<const VarDecl *> Carried;
  for (const Stmt *S : Stmts)
    for (const VarDecl *VD : carriedVars(S))
      Carried.insert(VD);
  return Carried;
}

/// A variable of type QT that the lowering carries like the user's: a
/// loop's exit flag, a helper's result.
const VarDecl *KernelLowering::variable(SourceLocation Loc,
                                        llvm::StringRef Name, QualType QT) {
  return VarDecl::Create(Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc,
                         &Ctx.Idents.get(Name), QT, nullptr, SC_None);
}

const VarDecl *KernelLowering::flag(SourceLocation Loc, llvm::StringRef Name) {
  return variable(Loc, Name, Ctx.BoolTy);
}

/// Rest, lowered where Cond holds: what follows a loop that may have
/// returned. Where Rest returns a value, the function's value is that or
/// the one the loop returned.
Values KernelLowering::lowerWhere(Value *Cond,
                                  llvm::ArrayRef<const Stmt *> Rest) {
  if (Rest.empty())
    return {};
  llvm::SetVector<const VarDecl *> Carried = carriedVars(Rest);
  ir::Op *If = appendIf(Cond);
  Block *Outer = B.block();
  const auto Before = Env;
  B.setBlock(*If->addRegion());
  Values Returned = lowerSequence(Rest);
  if (Failed)
    return {};
  Values Result;
  if (!Returned.empty() && !Jumps.Results.empty()) {
    Result = resultOf(Returned, Rest.back()->getBeginLoc());
    if (Result.size() != Jumps.Results.size())
      return {};
  }
  yieldCarried(Carried.getArrayRef(), *Outer, Result);
  Env = Before;
  B.setBlock(*If->addRegion());
  Values Loop;
  if (!Result.empty())
    for (const VarDecl *Var : Jumps.Results)
      Loop.push_back(Env[Var]);
  yieldCarried(Carried.getArrayRef(), *Outer, Loop);
  addCarriedResults(*If, Carried.getArrayRef());
  Values Out;
  for (Value *V : Result)
    Out.push_back(If->addResult(F.newValue(V->type())));
  return Out;
}

/// A helper's result variables (one per element of a tuple), when a loop
/// of S returns a value: they are carried like variables, from zeros of
/// the function's types, and set where the loop returns.
bool KernelLowering::startResult(const Stmt *S) {
  if (Jumps.IsKernel || Jumps.Fn->getReturnType()->isVoidType() ||
      (!Jumps.Results.empty() && Env.count(Jumps.Results.front())))
    return true;
  llvm::SmallVector<QualType, 4> Leaves;
  if (Jumps.ReturnsTuple)
    appendLeafTypes(Jumps.Fn->getReturnType(), Leaves);
  else
    Leaves.push_back(Jumps.Fn->getReturnType());
  const bool Create = Jumps.Results.empty();
  for (auto [I, Leaf] : llvm::enumerate(Leaves)) {
    auto T = lowerType(Leaf, S->getBeginLoc());
    if (!T)
      return false;
    if (Create)
      Jumps.Results.push_back(variable(
          S->getBeginLoc(),
          Jumps.ReturnsTuple ? "result_" + std::to_string(I) : "result", Leaf));
    Value *Zero = T->Elem.isPointer() ? B.nullPointer(T->Elem)
                                      : B.cast(B.intConst(0), T->Elem);
    Env[Jumps.Results[I]] =
        T->isScalar() ? Zero : B.broadcastTo(Zero, T->Shape);
  }
  return true;
}

/// V in the function's result types (a scalar converted; a tuple's
/// elements already are), as the result variables carry one type each.
Values KernelLowering::resultOf(Values V, SourceLocation Loc) {
  if (Jumps.ReturnsTuple || V.size() != 1)
    return V;
  auto T = lowerType(Jumps.Fn->getReturnType(), Loc);
  if (!T)
    return {};
  return {T->isScalar() ? B.cast(V.front(), T->Elem) : V.front()};
}

Values KernelLowering::lowerReturn(const ReturnStmt *R) {
  const Expr *RV = R->getRetValue();
  if (!RV)
    return {};
  if (Jumps.IsKernel) {
    error(R->getBeginLoc(), "a kernel cannot return a value");
    return {};
  }
  if (Jumps.ReturnsTuple && isAggregate(RV->getType())) {
    std::optional<Values> V = lowerTuple(RV);
    return V ? *V : Values{};
  }
  Value *V = lowerExpr(RV);
  return V ? Values{V} : Values{};
}

/// An `if`; one that may jump comes with the statements after it, Rest,
/// lowered in each branch that does not always jump (in both, twice, when
/// neither does). Returns the values both branches return, if they do.
Values KernelLowering::lowerIf(const IfStmt *IS,
                               llvm::ArrayRef<const Stmt *> Rest) {
  auto Continued = [&](const Stmt *Branch) {
    llvm::SmallVector<const Stmt *, 8> Stmts = statementsOf(Branch);
    if (!Branch || !alwaysJumps(Branch))
      Stmts.append(Rest.begin(), Rest.end());
    return Stmts;
  };
  if (IS->getInit() || IS->getConditionVariable()) {
    error(IS->getBeginLoc(), "'if' with an initializer is not supported yet");
    return {};
  }
  if (auto C = constantCondition(IS->getCond(), Ctx))
    return lowerSequence(Continued(*C ? IS->getThen() : IS->getElse()));
  Value *Cond = lowerExpr(IS->getCond());
  if (!Cond)
    return {};
  if (!Cond->type().isScalar()) {
    error(IS->getCond()->getBeginLoc(),
          "an 'if' condition must be a scalar; use tile::where for tiles");
    return {};
  }
  Cond = B.cast(Cond, ElemType{ScalarKind::I1});
  // `if (c) return;` reads best as `if (!c) { rest }`.
  const Stmt *Branches[] = {IS->getThen(), IS->getElse()};
  if (!IS->getElse() && isBareJump(IS->getThen())) {
    Cond = B.create(OpKind::LogicalNot, Cond->type(), {Cond});
    std::swap(Branches[0], Branches[1]);
  }
  // What the `if` and the rest assign is the `if`'s now.
  llvm::SmallVector<const Stmt *, 8> Assigning = {IS};
  Assigning.append(Rest.begin(), Rest.end());
  llvm::SetVector<const VarDecl *> Carried = carriedVars(Assigning);
  ir::Op *If = appendIf(Cond);
  const auto Before = Env;
  Values Returned[2];
  for (auto [I, Branch] : llvm::enumerate(Branches)) {
    Block *Region = If->addRegion();
    Env = Before;
    Block *Outer = B.block();
    B.setBlock(*Region);
    Returned[I] = resultOf(lowerSequence(Continued(Branch)), IS->getBeginLoc());
    if (Failed)
      return {};
    llvm::SmallVector<Value *, 4> Yields;
    for (const VarDecl *VD : Carried)
      Yields.push_back(Env[VD]);
    Yields.append(Returned[I].begin(), Returned[I].end());
    B.createVoid(OpKind::Yield, Yields);
    B.setBlock(*Outer);
  }
  Env = Before;
  addCarriedResults(*If, Carried.getArrayRef());
  if (Returned[0].empty() && Returned[1].empty())
    return {};
  auto TypeOf = [](Value *V) { return V->type(); };
  if (!llvm::equal(llvm::map_range(Returned[0], TypeOf),
                   llvm::map_range(Returned[1], TypeOf))) {
    error(IS->getBeginLoc(),
          "every path through this 'if' must return a value of the "
          "function's type");
    return {};
  }
  Values Out;
  for (Value *V : Returned[0])
    Out.push_back(If->addResult(F.newValue(V->type())));
  return Out;
}

void KernelLowering::lowerStmt(const Stmt *S) {
  if (Failed)
    return;
  setLoc(S->getBeginLoc());
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      lowerStmt(C);
    return;
  }
  if (isa<NullStmt>(S))
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return lowerDecl(DS);
  if (const auto *E = dyn_cast<Expr>(S)) {
    lowerExpr(E);
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S)) {
    lowerIf(IS);
    return;
  }
  if (const auto *FS = dyn_cast<ForStmt>(S))
    return lowerFor(FS);
  if (const auto *RS = dyn_cast<CXXForRangeStmt>(S))
    return lowerRangeFor(RS);
  if (const auto *WS = dyn_cast<WhileStmt>(S))
    return lowerWhile(WS);
  if (isa<CXXTryStmt>(S))
    return error(S->getBeginLoc(),
                 "exceptions cannot be used in a tile kernel");
  error(S->getBeginLoc(), std::string("'") + S->getStmtClassName() +
                              "' statements are not supported in a tile "
                              "kernel yet");
}

void KernelLowering::lowerDecl(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue; // using-declarations, typedefs, static_asserts
    if (isClosure(VD->getType())) {
      // A lambda object is inlined where it is called.
      if (const LambdaExpr *LE = lambdaOf(VD->getInit());
          LE && !recordCaptures(LE))
        return;
      continue;
    }
    if (const auto *DD = dyn_cast<DecompositionDecl>(VD)) {
      lowerBindings(DD);
      if (Failed)
        return;
      continue;
    }
    if (isAggregate(VD->getType()) && VD->hasLocalStorage() && VD->hasInit()) {
      auto T = lowerTuple(VD->getInit());
      if (!T)
        return;
      bindAggregate(VD, *T);
      continue;
    }
    if (!VD->hasLocalStorage()) {
      if (VD->isConstexpr() || VD->getType().isConstQualified())
        continue; // read through constant evaluation where used
      error(VD->getLocation(),
            "static variables cannot be used in a tile kernel");
      return;
    }
    if (!VD->hasInit()) {
      error(VD->getLocation(),
            "variables in a tile kernel must be initialized");
      return;
    }
    Value *V = lowerExpr(VD->getInit());
    if (!V)
      return;
    auto T = lowerType(VD->getType(), VD->getLocation());
    if (!T)
      return;
    if (T->isScalar())
      V = B.cast(V, T->Elem);
    if (V->name().empty())
      V->setName(VD->getName());
    Env[VD] = V;
  }
}

/// `auto [a, b] = tuple;` binds each name to an element.
void KernelLowering::lowerBindings(const DecompositionDecl *DD) {
  if (!stdTuple(DD->getType())) {
    error(DD->getLocation(), "structured bindings in a tile kernel must "
                             "unpack a std::tuple");
    return;
  }
  auto T = lowerTuple(DD->getInit());
  if (!T)
    return;
  const auto *TS = stdTuple(DD->getType());
  for (auto [I, BD] : llvm::enumerate(DD->bindings())) {
    auto [Offset, Count] = elementLeaves(TS, I);
    if (stdTuple(BD->getType())) {
      bindAggregate(BD,
                    Values(T->begin() + Offset, T->begin() + Offset + Count));
      continue;
    }
    Value *V = (*T)[Offset];
    if (V->name().empty())
      V->setName(BD->getName());
    Env[BD] = V;
  }
}

/// Gives block R one argument per carried variable and binds the
/// variables to them.
void KernelLowering::addCarriedArguments(
    Block &R, llvm::ArrayRef<const VarDecl *> Carried) {
  for (const VarDecl *VD : Carried) {
    Value *A = R.addArgument(F.newValue(Env[VD]->type()));
    A->setName(VD->getName());
    Env[VD] = A;
  }
}

/// Ends the current block with a yield of the carried variables' values
/// (and Extra, a value the region returns, after them) and continues in
/// Outer.
void KernelLowering::yieldCarried(llvm::ArrayRef<const VarDecl *> Carried,
                                  Block &Outer, llvm::ArrayRef<Value *> Extra) {
  llvm::SmallVector<Value *, 4> Yields;
  for (const VarDecl *VD : Carried)
    Yields.push_back(Env[VD]);
  Yields.append(Extra.begin(), Extra.end());
  B.createVoid(OpKind::Yield, Yields);
  B.setBlock(Outer);
}

/// Gives Op one result per carried variable and binds the variables to
/// them.
void KernelLowering::addCarriedResults(
    ir::Op &Op, llvm::ArrayRef<const VarDecl *> Carried) {
  for (const VarDecl *VD : Carried) {
    Value *R = Op.addResult(F.newValue(Env[VD]->type()));
    R->setName(VD->getName());
    Env[VD] = R;
  }
}

/// Variables assigned in S that already have a value: the values an `if`
/// or `for` must produce. Those S declares are its own, even when an
/// earlier call of the same function left them a value. LoopBody: S is
/// the body of the loop being built, where any `return` sets the flags.
llvm::SmallVector<const VarDecl *, 4>
KernelLowering::carriedVars(const Stmt *S, bool LoopBody) {
  AssignedVars AV(Ctx);
  AV.TraverseStmt(const_cast<Stmt *>(S));
  llvm::SmallVector<const VarDecl *, 4> Out;
  for (const VarDecl *VD : AV.Vars) {
    if (AV.Declared.count(VD))
      continue;
    if (Env.count(VD))
      Out.push_back(VD);
    else if (auto It = AggregateVars.find(VD); It != AggregateVars.end())
      Out.append(It->second.begin(), It->second.end());
  }
  // A `break` or `return` assigns its loop's flag, a `return` the
  // function's.
  if (Jumps.Broken && exitsLoop(S))
    Out.push_back(Jumps.Broken);
  // Inside a loop any `return` sets the flags; outside, one in a loop.
  if (Jumps.Returned && Env.count(Jumps.Returned) &&
      (LoopBody || Jumps.Broken ? returns(S) : returnsFromLoop(S))) {
    Out.push_back(Jumps.Returned);
    for (const VarDecl *Var : Jumps.Results)
      if (Env.count(Var))
        Out.push_back(Var);
  }
  return Out;
}

/// Accepts `for (T i = lo; i < hi; ++i | i++ | i += step)`.
void KernelLowering::lowerFor(const ForStmt *FS) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(FS->getInit());
  const VarDecl *IV = Init && Init->isSingleDecl()
                          ? dyn_cast<VarDecl>(Init->getSingleDecl())
                          : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreImplicit() : nullptr);
  auto RefersToIV = [&](const Expr *E) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == IV;
  };
  if (!IV || !IV->hasInit() || !Cond ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) ||
      !RefersToIV(Cond->getLHS()) || !FS->getInc())
    return error(FS->getBeginLoc(),
                 "'for' loops must have the form 'for (int i = lo; i < hi; "
                 "i += step)'");
  const Expr *StepExpr = nullptr;
  const Expr *Inc = FS->getInc()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
      UO && UO->isIncrementOp() && RefersToIV(UO->getSubExpr())) {
    StepExpr = nullptr;
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
             CA && CA->getOpcode() == BO_AddAssign &&
             RefersToIV(CA->getLHS())) {
    StepExpr = CA->getRHS();
  } else {
    return error(FS->getInc()->getBeginLoc(),
                 "a 'for' loop must step with '++i' or 'i += step'");
  }
  lowerLoop(FS->getBeginLoc(), IV, IV->getInit(), Cond->getRHS(), StepExpr,
            Cond->getOpcode() == BO_LE, 0, FS->getBody());
}

/// Accepts `for (T i : tile::range(lo, hi[, step[, num_stages[,
/// loop_unroll_factor]]]))`, Triton's tl.range: the same loop as `for (T i
/// = lo; i < hi; i += step)`, with constant hints for the software
/// pipeliner and for unrolling.
void KernelLowering::lowerRangeFor(const CXXForRangeStmt *FS) {
  // IgnoreImplicit also looks through the temporary the range binds.
  const auto *Call = dyn_cast<CallExpr>(FS->getRangeInit()->IgnoreImplicit());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || tileOpName(Callee) != "range")
    return error(FS->getRangeInit()->getBeginLoc(),
                 "a range-based 'for' loop in a tile kernel must iterate "
                 "over tile::range(lo, hi, step, num_stages)");
  const VarDecl *IV = FS->getLoopVariable();
  if (IV->getType()->isReferenceType())
    return error(IV->getLocation(), "the induction variable of a "
                                    "'for' loop cannot be a reference");
  auto Arg = [&](unsigned I) -> const Expr * {
    return I < Call->getNumArgs() && !isa<CXXDefaultArgExpr>(Call->getArg(I))
               ? Call->getArg(I)
               : nullptr;
  };
  int64_t Stages = 0;
  if (const Expr *E = Arg(3)) {
    auto N = constantArg(E, "num_stages");
    if (!N)
      return;
    // 0 is the default: the configuration's num_stages.
    if (*N < 0 || *N > 8)
      return error(E->getExprLoc(),
                   "num_stages must be between 0 (the configuration's) "
                   "and 8, not " +
                       std::to_string(*N));
    Stages = *N;
  }
  int64_t Unroll = 0;
  if (const Expr *E = Arg(4)) {
    auto N = constantArg(E, "loop_unroll_factor");
    if (!N)
      return;
    if (*N < 0 || *N > MaxUnrollFactor)
      return error(E->getExprLoc(),
                   "loop_unroll_factor must be between 0 (the compiler's "
                   "choice) and " +
                       std::to_string(MaxUnrollFactor) + ", not " +
                       std::to_string(*N));
    Unroll = *N;
  }
  lowerLoop(FS->getBeginLoc(), IV, Arg(0), Arg(1), Arg(2), false,
            unsigned(Stages), FS->getBody(), unsigned(Unroll));
}

/// A for op over [Lo, Hi) (Hi included when Inclusive) by Step (1 when
/// null) with induction variable IV.
void KernelLowering::lowerLoop(SourceLocation Loc, const VarDecl *IV,
                               const Expr *LoExpr, const Expr *HiExpr,
                               const Expr *StepExpr, bool Inclusive,
                               unsigned NumStages, const Stmt *LoopBody,
                               unsigned UnrollFactor) {
  AssignedVars InBody(Ctx);
  InBody.TraverseStmt(const_cast<Stmt *>(LoopBody));
  if (InBody.Vars.count(IV))
    return error(Loc, "the induction variable of a 'for' loop cannot be "
                      "assigned in its body");

  auto IVType = lowerType(IV->getType(), IV->getLocation());
  if (!IVType || !IVType->isScalar() || !isInteger(IVType->Elem.Kind))
    return error(IV->getLocation(),
                 "the induction variable must be an integer");
  Value *Lo = lowerExpr(LoExpr);
  Value *Hi = Lo ? lowerExpr(HiExpr) : nullptr;
  Value *Step =
      StepExpr ? lowerExpr(StepExpr) : B.intConst(1, IVType->Elem.Kind);
  if (!Lo || !Hi || !Step)
    return;
  Lo = B.cast(Lo, IVType->Elem);
  Hi = B.cast(Hi, IVType->Elem);
  Step = B.cast(Step, IVType->Elem);
  if (Inclusive)
    Hi = B.create(OpKind::Add, Hi->type(),
                  {Hi, B.intConst(1, IVType->Elem.Kind)});
  if (exitsLoop(LoopBody)) {
    Env[IV] = Lo;
    lowerBreakingLoop(
        Loc, IV,
        [&] {
          return B.create(OpKind::CmpLT, Type::scalar(ScalarKind::I1),
                          {Env[IV], Hi});
        },
        LoopBody,
        [&] {
          Env[IV] = B.create(OpKind::Add, *IVType, {Env[IV], Step});
          Env[IV]->setName(IV->getName());
        });
    Env.erase(IV);
    return;
  }

  const VarDecl *Enclosing = std::exchange(Jumps.Broken, nullptr);
  llvm::SmallVector<const VarDecl *, 4> Carried = carriedVars(LoopBody);
  setLoc(Loc); // the loop itself is at its `for`
  auto Op = std::make_unique<ir::Op>(OpKind::For, B.loc());
  Op->setNumStagesHint(NumStages);
  Op->setUnrollHint(UnrollFactor);
  for (Value *V : {Lo, Hi, Step})
    Op->addOperand(V);
  for (const VarDecl *VD : Carried)
    Op->addOperand(Env[VD]);
  ir::Op *For = B.block()->append(std::move(Op));
  Block *Body = For->addRegion();
  Value *IVArg = Body->addArgument(F.newValue(*IVType));
  IVArg->setName(IV->getName());
  Env[IV] = IVArg;
  addCarriedArguments(*Body, Carried);
  Block *Outer = B.block();
  B.setBlock(*Body);
  lowerSequence(statementsOf(LoopBody)); // `continue` ends an iteration
  Jumps.Broken = Enclosing;
  if (Failed)
    return;
  yieldCarried(Carried, *Outer);
  Env.erase(IV);
  addCarriedResults(*For, Carried);
}

/// A while op that carries Carried: Cond lowers the condition region's
/// bool (null after an error), Body the body region.
void KernelLowering::buildWhile(llvm::ArrayRef<const VarDecl *> Carried,
                                llvm::function_ref<Value *()> Cond,
                                llvm::function_ref<void()> Body) {
  auto Op = std::make_unique<ir::Op>(OpKind::While, B.loc());
  for (const VarDecl *VD : Carried)
    Op->addOperand(Env[VD]);
  ir::Op *While = B.block()->append(std::move(Op));
  Block *Outer = B.block();
  const auto Before = Env;
  auto EnterRegion = [&] {
    Block *R = While->addRegion();
    addCarriedArguments(*R, Carried);
    B.setBlock(*R);
  };
  EnterRegion();
  Value *C = Cond();
  if (!C)
    return;
  B.createVoid(OpKind::Yield, {C});
  Env = Before;
  EnterRegion();
  Body();
  if (Failed)
    return;
  yieldCarried(Carried, *Outer);
  Env = Before;
  addCarriedResults(*While, Carried);
}

/// A loop whose body may `break`, as a while loop that carries a flag the
/// `break` sets (lowerSequence): Cond, lowered in the condition region, is
/// not evaluated once the flag is set, as C++ does not evaluate it after a
/// `break`; EndOfIteration (a `for` loop's step) ends every iteration,
/// `continue`d ones too. IV, if not null, is carried as well.
void KernelLowering::lowerBreakingLoop(
    SourceLocation Loc, const VarDecl *IV, llvm::function_ref<Value *()> Cond,
    const Stmt *LoopBody, llvm::function_ref<void()> EndOfIteration) {
  const VarDecl *Enclosing = std::exchange(Jumps.Broken, nullptr);
  llvm::SmallVector<const VarDecl *, 4> Carried =
      carriedVars(LoopBody, /*LoopBody=*/true);
  Jumps.Broken = flag(Loc, "broke");
  Env[Jumps.Broken] = B.boolConst(false);
  Carried.push_back(Jumps.Broken);
  if (IV)
    Carried.push_back(IV);
  setLoc(Loc);
  const Type Bool = Type::scalar(ScalarKind::I1);
  buildWhile(
      Carried,
      [&]() -> Value * {
        // if (!broke) c = Cond(); else c = false;
        ir::Op *Unbroken =
            appendIf(B.create(OpKind::LogicalNot, Bool, {Env[Jumps.Broken]}));
        Block *CondBlock = B.block();
        B.setBlock(*Unbroken->addRegion());
        Value *C = Cond();
        if (!C)
          return nullptr;
        B.createVoid(OpKind::Yield, {C});
        B.setBlock(*Unbroken->addRegion());
        B.createVoid(OpKind::Yield, {B.boolConst(false)});
        B.setBlock(*CondBlock);
        return Unbroken->addResult(F.newValue(Bool));
      },
      [&] {
        lowerSequence(statementsOf(LoopBody));
        if (Failed)
          return;
        setLoc(Loc);
        EndOfIteration();
      });
  Env.erase(Jumps.Broken);
  Jumps.Broken = Enclosing;
}

/// `while (cond) body`: the condition is evaluated before every
/// iteration (it may have side effects, such as a spin lock's atomic_cas)
/// and cannot assign variables.
void KernelLowering::lowerWhile(const WhileStmt *WS) {
  if (WS->getConditionVariable())
    return error(WS->getBeginLoc(), "a 'while' condition cannot declare a "
                                    "variable in a tile kernel");
  AssignedVars InCond(Ctx);
  InCond.TraverseStmt(const_cast<Expr *>(WS->getCond()));
  if (!InCond.Vars.empty())
    return error(WS->getCond()->getBeginLoc(),
                 "the condition of a 'while' loop cannot assign variables "
                 "in a tile kernel");
  auto Cond = [&]() -> Value * {
    Value *C = lowerExpr(WS->getCond());
    if (C && !C->type().isScalar()) {
      error(WS->getCond()->getBeginLoc(),
            "a 'while' condition must be a scalar");
      return nullptr;
    }
    return C ? B.cast(C, ElemType{ScalarKind::I1}) : nullptr;
  };
  if (exitsLoop(WS->getBody()))
    return lowerBreakingLoop(WS->getBeginLoc(), nullptr, Cond, WS->getBody(),
                             [] {});
  const VarDecl *Enclosing = std::exchange(Jumps.Broken, nullptr);
  buildWhile(carriedVars(WS->getBody()), Cond,
             [&] { lowerSequence(statementsOf(WS->getBody())); });
  Jumps.Broken = Enclosing;
}

} // namespace tilecc::frontend::lowering
