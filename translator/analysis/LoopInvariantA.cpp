//===- LoopInvariantA.cpp -------------------------------------------------===//
#include "analysis/LoopInvariantA.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

/// Whether every element of V is the same by construction: a scalar, or
/// tiles splat from scalars and what elementwise ops and broadcasts make
/// of them.
bool uniform(const Value *V) {
  if (V->type().isScalar())
    return true;
  const Op *D = V->definingOp();
  if (!D)
    return false;
  if (D->kind() == OpKind::Splat || D->kind() == OpKind::Const)
    return true;
  if (D->kind() == OpKind::Broadcast || D->kind() == OpKind::ExpandDims ||
      isElementwise(D->kind()))
    return llvm::all_of(D->operands(), uniform);
  return false;
}

} // namespace

bool choosesUniformly(const Block &B) {
  bool Found = false;
  walk(B, [&](const Op &O) {
    Found |= isStructuredControl(O.kind()) ||
             (O.kind() == OpKind::Select && !O.result()->type().isScalar() &&
              uniform(O.operand(0)));
  });
  return Found;
}

bool invariantInChoosingLoop(const Op &D) {
  const Value *A = D.operand(0);
  const Op *Def = A->definingOp();
  const Block *Home = Def ? Def->parentBlock() : A->ownerBlock();
  // The loops around A's definition: D is in them too.
  llvm::SmallPtrSet<const Op *, 4> AroundA;
  for (const Op *P = Home->parentOp(); P; P = P->parentBlock()->parentOp())
    AroundA.insert(P);
  for (const Op *P = D.parentBlock()->parentOp(); P;
       P = P->parentBlock()->parentOp())
    if (isLoop(P->kind()) && !AroundA.count(P) &&
        llvm::any_of(P->regions(),
                     [](const auto &R) { return choosesUniformly(*R); }))
      return true;
  return false;
}

} // namespace tilecc::analysis
