// Transforms on TileIR.
#include "ir/Builder.h"
#include "ir/Verifier.h"
#include "transforms/PriorGridWait.h"

#include <doctest/doctest.h>

using namespace tilecc::ir;
using namespace tilecc::transforms;

namespace {

unsigned countWaits(const Function &F) {
  unsigned N = 0;
  walk(F.body(), [&](const Op &O) { N += O.kind() == OpKind::GdcWait; });
  return N;
}

} // namespace

TEST_CASE("a dependent launch waits before the first statement") {
  Function F;
  Builder B(F, F.body());
  B.setLoc({7, 3});
  Value *Pid = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
  B.setLoc({8, 3});
  B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(2)});
  CHECK_FALSE(waitsForPriorGrid(F));
  CHECK(waitForPriorGridAtEntry(F));
  const Op &First = *F.body().ops().front();
  CHECK(First.kind() == OpKind::GdcWait);
  CHECK(First.loc().Line == 7);
  CHECK(First.parentBlock() == &F.body());
  CHECK(verify(F).empty());
  // Once is enough.
  CHECK_FALSE(waitForPriorGridAtEntry(F));
  CHECK(countWaits(F) == 1);
}

TEST_CASE("a kernel that says where it waits keeps its wait") {
  Function F;
  Builder B(F, F.body());
  Value *Pid = B.create(OpKind::ProgramId, Type::scalar(ScalarKind::I32), {});
  B.createVoid(OpKind::GdcLaunchDependents, {});
  B.createVoid(OpKind::GdcWait, {});
  B.create(OpKind::Mul, Pid->type(), {Pid, B.intConst(2)});
  CHECK(waitsForPriorGrid(F));
  CHECK_FALSE(waitForPriorGridAtEntry(F));
  CHECK(F.body().ops().front()->kind() == OpKind::ProgramId);
  CHECK(countWaits(F) == 1);
  CHECK(verify(F).empty());
}

TEST_CASE("an empty kernel still waits") {
  Function F;
  CHECK(waitForPriorGridAtEntry(F));
  CHECK(F.body().ops().size() == 1);
  CHECK(F.body().ops().front()->loc().Line == 0);
}
