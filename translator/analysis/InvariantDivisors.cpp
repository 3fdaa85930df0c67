//===- InvariantDivisors.cpp - Tiles divided by a kernel argument ---------===//
//
// invariantDivisors: finds the loops' divisions of 32-bit integer tiles by
// a kernel argument.
//
//===----------------------------------------------------------------------===//
#include "analysis/InvariantDivisors.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

static bool inLoop(const Op &O) {
  for (const Op *Around = O.parentBlock()->parentOp(); Around;
       Around = Around->parentBlock()->parentOp())
    if (Around->kind() == OpKind::For || Around->kind() == OpKind::While)
      return true;
  return false;
}

InvariantDivisors invariantDivisors(const Function &F) {
  InvariantDivisors Out;
  walk(F.body(), [&](const Op &O) {
    if (O.kind() != OpKind::Div && O.kind() != OpKind::FloorDiv &&
        O.kind() != OpKind::Rem)
      return;
    const Type &T = O.result()->type();
    if (T.isScalar() ||
        (T.Elem.Kind != ScalarKind::I32 && T.Elem.Kind != ScalarKind::U32) ||
        !inLoop(O))
      return;
    const Op *Splat = O.operand(1)->definingOp();
    if (!Splat || Splat->kind() != OpKind::Splat)
      return;
    const Value *D = Splat->operand(0);
    const bool IsArgument =
        llvm::any_of(F.Params, [&](const Param &P) { return P.Arg == D; });
    if (!IsArgument || D->type().Elem.Kind != T.Elem.Kind)
      return;
    Out.By[&O] = D;
  });
  for (const Param &P : F.Params)
    if (llvm::is_contained(llvm::make_second_range(Out.By), P.Arg))
      Out.Arguments.push_back(P.Arg);
  return Out;
}

} // namespace tilecc::analysis
