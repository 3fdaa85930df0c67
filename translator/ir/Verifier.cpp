//===- Verifier.cpp -------------------------------------------------------===//
#include "ir/Verifier.h"
#include "ir/Printer.h"

namespace tilecc::ir {

namespace {

class Verifier {
public:
  std::vector<VerifierError> Errors;

  void check(const Op &O) {
    switch (categoryOf(O.kind())) {
    case OpCategory::Unary:
    case OpCategory::Binary:
    case OpCategory::Ternary:
      checkElementwise(O);
      break;
    case OpCategory::Memory:
      checkMemory(O);
      break;
    case OpCategory::Reduce:
      checkReduce(O);
      break;
    case OpCategory::Control:
      checkControl(O);
      break;
    default:
      break;
    }
  }

private:
  void fail(const Op &O, const std::string &Msg) {
    Errors.push_back({O.loc(), spell(O.kind()).str() + ": " + Msg});
  }

  void checkElementwise(const Op &O) {
    unsigned Want = categoryOf(O.kind()) == OpCategory::Unary    ? 1
                    : categoryOf(O.kind()) == OpCategory::Binary ? 2
                                                                 : 3;
    if (O.numOperands() != Want || O.numResults() != 1)
      return fail(O, "wrong number of operands or results");
    for (Value *V : O.operands())
      if (V->type().Shape != O.result()->type().Shape)
        return fail(O, "operand " + valueRef(*V) + " has shape of " +
                           V->type().str() + ", result is " +
                           O.result()->type().str());
  }

  void checkReduce(const Op &O) {
    const Type &In = O.operand(0)->type(), &Out = O.result()->type();
    int64_t Axis = O.intAttr();
    if (In.isScalar() || Axis < 0 || Axis >= In.rank())
      return fail(O, "axis out of range for " + In.str());
    llvm::SmallVector<int64_t, 2> Want(In.Shape);
    Want.erase(Want.begin() + Axis);
    if (llvm::ArrayRef<int64_t>(Out.Shape) != llvm::ArrayRef<int64_t>(Want))
      fail(O, "result shape does not drop the reduced axis");
  }

  void checkMemory(const Op &O) {
    if (O.numOperands() < 1 || !O.operand(0)->type().Elem.isPointer())
      return fail(O, "first operand must be a pointer");
    const Type &P = O.operand(0)->type();
    for (Value *V : O.operands())
      if (V->type().Shape != P.Shape)
        return fail(O, "operands must have the pointer's shape");
    if (O.kind() != OpKind::Load && P.Elem.PointeeConst)
      fail(O, "write through a pointer to const");
  }

  void checkControl(const Op &O) {
    if (O.kind() == OpKind::Yield || O.kind() == OpKind::DebugBarrier)
      return;
    for (const auto &R : O.regions()) {
      const Op *T = R->terminator();
      if (!T || T->kind() != OpKind::Yield ||
          T->numOperands() != O.numResults())
        return fail(O, "nested block must end in a yield of its results");
      for (unsigned I = 0; I < O.numResults(); ++I)
        if (T->operand(I)->type() != O.result(I)->type())
          return fail(O, "yielded type differs from result type");
    }
  }
};

} // namespace

std::vector<VerifierError> verify(const Function &F) {
  Verifier V;
  walk(F.body(), [&](const Op &O) { V.check(O); });
  return std::move(V.Errors);
}

} // namespace tilecc::ir
