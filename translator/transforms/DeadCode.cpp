//===- DeadCode.cpp -------------------------------------------------------===//
#include "transforms/DeadCode.h"
#include "llvm/ADT/DenseMap.h"

using namespace tilecc::ir;

namespace tilecc::transforms {

namespace {

class DeadCodeEraser {
public:
  explicit DeadCodeEraser(Function &F) {
    walk(F.body(), [&](const Op &O) {
      for (const Value *V : O.operands())
        ++Uses[V];
    });
  }

  /// Users come after the values they use (nested regions after their
  /// op's operands), so walking backwards sees every use of a value
  /// before its definition: one pass erases whole dead chains.
  unsigned run(Block &B) {
    unsigned Erased = 0;
    auto &Ops = B.ops();
    for (size_t I = Ops.size(); I-- > 0;) {
      Op &O = *Ops[I];
      for (const auto &R : O.regions())
        Erased += run(*R);
      if (!isPure(O) || llvm::any_of(O.results(), [&](const auto &R) {
            return Uses.lookup(R.get()) != 0;
          }))
        continue;
      for (const Value *V : O.operands())
        --Uses[V];
      Ops.erase(Ops.begin() + I);
      ++Erased;
    }
    return Erased;
  }

private:
  llvm::DenseMap<const Value *, unsigned> Uses;
};

} // namespace

unsigned eraseDeadCode(Function &F) { return DeadCodeEraser(F).run(F.body()); }

} // namespace tilecc::transforms
