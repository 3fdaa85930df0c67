//===- IR.h - TileIR values, ops, blocks and functions ----------*- C++ -*-===//
//
// TileIR is a small SSA IR with structured control flow. A Function owns one
// Block; `for` and `if` ops own nested blocks that end in a `yield`. Values are
// op results or block arguments (function parameters, loop induction
// variables, loop-carried values).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_IR_IR_H
#define TILECC_IR_IR_H

#include "ir/Type.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::ir {

enum class OpKind : uint8_t {
#define TILE_OP(Enum, Spelling, Category, MinOps, MaxOps, Regions, Effect) Enum,
#include "ir/Ops.def"
};

enum class OpCategory : uint8_t {
  Source,
  Unary,
  Binary,
  Ternary,
  Elementwise,
  Shape,
  Reduce,
  Scan,
  Matmul,
  Histogram,
  Memory,
  Control,
  Debug
};

/// What an op does besides computing its results (Ops.def explains each).
enum class OpEffect : uint8_t {
  Pure,
  Collective,
  Reads,
  Writes,
  Sync,
  Control,
  Terminator
};

/// An op kind's row of Ops.def.
struct OpInfo {
  llvm::StringRef Spelling;
  OpCategory Category;
  /// Operand counts allowed; MaxOperands is UINT_MAX where unbounded.
  unsigned MinOperands, MaxOperands;
  unsigned Regions;
  OpEffect Effect;
};
const OpInfo &opInfo(OpKind K);

llvm::StringRef spell(OpKind K);
OpCategory categoryOf(OpKind K);
/// for, if and while: ops whose regions are their own control flow.
bool isStructuredControl(OpKind K);
/// for and while.
bool isLoop(OpKind K);
/// Looks an op up by its spelling (the name in TILE_OP annotations).
std::optional<OpKind> opKindFromSpelling(llvm::StringRef S);
bool isComparison(OpKind K);
/// atomic_add ... atomic_xchg (with a mask operand), not atomic_cas.
bool isAtomicRMW(OpKind K);
bool isElementwise(OpKind K);

/// An atomic's memory order and scope, in tile::mem_order's and
/// tile::mem_scope's order.
enum class MemOrder : uint8_t { Relaxed, Acquire, Release, AcqRel };
enum class MemScope : uint8_t { Gpu, Cta, Sys };
llvm::StringRef spell(MemOrder M); // relaxed, acquire, release, acq_rel
llvm::StringRef spell(MemScope S); // gpu, cta, sys

/// A load's or store's cache modifier and eviction policy (Triton's
/// cache_modifier, volatile and eviction_policy), in tile::cache's and
/// tile::evict's order. Volatile accesses read or write memory each time,
/// where written: never staged, copied by TMA or merged.
enum class CacheModifier : uint8_t {
  Normal,
  CA,
  CG,
  CS,
  LU,
  CV,
  WB,
  WT,
  Volatile
};
enum class EvictionPolicy : uint8_t { Normal, First, Last };
llvm::StringRef spell(CacheModifier C);  // normal, ca, ..., volatile
llvm::StringRef spell(EvictionPolicy E); // normal, evict_first, evict_last

/// A position in the user's .tile.cpp (1-based; 0 means unknown).
struct SourceLoc {
  unsigned Line = 0;
  unsigned Col = 0;
};

class Op;
class Block;

class Value {
public:
  Value(Type Ty, unsigned Id) : Ty(std::move(Ty)), Id(Id) {}

  const Type &type() const { return Ty; }
  void setType(Type T) { Ty = std::move(T); }
  /// The op that defines this value, or null for a block argument.
  Op *definingOp() const { return Def; }
  /// For block arguments: the block that owns it.
  Block *ownerBlock() const { return Owner; }
  unsigned id() const { return Id; }
  /// The user's variable name, when the value was bound to one.
  llvm::StringRef name() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }

private:
  friend class Op;
  friend class Block;
  Type Ty;
  Op *Def = nullptr;
  Block *Owner = nullptr;
  unsigned Id;
  std::string Name;
};

class Block {
public:
  explicit Block(Op *ParentOp) : ParentOp(ParentOp) {}

  Value *addArgument(std::unique_ptr<Value> V);
  llvm::ArrayRef<std::unique_ptr<Value>> arguments() const { return Args; }
  Value *argument(unsigned I) const { return Args[I].get(); }
  /// The position of V, one of this block's arguments, among them.
  unsigned argumentNumber(const Value *V) const;
  /// Removes argument I, which nothing uses any more.
  void eraseArgument(unsigned I) { Args.erase(Args.begin() + I); }

