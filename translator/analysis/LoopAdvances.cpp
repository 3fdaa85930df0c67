//===- LoopAdvances.cpp ---------------------------------------------------===//
#include "analysis/LoopAdvances.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

Value *LoopAdvances::stepOf(const Value *Arg) {
  const Value *Next = Body.terminator()->operand(Body.argumentNumber(Arg) - 1);
  const Op *D = Next->definingOp();
  if (!Arg->type().Elem.isPointer() || !D || D->kind() != OpKind::AddPtr ||
      D->operand(0) != Arg || !addStepOps(D->operand(1)))
    return nullptr;
  return D->operand(1);
}

/// Adds the body ops V is computed by; false unless they depend only on
/// values from outside the loop.
bool LoopAdvances::addStepOps(const Value *V) {
  if (const Block *Owner = V->ownerBlock())
    return Owner != &Body;
  const Op *D = V->definingOp();
  if (!D || D->parentBlock() != &Body || StepOps.count(D))
    return true;
  if (!Recomputable(*D) || !llvm::all_of(D->operands(), [&](const Value *O) {
        return addStepOps(O);
      }))
    return false;
  StepOps.insert(D);
  return true;
}

} // namespace tilecc::analysis
