//===- Lowering.cpp - Instantiated kernel bodies to TileIR ----------------===//
//
// Walks the Clang AST of one instantiated kernel and builds TileIR. Local
// variables are tracked in an environment (VarDecl -> current SSA value);
// `if` and `for` turn the variables they assign into op results and
// loop-carried values. Calls to tile:: operations are recognised only by the
// TILE_OP annotation on the callee; other callees with a visible body (helper
// functions, lambdas) are inlined. Types of tile results come from Clang,
// which resolved them against tile/tile.hpp.
//
//===----------------------------------------------------------------------===//
#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "ir/TypeRules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <limits>

using namespace clang;
using namespace tilecc::ir;

namespace tilecc::frontend {

// Clang has a Type too; in this file Type is always TileIR's.
using Type = ir::Type;

namespace {

/// The name in a TILE_OP("name") annotation on FD, its template pattern or
/// its primary template, or "" when FD is not a tile:: operation.
llvm::StringRef tileOpName(const FunctionDecl *FD) {
  auto Find = [](const FunctionDecl *D) -> llvm::StringRef {
    if (!D)
      return "";
    for (const auto *A : D->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "tile.op" && A->args_size() == 1)
        if (const auto *SL = dyn_cast<StringLiteral>(
                A->args_begin()[0]->IgnoreParenImpCasts()))
          return SL->getString();
    return "";
  };
  if (llvm::StringRef N = Find(FD); !N.empty())
    return N;
  if (llvm::StringRef N = Find(FD->getTemplateInstantiationPattern());
      !N.empty())
    return N;
  if (const auto *FT = FD->getPrimaryTemplate())
    return Find(FT->getTemplatedDecl());
  return "";
}

bool isInTileNamespace(const Decl *D, llvm::StringRef Name) {
  const auto *ND = dyn_cast<NamedDecl>(D);
  return ND && ND->getQualifiedNameAsString() == ("tile::" + Name).str();
}

/// The std::tuple specialization QT names (through references), or null.
const ClassTemplateSpecializationDecl *stdTuple(QualType QT) {
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      QT.getNonReferenceType()->getAsCXXRecordDecl());
  if (!TS || !TS->isInStdNamespace() || TS->getName() != "tuple")
    return nullptr;
  return TS;
}

/// Whether QT is a lambda's closure type (through references).
bool isClosure(QualType QT) {
  const CXXRecordDecl *RD = QT.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isLambda();
}

/// The lambda expression E is, through copies and temporaries, or null.
const LambdaExpr *lambdaOf(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *LE = dyn_cast<LambdaExpr>(E))
      return LE;
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (const auto *CC = dyn_cast<CXXConstructExpr>(E);
             CC && CC->getNumArgs() == 1)
      E = CC->getArg(0);
    else
      return nullptr;
  }
  return nullptr;
}

/// The element types of a std::tuple specialization.
llvm::SmallVector<QualType, 4>
tupleElements(const ClassTemplateSpecializationDecl *TS) {
  llvm::SmallVector<QualType, 4> Out;
  for (const TemplateArgument &A : TS->getTemplateArgs()[0].pack_elements())
    Out.push_back(A.getAsType());
  return Out;
}

/// How many values (tiles and scalars) a value of type QT is lowered to: a
/// std::tuple holds its elements', nested tuples flattened.
unsigned leafCount(QualType QT) {
  const auto *TS = stdTuple(QT);
  if (!TS)
    return 1;
  unsigned N = 0;
  for (QualType E : tupleElements(TS))
    N += leafCount(E);
  return N;
}

/// The types of those values, in order.
void appendLeafTypes(QualType QT, llvm::SmallVectorImpl<QualType> &Out) {
  if (const auto *TS = stdTuple(QT))
    for (QualType E : tupleElements(TS))
      appendLeafTypes(E, Out);
  else
    Out.push_back(QT);
}

/// Where element I of tuple TS lies among its values: offset and count.
std::pair<unsigned, unsigned>
elementLeaves(const ClassTemplateSpecializationDecl *TS, unsigned I) {
  auto Elems = tupleElements(TS);
  unsigned Offset = 0;
  for (unsigned J = 0; J < I; ++J)
    Offset += leafCount(Elems[J]);
  return {Offset, leafCount(Elems[I])};
}

bool isStdFunction(const FunctionDecl *FD, llvm::StringRef Name) {
  return FD->isInStdNamespace() && FD->getIdentifier() && FD->getName() == Name;
}

/// The value of a condition known at translation time (a template
/// argument's test), if it is one.
std::optional<bool> constantCondition(const Expr *E, const ASTContext &Ctx) {
  bool R;
  if (!E->isValueDependent() && E->EvaluateAsBooleanCondition(R, Ctx))
    return R;
  return std::nullopt;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

/// The first `return` in S, or `break`/`continue` of the loop around S (not
/// of a loop inside it): a jump out of the statement list S is in. Lambdas
/// are functions of their own.
const Stmt *firstJump(const Stmt *S, bool InInnerLoop = false) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<ReturnStmt>(S))
    return S;
  if (isa<BreakStmt, ContinueStmt>(S))
    return InInnerLoop ? nullptr : S;
  for (const Stmt *C : S->children())
    if (const Stmt *J = firstJump(C, InInnerLoop || isLoop(S)))
      return J;
  return nullptr;
}

/// Whether S holds a `return`, or a `break` of the loop around it (not of
/// a loop inside it): a way out of that loop other than its condition.
bool exitsLoop(const Stmt *S, bool InInnerLoop = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (isa<BreakStmt>(S))
    return !InInnerLoop;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return exitsLoop(C, InInnerLoop || isLoop(S));
  });
}

/// Whether S holds a `return`.
bool returns(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  return isa<ReturnStmt>(S) || llvm::any_of(S->children(), returns);
}

/// Whether S holds a `return` inside a loop (S itself may be the loop):
/// one that sets the function's `returned` flag.
bool returnsFromLoop(const Stmt *S, bool InLoop = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return InLoop;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return returnsFromLoop(C, InLoop || isLoop(S));
  });
}

