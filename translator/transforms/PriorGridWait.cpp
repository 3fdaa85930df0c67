//===- PriorGridWait.cpp --------------------------------------------------===//
#include "transforms/PriorGridWait.h"

using namespace tilecc::ir;

namespace tilecc::transforms {

bool waitsForPriorGrid(const Function &F) {
  bool Waits = false;
  walk(F.body(), [&](const Op &O) { Waits |= O.kind() == OpKind::GdcWait; });
  return Waits;
}

bool waitForPriorGridAtEntry(Function &F) {
  if (waitsForPriorGrid(F))
    return false;
  Block &Body = F.body();
  const SourceLoc At =
      Body.ops().empty() ? SourceLoc() : Body.ops().front()->loc();
  Body.insert(0, std::make_unique<Op>(OpKind::GdcWait, At));
  return true;
}

} // namespace tilecc::transforms
