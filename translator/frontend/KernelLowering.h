//===- KernelLowering.h - One kernel's AST to TileIR ------------*- C++ -*-===//
//
// The state of lowering one instantiated kernel: the environment of local
// variables (VarDecl -> current SSA value), the builder, where jumps go. Its
// methods are defined by what they lower: Lowering.cpp (the kernel, types,
// diagnostics), LowerStatements.cpp, LowerExpressions.cpp (with tuples),
// LowerCalls.cpp (helpers and <cmath>), LowerTileOps.cpp and
// LowerCombines.cpp (reduce and scan with a user's combine). Private to the
// frontend.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_KERNELLOWERING_H
#define TILECC_FRONTEND_KERNELLOWERING_H

#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilecc::frontend::lowering {

using namespace clang;
using namespace tilecc::ir;
// Clang has a Type too; in the lowering Type is always TileIR's.
using Type = ir::Type;

/// The values of a std::tuple expression, one per element.
using Values = llvm::SmallVector<Value *, 4>;

class KernelLowering {
public:
  KernelLowering(ASTContext &Ctx, Function &F, ReportedErrors &Reported)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
        Reported(Reported), F(F), B(F, F.body()) {}
  bool lowerKernel(const FunctionDecl &K);

private:
  //===--- Diagnostics ----------------------------------------------------===//

  void error(SourceLocation L, llvm::StringRef Msg);

  /// Errors inside tile.hpp or a helper in another file are reported where
  /// the kernel called into them.
  SourceLocation userLoc(SourceLocation L);
  void setLoc(SourceLocation L);

  /// The translation unit is the user's file (plus instantiation requests
  /// appended to it); locations elsewhere are in headers.
  bool isUserFile(SourceLocation L);

  //===--- Types ----------------------------------------------------------===//

  std::optional<ScalarKind> scalarKind(QualType QT);
  std::optional<ElemType> elemType(QualType QT);
  std::optional<Type> lowerType(QualType QT, SourceLocation L);

  //===--- Statements -----------------------------------------------------===//

  /// Lowers a function body; for inlined helpers, returns the value of the
  /// final `return`.
  Value *lowerBody(const FunctionDecl &Fn, bool IsKernel,
                   std::optional<Values> *TupleRet = nullptr);

  /// Lowers a list of statements some of which may jump (an early `return`,
  /// a `continue`): the statements after one that may jump are lowered on
  /// the paths where it does not, inside the branches of its `if`, so the IR
  /// stays structured. Returns the values every path of a helper returns
  /// (one, or a tuple's), or none.
  Values lowerSequence(llvm::ArrayRef<const Stmt *> Stmts);

  /// An `if` on Cond, its regions yet to be added.
  ir::Op *appendIf(Value *Cond);

  /// What a list of statements assigns (carriedVars of each).
  llvm::SetVector<const VarDecl *>
  carriedVars(llvm::ArrayRef<const Stmt *> Stmts);

  /// A variable of type QT that the lowering carries like the user's: a
  /// loop's exit flag, a helper's result.
  const VarDecl *variable(SourceLocation Loc, llvm::StringRef Name,
                          QualType QT);
  const VarDecl *flag(SourceLocation Loc, llvm::StringRef Name);

  /// Rest, lowered where Cond holds: what follows a loop that may have
  /// returned. Where Rest returns a value, the function's value is that or
  /// the one the loop returned.
  Values lowerWhere(Value *Cond, llvm::ArrayRef<const Stmt *> Rest);

  /// A helper's result variables (one per element of a tuple), when a
  /// loop of S returns a value: they are carried like variables, from
  /// zeros of the function's types, and set where the loop returns.
  bool startResult(const Stmt *S);

  /// V in the function's result types (a scalar converted; a tuple's
  /// elements already are), as the result variables carry one type each.
  Values resultOf(Values V, SourceLocation Loc);
  /// The values a `return` gives: none, one, or a tuple's.
  Values lowerReturn(const ReturnStmt *R);

  /// An `if`; one that may jump comes with the statements after it, Rest,
  /// lowered in each branch that does not always jump (in both, twice, when
  /// neither does). Returns the value both branches return, if they do.
  Values lowerIf(const IfStmt *IS, llvm::ArrayRef<const Stmt *> Rest = {});
  void lowerStmt(const Stmt *S);
  void lowerDecl(const DeclStmt *DS);

  /// `auto [a, b] = tuple;` binds each name to an element.
  void lowerBindings(const DecompositionDecl *DD);

