//===- BranchingLoops.cpp -------------------------------------------------===//
#include "analysis/BranchingLoops.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

namespace {

bool isLoop(const Op &O) {
  return O.kind() == OpKind::For || O.kind() == OpKind::While;
}

/// Whether block B lies in one of Loop's regions, at any depth.
bool nestedIn(const Block *B, const Op &Loop) {
  for (const Op *P = B ? B->parentOp() : nullptr; P;
       P = P->parentBlock()->parentOp())
    if (P == &Loop)
      return true;
  return false;
}

} // namespace

bool branches(const Block &B) {
  bool Found = false;
  walk(B, [&](const Op &O) { Found |= isLoop(O) || O.kind() == OpKind::If; });
  return Found;
}

bool readAcrossBranchingLoop(const Op &D) {
  const Value *A = D.operand(0);
  const Op *Def = A->definingOp();
  const Block *Home = Def ? Def->parentBlock() : A->ownerBlock();
  for (const Op *P = D.parentBlock()->parentOp(); P;
       P = P->parentBlock()->parentOp())
    if (isLoop(*P) && !nestedIn(Home, *P) &&
        llvm::any_of(P->regions(), [](const auto &R) { return branches(*R); }))
      return true;
  return false;
}

} // namespace tilecc::analysis