  std::vector<std::unique_ptr<Op>> &ops() { return Ops; }
  const std::vector<std::unique_ptr<Op>> &ops() const { return Ops; }
  Op *append(std::unique_ptr<Op> O);
  /// Inserts before position Pos of ops().
  Op *insert(size_t Pos, std::unique_ptr<Op> O);
  /// The op owning this block, or null for a function body.
  Op *parentOp() const { return ParentOp; }
  /// The last op, which is a yield in nested blocks.
  Op *terminator() const { return Ops.empty() ? nullptr : Ops.back().get(); }

private:
  Op *ParentOp;
  llvm::SmallVector<std::unique_ptr<Value>, 2> Args;
  std::vector<std::unique_ptr<Op>> Ops;
};

/// How a dot multiplies fp32 operands, in tile::input_precision's order.
enum class DotPrecision : uint8_t { TF32, TF32x3, IEEE };
llvm::StringRef spell(DotPrecision P); // tf32, tf32x3, ieee

class Op {
public:
  Op(OpKind Kind, SourceLoc Loc) : Kind(Kind), Loc(Loc) {}

  OpKind kind() const { return Kind; }
  SourceLoc loc() const { return Loc; }

  llvm::ArrayRef<Value *> operands() const { return Operands; }
  Value *operand(unsigned I) const { return Operands[I]; }
  unsigned numOperands() const { return Operands.size(); }
  void addOperand(Value *V) { Operands.push_back(V); }
  void setOperand(unsigned I, Value *V) { Operands[I] = V; }
  void eraseOperand(unsigned I) { Operands.erase(Operands.begin() + I); }

  Value *addResult(std::unique_ptr<Value> V);
  llvm::ArrayRef<std::unique_ptr<Value>> results() const { return Results; }
  Value *result(unsigned I = 0) const { return Results[I].get(); }
  unsigned numResults() const { return Results.size(); }
  /// Removes result I, which nothing uses any more.
  void eraseResult(unsigned I) { Results.erase(Results.begin() + I); }

  Block *addRegion();
  llvm::ArrayRef<std::unique_ptr<Block>> regions() const { return Regions; }
  Block *region(unsigned I) const { return Regions[I].get(); }

  Block *parentBlock() const { return Parent; }

  // Attributes, one accessor per meaning; an op has at most two of them.

  // Const: the value, by the result's element kind (integers, bool and
  // the null pointer in intValue, floating point in floatValue).
  int64_t intValue() const { return IntAttr; }
  void setIntValue(int64_t V) { IntAttr = V; }
  double floatValue() const { return FloatAttr; }
  void setFloatValue(double V) { FloatAttr = V; }

  // ProgramId and NumPrograms: the grid axis (0-2). ExpandDims: the axis
  // inserted. Reduce category: the axis reduced.
  unsigned axis() const { return unsigned(IntAttr); }
  void setAxis(unsigned Axis) { IntAttr = Axis; }

  // Arange: the first value.
  int64_t arangeStart() const { return IntAttr; }
  void setArangeStart(int64_t Start) { IntAttr = Start; }

  // Exp2Cubic: how many of every 8 elements of a thread (0-8) take the
  // polynomial.
  unsigned cubicEighths() const { return unsigned(IntAttr); }
  void setCubicEighths(unsigned K) { IntAttr = K; }

  // Matmul: how fp32 operands are multiplied.
  DotPrecision precision() const { return DotPrecision(IntAttr); }
  void setPrecision(DotPrecision P) { IntAttr = int64_t(P); }

  /// Takes O's attributes (O being of this op's kind): a clone.
  void copyAttributes(const Op &O) {
    IntAttr = O.IntAttr;
    FloatAttr = O.FloatAttr;
    Message = O.Message;
  }

  // Print and Assert: the user's text.
  const std::string &message() const { return Message; }
  void setMessage(std::string M) { Message = std::move(M); }

  // Scan: the axis and the direction, packed into IntAttr.
  unsigned scanAxis() const { return IntAttr & 0xff; }
  bool scanReverse() const { return IntAttr >> 8; }
  void setScan(unsigned Axis, bool Reverse) {
    IntAttr = Axis | unsigned(Reverse) << 8;
  }

  // Philox: the word of the four (0-3) and the rounds, packed into IntAttr.
  unsigned philoxWord() const { return IntAttr & 3; }
  unsigned philoxRounds() const { return unsigned(IntAttr >> 2); }
  void setPhilox(unsigned Word, unsigned Rounds) {
    IntAttr = Word | int64_t(Rounds) << 2;
  }

  // multiple_of and max_contiguous: a power of two per dimension (up to
  // eight), their log2s packed a byte each into IntAttr.
  int64_t hint(unsigned Dim) const {
    return int64_t(1) << ((IntAttr >> (8 * Dim)) & 0xff);
  }
  void setHint(unsigned Dim, int64_t Value) {
    const unsigned Shift = 8 * Dim;
    IntAttr = (IntAttr & ~(int64_t(0xff) << Shift)) |
              int64_t(llvm::Log2_64(Value)) << Shift;
  }