  /// Gives block R one argument per carried variable and binds the
  /// variables to them.
  void addCarriedArguments(Block &R, llvm::ArrayRef<const VarDecl *> Carried);

  /// Ends the current block with a yield of the carried variables' values
  /// (and Extra, the values the region returns, after them) and continues in
  /// Outer.
  void yieldCarried(llvm::ArrayRef<const VarDecl *> Carried, Block &Outer,
                    llvm::ArrayRef<Value *> Extra = {});

  /// Gives Op one result per carried variable and binds the variables to
  /// them.
  void addCarriedResults(ir::Op &Op, llvm::ArrayRef<const VarDecl *> Carried);

  /// Variables assigned in S that already have a value: the values an `if`
  /// or `for` must produce. Those S declares are its own, even when an
  /// earlier call of the same function left them a value. LoopBody: S is
  /// the body of the loop being built, where any `return` sets the flags.
  llvm::SmallVector<const VarDecl *, 4> carriedVars(const Stmt *S,
                                                    bool LoopBody = false);

  /// Accepts `for (T i = lo; i < hi; ++i | i++ | i += step)`.
  void lowerFor(const ForStmt *FS);

  /// Accepts `for (T i : tile::range(lo, hi[, step[, num_stages[,
  /// loop_unroll_factor]]]))`, Triton's tl.range: the same loop as `for (T i
  /// = lo; i < hi; i += step)`, with constant hints for the software
  /// pipeliner and for unrolling.
  void lowerRangeFor(const CXXForRangeStmt *FS);
  /// The largest loop_unroll_factor tile::range takes.
  static constexpr int64_t MaxUnrollFactor = 1024;

  /// A for op over [Lo, Hi) (Hi included when Inclusive) by Step (1 when
  /// null) with induction variable IV, unrolled UnrollFactor times (0: as
  /// the device compiler chooses).
  void lowerLoop(SourceLocation Loc, const VarDecl *IV, const Expr *LoExpr,
                 const Expr *HiExpr, const Expr *StepExpr, bool Inclusive,
                 unsigned NumStages, const Stmt *LoopBody,
                 unsigned UnrollFactor = 0);

  /// A while op that carries Carried: Cond lowers the condition region's
  /// bool (null after an error), Body the body region.
  void buildWhile(llvm::ArrayRef<const VarDecl *> Carried,
                  llvm::function_ref<Value *()> Cond,
                  llvm::function_ref<void()> Body);

  /// A loop whose body may `break`, as a while loop that carries a flag the
  /// `break` sets (lowerSequence): Cond, lowered in the condition region, is
  /// not evaluated once the flag is set, as C++ does not evaluate it after a
  /// `break`; EndOfIteration (a `for` loop's step) ends every iteration,
  /// `continue`d ones too. IV, if not null, is carried as well.
  void lowerBreakingLoop(SourceLocation Loc, const VarDecl *IV,
                         llvm::function_ref<Value *()> Cond,
                         const Stmt *LoopBody,
                         llvm::function_ref<void()> EndOfIteration);

  /// `while (cond) body`: the condition is evaluated before every
  /// iteration (it may have side effects, such as a spin lock's atomic_cas)
  /// and cannot assign variables.
  void lowerWhile(const WhileStmt *WS);

  //===--- Tuples ---------------------------------------------------------===//

  /// Lowers an expression of std::tuple type to one value per element:
  /// std::tuple{...}, std::make_tuple and std::tie, tuple variables, the
  /// tuple forms of tile::reduce and tile::associative_scan, and inlined
  /// calls that return a tuple.
  std::optional<Values> lowerTuple(const Expr *E);

  /// A tensor descriptor parameter of the kernel: its fields' parameters.
  bool lowerDescriptorParam(const ParmVarDecl *P);

  /// Binds D (a tuple or tile aggregate) to V, a variable per value.
  void bindAggregate(const ValueDecl *D, const Values &V);
  /// The values aggregate variable D holds now.
  Values aggregateValues(const ValueDecl *D);
  /// `target = value` for an aggregate variable.
  void assignAggregate(const Expr *Target, const Expr *ValueE);

  //===--- Tensor descriptors and block pointers --------------------------===//

