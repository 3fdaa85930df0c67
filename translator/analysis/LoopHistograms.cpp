//===- LoopHistograms.cpp - Histograms a loop sums in shared memory -------===//
//
// loopHistograms: finds the carried sums of per-iteration histograms.
//
//===----------------------------------------------------------------------===//
#include "analysis/LoopHistograms.h"

using namespace tilecc::ir;

namespace tilecc::analysis {

LoopHistograms loopHistograms(const Function &F, const LayoutMap &LM,
                              llvm::function_ref<bool(const Op &)> Skip) {
  LoopHistograms Out;
  const UserMap Users = users(F.body());
  auto OnlyUser = [&](const Value *V) { return onlyUser(Users, V); };
  walk(F.body(), [&](const Op &Loop) {
    if (Loop.kind() != OpKind::For || Skip(Loop))
      return;
    const Block &Body = *Loop.region(0);
    const Op *Y = Body.terminator();
    for (unsigned I = 0; I < Y->numOperands(); ++I) {
      const Value *Carried = Body.argument(I + 1);
      if (Carried->type().isScalar())
        continue;
      // From the yielded value back to c through adds of histograms.
      LoopHistograms::Summed S{I, {}};
      const Value *V = Y->operand(I);
      const Op *User = Y;
      while (V != Carried) {
        const Op *Add = V->definingOp();
        if (!Add || Add->kind() != OpKind::Add || Add->parentBlock() != &Body ||
            OnlyUser(V) != User || LM.get(V) != LM.get(Carried))
          break;
        const Op *H = Add->operand(1)->definingOp();
        unsigned Rest = 0;
        if (!H || H->kind() != OpKind::Histogram) {
          H = Add->operand(0)->definingOp();
          Rest = 1;
        }
        if (!H || H->kind() != OpKind::Histogram || H->parentBlock() != &Body ||
            OnlyUser(H->result()) != Add ||
            LM.get(H->result()) != LM.get(Carried))
          break;
        S.Histograms.push_back(H);
        V = Add->operand(Rest);
        User = Add;
      }
      if (V != Carried || S.Histograms.empty() || OnlyUser(Carried) != User)
        continue;
      Out.Carried[&Loop].push_back(std::move(S));
    }
  });
  return Out;
}

} // namespace tilecc::analysis
