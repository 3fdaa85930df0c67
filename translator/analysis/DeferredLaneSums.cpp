//===- DeferredLaneSums.cpp -----------------------------------------------===//
#include "analysis/DeferredLaneSums.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// The op of block B that defines V, or null.
const Op *definedIn(const Value *V, const Block &B) {
  const Op *D = V->definingOp();
  return D && D->parentBlock() == &B ? D : nullptr;
}

/// Whether a sum along Dim of a tile of this shape in layout L combines
/// across the lanes of a warp (a step to put off) and never across warps
/// (which would go through shared memory).
bool combinesLanesOnly(const Layout &L, llvm::ArrayRef<int64_t> Shape,
                       unsigned Dim) {
  if (L.SliceDim || Dim >= L.rank())
    return false;
  const BlockedLayout &P = L.Parent;
  return P.WarpsPerCTA[Dim] == 1 && P.ThreadsPerWarp[Dim] > 1 &&
         Shape[Dim] > P.SizePerThread[Dim];
}

} // namespace

DeferredLaneSums deferredLaneSums(const Function &F, const LayoutMap &LM) {
  DeferredLaneSums Out;
  const UserMap Users = users(F.body());
  auto OnlyUser = [&](const Value *V) { return onlyUser(Users, V); };
  // Whether Sum's lanes may stay apart while they add to carried value L
  // through Add (l + sum, or l * a + sum through Scale).
  auto Defers = [&](const Value *L, const Op &Add, const Op &Sum,
                    const Op *Scale) {
    const Value *P = Sum.operand(0);
    const Layout &R = LM.get(Sum.result());
    if (OnlyUser(Sum.result()) != &Add || OnlyUser(L) != (Scale ? Scale : &Add))
      return false;
    // One layout, a slice along the summed dimension, for l, the sum and
    // the scale: every lane the sum combines holds the same l and a.
    if (R.SliceDim != unsigned(Sum.axis()) || LM.get(L) != R)
      return false;
    if (Scale && (Scale->operand(0) == Scale->operand(1) ||
                  LM.get(Scale->operand(0)) != LM.get(Scale->operand(1)) ||
                  OnlyUser(Scale->result()) != &Add))
      return false;
    return combinesLanesOnly(LM.get(P), P->type().Shape, Sum.axis());
  };
  walk(F.body(), [&](const Op &Loop) {
    if (Loop.kind() != OpKind::For)
      return;
    const Block &Body = *Loop.region(0);
    const Op *Y = Body.terminator();
    for (unsigned I = 0; I < Loop.numResults(); ++I) {
      const Value *L = Body.argument(I + 1);
      const Op *Add = definedIn(Y->operand(I), Body);
      if (L->type().isScalar() || L->type().Elem.Kind != ScalarKind::F32 ||
          !Add || Add->kind() != OpKind::Add || OnlyUser(Add->result()) != Y)
        continue;
      for (unsigned S = 0; S < 2; ++S) {
        const Op *Sum = definedIn(Add->operand(S), Body);
        const Value *Other = Add->operand(1 - S);
        const Op *Scale = definedIn(Other, Body);
        if (!Sum || Sum->kind() != OpKind::ReduceSum)
          continue;
        if (Other != L && !(Scale && Scale->kind() == OpKind::Mul &&
                            (Scale->operand(0) == L || Scale->operand(1) == L)))
          continue;
        if (!Defers(L, *Add, *Sum, Other == L ? nullptr : Scale))
          continue;
        Out.Reduces.insert(Sum);
        Out.Carried[&Loop].push_back({I, Sum});
        break;
      }
    }
  });
  // A sum that only starts the next loop's stays in pieces in between.
  for (auto &[Next, Sums] : Out.Carried)
    for (DeferredLaneSums::PartialSum &S : Sums) {
      const Value *Init = Next->operand(3 + S.Index);
      const Op *Prev = Init->definingOp();
      auto It = Prev ? Out.Carried.find(Prev) : Out.Carried.end();
      if (It == Out.Carried.end() || OnlyUser(Init) != Next)
        continue;
      for (DeferredLaneSums::PartialSum &P : It->second)
        if (Prev->result(P.Index) == Init && P.Sum->axis() == S.Sum->axis() &&
            LM.get(P.Sum->operand(0)) == LM.get(S.Sum->operand(0)))
          P.Combine = S.Split = false;
    }
  return Out;
}

} // namespace tilecc::analysis