  /// make_tensor_descriptor, make_block_ptr and advance: the aggregate's
  /// values (base, shape, strides and, for a block pointer, offsets).
  std::optional<Values> lowerDescriptor(llvm::StringRef Name,
                                        const CallExpr *CE);
  /// A descriptor's load, store and atomics, and a block pointer's load
  /// and store: accesses through the box's pointers, masked where checked.
  Value *lowerDescriptorAccess(llvm::StringRef Name, const CallExpr *CE);
  /// Stops the program where a tensor of Shape and Strides reaches more
  /// than 2^31 elements from its base (the offsets are 32-bit), as
  /// emulation does: make_tensor_descriptor's and make_block_ptr's check
  /// under TILE_DEBUG.
  void checkTensorReach(llvm::ArrayRef<Value *> Shape,
                        llvm::ArrayRef<Value *> Strides);
  /// The Rank int32 values of a braced list ({m, k}).
  std::optional<Values> lowerCoordinates(const Expr *E, unsigned Rank,
                                         llvm::StringRef What);
  /// The pointers to the box of shape Block at Offsets in the tensor whose
  /// base, shape and strides Fields starts with, and (Mask) whether each
  /// element lies inside the tensor along the dimensions in Checked.
  struct Box {
    Value *Ptrs = nullptr;
    Value *Mask = nullptr;
  };
  Box lowerBox(llvm::ArrayRef<Value *> Fields, llvm::ArrayRef<int64_t> Block,
               llvm::ArrayRef<Value *> Offsets, unsigned Checked);

  /// The values of std::get<I>(tuple): one, or a nested tuple's.
  std::optional<Values> lowerTupleElement(const CallExpr *CE);
  std::optional<Values> lowerPairMember(const MemberExpr *ME);

  /// The values of the arguments that build a tuple; a tuple among them
  /// contributes its own.
  std::optional<Values> lowerElements(CallExpr::const_arg_range Args);

  //===--- Expressions ----------------------------------------------------===//

  /// Folds side-effect-free scalar expressions Clang can evaluate (template
  /// arguments, literals, constexpr values) into constants.
  Value *tryConstant(const Expr *E);
  Value *lowerExpr(const Expr *E);
  static bool isAssignmentLike(const Expr *E);
  Value *lowerDeclRef(const DeclRefExpr *DR);
  Value *lowerCast(const CastExpr *CE);
  Value *lowerConstruct(const CXXConstructExpr *CC);

  /// Assigns V to the local variable E names; returns V.
  Value *assign(const Expr *Target, Value *V);
  Value *assignVariable(const VarDecl *VD, Value *V);
  static std::optional<OpKind> binaryOpKind(BinaryOperatorKind K);

  /// Built-in operators on scalars: C++ semantics, operands already converted
  /// by Clang.
  Value *lowerBinary(const BinaryOperator *BO);
  Value *lowerScalarPointerArith(const BinaryOperator *BO);
  Value *lowerUnary(const UnaryOperator *UO);

  //===--- Calls ----------------------------------------------------------===//

  Value *lowerCall(const CallExpr *CE);

  /// The <cmath> or <algorithm> function that Callee is, by its standard
  /// name (std::sqrt, ::sqrtf and __builtin_sqrtf are all "sqrt"), or ""
  /// for any other function, whose body is inlined instead.
  static llvm::StringRef libraryFunction(const FunctionDecl *Callee);

  /// A <cmath> or <algorithm> function on scalars, as the tile operations
  /// that compute the same value, so that it translates and emulates
  /// alike. Arguments convert to the call's type as C++ converts them
  /// (std::sqrt of an int is a double). std::max and std::min keep their
  /// definitions' comparisons, so a NaN argument gives what C++ gives
  /// (std::max(NaN, 1.0f) is NaN, std::max(1.0f, NaN) is 1); std::fmax
  /// and std::fmin ignore a NaN, as tile::maximum and tile::minimum do.
  Value *lowerLibraryCall(llvm::StringRef Name, const CallExpr *CE);

  /// The tile operation that computes library function Name.
  static llvm::StringRef tileSpelling(llvm::StringRef Name);

  /// Inlines a helper function or lambda whose body is visible. A callee
  /// returning a std::tuple leaves its values in TupleRet.
  Value *inlineCall(const CallExpr *CE, const FunctionDecl *Callee,
                    std::optional<Values> *TupleRet = nullptr);

  /// Takes the values lambda LE captures by copy where it is evaluated, as
  /// C++ copies them into the closure: a later assignment to the variable
  /// must not reach the lambda's body.
  bool recordCaptures(const LambdaExpr *LE);

