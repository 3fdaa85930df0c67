// How a source file's kernel variants are dealt into translation units.
#include "codegen/Shards.h"

#include <doctest/doctest.h>

using tilecc::codegen::ShardPlanner;

namespace {
// The cost of a kernel of N unrolled element-loop iterations.
uint64_t kernel(uint64_t N) { return ShardPlanner::compileCost(N, 0, 0); }
} // namespace

TEST_CASE("a small file stays one translation unit") {
  ShardPlanner P(4);
  for (int I = 0; I < 8; ++I)
    CHECK(P.place("vector_add.cu", kernel(32), kernel(32)) == 0);
  CHECK(P.filesIn(0).size() == 1);
  CHECK(P.filesIn(1).empty());
  CHECK(P.filesIn(3).empty());
}

TEST_CASE("large kernels spread over the shards, least loaded first") {
  ShardPlanner P(3);
  CHECK(P.place("a.cu", kernel(8000), kernel(8000)) == 0);
  CHECK(P.place("a.cu", kernel(8000), kernel(8000)) == 1);
  CHECK(P.place("b.cu", kernel(8000), kernel(8000)) == 2);
  // All in use: the least loaded takes the next.
  CHECK(P.place("b.cu", kernel(6000), kernel(6000)) == 0);
  CHECK(P.place("b.cu", kernel(4000), kernel(4000)) == 1);
  CHECK(P.filesIn(0).size() == 2);
  CHECK(P.filesIn(2).size() == 1);
}

TEST_CASE("a TMA variant and its twin cost one arch each") {
  ShardPlanner P(2);
  // TMA + twin: one kernel for sm_90a, one below sm_90.
  CHECK(P.place("k.cu", kernel(6000), kernel(6000)) == 0);
  // A second pair: shard 0's compile for each arch would pass the bound.
  CHECK(P.place("k.cu", kernel(6000), kernel(6000)) == 1);
  // A kernel built for sm_90 on only, and one below only, share a shard
  // whose compile for either arch stays one kernel long.
  ShardPlanner Q(2);
  CHECK(Q.place("k.cu", kernel(6000), 0) == 0);
  CHECK(Q.place("k.cu", 0, kernel(6000)) == 0);
}

TEST_CASE("the cost grows with the unrolled iterations and products") {
  CHECK(kernel(4000) > kernel(2000));
  CHECK(kernel(0) > 0);
  // A product's steps add to the kernel's own.
  CHECK(ShardPlanner::compileCost(400, 512, 0) > kernel(400));
  // 8-bit float products on mma.sync cost far more than others.
  CHECK(ShardPlanner::compileCost(400, 512, 512) >
        3 * ShardPlanner::compileCost(400, 512, 0));
}