/// Whether every path through S ends in a jump, so that what follows S in
/// its list never runs after it.
bool alwaysJumps(const Stmt *S) {
  if (isa<ReturnStmt, BreakStmt, ContinueStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(CS->body(), alwaysJumps);
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return IS->getElse() && alwaysJumps(IS->getThen()) &&
           alwaysJumps(IS->getElse());
  return false;
}

/// The statements of a block, or the one statement that is not a block.
llvm::SmallVector<const Stmt *, 8> statementsOf(const Stmt *S) {
  if (!S)
    return {};
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::SmallVector<const Stmt *, 8>(CS->body());
  return {S};
}

/// Whether S is only a `continue` or a `return` without a value.
bool isBareJump(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 8> Stmts = statementsOf(S);
  if (Stmts.size() != 1)
    return false;
  if (const auto *R = dyn_cast<ReturnStmt>(Stmts[0]))
    return !R->getRetValue();
  return isa<ContinueStmt>(Stmts[0]);
}

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

class Lowering {
public:
  Lowering(ASTContext &Ctx, Function &F, ReportedErrors &Reported)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
        Reported(Reported), F(F), B(F, F.body()) {}

  bool lowerKernel(const FunctionDecl &K) {
    for (const ParmVarDecl *P : K.parameters()) {
      // The launch wrapper appends these parameters to the kernel's.
      if (P->getName() == "stream" || P->getName() == "config") {
        error(P->getLocation(), "the parameter name '" + P->getName().str() +
                                    "' is reserved by the launch wrapper");
        return false;
      }
      if (P->getName().empty()) {
        error(P->getLocation(), "kernel parameters must be named: the launch "
                                "wrapper passes them by name");
        return false;
      }
      auto T = lowerType(P->getType(), P->getLocation());
      if (!T)
        return false;
      if (!T->isScalar()) {
        error(P->getLocation(), "kernel parameters must be scalars or "
                                "pointers, not tiles");
        return false;
      }
      Value *Arg = F.body().addArgument(F.newValue(*T));
      Arg->setName(P->getName());
      PrintingPolicy Policy(Ctx.getLangOpts());
      Policy.SuppressTagKeyword = true;
      Policy.FullyQualifiedName = true;
      F.Params.push_back(
          {P->getName().str(), P->getType().getAsString(Policy), Arg});
      Env[P] = Arg;
    }
    F.Specs.assign(F.Params.size(), ParamSpec::None);
    InlineStack.push_back(&K);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(K.getBody());
    if (!Body) {
      error(K.getLocation(), "kernel has no body");
      return false;
    }
    lowerBody(K, /*IsKernel=*/true);
    return !Failed;
  }

private:
  //===--- Diagnostics ----------------------------------------------------===//

  void error(SourceLocation L, llvm::StringRef Msg) {
    Failed = true;
    SourceLocation At = userLoc(L);
    if (Reported.insert({At.getRawEncoding(), Msg.str()}).second)
      Diags.Report(At, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
          << Msg;
  }

  /// Errors inside tile.hpp or a helper in another file are reported where
  /// the kernel called into them.
  SourceLocation userLoc(SourceLocation L) {
    L = SM.getExpansionLoc(L);
    if (L.isValid() && isUserFile(L))
      return L;
    return CallSite.isValid() ? CallSite : L;
  }

  void setLoc(SourceLocation L) {
    SourceLocation U = SM.getExpansionLoc(L);
    if (U.isInvalid() || !isUserFile(U))
      return;
    B.setLoc({SM.getExpansionLineNumber(U), SM.getExpansionColumnNumber(U)});
  }

  /// The translation unit is the user's file (plus instantiation requests
  /// appended to it); locations elsewhere are in headers.
  bool isUserFile(SourceLocation L) { return SM.isInMainFile(L); }

  //===--- Types ----------------------------------------------------------===//

  std::optional<ScalarKind> scalarKind(QualType QT) {
    QT = QT.getCanonicalType().getUnqualifiedType();
    if (const auto *BT = QT->getAs<BuiltinType>()) {
      switch (BT->getKind()) {
      case BuiltinType::Bool:
        return ScalarKind::I1;
      case BuiltinType::Char_S:
      case BuiltinType::SChar:
        return ScalarKind::I8;
      case BuiltinType::Char_U:
      case BuiltinType::UChar:
        return ScalarKind::U8;
      case BuiltinType::Short:
        return ScalarKind::I16;
      case BuiltinType::UShort:
        return ScalarKind::U16;
      case BuiltinType::Int:
        return ScalarKind::I32;
      case BuiltinType::UInt:
        return ScalarKind::U32;
      case BuiltinType::Long:
      case BuiltinType::LongLong:
        return ScalarKind::I64;
      case BuiltinType::ULong:
      case BuiltinType::ULongLong:
        return ScalarKind::U64;
      case BuiltinType::Float:
        return ScalarKind::F32;
      case BuiltinType::Double:
        return ScalarKind::F64;
      default:
        return std::nullopt;
      }
    }
    if (const auto *RD = QT->getAsCXXRecordDecl())
      for (ScalarKind K : scalarKinds())
        if (!tileTypeName(K).empty() && isInTileNamespace(RD, tileTypeName(K)))
          return K;
    return std::nullopt;
  }

  std::optional<ElemType> elemType(QualType QT) {
    QT = QT.getNonReferenceType();
    if (const auto *PT = QT.getCanonicalType()->getAs<PointerType>()) {
      auto K = scalarKind(PT->getPointeeType());
      if (!K)
        return std::nullopt;
      return ElemType{ScalarKind::Ptr, *K,
                      PT->getPointeeType().isConstQualified()};
    }
    if (auto K = scalarKind(QT))
      return ElemType{*K};
    return std::nullopt;
  }

  std::optional<Type> lowerType(QualType QT, SourceLocation L) {
    QT = QT.getNonReferenceType();
    if (auto E = elemType(QT))
      return Type::scalar(*E);
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            QT.getCanonicalType()->getAsCXXRecordDecl());
        Spec && isInTileNamespace(Spec->getSpecializedTemplate(), "tensor")) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      auto E = elemType(Args[0].getAsType());
      if (!E) {
        error(L, "tile element type '" + Args[0].getAsType().getAsString() +
                     "' is not supported");
        return std::nullopt;
      }
      llvm::SmallVector<int64_t, 2> Shape;
      for (const TemplateArgument &D : Args[1].pack_elements())
        Shape.push_back(D.getAsIntegral().getExtValue());
      return Type::tensor(*E, Shape);
    }
    error(L, "type '" + QT.getAsString() +
                 "' cannot be used in a tile kernel (use arithmetic scalars, "
                 "pointers to them, tile::half, tile::bfloat16, "
                 "tile::float8_e4m3, tile::float8_e5m2 or tile::tensor)");
    return std::nullopt;
  }

  //===--- Statements -----------------------------------------------------===//

  /// Lowers a function body; for inlined helpers, returns the value of the
  /// final `return`.
  /// The values of a std::tuple expression, one per element.
  using Values = llvm::SmallVector<Value *, 4>;

  Value *lowerBody(const FunctionDecl &Fn, bool IsKernel,
                   std::optional<Values> *TupleRet = nullptr) {
    const JumpContext Saved = Jumps;
    Jumps = JumpContext{&Fn, IsKernel, TupleRet};
    Value *Ret = lowerSequence(statementsOf(Fn.getBody()));
    Jumps = Saved;
    return Ret;
  }

  /// Lowers a list of statements some of which may jump (an early `return`,
  /// a `continue`): the statements after one that may jump are lowered on
  /// the paths where it does not, inside the branches of its `if`, so the IR
  /// stays structured. Returns the value every path of a helper returns.
  Value *lowerSequence(llvm::ArrayRef<const Stmt *> Stmts) {
    for (auto [I, S] : llvm::enumerate(Stmts)) {
      if (Failed)
        return nullptr;
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
          Value *V = lowerReturnInLoop(R);
          if (!V)
            return nullptr;
          Env[Jumps.Result] = V;
        }
        Env[Jumps.Returned] = Env[Jumps.Broken] = B.boolConst(true);
        return nullptr;
      }
      if (isLoop(S) && returns(S)) {
        if (!Jumps.Returned)
          Jumps.Returned = flag(S->getBeginLoc(), "returned");
        if (!Env.count(Jumps.Returned))
          Env[Jumps.Returned] = B.boolConst(false);
        if (!startResult(S))
          return nullptr;
        lowerStmt(S);
        if (Failed)
          return nullptr;
        setLoc(S->getBeginLoc());
        Value *Returned = Env[Jumps.Returned];
        // An enclosing loop ends too.
        if (Jumps.Broken)
          Env[Jumps.Broken] = Returned;
        return lowerWhere(
            B.create(OpKind::LogicalNot, Returned->type(), {Returned}), Rest);
      }
      if (isa<ContinueStmt>(S))
        return nullptr; // the rest of the iteration is skipped
      if (isa<BreakStmt>(S)) {
        // The rest of the iteration is skipped, and the loop's condition
        // reads the flag (lowerBreakingLoop).
        Env[Jumps.Broken] = B.boolConst(true);
        return nullptr;
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
      return nullptr;
    }
    return nullptr;
  }

  /// An `if` on Cond, its regions yet to be added.
  ir::Op *appendIf(Value *Cond) {
    auto Op = std::make_unique<ir::Op>(OpKind::If, B.loc());
    Op->addOperand(Cond);
    return B.block()->append(std::move(Op));
  }

  /// What a list of statements assigns (carriedVars of each).
  llvm::SetVector<const VarDecl *>
  carriedVars(llvm::ArrayRef<const Stmt *> Stmts) {
    llvm::SetVector<const VarDecl *> Carried;
    for (const Stmt *S : Stmts)
      for (const VarDecl *VD : carriedVars(S))
        Carried.insert(VD);
    return Carried;
  }

  /// A variable of type QT that the lowering carries like the user's: a
  /// loop's exit flag, a helper's result.
  const VarDecl *variable(SourceLocation Loc, llvm::StringRef Name,
                          QualType QT) {
    return VarDecl::Create(Ctx, Ctx.getTranslationUnitDecl(), Loc, Loc,
                           &Ctx.Idents.get(Name), QT, nullptr, SC_None);
  }

  const VarDecl *flag(SourceLocation Loc, llvm::StringRef Name) {
    return variable(Loc, Name, Ctx.BoolTy);
  }

  /// Rest, lowered where Cond holds: what follows a loop that may have
  /// returned. Where Rest returns a value, the function's value is that or
  /// the one the loop returned.
  Value *lowerWhere(Value *Cond, llvm::ArrayRef<const Stmt *> Rest) {
    if (Rest.empty())
      return nullptr;
    llvm::SetVector<const VarDecl *> Carried = carriedVars(Rest);
    ir::Op *If = appendIf(Cond);
    Block *Outer = B.block();
    const auto Before = Env;
    B.setBlock(*If->addRegion());
    Value *Returned = lowerSequence(Rest);
    if (Failed)
      return nullptr;
    Value *Result = Returned && Jumps.Result
                        ? resultOf(Returned, Rest.back()->getBeginLoc())
                        : nullptr;
    if (Returned && Jumps.Result && !Result)
      return nullptr;
    yieldCarried(Carried.getArrayRef(), *Outer, Result);
    Env = Before;
    B.setBlock(*If->addRegion());
    yieldCarried(Carried.getArrayRef(), *Outer,
                 Result ? Env[Jumps.Result] : nullptr);
    addCarriedResults(*If, Carried.getArrayRef());
    return Result ? If->addResult(F.newValue(Result->type())) : nullptr;
  }

  /// A helper's result variable, when a loop of S returns a value: it is
  /// carried like a variable, from a zero of the function's type, and
  /// set where the loop returns.
  bool startResult(const Stmt *S) {
    if (Jumps.IsKernel || Jumps.Fn->getReturnType()->isVoidType() ||
        Env.count(Jumps.Result))
      return true;
    if (Jumps.TupleRet) {
      error(S->getBeginLoc(), "a function returning a std::tuple cannot "
                              "return from inside a loop in a tile kernel");
      return false;
    }
    auto T = lowerType(Jumps.Fn->getReturnType(), S->getBeginLoc());
    if (!T)
      return false;
    if (!Jumps.Result)
      Jumps.Result =
          variable(S->getBeginLoc(), "result", Jumps.Fn->getReturnType());
    Value *Zero = T->Elem.isPointer() ? B.nullPointer(T->Elem)
                                      : B.cast(B.intConst(0), T->Elem);
    Env[Jumps.Result] = T->isScalar() ? Zero : B.broadcastTo(Zero, T->Shape);
    return true;
  }

  /// The value of `return v;` inside a loop, in the function's type.
  Value *lowerReturnInLoop(const ReturnStmt *R) {
    Value *V = lowerReturn(R);
    return V ? resultOf(V, R->getBeginLoc()) : nullptr;
  }

  /// V in the function's result type (a scalar converted), as the result
  /// variable carries one type.
  Value *resultOf(Value *V, SourceLocation Loc) {
    auto T = lowerType(Jumps.Fn->getReturnType(), Loc);
    if (!T)
      return nullptr;
    return T->isScalar() ? B.cast(V, T->Elem) : V;
  }

  Value *lowerReturn(const ReturnStmt *R) {
    const Expr *RV = R->getRetValue();
    if (!RV)
      return nullptr;
    if (Jumps.IsKernel) {
      error(R->getBeginLoc(), "a kernel cannot return a value");
      return nullptr;
    }
    if (Jumps.TupleRet && stdTuple(RV->getType())) {
      if (Jumps.Branches)
        error(R->getBeginLoc(), "a function returning a std::tuple can "
                                "only return at its end in a tile kernel");
      else
        *Jumps.TupleRet = lowerTuple(RV);
      return nullptr;
    }
    return lowerExpr(RV);
  }

  /// An `if`; one that may jump comes with the statements after it, Rest,
  /// lowered in each branch that does not always jump (in both, twice, when
  /// neither does). Returns the value both branches return, if they do.
  Value *lowerIf(const IfStmt *IS, llvm::ArrayRef<const Stmt *> Rest = {}) {
    auto Continued = [&](const Stmt *Branch) {
      llvm::SmallVector<const Stmt *, 8> Stmts = statementsOf(Branch);
      if (!Branch || !alwaysJumps(Branch))
        Stmts.append(Rest.begin(), Rest.end());
      return Stmts;
    };
    if (IS->getInit() || IS->getConditionVariable()) {
      error(IS->getBeginLoc(), "'if' with an initializer is not supported yet");
      return nullptr;
    }
    if (auto C = constantCondition(IS->getCond(), Ctx))
      return lowerSequence(Continued(*C ? IS->getThen() : IS->getElse()));
    Value *Cond = lowerExpr(IS->getCond());
    if (!Cond)
      return nullptr;
    if (!Cond->type().isScalar()) {
      error(IS->getCond()->getBeginLoc(),
            "an 'if' condition must be a scalar; use tile::where for tiles");
      return nullptr;
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
    std::optional<Type> ReturnType;
    Value *Returned[2] = {nullptr, nullptr};
    ++Jumps.Branches;
    for (auto [I, Branch] : llvm::enumerate(Branches)) {
      Block *Region = If->addRegion();
      Env = Before;
      Block *Outer = B.block();
      B.setBlock(*Region);
      Returned[I] = lowerSequence(Continued(Branch));
      if (Failed)
        return nullptr;
      llvm::SmallVector<Value *, 4> Yields;
      for (const VarDecl *VD : Carried)
        Yields.push_back(Env[VD]);
      if (Returned[I]) {
        ReturnType = lowerType(Jumps.Fn->getReturnType(), IS->getBeginLoc());
        if (!ReturnType)
          return nullptr;
        Yields.push_back(ReturnType->isScalar()
                             ? B.cast(Returned[I], ReturnType->Elem)
                             : Returned[I]);
      }
      B.createVoid(OpKind::Yield, Yields);
      B.setBlock(*Outer);
    }
    --Jumps.Branches;
    Env = Before;
    addCarriedResults(*If, Carried.getArrayRef());
    if (!Returned[0] && !Returned[1])
      return nullptr;
    if (!Returned[0] || !Returned[1] ||
        Returned[0]->type() != Returned[1]->type()) {
      error(IS->getBeginLoc(),
            "every path through this 'if' must return a value of the "
            "function's type");
      return nullptr;
    }
    return If->addResult(F.newValue(Returned[0]->type()));
  }

  void lowerStmt(const Stmt *S) {
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

  void lowerDecl(const DeclStmt *DS) {
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
      if (stdTuple(VD->getType()) && VD->hasLocalStorage() && VD->hasInit()) {
        auto T = lowerTuple(VD->getInit());
        if (!T)
          return;
        TupleEnv[VD] = *T;
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
  void lowerBindings(const DecompositionDecl *DD) {
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
        TupleEnv[BD] = Values(T->begin() + Offset, T->begin() + Offset + Count);
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
  void addCarriedArguments(Block &R, llvm::ArrayRef<const VarDecl *> Carried) {
    for (const VarDecl *VD : Carried) {
      Value *A = R.addArgument(F.newValue(Env[VD]->type()));
      A->setName(VD->getName());
      Env[VD] = A;
    }
  }

  /// Ends the current block with a yield of the carried variables' values
  /// (and Extra, a value the region returns, after them) and continues in
  /// Outer.
  void yieldCarried(llvm::ArrayRef<const VarDecl *> Carried, Block &Outer,
                    Value *Extra = nullptr) {
    llvm::SmallVector<Value *, 4> Yields;
    for (const VarDecl *VD : Carried)
      Yields.push_back(Env[VD]);
    if (Extra)
      Yields.push_back(Extra);
    B.createVoid(OpKind::Yield, Yields);
    B.setBlock(Outer);
  }

  /// Gives Op one result per carried variable and binds the variables to
  /// them.
  void addCarriedResults(ir::Op &Op, llvm::ArrayRef<const VarDecl *> Carried) {
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
  llvm::SmallVector<const VarDecl *, 4> carriedVars(const Stmt *S,
                                                    bool LoopBody = false) {
    AssignedVars AV(Ctx);
    AV.TraverseStmt(const_cast<Stmt *>(S));
    llvm::SmallVector<const VarDecl *, 4> Out;
    for (const VarDecl *VD : AV.Vars)
      if (Env.count(VD) && !AV.Declared.count(VD))
        Out.push_back(VD);
    // A `break` or `return` assigns its loop's flag, a `return` the
    // function's.
    if (Jumps.Broken && exitsLoop(S))
      Out.push_back(Jumps.Broken);
    // Inside a loop any `return` sets the flags; outside, one in a loop.
    if (Jumps.Returned && Env.count(Jumps.Returned) &&
        (LoopBody || Jumps.Broken ? returns(S) : returnsFromLoop(S))) {
      Out.push_back(Jumps.Returned);
      if (Jumps.Result && Env.count(Jumps.Result))
        Out.push_back(Jumps.Result);
    }
    return Out;
  }

  /// Accepts `for (T i = lo; i < hi; ++i | i++ | i += step)`.
  void lowerFor(const ForStmt *FS) {
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

  /// Accepts `for (T i : tile::range(lo, hi[, step[, num_stages]]))`,
  /// Triton's tl.range: the same loop as `for (T i = lo; i < hi; i +=
  /// step)`, with a constant num_stages hint for the software pipeliner.
  void lowerRangeFor(const CXXForRangeStmt *FS) {
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
    lowerLoop(FS->getBeginLoc(), IV, Arg(0), Arg(1), Arg(2), false,
              unsigned(Stages), FS->getBody());
  }

  /// A for op over [Lo, Hi) (Hi included when Inclusive) by Step (1 when
  /// null) with induction variable IV.
  void lowerLoop(SourceLocation Loc, const VarDecl *IV, const Expr *LoExpr,
                 const Expr *HiExpr, const Expr *StepExpr, bool Inclusive,
                 unsigned NumStages, const Stmt *LoopBody) {
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
  void buildWhile(llvm::ArrayRef<const VarDecl *> Carried,
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
  void lowerBreakingLoop(SourceLocation Loc, const VarDecl *IV,
                         llvm::function_ref<Value *()> Cond,
                         const Stmt *LoopBody,
                         llvm::function_ref<void()> EndOfIteration) {
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
  void lowerWhile(const WhileStmt *WS) {
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

  //===--- Tuples ---------------------------------------------------------===//

  /// Lowers an expression of std::tuple type to one value per element:
  /// std::tuple{...}, std::make_tuple and std::tie, tuple variables, the
  /// tuple forms of tile::reduce and tile::associative_scan, and inlined
  /// calls that return a tuple.
  std::optional<Values> lowerTuple(const Expr *E) {
    const auto *TS = stdTuple(E->getType());
    while (true) {
      if (const auto *P = dyn_cast<ParenExpr>(E))
        E = P->getSubExpr();
      else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
        E = C->getSubExpr();
      else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
        E = M->getSubExpr();
      else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
        E = BT->getSubExpr();
      else if (const auto *CE = dyn_cast<CastExpr>(E);
               CE && (CE->getCastKind() == CK_NoOp ||
                      CE->getCastKind() == CK_LValueToRValue ||
                      CE->getCastKind() == CK_ConstructorConversion))
        E = CE->getSubExpr();
      else
        break;
    }
    std::optional<Values> Out;
    setLoc(E->getExprLoc());
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (auto It = TupleEnv.find(DR->getDecl()); It != TupleEnv.end())
        Out = It->second;
    } else if (const auto *CC = dyn_cast<CXXConstructExpr>(E)) {
      if (CC->getNumArgs() == 1 && stdTuple(CC->getArg(0)->getType()))
        Out = lowerTuple(CC->getArg(0)); // a copy or a conversion
      else
        Out = lowerElements(CC->arguments());
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      llvm::StringRef Op = Callee ? tileOpName(Callee) : "";
      if (Callee && isStdFunction(Callee, "get"))
        Out = lowerTupleElement(Call);
      else if (Callee && (isStdFunction(Callee, "make_tuple") ||
                          isStdFunction(Callee, "tie") ||
                          isStdFunction(Callee, "forward_as_tuple")))
        Out = lowerElements(Call->arguments());
      else if (Op == "reduce" || Op == "associative_scan")
        Out = lowerCombineOp(Op, Call);
      else if (Callee && Op.empty())
        inlineCall(Call, Callee, &Out);
    }
    if (Failed)
      return std::nullopt;
    if (!Out || !TS) {
      error(E->getExprLoc(), "this std::tuple expression is not supported in "
                             "a tile kernel");
      return std::nullopt;
    }
    // Elements take the tuple's element types.
    llvm::SmallVector<QualType, 4> Elems;
    appendLeafTypes(E->getType(), Elems);
    if (Elems.size() != Out->size()) {
      error(E->getExprLoc(), "tuple has the wrong number of elements");
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

  /// The values of std::get<I>(tuple): one, or a nested tuple's.
  std::optional<Values> lowerTupleElement(const CallExpr *CE) {
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

  /// The values of the arguments that build a tuple; a tuple among them
  /// contributes its own.
  std::optional<Values> lowerElements(CallExpr::const_arg_range Args) {
    Values Out;
    for (const Expr *A : Args) {
      if (stdTuple(A->getType())) {
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

  //===--- Expressions ----------------------------------------------------===//

  /// Folds side-effect-free scalar expressions Clang can evaluate (template
  /// arguments, literals, constexpr values) into constants.
  Value *tryConstant(const Expr *E) {
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

  Value *lowerExpr(const Expr *E) {
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
    if (isa<CXXThrowExpr>(E))
      return error(E->getExprLoc(),
                   "exceptions cannot be used in a tile kernel"),
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

  static bool isAssignmentLike(const Expr *E) {
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      return BO->isAssignmentOp();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->isIncrementDecrementOp();
    return false;
  }

  Value *lowerDeclRef(const DeclRefExpr *DR) {
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

  Value *lowerCast(const CastExpr *CE) {
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

  Value *lowerConstruct(const CXXConstructExpr *CC) {
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
  Value *assign(const Expr *Target, Value *V) {
    const auto *DR = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!VD || !Env.count(VD)) {
      error(Target->getExprLoc(),
            "only local variables can be assigned in a tile kernel");
      return nullptr;
    }
    if (!V)
      return nullptr;
    V = B.cast(V, Env[VD]->type().Elem);
    if (V->name().empty())
      V->setName(VD->getName());
    Env[VD] = V;
    return V;
  }

  static std::optional<OpKind> binaryOpKind(BinaryOperatorKind K) {
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
  Value *lowerBinary(const BinaryOperator *BO) {
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

  Value *lowerScalarPointerArith(const BinaryOperator *BO) {
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

  Value *lowerUnary(const UnaryOperator *UO) {
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

  //===--- Calls ----------------------------------------------------------===//

  Value *lowerCall(const CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      error(CE->getExprLoc(), "indirect calls are not supported in a tile "
                              "kernel");
      return nullptr;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
        MD && MD->isVirtual()) {
      error(CE->getExprLoc(), "virtual calls are not supported in a tile "
                              "kernel");
      return nullptr;
    }
    llvm::StringRef OpName = tileOpName(Callee);
    if (!OpName.empty())
      return lowerTileOp(OpName, CE);
    if (isStdFunction(Callee, "get") && CE->getNumArgs() == 1 &&
        stdTuple(CE->getArg(0)->getType())) {
      auto T = lowerTupleElement(CE);
      return T ? T->front() : nullptr;
    }
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
        MD &&
        (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()))
      return assign(CE->getArg(0), lowerExpr(CE->getArg(1)));
    if (llvm::StringRef Name = libraryFunction(Callee); !Name.empty())
      return lowerLibraryCall(Name, CE);
    return inlineCall(CE, Callee);
  }

  /// The <cmath> or <algorithm> function that Callee is, by its standard
  /// name (std::sqrt, ::sqrtf and __builtin_sqrtf are all "sqrt"), or ""
  /// for any other function, whose body is inlined instead.
  static llvm::StringRef libraryFunction(const FunctionDecl *Callee) {
    static const llvm::StringSet<> Names = {
        "sqrt", "exp",   "exp2", "log",   "log2",  "sin",   "cos",     "tanh",
        "pow",  "floor", "ceil", "erf",   "fabs",  "abs",   "fma",     "fmax",
        "fmin", "max",   "min",  "clamp", "isnan", "isinf", "isfinite"};
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
  Value *lowerLibraryCall(llvm::StringRef Name, const CallExpr *CE) {
    const SourceLocation L = CE->getExprLoc();
    static const llvm::StringSet<> Binary = {"fmax", "fmin", "max", "min",
                                             "pow"};
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
  static llvm::StringRef tileSpelling(llvm::StringRef Name) {
    return llvm::StringSwitch<llvm::StringRef>(Name)
        .Case("fabs", "abs")
        .Case("fmax", "maximum")
        .Case("max", "maximum")
        .Case("fmin", "minimum")
        .Case("min", "minimum")
        .Default(Name);
  }

  /// Inlines a helper function or lambda whose body is visible. A callee
  /// returning a std::tuple leaves its values in TupleRet.
  Value *inlineCall(const CallExpr *CE, const FunctionDecl *Callee,
                    std::optional<Values> *TupleRet = nullptr) {
    const FunctionDecl *Def = nullptr;
    if (!Callee->hasBody(Def) || !Def) {
      error(CE->getExprLoc(),
            "call to '" + Callee->getQualifiedNameAsString() +
                "' cannot be translated: a tile kernel can call tile:: "
                "operations and functions whose definition is visible");
      return nullptr;
    }
    if (llvm::is_contained(InlineStack, Def->getCanonicalDecl())) {
      error(CE->getExprLoc(), "recursive call to '" +
                                  Callee->getNameAsString() +
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
      if (stdTuple(P->getType())) {
        auto T = lowerTuple(CE->getArg(I));
        if (!T)
          return nullptr;
        TupleEnv[P] = *T;
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
  bool recordCaptures(const LambdaExpr *LE) {
    if (LE->isMutable()) {
      error(LE->getBeginLoc(),
            "mutable lambdas cannot be used in a tile kernel");
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
  Value *inlineBody(SourceLocation CallLoc, const FunctionDecl *Def,
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
  std::optional<int64_t> constantArg(const Expr *E, llvm::StringRef What) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    error(E->getExprLoc(), What.str() + " must be a compile-time constant");
    return std::nullopt;
  }

  std::optional<int64_t> templateIntArg(const FunctionDecl *FD, unsigned I) {
    const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
    if (!Args || I >= Args->size() ||
        (*Args)[I].getKind() != TemplateArgument::Integral)
      return std::nullopt;
    return (*Args)[I].getAsIntegral().getExtValue();
  }

  /// Broadcasts V (scalar or tile) to Shape after casting its elements to E.
  Value *operand(Value *V, ElemType E, llvm::ArrayRef<int64_t> Shape) {
    return B.broadcastTo(B.cast(V, E), Shape);
  }

  Value *lowerTileOp(llvm::StringRef Name, const CallExpr *CE) {
    SourceLocation L = CE->getExprLoc();
    if (Name == "reduce" || Name == "associative_scan" || Name == "cumsum" ||
        Name == "cumprod") {
      auto R = lowerCombineOp(Name, CE);
      return R ? R->front() : nullptr;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    llvm::SmallVector<const Expr *, 4> ArgEs(CE->arguments());
    std::optional<Type> RT;
    if (!CE->getType()->isVoidType()) {
      RT = lowerType(CE->getType(), L);
      if (!RT)
        return nullptr;
    }
    // Compound assignment operators (`acc += x`) are the binary op followed
    // by an assignment to the left operand.
    bool Compound = false;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      Compound = OC->isAssignmentOp();
    if (Compound) {
      RT = lowerType(ArgEs[0]->getType(), L);
      if (!RT)
        return nullptr;
    }

    auto K = opKindFromSpelling(Name);
    if (Name == "subptr")
      K = OpKind::AddPtr;
    else if (Name == "zeros" || Name == "full" || Name == "broadcast_to")
      K = OpKind::Splat;
    if (!K) {
      error(L, "tile operation '" + Name.str() +
                   "' is not supported by this version of tilecc");
      return nullptr;
    }

    // Atomics' memory order and scope, and dot's input precision, are
    // compile-time enumerators.
    bool IsAtomic = isAtomicRMW(*K) || *K == OpKind::AtomicCas;
    if (IsAtomic && ArgEs.size() > 3)
      ArgEs.resize(3);
    std::optional<int64_t> Precision;
    if (*K == OpKind::Dot) {
      Precision = constantArg(ArgEs.back(), "the input precision");
      if (!Precision)
        return nullptr;
      ArgEs.pop_back();
    }
    llvm::SmallVector<Value *, 4> Args;
    if (Name != "zeros" && *K != OpKind::ProgramId && *K != OpKind::NumPrograms)
      for (const Expr *A : ArgEs) {
        Value *V = lowerExpr(A);
        if (!V)
          return nullptr;
        Args.push_back(V);
      }
    setLoc(L);

    Value *Result = nullptr;
    switch (*K) {
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      auto Axis = constantArg(ArgEs[0], "the axis of " + Name.str());
      if (!Axis)
        return nullptr;
      if (*Axis < 0 || *Axis > 2) {
        error(ArgEs[0]->getExprLoc(), Name.str() +
                                          " axis must be 0, 1, or 2 but got " +
                                          std::to_string(*Axis));
        return nullptr;
      }
      Result = B.create(*K, Type::scalar(ScalarKind::I32), {});
      Result->definingOp()->setIntAttr(*Axis);
      break;
    }
    case OpKind::Arange: {
      const TemplateArgumentList *TA = Callee->getTemplateSpecializationArgs();
      int64_t Start = TA && TA->size() == 2 ? *templateIntArg(Callee, 0) : 0;
      Result = B.create(OpKind::Arange, *RT, {});
      Result->definingOp()->setIntAttr(Start);
      break;
    }
    case OpKind::Splat:
      if (Name == "zeros")
        Result = B.broadcastTo(B.cast(B.intConst(0), RT->Elem), RT->Shape);
      else
        Result = operand(Args[0], RT->Elem, RT->Shape);
      break;
    case OpKind::ExpandDims: {
      auto Axis = templateIntArg(Callee, 0);
      int64_t A = Axis ? *Axis : 0;
      if (A < 0)
        A += RT->rank();
      Result = B.create(OpKind::ExpandDims, *RT, {Args[0]});
      Result->definingOp()->setIntAttr(A);
      break;
    }
    case OpKind::Cast:
      Result = B.cast(Args[0], RT->Elem);
      break;
    case OpKind::Cdiv:
      Result = B.create(OpKind::Cdiv, *RT,
                        {B.cast(Args[0], RT->Elem), B.cast(Args[1], RT->Elem)});
      break;
    case OpKind::AddPtr: {
      unsigned P = Args[0]->type().Elem.isPointer() ? 0 : 1;
      Value *Off = Args[1 - P];
      if (!isInteger(Off->type().Elem.Kind)) {
        error(L, "pointer offsets must be integers");
        return nullptr;
      }
      if (Name == "subptr")
        Off = B.create(OpKind::Neg, Off->type(), {Off});
      Result = B.create(
          OpKind::AddPtr, *RT,
          {B.broadcastTo(Args[P], RT->Shape), B.broadcastTo(Off, RT->Shape)});
      break;
    }
    case OpKind::Load:
      Result = lowerLoad(Args, *RT, L);
      break;
    case OpKind::ReduceSum:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
    case OpKind::ReduceXor:
    case OpKind::ArgMax:
    case OpKind::ArgMin:
      Result = lowerReduce(*K, Callee, Args[0], *RT, L);
      break;
    case OpKind::Dot:
      Result = lowerDot(Args, *RT, *Precision);
      break;
    case OpKind::Trans:
      Result = B.create(OpKind::Trans, *RT, {Args[0]});
      break;
    case OpKind::Store:
      lowerStore(Args, L);
      return nullptr;
    case OpKind::DebugBarrier:
    case OpKind::GdcWait:
    case OpKind::GdcLaunchDependents:
      B.createVoid(*K, {});
      return nullptr;
    default:
      if (IsAtomic) {
        Result = lowerAtomic(*K, Args, *RT, CE, L);
        break;
      }
      if (!constantsFit(*K, ArgEs, Args, *RT))
        return nullptr;
      Result = lowerElementwise(*K, Args, *RT);
      break;
    }
    if (Compound && Result)
      return assign(ArgEs[0], Result);
    return Result;
  }

  /// Axis counted from the end when negative, or an error naming What
  /// ("reduction", "scan") when the tile has no such axis.
  std::optional<int64_t> axisOf(int64_t Axis, int64_t Rank,
                                llvm::StringRef What, SourceLocation L) {
    int64_t A = Axis < 0 ? Axis + Rank : Axis;
    if (A >= 0 && A < Rank)
      return A;
    error(L, What.str() + " axis " + std::to_string(Axis) +
                 " is out of range for a rank-" + std::to_string(Rank) +
                 " tile");
    return std::nullopt;
  }

  /// sum<Axis, KeepDims>(x) and friends; without an axis, the whole tile.
  /// The header gives the result's element type (the accumulation type:
  /// sums of half accumulate in float); the input is converted to it first.
  Value *lowerReduce(OpKind K, const FunctionDecl *Callee, Value *X,
                     const Type &RT, SourceLocation L) {
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
      R->definingOp()->setIntAttr(Axis);
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
      E->definingOp()->setIntAttr(A);
      return E;
    }
    return R;
  }

  /// reduce<Axis, KeepDims>(x, combine), associative_scan<Axis,
  /// Reverse>(x, combine), cumsum and cumprod, where x is a tile or a
  /// std::tuple of tiles of one shape. The combine becomes the op's region.
  std::optional<Values> lowerCombineOp(llvm::StringRef Name,
                                       const CallExpr *CE) {
    SourceLocation L = CE->getExprLoc();
    const FunctionDecl *Callee = CE->getDirectCallee();
    bool IsScan = Name != "reduce";
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
    if (Name == "cumsum" || Name == "cumprod") {
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

    auto NewOp = std::make_unique<ir::Op>(
        IsScan ? OpKind::Scan : OpKind::Reduce, B.loc());
    if (IsScan)
      NewOp->setScan(A, Flag);
    else
      NewOp->setIntAttr(A);
    llvm::SmallVector<int64_t, 2> Shape(XT.Shape);
    if (!IsScan)
      Shape.erase(Shape.begin() + A);
    for (Value *X : Xs) {
      NewOp->addOperand(X);
      NewOp->addResult(F.newValue(Type::tensor(X->type().Elem, Shape)));
    }
    ir::Op *Op = B.block()->append(std::move(NewOp));
    if (!lowerCombine(Name, CE, *Op))
      return std::nullopt;

    Values Out;
    for (const auto &R : Op->results()) {
      Value *V = R.get();
      if (!IsScan && Flag) { // KeepDims
        Type KT = XT;
        KT.Elem = V->type().Elem;
        KT.Shape[A] = 1;
        V = B.create(OpKind::ExpandDims, KT, {V});
        V->definingOp()->setIntAttr(A);
      }
      Out.push_back(V);
    }
    return Out;
  }

  /// Builds Op's combine region: (accumulated..., next...) -> new values,
  /// from the user's combine (a lambda or a function) or, for cumsum and
  /// cumprod, an add or multiply.
  bool lowerCombine(llvm::StringRef Name, const CallExpr *CE, ir::Op &Op) {
    unsigned N = Op.numResults();
    Block *Region = Op.addRegion();
    for (unsigned I = 0; I < 2 * N; ++I)
      Region->addArgument(
          F.newValue(Type::scalar(Op.result(I % N)->type().Elem)));
    Block *Outer = B.block();
    B.setBlock(*Region);
    Values Yields;
    if (Name == "cumsum" || Name == "cumprod") {
      Region->argument(0)->setName("a");
      Region->argument(1)->setName("b");
      Yields.push_back(B.create(Name == "cumsum" ? OpKind::Add : OpKind::Mul,
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
                  (N == 1
                       ? std::string("one value")
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
  const FunctionDecl *combineFunction(const Expr *Arg, const ir::Op &Op) {
    const FunctionDecl *Fn = nullptr;
    const Expr *E = Arg->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      Fn = dyn_cast<FunctionDecl>(DR->getDecl());
    const CXXRecordDecl *RD = Arg->getType()->getAsCXXRecordDecl();
    if (RD && RD->isLambda()) {
      if (const FunctionTemplateDecl *FT =
              RD->getDependentLambdaCallOperator()) {
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
  bool takesCombineArgs(const FunctionDecl *Fn, const ir::Op &Op,
                        bool Exact = false) {
    unsigned N = Op.numResults();
    if (Fn->getNumParams() != 2 * N)
      return false;
    for (unsigned I = 0; I < 2 * N; ++I) {
      auto E = elemType(Fn->getParamDecl(I)->getType());
      if (!E || E->isPointer() ||
          (Exact && *E != Op.result(I % N)->type().Elem))
        return false;
    }
    return true;
  }

  /// dot(a, b[, acc]): without acc, the result starts from zeros. (The
  /// generator checks the shared memory its operands are staged in against
  /// the target's.)
  Value *lowerDot(llvm::ArrayRef<Value *> Args, const Type &RT,
                  int64_t Precision) {
    Value *Acc = Args.size() > 2
                     ? B.cast(Args[2], RT.Elem)
                     : B.broadcastTo(B.cast(B.intConst(0), RT.Elem), RT.Shape);
    Value *R = B.create(OpKind::Dot, RT, {Args[0], Args[1], Acc});
    R->definingOp()->setIntAttr(Precision);
    return R;
  }

  Value *lowerLoad(llvm::ArrayRef<Value *> Args, const Type &RT,
                   SourceLocation L) {
    Value *Ptrs = Args[0];
    llvm::SmallVector<Value *, 3> Ops{Ptrs};
    if (Args.size() >= 2)
      Ops.push_back(
          operand(Args[1], ElemType{ScalarKind::I1}, Ptrs->type().Shape));
    if (Args.size() >= 3)
      Ops.push_back(operand(Args[2], RT.Elem, Ptrs->type().Shape));
    return B.create(OpKind::Load, RT, Ops);
  }

  void lowerStore(llvm::ArrayRef<Value *> Args, SourceLocation L) {
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
    B.createVoid(OpKind::Store, Ops);
  }

  /// atomic_*(ptrs, value, mask, order, scope) and atomic_cas(ptrs, cmp,
  /// value, order, scope): values take the pointee type and the pointers'
  /// shape; order and scope are constants.
  Value *lowerAtomic(OpKind K, llvm::ArrayRef<Value *> Args, const Type &RT,
                     const CallExpr *CE, SourceLocation L) {
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
  bool constantsFit(OpKind K, llvm::ArrayRef<const Expr *> ArgEs,
                    llvm::ArrayRef<Value *> Args, const Type &RT) {
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
  ElemType compareType(Value *A, Value *Bv) {
    const ElemType &EA = A->type().Elem, &EB = Bv->type().Elem;
    if (EA.isPointer())
      return EA;
    bool SA = A->type().isScalar(), SB = Bv->type().isScalar();
    if (SA != SB)
      return ElemType{
          promoteWithScalar(SA ? EB.Kind : EA.Kind, SA ? EA.Kind : EB.Kind)};
    return ElemType{promote(EA.Kind, EB.Kind)};
  }

  Value *lowerElementwise(OpKind K, llvm::ArrayRef<Value *> Args,
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

  ASTContext &Ctx;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  ReportedErrors &Reported;
  Function &F;
  Builder B;
  llvm::DenseMap<const ValueDecl *, Value *> Env;
  llvm::DenseMap<const ValueDecl *, Values> TupleEnv;
  /// What each lambda (by closure type) captured by copy, and the value.
  llvm::DenseMap<const CXXRecordDecl *,
                 llvm::SmallVector<std::pair<const ValueDecl *, Value *>, 4>>
      CopiedCaptures;
  llvm::SmallVector<const FunctionDecl *, 4> InlineStack;
  /// Where the statements being lowered may jump to.
  struct JumpContext {
    const FunctionDecl *Fn = nullptr; // whose `return`s they are
    bool IsKernel = false;
    std::optional<Values> *TupleRet = nullptr;
    /// The `if` branches a jump has put the rest of the function in.
    unsigned Branches = 0;
    /// The flag that ends the innermost loop early (lowerBreakingLoop), if
    /// it has a `break` or a `return`.
    const VarDecl *Broken = nullptr;
    /// The flag a `return` inside a loop sets.
    const VarDecl *Returned = nullptr;
    /// The value such a `return` leaves, in a helper with one.
    const VarDecl *Result = nullptr;
  };
  JumpContext Jumps;
  SourceLocation CallSite;
  bool Failed = false;
};

} // namespace

std::unique_ptr<Function> lowerKernel(ASTContext &Ctx,
                                      const FunctionDecl &Kernel,
                                      ReportedErrors &Reported) {
  auto F = std::make_unique<Function>();
  F->Name = Kernel.getNameAsString();
  Lowering L(Ctx, *F, Reported);
  if (!L.lowerKernel(Kernel))
    return nullptr;
  return F;
}

} // namespace tilecc::frontend