  // Sort: the axis and the order, packed into IntAttr.
  unsigned sortAxis() const { return IntAttr & 0xff; }
  bool sortDescending() const { return IntAttr >> 8; }
  void setSort(unsigned Axis, bool Descending) {
    IntAttr = Axis | unsigned(Descending) << 8;
  }

  // InlineAsm: the register kind of operand I (0: the result, then the
  // operands; at most AsmMaxOperands), by its constraint letter r, l, h, f
  // or d, three bits each; and how many elements one run of the text takes
  // (tl.inline_asm_elementwise's pack), above them.
  static constexpr unsigned AsmMaxOperands = 16;
  char asmRegister(unsigned I) const;
  void setAsmRegister(unsigned I, char Letter);
  unsigned asmPack() const;
  void setAsmPack(unsigned Pack);
  /// How many elements of E one of its registers holds: those narrower than
  /// 32 bits share one, up to 32 bits or the pack; wider ones take one each.
  static unsigned asmElementsPerRegister(const ElemType &E, unsigned Pack);

  // Cast: whether a floating-point downcast rounds toward zero (otherwise
  // to nearest even).
  bool roundsTowardZero() const { return IntAttr == 1; }
  void setRoundsTowardZero(bool Rtz) { IntAttr = Rtz; }

  // Print: whether values print as their bits in hexadecimal.
  bool printsHex() const { return IntAttr == 1; }
  void setPrintsHex(bool Hex) { IntAttr = Hex; }

  // Permute: the operand dimension of each result dimension, packed four
  // bits each into IntAttr.
  unsigned permutedDim(unsigned Dim) const {
    return unsigned(IntAttr >> (4 * Dim)) & 15;
  }
  void setPermutedDim(unsigned Dim, unsigned From) {
    const unsigned Shift = 4 * Dim;
    IntAttr = (IntAttr & ~(int64_t(15) << Shift)) | int64_t(From) << Shift;
  }

  // Loads and stores: the cache modifier and eviction policy, packed into
  // IntAttr.
  CacheModifier cacheModifier() const { return CacheModifier(IntAttr & 15); }
  EvictionPolicy evictionPolicy() const {
    return EvictionPolicy(IntAttr >> 4 & 3);
  }
  void setAccessHints(CacheModifier C, EvictionPolicy E) {
    IntAttr = unsigned(C) | unsigned(E) << 4;
  }
  bool isVolatileAccess() const {
    return (Kind == OpKind::Load || Kind == OpKind::Store) &&
           cacheModifier() == CacheModifier::Volatile;
  }

  // Atomics: the memory order and scope, packed into IntAttr.
  MemOrder memOrder() const { return MemOrder(IntAttr & 15); }
  MemScope memScope() const { return MemScope(IntAttr >> 4); }
  void setMemory(MemOrder Order, MemScope Scope) {
    IntAttr = unsigned(Order) | unsigned(Scope) << 4;
  }
  /// Whether an atomic publishes the program's earlier writes.
  bool releases() const {
    return memOrder() == MemOrder::Release || memOrder() == MemOrder::AcqRel;
  }

  // For: tile::range's hints, packed into IntAttr: num_stages (0 when it
  // has none) and loop_unroll_factor (0 when it has none) above it.
  unsigned numStagesHint() const { return unsigned(IntAttr & 255); }
  void setNumStagesHint(unsigned Stages) {
    IntAttr = (IntAttr & ~int64_t(255)) | Stages;
  }
  unsigned unrollHint() const { return unsigned(IntAttr >> 8); }
  void setUnrollHint(unsigned Factor) {
    IntAttr = (IntAttr & 255) | int64_t(Factor) << 8;
  }

  // Load: operands are (ptrs, [mask, [other]]). Store and atomic RMW:
  // (ptrs, value, [mask]).
  bool hasMask() const;
  Value *mask() const;
  Value *other() const;

private:
  friend class Block;
  OpKind Kind;
  SourceLoc Loc;
  llvm::SmallVector<Value *, 3> Operands;
  llvm::SmallVector<std::unique_ptr<Value>, 1> Results;
  llvm::SmallVector<std::unique_ptr<Block>, 0> Regions;
  Block *Parent = nullptr;
  int64_t IntAttr = 0;
  double FloatAttr = 0;
  std::string Message;
};

