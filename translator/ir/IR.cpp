//===- IR.cpp - TileIR core -----------------------------------------------===//
#include "ir/IR.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <cassert>
#include <climits>

namespace tilecc::ir {

const OpInfo &opInfo(OpKind K) {
  constexpr unsigned Many = UINT_MAX;
  static const OpInfo Table[] = {
#define TILE_OP(Enum, Spelling, Category, MinOps, MaxOps, Regions, Effect)     \
  {Spelling, OpCategory::Category, MinOps, MaxOps, Regions, OpEffect::Effect},
#include "ir/Ops.def"
  };
  return Table[static_cast<unsigned>(K)];
}

llvm::StringRef spell(OpKind K) { return opInfo(K).Spelling; }

OpCategory categoryOf(OpKind K) { return opInfo(K).Category; }

bool isStructuredControl(OpKind K) {
  return opInfo(K).Effect == OpEffect::Control;
}

bool isLoop(OpKind K) { return K == OpKind::For || K == OpKind::While; }

llvm::StringRef spell(MemOrder M) {
  static const char *const Names[] = {"relaxed", "acquire", "release",
                                      "acq_rel"};
  return Names[static_cast<unsigned>(M)];
}

llvm::StringRef spell(MemScope S) {
  static const char *const Names[] = {"gpu", "cta", "sys"};
  return Names[static_cast<unsigned>(S)];
}

llvm::StringRef spell(CacheModifier C) {
  static const char *const Names[] = {"normal", "ca", "cg", "cs",      "lu",
                                      "cv",     "wb", "wt", "volatile"};
  return Names[static_cast<unsigned>(C)];
}

llvm::StringRef spell(EvictionPolicy E) {
  static const char *const Names[] = {"normal", "evict_first", "evict_last"};
  return Names[static_cast<unsigned>(E)];
}

llvm::StringRef spell(DotPrecision P) {
  static const char *const Names[] = {"tf32", "tf32x3", "ieee"};
  return Names[static_cast<unsigned>(P)];
}

std::optional<OpKind> opKindFromSpelling(llvm::StringRef S) {
  return llvm::StringSwitch<std::optional<OpKind>>(S)
#define TILE_OP(Enum, Spelling, Category, MinOps, MaxOps, Regions, Effect)     \
  .Case(Spelling, OpKind::Enum)
#include "ir/Ops.def"
      .Default(std::nullopt);
}

bool isPure(const Op &O) { return opInfo(O.kind()).Effect == OpEffect::Pure; }

bool isComparison(OpKind K) { return K >= OpKind::CmpEQ && K <= OpKind::CmpGE; }

bool isAtomicRMW(OpKind K) {
  return K >= OpKind::AtomicAdd && K <= OpKind::AtomicXchg;
}

/// Inline assembly's register kinds, by code (0: none).
static constexpr llvm::StringLiteral AsmRegisters = " rlhfd";

char Op::asmRegister(unsigned I) const {
  return AsmRegisters[(IntAttr >> (3 * I)) & 7];
}

void Op::setAsmRegister(unsigned I, char Letter) {
  assert(I < AsmMaxOperands && "inline assembly has too many operands");
  const int64_t Code = AsmRegisters.find(Letter);
  IntAttr = (IntAttr & ~(int64_t(7) << (3 * I))) | Code << (3 * I);
}

/// The pack sits above the registers' 3 * AsmMaxOperands bits; 0 there is a
/// pack of 1.
static constexpr unsigned AsmPackShift = 3 * Op::AsmMaxOperands;

unsigned Op::asmPack() const {
  return std::max<unsigned>(unsigned(IntAttr >> AsmPackShift) & 0xff, 1);
}

unsigned Op::asmElementsPerRegister(const ElemType &E, unsigned Pack) {
  const unsigned Bytes = storageBytes(E.Kind);
  return Bytes < 4 ? std::min(4 / Bytes, Pack) : 1;
}

void Op::setAsmPack(unsigned Pack) {
  assert(Pack <= 0xff && "inline assembly's pack is too large");
  IntAttr = (IntAttr & ~(int64_t(0xff) << AsmPackShift)) | int64_t(Pack)
                                                               << AsmPackShift;
}

bool isElementwise(OpKind K) {
  OpCategory C = categoryOf(K);
  return C == OpCategory::Unary || C == OpCategory::Binary ||
         C == OpCategory::Ternary || C == OpCategory::Elementwise;
}

Value *Block::addArgument(std::unique_ptr<Value> V) {
  V->Owner = this;
  Args.push_back(std::move(V));
  return Args.back().get();
}

Op *Block::append(std::unique_ptr<Op> O) {
  return insert(Ops.size(), std::move(O));
}

Op *Block::insert(size_t Pos, std::unique_ptr<Op> O) {
  O->Parent = this;
  Op *Raw = O.get();
  Ops.insert(Ops.begin() + Pos, std::move(O));
  return Raw;
}

Value *Op::addResult(std::unique_ptr<Value> V) {
  V->Def = this;
  Results.push_back(std::move(V));
  return Results.back().get();
}

Block *Op::addRegion() {
  Regions.push_back(std::make_unique<Block>(this));
  return Regions.back().get();
}

bool Op::hasMask() const {
  return (Kind == OpKind::Load && Operands.size() >= 2) ||
         ((Kind == OpKind::Store || isAtomicRMW(Kind)) && Operands.size() >= 3);
}

Value *Op::mask() const {
  if (!hasMask())
    return nullptr;
  return Kind == OpKind::Load ? Operands[1] : Operands[2];
}

Value *Op::other() const {
  return Kind == OpKind::Load && Operands.size() >= 3 ? Operands[2] : nullptr;
}

unsigned Block::argumentNumber(const Value *V) const {
  assert(V->ownerBlock() == this && "not an argument of this block");
  auto It = llvm::find_if(Args, [&](const auto &A) { return A.get() == V; });
  return static_cast<unsigned>(It - Args.begin());
}

std::optional<int64_t> constantInt(const Value *V) {
  const Op *D = V ? V->definingOp() : nullptr;
  if (!D || D->kind() != OpKind::Const || isFloat(V->type().Elem.Kind))
    return std::nullopt;
  return D->intValue();
}

bool sameScalar(const Value *A, const Value *B) {
  return A == B || (constantInt(A) && constantInt(A) == constantInt(B));
}

const Value *carriedResult(const Value *V) {
  const Block *B = V->ownerBlock();
  if (!B || !B->parentOp() || B->parentOp()->kind() != OpKind::For ||
      V == B->argument(0))
    return nullptr;
  return B->parentOp()->result(B->argumentNumber(V) - 1);
}

/// The innermost op around O of a kind Wanted accepts, or null.
static const Op *enclosing(const Op &O,
                           llvm::function_ref<bool(OpKind)> Wanted) {
  for (const Op *Around = O.parentBlock()->parentOp(); Around;
       Around = Around->parentBlock()->parentOp())
    if (Wanted(Around->kind()))
      return Around;
  return nullptr;
}

const Op *enclosingFor(const Op &O) {
  return enclosing(O, [](OpKind K) { return K == OpKind::For; });
}

const Op *enclosingLoop(const Op &O) {
  return enclosing(
      O, [](OpKind K) { return K == OpKind::For || K == OpKind::While; });
}

/// Whether B is one of O's regions or nested in one.
static bool blockWithin(const Block *B, const Op &O) {
  for (; B && B->parentOp(); B = B->parentOp()->parentBlock())
    if (B->parentOp() == &O)
      return true;
  return false;
}

bool nestedIn(const Op &Inner, const Op &O) {
  return blockWithin(Inner.parentBlock(), O);
}

bool definedInside(const Value *V, const Op &O) {
  return blockWithin(
      V->definingOp() ? V->definingOp()->parentBlock() : V->ownerBlock(), O);
}

void replaceUses(Block &B, const Value *Old, Value *New) {
  walk(B, [&](Op &O) {
    for (unsigned I = 0; I < O.numOperands(); ++I)
      if (O.operand(I) == Old)
        O.setOperand(I, New);
  });
}

void walk(Block &B, llvm::function_ref<void(Op &)> Fn) {
  for (auto &O : B.ops()) {
    Fn(*O);
    for (auto &R : O->regions())
      walk(*R, Fn);
  }
}

void walk(const Block &B, llvm::function_ref<void(const Op &)> Fn) {
  for (const auto &O : B.ops()) {
    Fn(*O);
    for (const auto &R : O->regions())
      walk(static_cast<const Block &>(*R), Fn);
  }
}

UserMap users(const Block &B) {
  UserMap Users;
  walk(B, [&](const Op &O) {
    for (const Value *V : O.operands())
      Users[V].push_back(&O);
  });
  return Users;
}

const Op *onlyUser(const UserMap &Users, const Value *V) {
  auto It = Users.find(V);
  return It != Users.end() && It->second.size() == 1 ? It->second.front()
                                                     : nullptr;
}

bool computedOperandA(const Op &D) {
  const Op *A = D.operand(0)->definingOp();
  if (A && A->kind() == OpKind::Trans)
    A = A->operand(0)->definingOp();
  return !A || A->kind() != OpKind::Load || A->parentBlock() != D.parentBlock();
}

} // namespace tilecc::ir
