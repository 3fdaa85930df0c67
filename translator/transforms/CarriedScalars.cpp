//===- CarriedScalars.cpp -------------------------------------------------===//
#include "transforms/CarriedScalars.h"
#include "ir/Builder.h"
#include "llvm/ADT/DenseMap.h"
#include <algorithm>

using namespace tilecc::ir;

namespace tilecc::transforms {

namespace {

class CarriedScalars {
public:
  explicit CarriedScalars(Function &F) : F(F) {}

  unsigned run() {
    llvm::SmallVector<Op *, 8> Loops;
    walk(F.body(), [&](Op &O) {
      if (O.kind() == OpKind::For)
        Loops.push_back(&O);
    });
    for (Op *L : Loops)
      simplify(*L);
    return Rewritten;
  }

private:
  /// Where the body starts computing the carried values it replaces.
  Builder bodyStart(Op &Loop) {
    Builder B(F, *Loop.region(0));
    B.setLoc(Loop.loc());
    return B;
  }

  void simplify(Op &Loop) {
    Block &Body = *Loop.region(0);
    Op &Yield = *Body.terminator();
    Value *IV = Body.argument(0);
    Value *Lo = Loop.operand(0), *Step = Loop.operand(2);
    const size_t OpsBefore = Body.ops().size();
    for (unsigned J = 0; J + 1 < Body.arguments().size(); ++J) {
      Value *Arg = Body.argument(1 + J);
      Value *Init = Loop.operand(3 + J);
      const Value *Next = Yield.operand(J);
      if (!Arg->type().isScalar())
        continue;
      const Op *Add = Next->definingOp();
      const bool Integer = isInteger(Arg->type().Elem.Kind) &&
                           Arg->type().Elem.Kind != ScalarKind::I1;
      const bool AddsZero = Integer && Add && Add->kind() == OpKind::Add &&
                            llvm::is_contained(Add->operands(), Arg) &&
                            llvm::any_of(Add->operands(), [](const Value *V) {
                              return constantInt(V) == 0;
                            });
      if (Next == Arg || AddsZero) {
        replaceUses(Body, Arg, Init);
        replaceUses(F.body(), Loop.result(J), Init);
        ++Rewritten;
        continue;
      }
      if (!Add || Add->kind() != OpKind::Add || Arg->type() != IV->type() ||
          !Integer)
        continue;
      const unsigned Own = Add->operand(0) == Arg ? 0 : 1;
      Value *Amount = Add->operand(1 - Own);
      // Constants are made where used, inside the loop too.
      if (Add->operand(Own) != Arg ||
          (definedInside(Amount, Loop) && !constantInt(Amount)) ||
          (!sameScalar(Amount, Step) && !constantInt(Step)))
        continue;
      Builder B = bodyStart(Loop);
      if (definedInside(Amount, Loop))
        Amount = B.intConst(*constantInt(Amount), Amount->type().Elem.Kind);
      Value *Steps = B.create(OpKind::Sub, IV->type(), {IV, Lo});
      if (!sameScalar(Amount, Step))
        Steps = B.create(
            OpKind::Mul, IV->type(),
            {B.create(OpKind::Div, IV->type(), {Steps, Step}), Amount});
      Value *Now = B.create(OpKind::Add, IV->type(), {Init, Steps});
      Now->setName(Arg->name());
      replaceUses(Body, Arg, Now);
      ++Rewritten;
    }
    // The ops just appended after the yield go first.
    auto &Ops = Body.ops();
    std::rotate(Ops.begin(), Ops.begin() + OpsBefore, Ops.end());
    eraseUnusedSlots(Loop);
  }

  void eraseUnusedSlots(Op &Loop) {
    llvm::DenseMap<const Value *, unsigned> Uses;
    walk(F.body(), [&](const Op &O) {
      for (const Value *V : O.operands())
        ++Uses[V];
    });
    Block &Body = *Loop.region(0);
    Op &Yield = *Body.terminator();
    for (unsigned J = Loop.numResults(); J-- > 0;) {
      if (Uses.lookup(Body.argument(1 + J)) || Uses.lookup(Loop.result(J)))
        continue;
      Yield.eraseOperand(J);
      Loop.eraseOperand(3 + J);
      Body.eraseArgument(1 + J);
      Loop.eraseResult(J);
    }
  }

  Function &F;
  unsigned Rewritten = 0;
};

} // namespace

unsigned simplifyCarriedScalars(Function &F) { return CarriedScalars(F).run(); }

} // namespace tilecc::transforms
