// Formatting generated code statement by statement gives what clang-format
// gives for the whole file.
#include "codegen/FormatCode.h"

#include <doctest/doctest.h>

using tilecc::codegen::formatCode;
using tilecc::codegen::formatCodeWithClangFormat;
using tilecc::codegen::markForFormatting;

namespace {
void checkAsClangFormat(const std::string &Code) {
  std::string Reference = formatCodeWithClangFormat(Code, "test.cu");
  CHECK(Reference != Code); // each case has something to format
  CHECK(formatCode(Code, "test.cu") == Reference);
}
} // namespace

TEST_CASE("long declarations and signatures are wrapped in place") {
  checkAsClangFormat(R"(namespace tilecc_gen::k {
namespace rt = tile::rt;
using L0 = rt::sliced<1, rt::blocked<rt::dims{64, 1}, rt::dims{1, 2}, rt::dims{8, 4}, rt::dims{4, 1}>>;

__global__ void __launch_bounds__(256) k_c0_generic(const rt::f16 *a, const rt::f16 *b, rt::f16 *c, int m, int n) {
  const int pid = blockIdx.x;
  #pragma unroll
  for (int e = 0; e < 16; ++e)
    rt::cp_async_v<8>(a_dst.template at<L0, true>(e), ((a_head + rd_3[rt::broadcast_index<L0, L0>(e)]) + (cols[e] * 64)), live);
  for (int e = 0; e < 16; ++e)
    acc[e] = 0.0f;


  if (pid == 0) {
    c[0] = a[0];

  }
}

} // namespace tilecc_gen::k
)");
}

TEST_CASE("statements the printer broke over lines are formatted whole") {
  checkAsClangFormat(R"(void f() {
  static const cudaError_t smem_status = cudaFuncSetAttribute(
      k_c0_aligned16_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, 43008);
  const bool aligned = reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
    n % 16 == 0;
  if (const cudaError_t status = rt::encode_tensor_map<rt::smem_tile<rt::f16, 64, 32>>(
          &x_map, a, k, m, k);
      status != cudaSuccess)
    return status;
}
)");
}

TEST_CASE("lambdas, switches, else branches and do loops keep their scopes") {
  checkAsClangFormat(R"(cudaError_t launch(int config, int seq) {
  auto combine = [&](float mean_a, float m2_a, float n_a, float mean_b, float m2_b, float n_b) {
    const float n = (n_a + n_b);
    return rt::pack(mean_a + mean_b * (n_b / n), m2_a + m2_b + (mean_b - mean_a) * (mean_b - mean_a) * n_a * n_b / n);
  };
  switch (config) {
  case 0: {
    const tile::detail::programs_per_sm_scope occupancy(tilecc_gen::k::programs_per_sm_0);
    break;
  }
  default:
    return cudaErrorInvalidValue;
  }
  if (seq > 1024) {
    seq = 1024;
  } else if (seq > tile::cdiv(config, 64) * tile::cdiv(config, 128) + tile::cdiv(config, 256)) {
    seq = 0;
  }
  do {
    seq = rt::some_long_function_name(seq, config, config * 2, config * 3, config * 4);
  } while (seq > 0);
  return cudaSuccess;
}
)");
}

TEST_CASE("comments: neighbours' trailing comments line up, long ones stay") {
  checkAsClangFormat(R"(struct stage {
  int a; // first
  float bb; // second
};
void g() {
  { // pipeline: kt, vb in 3 shared-memory stages, filled by a producer warpgroup as they are released
    // a comment on its own line that is longer than the column limit of eighty columns
    x = 1;
  }
}
)");
}

TEST_CASE("marked code is formatted even where it looks settled") {
  std::string Body = markForFormatting(
      "{\n    if (n > 0)\n        return {n};\n    return {1};\n}");
  checkAsClangFormat("static tile::grid grid_0(int n) " + Body + "\n");
}

TEST_CASE("braced lists over several lines are left to clang-format") {
  checkAsClangFormat(R"(static constexpr int table[] = {
    1, 2,    3,
  4};
int after  = 1;
)");
}

TEST_CASE("short function, lambda and record bodies are joined") {
  checkAsClangFormat(R"(int f() {
  return 1;
}
struct s {
  int a;
};
void g() {
  auto l = [&](int i) {
    return i;
  };
}
)");
}

TEST_CASE("block comments over lines and raw strings: the whole file") {
  checkAsClangFormat("/* a comment\n   { over lines */\nint  x = 1;\n");
  checkAsClangFormat("const char *s = R\"(\n{ not code\n)\";\nint  x = 1;\n");
}

TEST_CASE("a file with nothing to format comes back as it was") {
  std::string Code =
      "namespace a {\nint f(int x) {\n  const int y = x * x + 2 * x + "
      "1;\n  return y * y;\n}\n} // namespace a\n";
  CHECK(formatCode(Code, "test.cu") == Code);
  CHECK(formatCodeWithClangFormat(Code, "test.cu") == Code);
}

TEST_CASE("a statement repeated in the same scopes is formatted once for all") {
  // Kernel variants repeat most statements; the repeats in other scopes
  // (a loop body here) are indented as their own.
  const std::string Statement =
      "rt::cp_async_v<8>(a_dst.template at<L0, true>(e), ((a_head + "
      "rd_3[rt::broadcast_index<L0, L0>(e)]) + (cols[e] * 64)), live);\n";
  checkAsClangFormat("void f() {\n" + Statement + "}\n\nvoid g() {\n" +
                     Statement + "  for (;;) {\n" + Statement + "}\n}\n");
}

TEST_CASE("statements that differ only in digits are formatted alike") {
  // Variants repeat statements with other layout and value numbers; each
  // keeps its own digits, and a different length is another statement.
  auto Statement = [](const std::string &A, const std::string &B) {
    return "rt::cp_async_v<" + A + ">(a_dst.template at<L" + B +
           ", true>(e), ((a_head + rd_3[rt::broadcast_index<L" + B + ", L" + A +
           ">(e)]) + (cols[e] * 64)), live);\n";
  };
  const std::string Code = "void f() {\n" + Statement("8", "0") +
                           "}\n\nvoid g() {\n" + Statement("1", "7") +
                           "}\n\nvoid h() {\n" + Statement("4", "12") + "}\n";
  checkAsClangFormat(Code);
  const std::string Formatted = formatCode(Code, "test.cu");
  CHECK(Formatted.find("rt::cp_async_v<1>") != std::string::npos);
  CHECK(Formatted.find("L12") != std::string::npos);
}

TEST_CASE("files formatted with one cache take each other's statements") {
  auto File = [](const std::string &Stage, const std::string &Layout) {
    return "void f() {\n  rt::cp_async_v<" + Stage + ">(a_dst.template at<L" +
           Layout + ", true>(e), ((a_head + rd_3[rt::broadcast_index<L" +
           Layout + ", L" + Layout + ">(e)]) + (cols[e] * 64)), live);\n}\n";
  };
  tilecc::codegen::FormatCache Cache;
  for (const std::string &Code : {File("8", "0"), File("2", "5")}) {
    std::string Reference = formatCodeWithClangFormat(Code, "test.cu");
    CHECK(Reference != Code);
    CHECK(formatCode(Code, "test.cu", &Cache) == Reference);
  }
}
