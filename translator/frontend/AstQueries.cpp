//===- AstQueries.cpp - Questions the lowering asks of the AST ------------===//
#include "frontend/AstQueries.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

namespace tilecc::frontend::lowering {

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

namespace {

/// Whether generated code sees alias D: declared in a system header or
/// inside namespace tile.
bool aliasVisible(const TypedefNameDecl *D, const ASTContext &Ctx) {
  if (Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
    return true;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getName() == "tile" && NS->getParent()->isTranslationUnit())
      return true;
  return false;
}

/// QT through the aliases generated code does not see, down its pointers.
QualType withoutUserAliases(QualType QT, const ASTContext &Ctx) {
  const Qualifiers Quals = QT.getLocalQualifiers();
  const Type *T = QT.getTypePtr();
  if (const auto *E = dyn_cast<ElaboratedType>(T)) {
    const QualType Named = withoutUserAliases(E->getNamedType(), Ctx);
    if (Named != E->getNamedType())
      return Ctx.getQualifiedType(Named, Quals);
  } else if (const auto *TT = dyn_cast<TypedefType>(T)) {
    if (!aliasVisible(TT->getDecl(), Ctx))
      return Ctx.getQualifiedType(withoutUserAliases(TT->desugar(), Ctx),
                                  Quals);
  } else if (const auto *P = dyn_cast<PointerType>(T)) {
    const QualType Pointee = withoutUserAliases(P->getPointeeType(), Ctx);
    if (Pointee != P->getPointeeType())
      return Ctx.getQualifiedType(Ctx.getPointerType(Pointee), Quals);
  }
  return QT;
}

} // namespace

std::string hostTypeSpelling(QualType QT, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = true;
  return withoutUserAliases(QT, Ctx).getAsString(Policy);
}

const ClassTemplateSpecializationDecl *stdTuple(QualType QT) {
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      QT.getNonReferenceType()->getAsCXXRecordDecl());
  if (!TS || !TS->isInStdNamespace() ||
      (TS->getName() != "tuple" && TS->getName() != "pair"))
    return nullptr;
  return TS;
}

const ClassTemplateSpecializationDecl *tileAggregate(QualType QT) {
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      QT.getNonReferenceType()->getAsCXXRecordDecl());
  if (!TS || !(isInTileNamespace(TS, "tensor_descriptor") ||
               isInTileNamespace(TS, "block_ptr")))
    return nullptr;
  return TS;
}

bool isAggregate(QualType QT) { return stdTuple(QT) || tileAggregate(QT); }

llvm::SmallVector<int64_t, 4>
aggregateBlock(const ClassTemplateSpecializationDecl *TS) {
  llvm::SmallVector<int64_t, 4> Out;
  for (const TemplateArgument &A : TS->getTemplateArgs()[1].pack_elements())
    Out.push_back(A.getAsIntegral().getExtValue());
  return Out;
}

const Expr *skipTemporaries(const Expr *E) {
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
      return E;
  }
}

bool isClosure(QualType QT) {
  const CXXRecordDecl *RD = QT.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isLambda();
}

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

llvm::SmallVector<QualType, 4>
tupleElements(const ClassTemplateSpecializationDecl *TS) {
  llvm::SmallVector<QualType, 4> Out;
  if (TS->getName() == "pair")
    return {TS->getTemplateArgs()[0].getAsType(),
            TS->getTemplateArgs()[1].getAsType()};
  for (const TemplateArgument &A : TS->getTemplateArgs()[0].pack_elements())
    Out.push_back(A.getAsType());
  return Out;
}

unsigned leafCount(QualType QT) {
  llvm::SmallVector<QualType, 8> Leaves;
  appendLeafTypes(QT, Leaves);
  return Leaves.size();
}

void appendLeafTypes(QualType QT, llvm::SmallVectorImpl<QualType> &Out) {
  if (const auto *TS = stdTuple(QT)) {
    for (QualType E : tupleElements(TS))
      appendLeafTypes(E, Out);
  } else if (const auto *TA = tileAggregate(QT)) {
    for (const FieldDecl *FD : TA->fields()) {
      const auto *AT = dyn_cast<ConstantArrayType>(FD->getType().getTypePtr());
      for (uint64_t I = 0, N = AT ? AT->getSize().getZExtValue() : 1; I < N;
           ++I)
        Out.push_back(AT ? AT->getElementType() : FD->getType());
    }
  } else {
    Out.push_back(QT);
  }
}

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

std::optional<bool> constantCondition(const Expr *E, const ASTContext &Ctx) {
  bool R;
  if (!E->isValueDependent() && E->EvaluateAsBooleanCondition(R, Ctx))
    return R;
  return std::nullopt;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

const Stmt *firstJump(const Stmt *S, bool InInnerLoop) {
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

bool exitsLoop(const Stmt *S, bool InInnerLoop) {
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

bool returns(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  return isa<ReturnStmt>(S) || llvm::any_of(S->children(), returns);
}

bool returnsFromLoop(const Stmt *S, bool InLoop) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return InLoop;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return returnsFromLoop(C, InLoop || isLoop(S));
  });
}

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

llvm::SmallVector<const Stmt *, 8> statementsOf(const Stmt *S) {
  if (!S)
    return {};
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::SmallVector<const Stmt *, 8>(CS->body());
  return {S};
}

bool isBareJump(const Stmt *S) {
  llvm::SmallVector<const Stmt *, 8> Stmts = statementsOf(S);
  if (Stmts.size() != 1)
    return false;
  if (const auto *R = dyn_cast<ReturnStmt>(Stmts[0]))
    return !R->getRetValue();
  return isa<ContinueStmt>(Stmts[0]);
}

} // namespace tilecc::frontend::lowering