/// Parameters of the generated kernel, as specialization sees them: one per
/// parameter of the user's kernel, or one per field of a tensor
/// descriptor parameter.
struct Param {
  std::string Name;
  /// The C++ spelling of the parameter's type in the user's source, as printed
  /// by Clang for the launch wrapper (e.g. "const float *").
  std::string CxxType;
  Value *Arg = nullptr;
  /// How the launch wrapper reads the value from its own parameters: the
  /// name, or a field of one (`a.shape[0]`).
  std::string Host;
};

/// A parameter of the launch wrapper (the user's kernel parameter as the
/// host passes it).
struct HostParam {
  std::string CxxType;
  std::string Name;
};

/// Properties the launch wrapper checks at run time before picking a variant
/// (Triton's specialization): per parameter, one of these.
enum class ParamSpec : uint8_t {
  None,       // nothing known
  Divisible2, // integer: divisible by 2
  Divisible4, // integer: divisible by 4
  Divisible8, // integer: divisible by 8
  Aligned16,  // pointer: 16-byte aligned; integer: divisible by 16
  EqualsOne,  // integer == 1
};

/// The number the wrapper's test for S proves divides an integer argument
/// (1 when S proves none).
inline int64_t divisorOf(ParamSpec S) {
  switch (S) {
  case ParamSpec::Divisible2:
    return 2;
  case ParamSpec::Divisible4:
    return 4;
  case ParamSpec::Divisible8:
    return 8;
  case ParamSpec::Aligned16:
    return 16;
  case ParamSpec::None:
  case ParamSpec::EqualsOne:
    return 1;
  }
  return 1;
}

/// What a configuration declares every launch's arguments satisfy
/// (tile::assumption, in the same order): variants less specialized than
/// that are not built.
enum class Assumption : uint8_t {
  None,       // any arguments
  Aligned16,  // pointers aligned, integers divisible by 16
  UnitStride, // that, and inner strides == 1
};

class Function {
public:
  Function() : Body(std::make_unique<Block>(nullptr)) {}

  std::string Name;
  std::vector<Param> Params;
  std::vector<ParamSpec> Specs; // one per Param
  /// The launch wrapper's parameters, in the user's order.
  std::vector<HostParam> HostParams;
  /// Conditions the wrapper checks before launching (a tensor descriptor's
  /// unit last stride and 32-bit reach), as C++ expressions of HostParams.
  std::vector<std::string> HostChecks;
  Block &body() { return *Body; }
  const Block &body() const { return *Body; }

  /// Creates values with ids unique within this function.
  std::unique_ptr<Value> newValue(Type T) {
    return std::make_unique<Value>(std::move(T), NextId++);
  }

private:
  std::unique_ptr<Block> Body;
  unsigned NextId = 0;
};

/// Visits every op in B and in nested blocks, parents before children.
void walk(Block &B, llvm::function_ref<void(Op &)> Fn);
void walk(const Block &B, llvm::function_ref<void(const Op &)> Fn);

/// Makes every op in B and its nested blocks that uses Old use New.
void replaceUses(Block &B, const Value *Old, Value *New);

/// The innermost for loop around O, or null.
const Op *enclosingFor(const Op &O);

/// The innermost loop (for or while) around O, or null.
const Op *enclosingLoop(const Op &O);

/// Whether Inner sits in one of O's regions, at any depth.
bool nestedIn(const Op &Inner, const Op &O);

/// Whether V is defined in one of O's regions, at any depth (an op's
/// result there, or an argument of one of those blocks).
bool definedInside(const Value *V, const Op &O);

/// The result of the for loop whose body carries V (a block argument
/// other than the induction variable) out of the loop, or null where V is
/// no such argument.
const Value *carriedResult(const Value *V);

/// The integer (or bool, or null pointer) a constant op makes V, if it is
/// one.
std::optional<int64_t> constantInt(const Value *V);

/// Whether A and B are the same scalar: one value, or equal constants.
bool sameScalar(const Value *A, const Value *B);

/// Whether dot D's A operand is computed rather than loaded for it: it is
/// not a load (maybe through trans) in D's own block. A loaded operand is
/// staged in shared memory (and pipelined in loops); a computed one, or
/// one from outside the loop, is better given to tensor cores from
/// registers.
bool computedOperandA(const Op &D);

/// Whether O computes its results from its operands alone: no memory,
/// control flow or side effect, so it may be re-run (a prefetch's address
/// arithmetic) or left out when nothing uses it.
bool isPure(const Op &O);

/// The ops using each value, over B and its nested blocks, in walk order.
using UserMap = llvm::DenseMap<const Value *, llvm::SmallVector<const Op *, 2>>;
UserMap users(const Block &B);

/// V's one user in Users, or null where it has none or several (an op
/// using V twice counts twice).
const Op *onlyUser(const UserMap &Users, const Value *V);

} // namespace tilecc::ir

#endif
