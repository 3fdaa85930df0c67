//===- AstQueries.h - Questions the lowering asks of the AST ----*- C++ -*-===//
//
// Which tile:: operation a call is, what a std::tuple holds, where a
// statement may jump: facts read off Clang's AST, independent of the
// lowering's state.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_ASTQUERIES_H
#define TILECC_FRONTEND_ASTQUERIES_H

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <utility>

namespace tilecc::frontend::lowering {

using namespace clang;

/// The name in a TILE_OP("name") annotation on FD, its template pattern or
/// its primary template, or "" when FD is not a tile:: operation.
llvm::StringRef tileOpName(const FunctionDecl *FD);

bool isInTileNamespace(const Decl *D, llvm::StringRef Name);

/// How generated host code spells QT: fully qualified, without `struct`,
/// and through the aliases the user's own code declares (`using f8 =
/// tile::float8_e4m3;`), which the generated files cannot see; aliases
/// declared in namespace tile or in a system header (int8_t) stay.
std::string hostTypeSpelling(QualType QT, const ASTContext &Ctx);

/// The std::tuple or std::pair specialization QT names (through
/// references), or null: the lowering treats both as tuples.
const ClassTemplateSpecializationDecl *stdTuple(QualType QT);

/// The tile::tensor_descriptor or tile::block_ptr specialization QT names
/// (through references), or null: values the lowering holds as their
/// fields' values, like a tuple's.
const ClassTemplateSpecializationDecl *tileAggregate(QualType QT);

/// Whether QT is lowered to several values: a std::tuple or a tile
/// aggregate.
bool isAggregate(QualType QT);

/// The boxes' shape of a tile aggregate (its integer template arguments).
llvm::SmallVector<int64_t, 4>
aggregateBlock(const ClassTemplateSpecializationDecl *TS);

/// E without the parentheses, temporaries and no-op conversions around the
/// value it builds.
const Expr *skipTemporaries(const Expr *E);

/// Whether QT is a lambda's closure type (through references).
bool isClosure(QualType QT);

/// The lambda expression E is, through copies and temporaries, or null.
const LambdaExpr *lambdaOf(const Expr *E);

/// The element types of a std::tuple or std::pair specialization.
llvm::SmallVector<QualType, 4>
tupleElements(const ClassTemplateSpecializationDecl *TS);

/// How many values (tiles and scalars) a value of type QT is lowered to: a
/// std::tuple holds its elements', nested tuples flattened; a tile
/// aggregate its fields', an array field one per element.
unsigned leafCount(QualType QT);

/// The types of those values, in order.
void appendLeafTypes(QualType QT, llvm::SmallVectorImpl<QualType> &Out);

/// Where element I of tuple TS lies among its values: offset and count.
std::pair<unsigned, unsigned>
elementLeaves(const ClassTemplateSpecializationDecl *TS, unsigned I);

bool isStdFunction(const FunctionDecl *FD, llvm::StringRef Name);

/// The value of a condition known at translation time (a template
/// argument's test), if it is one.
std::optional<bool> constantCondition(const Expr *E, const ASTContext &Ctx);

bool isLoop(const Stmt *S);

/// The first `return` in S, or `break`/`continue` of the loop around S (not
/// of a loop inside it): a jump out of the statement list S is in. Lambdas
/// are functions of their own.
const Stmt *firstJump(const Stmt *S, bool InInnerLoop = false);

/// Whether S holds a `return`, or a `break` of the loop around it (not of
/// a loop inside it): a way out of that loop other than its condition.
bool exitsLoop(const Stmt *S, bool InInnerLoop = false);

/// Whether S holds a `return`.
bool returns(const Stmt *S);

/// Whether S holds a `return` inside a loop (S itself may be the loop):
/// one that sets the function's `returned` flag.
bool returnsFromLoop(const Stmt *S, bool InLoop = false);

/// Whether every path through S ends in a jump, so that what follows S in
/// its list never runs after it.
bool alwaysJumps(const Stmt *S);

/// The statements of a block, or the one statement that is not a block.
llvm::SmallVector<const Stmt *, 8> statementsOf(const Stmt *S);

/// Whether S is only a `continue` or a `return` without a value.
bool isBareJump(const Stmt *S);

} // namespace tilecc::frontend::lowering

#endif