  /// Lowers Def's body where it is called from (its parameters already
  /// bound); diagnostics inside it point at the call in the user's file.
  Value *inlineBody(SourceLocation CallLoc, const FunctionDecl *Def,
                    std::optional<Values> *TupleRet);

  /// The integer value of a constant call argument, or an error.
  std::optional<int64_t> constantArg(const Expr *E, llvm::StringRef What);
  std::optional<int64_t> templateIntArg(const FunctionDecl *FD, unsigned I);
  /// The values of FD's template argument I, a pack of integers.
  std::optional<llvm::SmallVector<int64_t, 4>>
  templateIntPack(const FunctionDecl *FD, unsigned I);

  /// Broadcasts V (scalar or tile) to Shape after casting its elements to E.
  Value *operand(Value *V, ElemType E, llvm::ArrayRef<int64_t> Shape);
  /// A tile:: operation resolved: the op it lowers to and, for those
  /// spelled otherwise than their op, what sets them apart.
  struct TileOperation {
    enum Form {
      Own,
      SubtractPointer,
      Zeros,
      CumulativeSum,
      CumulativeProduct,
      Interleave,
      TopK
    };
    OpKind Kind;
    Form Spelled = Own;
    /// reduce, associative_scan, cumsum, cumprod: ops with a combine region.
    bool combines() const {
      return Kind == OpKind::Reduce || Kind == OpKind::Scan;
    }
    /// cumsum and cumprod, whose combine is an add or a multiply.
    bool cumulative() const {
      return Spelled == CumulativeSum || Spelled == CumulativeProduct;
    }
  };
  /// The operation a TILE_OP name stands for: its op's spelling in Ops.def
  /// or one of the aliases, or nullopt.
  static std::optional<TileOperation> tileOperation(llvm::StringRef Name);

  Value *lowerTileOp(llvm::StringRef Name, const CallExpr *CE);
  Value *lowerTileCall(TileOperation TO, llvm::StringRef Name,
                       const CallExpr *CE);
  Value *lowerGridQuery(OpKind K, llvm::StringRef Name, const Expr *AxisArg);
  Value *lowerArange(const FunctionDecl *Callee, const Type &RT);
  void lowerAssume(const FunctionDecl *Callee, Value *Cond);
  Value *lowerHint(OpKind K, const FunctionDecl *Callee, Value *X,
                   SourceLocation L);
  /// device_print(prefix, values...) and device_assert<Enabled>(cond,
  /// message [, mask]).
  void lowerDebugOp(OpKind K, const CallExpr *CE);
  /// inline_asm_elementwise<R>(asm, constraints, emulate, args...): the
  /// text and registers checked, the arguments broadcast; emulate is the
  /// emulation's alone.
  Value *lowerInlineAsm(const CallExpr *CE);
  /// static_print(values...): a remark at the call, at translation.
  void lowerStaticPrint(const CallExpr *CE);
  Value *lowerPhilox(const FunctionDecl *Callee, llvm::ArrayRef<Value *> Args,
                     const Type &RT);
  Value *lowerExpandDims(const FunctionDecl *Callee, Value *X, const Type &RT);
  Value *lowerPermute(const FunctionDecl *Callee, Value *X, const Type &RT);
  Value *lowerJoin(llvm::ArrayRef<Value *> Args, const Type &RT,
                   bool Interleave);
  std::optional<Values> lowerSplit(const CallExpr *CE);
  Value *lowerSort(const FunctionDecl *Callee, Value *X, const Type &RT,
                   bool TopK, SourceLocation L);
  Value *lowerGather(const FunctionDecl *Callee, llvm::ArrayRef<Value *> Args,
                     const Type &RT, SourceLocation L);
  Value *lowerAddPtr(llvm::ArrayRef<Value *> Args, const Type &RT,
                     bool Subtract, SourceLocation L);

  /// Axis counted from the end when negative, or an error naming What
  /// ("reduction", "scan") when the tile has no such axis.
  std::optional<int64_t> axisOf(int64_t Axis, int64_t Rank,
                                llvm::StringRef What, SourceLocation L);

  /// sum<Axis, KeepDims>(x) and friends; without an axis, the whole tile.
  /// The header gives the result's element type (the accumulation type:
  /// sums of half accumulate in float); the input is converted to it first.
  Value *lowerReduce(OpKind K, const FunctionDecl *Callee, Value *X,
                     const Type &RT, SourceLocation L);

