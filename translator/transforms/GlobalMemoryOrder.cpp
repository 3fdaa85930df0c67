//===- GlobalMemoryOrder.cpp ----------------------------------------------===//
#include "transforms/GlobalMemoryOrder.h"
#include "analysis/PointerRoots.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdlib>

using namespace tilecc::ir;
using namespace tilecc::analysis;

namespace tilecc::transforms {

namespace {

bool isAccess(const Op &O) {
  return categoryOf(O.kind()) == OpCategory::Memory;
}
bool writes(const Op &O) { return O.kind() != OpKind::Load; }
bool isAtomic(const Op &O) {
  return O.kind() != OpKind::Load && O.kind() != OpKind::Store;
}

/// A constant integer, or a tile of one.
std::optional<int64_t> constantOf(const Value *V) {
  if (const Op *D = V->definingOp(); D && D->kind() == OpKind::Splat)
    V = D->operand(0);
  std::optional<int64_t> C = constantInt(V);
  if (C && std::llabs(*C) > (int64_t(1) << 31))
    return std::nullopt;
  return C;
}

/// Whether A and B compute the same values: one value, or the same pure ops
/// of the same operands.
bool sameExpression(const Value *A, const Value *B, unsigned Depth = 0) {
  if (A == B)
    return true;
  const Op *DA = A->definingOp(), *DB = B->definingOp();
  if (Depth > 32 || !DA || !DB || DA->kind() != DB->kind() || !isPure(*DA) ||
      !DA->regions().empty() || A->type() != B->type() ||
      DA->intValue() != DB->intValue() ||
      DA->floatValue() != DB->floatValue() ||
      DA->numOperands() != DB->numOperands() || DA->numResults() != 1 ||
      DB->numResults() != 1)
    return false;
  for (unsigned I = 0; I < DA->numOperands(); ++I)
    if (!sameExpression(DA->operand(I), DB->operand(I), Depth + 1))
      return false;
  return true;
}

/// Whether V depends on a value defined inside loop L.
bool variesIn(const Value *V, const Op &L) {
  if (!definedInside(V, L))
    return false;
  const Op *D = V->definingOp();
  if (!D || !isPure(*D))
    return true;
  return llvm::any_of(D->operands(),
                      [&](const Value *O) { return variesIn(O, L); });
}

/// How far V moves when the induction variable of for loop L grows by one,
/// where V is that variable times a constant plus what L does not change.
std::optional<int64_t> ivCoefficient(const Value *V, const Op &L) {
  if (!definedInside(V, L))
    return 0;
  if (V == L.region(0)->argument(0))
    return 1;
  const Op *D = V->definingOp();
  if (!D)
    return std::nullopt;
  if (D->kind() == OpKind::Const)
    return 0;
  if (keepsValues(*D))
    return ivCoefficient(D->operand(0), L);
  auto Of = [&](unsigned I) { return ivCoefficient(D->operand(I), L); };
  switch (D->kind()) {
  case OpKind::Add:
  case OpKind::AddPtr:
  case OpKind::Sub: {
    auto A = Of(0), B = Of(1);
    if (!A || !B)
      return std::nullopt;
    return D->kind() == OpKind::Sub ? *A - *B : *A + *B;
  }
  case OpKind::Mul:
    for (unsigned I : {0u, 1u})
      if (auto C = constantOf(D->operand(1 - I)))
        if (auto A = Of(I))
          return *A * *C;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// The largest difference between two elements of tile V (0 for a
/// scalar), where the ops computing it say.
std::optional<int64_t> spread(const Value *V) {
  if (V->type().isScalar())
    return 0;
  const Op *D = V->definingOp();
  if (!D)
    return std::nullopt;
  if (keepsValues(*D))
    return D->kind() == OpKind::Splat ? 0 : spread(D->operand(0));
  switch (D->kind()) {
  case OpKind::Const:
    return 0;
  case OpKind::Arange:
    return V->type().numel() - 1;
  case OpKind::Add:
  case OpKind::AddPtr:
  case OpKind::Sub: {
    auto A = spread(D->operand(0)), B = spread(D->operand(1));
    if (!A || !B)
      return std::nullopt;
    return *A + *B;
  }
  case OpKind::Mul:
    for (unsigned I : {0u, 1u})
      if (auto C = constantOf(D->operand(1 - I)))
        if (auto A = spread(D->operand(I)))
          return *A * std::llabs(*C);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether the addresses P gives in different iterations of loop L are all
/// distinct: P moves by a constant step each iteration, past its spread.
bool disjointIterations(const Value *P, const Op &L) {
  if (L.kind() != OpKind::For)
    return false;
  auto Step = constantInt(L.operand(2));
  auto Coef = ivCoefficient(P, L);
  auto Spread = spread(P);
  return Step && Coef && Spread && std::llabs(*Step) < (int64_t(1) << 31) &&
         std::llabs(*Coef * *Step) > *Spread;
}

/// Whether every thread of the program meets at a barrier in O, before and
/// after what O does: an atomic on one address, which one thread runs and
/// all wait for (tile::rt's in_one_thread), or a reduction of a whole tile
/// whose warps hold different parts of it (reduce_all).
bool meetsAtBarrier(const Op &O, const LayoutMap &LM) {
  if (isAccess(O))
    return isAtomic(O) && O.operand(0)->type().isScalar();
  if (categoryOf(O.kind()) != OpCategory::Reduce ||
      !O.result()->type().isScalar())
    return false;
  const Value *X = O.operand(0);
  const Layout &L = LM.get(X);
  const unsigned D = L.SliceDim ? (*L.SliceDim == 0 ? 1 : 0) : 0;
  return L.Parent.distinctWarps(D, X->type().Shape[0]) > 1;
}

/// An access not yet ordered by a barrier before the op being visited, with
/// the loops whose next iteration it comes from.
struct Pending {
  const Op *Access;
  llvm::SmallVector<const Op *, 2> Crossed;

  bool operator==(const Pending &O) const {
    return Access == O.Access && Crossed.size() == O.Crossed.size() &&
           llvm::all_of(Crossed, [&](const Op *L) {
             return llvm::is_contained(O.Crossed, L);
           });
  }
};
using State = llvm::SmallVector<Pending, 8>;

void merge(State &Into, const State &From) {
  for (const Pending &P : From)
    if (!llvm::is_contained(Into, P))
      Into.push_back(P);
}

class Orderer {
public:
  Orderer(const Function &F, const LayoutMap &LM) : LM(LM), Roots(F) {}

  State visit(Block &B, State S, bool Insert) {
    auto &Ops = B.ops();
    for (size_t I = 0; I < Ops.size(); ++I) {
      Op &O = *Ops[I];
      if (O.kind() == OpKind::DebugBarrier || meetsAtBarrier(O, LM)) {
        S.clear();
      } else if (isAccess(O)) {
        const Pending *Earlier =
            llvm::find_if(S, [&](const Pending &P) { return conflict(P, O); });
        if (Earlier != S.end()) {
          if (Insert)
            insertBarrier(B, I++, *Earlier->Access, O);
          S.clear();
        }
        S.push_back({&O, {}});
      } else if (isLoop(O.kind())) {
        // What the loop's accesses wait for from before it, they wait for
        // once, before the loop.
        if (const auto [Earlier, Later] = firstConflictIn(O, S); Earlier) {
          if (Insert)
            insertBarrier(B, I++, *Earlier, *Later);
          S.clear();
        }
        S = visitLoop(O, std::move(S), Insert);
      } else if (O.kind() == OpKind::If) {
        State Then = visit(*O.region(0), S, Insert);
        merge(Then, visit(*O.region(1), S, Insert));
        S = std::move(Then);
      }
    }
    return S;
  }

  unsigned inserted() const { return Inserted; }

private:
  void insertBarrier(Block &B, size_t Pos, const Op &Earlier, const Op &Later) {
    auto Barrier =
        std::make_unique<Op>(OpKind::DebugBarrier, B.ops()[Pos]->loc());
    Barrier->setMessage(describe(Earlier, Later));
    B.insert(Pos, std::move(Barrier));
    ++Inserted;
  }

  /// An access pending before loop L and one in L that must wait for it.
  std::pair<const Op *, const Op *> firstConflictIn(Op &L, const State &S) {
    std::pair<const Op *, const Op *> Found{nullptr, nullptr};
    for (const auto &R : L.regions())
      walk(*R, [&](const Op &O) {
        if (Found.first || !isAccess(O))
          return;
        for (const Pending &P : S)
          if (conflict(P, O)) {
            Found = {P.Access, &O};
            return;
          }
      });
    return Found;
  }

  /// One iteration: a while loop's condition, then its body.
  State iterate(Op &L, State S, bool Insert) {
    for (const auto &R : L.regions())
      S = visit(*R, std::move(S), Insert);
    return S;
  }

  /// The accesses pending at the loop's start are those before it and those
  /// its iterations leave, which come around from an iteration before.
  State visitLoop(Op &L, State In, bool Insert) {
    State Entry = In;
    for (unsigned Round = 0; Round < 8; ++Round) {
      State Next = Entry;
      for (Pending P : iterate(L, Entry, false)) {
        if (nestedIn(*P.Access, L) && !llvm::is_contained(P.Crossed, &L))
          P.Crossed.push_back(&L);
        if (!llvm::is_contained(Next, P))
          Next.push_back(std::move(P));
      }
      if (Next.size() == Entry.size())
        break;
      Entry = std::move(Next);
    }
    State Out = iterate(L, Entry, Insert);
    merge(Out, In);
    return Out;
  }

  bool conflict(const Pending &P, const Op &B) {
    const Op &A = *P.Access;
    if (!writes(A) && !writes(B))
      return false;
    if (A.kind() == OpKind::Store && B.kind() == OpKind::Store)
      return false;
    if (isAtomic(A) && isAtomic(B))
      return false;
    if (!Roots.mayOverlap(A.operand(0), B.operand(0)))
      return false;
    return !sameThreads(P, B);
  }

  /// Whether each element A and B both touch is touched by one thread
  /// only, the same for both.
  bool sameThreads(const Pending &P, const Op &B) {
    const Op &A = *P.Access;
    const Value *PA = A.operand(0), *PB = B.operand(0);
    if (!sameExpression(PA, PB))
      return false;
    // Every thread reads or writes a scalar the same: a load after stores
    // of the one value reads it, whatever their order.
    if (PA->type().isScalar())
      return A.kind() == OpKind::Store && B.kind() == OpKind::Load &&
             P.Crossed.empty();
    if (LM.get(PA) != LM.get(PB) || LM.get(PA).replicates(PA->type().Shape))
      return false;
    return llvm::all_of(P.Crossed, [&](const Op *L) {
      return !variesIn(PA, *L) || disjointIterations(PA, *L);
    });
  }

  static std::string describe(const Op &Earlier, const Op &Later) {
    auto Name = [](const Op &O) {
      const unsigned Line = O.loc().Line;
      return spell(O.kind()).str() +
             (Line ? " at line " + std::to_string(Line) : "");
    };
    return "the " + Name(Later) + " waits for the " + Name(Earlier) +
           ": other threads touch the same memory";
  }

  const LayoutMap &LM;
  PointerRoots Roots;
  unsigned Inserted = 0;
};

} // namespace

unsigned orderGlobalAccesses(Function &F, const LayoutMap &LM) {
  Orderer O(F, LM);
  O.visit(F.body(), {}, true);
  return O.inserted();
}

} // namespace tilecc::transforms