  /// reduce<Axis, KeepDims>(x, combine), associative_scan<Axis,
  /// Reverse>(x, combine), cumsum and cumprod, where x is a tile or a
  /// std::tuple of tiles of one shape. The combine becomes the op's region.
  std::optional<Values> lowerCombineOp(TileOperation Op, const CallExpr *CE);

  /// Builds Op's combine region: (accumulated..., next...) -> new values,
  /// from the user's combine (a lambda or a function) or, for cumsum and
  /// cumprod, an add or multiply.
  bool lowerCombine(TileOperation TO, const CallExpr *CE, ir::Op &Op);

  /// The function a combine argument calls: a lambda's call operator (for a
  /// generic lambda, its instantiation for the op's element types) or a
  /// function passed by name.
  const FunctionDecl *combineFunction(const Expr *Arg, const ir::Op &Op);

  /// Whether Fn takes 2N scalars (converted from the elements as a C++
  /// call would; Exact: of the elements' own types).
  bool takesCombineArgs(const FunctionDecl *Fn, const ir::Op &Op,
                        bool Exact = false);

  /// dot(a, b[, acc]): without acc, the result starts from zeros. (The
  /// generator checks the shared memory its operands are staged in against
  /// the target's.)
  Value *lowerDot(llvm::ArrayRef<Value *> Args, const Type &RT,
                  int64_t Precision);
  Value *lowerLoad(const FunctionDecl *Callee, llvm::ArrayRef<Value *> Args,
                   const Type &RT, SourceLocation L);
  void lowerStore(const FunctionDecl *Callee, llvm::ArrayRef<Value *> Args,
                  SourceLocation L);
  /// load<Cache, Evict> and store<Cache, Evict>'s hints on Access.
  void setAccessHints(const FunctionDecl *Callee, Op &Access);

  /// atomic_*(ptrs, value, mask, order, scope) and atomic_cas(ptrs, cmp,
  /// value, order, scope): values take the pointee type and the pointers'
  /// shape; order and scope are constants.
  Value *lowerAtomic(OpKind K, llvm::ArrayRef<Value *> Args, const Type &RT,
                     const CallExpr *CE, SourceLocation L);

  /// Whether every integer constant among a tile operation's scalar
  /// operands fits the integer type it is converted to (the weak scalar
  /// rule gives it the tile's type): `int8_tile + 300` would otherwise be
  /// `+ 44`. An error at the constant, as Triton's "value exceeds the range"
  /// is, where it does not.
  bool constantsFit(OpKind K, llvm::ArrayRef<const Expr *> ArgEs,
                    llvm::ArrayRef<Value *> Args, const Type &RT);

  /// The element type both operands of a comparison are converted to.
  ElemType compareType(Value *A, Value *Bv);
  Value *lowerElementwise(OpKind K, llvm::ArrayRef<Value *> Args,
                          const Type &RT);

  ASTContext &Ctx;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  ReportedErrors &Reported;
  Function &F;
  Builder B;
  llvm::DenseMap<const ValueDecl *, Value *> Env;
  /// A tuple or tile aggregate variable's values, each held by a variable
  /// of its own so that assignments and loops carry it like a scalar's.
  llvm::DenseMap<const ValueDecl *, llvm::SmallVector<const VarDecl *, 4>>
      AggregateVars;
  /// What each lambda (by closure type) captured by copy, and the value.
  llvm::DenseMap<const CXXRecordDecl *,
                 llvm::SmallVector<std::pair<const ValueDecl *, Value *>, 4>>
      CopiedCaptures;
  llvm::SmallVector<const FunctionDecl *, 4> InlineStack;
  /// Where the statements being lowered may jump to.
  struct JumpContext {
    const FunctionDecl *Fn = nullptr; // whose `return`s they are
    bool IsKernel = false;
    /// Whether the function returns a std::tuple (one value per element).
    bool ReturnsTuple = false;
    /// The flag that ends the innermost loop early (lowerBreakingLoop), if
    /// it has a `break` or a `return`.
    const VarDecl *Broken = nullptr;
    /// The flag a `return` inside a loop sets.
    const VarDecl *Returned = nullptr;
    /// The values such a `return` leaves, in a helper with one (one per
    /// element of a tuple).
    llvm::SmallVector<const VarDecl *, 2> Results;
  };
  JumpContext Jumps;
  SourceLocation CallSite;
  bool Failed = false;
};

} // namespace tilecc::frontend::lowering

#endif
