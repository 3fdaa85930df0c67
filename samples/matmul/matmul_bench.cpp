// Times matmul_f16, matmul_bf16 and matmul_tf32 and their persistent forms
// (no activation), matmul_i8 (B given transposed, int32 output)
// and matmul_fp8 (e4m3, B given transposed, fp16 output), at
// M = N = K = 4096 and 8192 with every configuration, checks 4096 sampled
// elements of each result against the reference, and prints JSON lines
// (TFLOP/s) for scripts/bench.sh; a persistent kernel's lines are its
// workload's, with "persistent" before the configuration. Arguments
// (fp16, bf16, tf32, int8, fp8e4m3) time only those types, and MxNxK ones
// (8192x512x4096) those shapes instead of the two cubes: for a profiler's
// run of one shape. Exits 77 without a GPU.
#include "matmul.tile.cpp"
#include "matmul.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <cstdio>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace {

struct Shape {
  int m, n, k;
};

/// Times launch(config, a, b, c, m, n, k) for every configuration in
/// configs without an activation (meta[4] == 0 where there is one); B is
/// given transposed (N x K) when BT.
template <class T, class TC, bool BT, std::size_t NC, class Launch>
bool bench(const std::vector<Shape> &shapes, const char *workload,
           const char *dtype, const char *prefix,
           const tile::config (&configs)[NC],
           std::initializer_list<const char *> meta_names, Launch launch_with) {
  bool ok = true;
  sample::Random rng(33);
  for (const auto [m, n, k] : shapes) {
    // 8-bit integers take the whole range, so that no product is zero.
    const float range = std::is_integral_v<T> ? 127.0f : 1.0f;
    auto af = sample::random_vector(std::size_t(m) * k, rng, -range, range);
    auto bf = sample::random_vector(std::size_t(k) * n, rng, -range, range);
    auto a = sample::convert_all<T>(af), b = sample::convert_all<T>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    sample::DeviceArray<T> da(a, 0),
        db(BT ? reference::transposed(b, k, n) : b, 0);
    sample::DeviceArray<TC> dc(std::size_t(m) * n, 0);
    auto tol = reference::matmul_tolerance(k);
    std::vector<double> ms;
    std::vector<bool> right;
    std::vector<std::size_t> timed;
    for (std::size_t c = 0; c < NC; ++c) {
      if (meta_names.size() > 4 && configs[c].meta[4] != 0)
        continue;
      auto launch = [&] {
        return launch_with(int(c), da.get(), db.get(), dc.get(), m, n, k);
      };
      dc.poison();
      CUDA_CHECK(launch());
      CUDA_CHECK(cudaDeviceSynchronize());
      auto got = dc.download_floats();
      std::vector<float> got_s, want_s;
      for (int s = 0; s < 4096; ++s) {
        int i = int(rng.next() % m), j = int(rng.next() % n);
        got_s.push_back(got[std::size_t(i) * n + j]);
        want_s.push_back(static_cast<float>(
            reference::matmul_element(ar, br, n, k, i, j, false)));
      }
      std::string what = std::string(workload) + " " +
                         sample::describe(configs[c], meta_names);
      right.push_back(sample::compare(what, got_s, want_s, {tol.abs, tol.rel}));
      ms.push_back(sample::median_ms(launch, 10, 50));
      timed.push_back(c);
    }
    auto best = std::min_element(ms.begin(), ms.end()) - ms.begin();
    for (std::size_t i = 0; i < ms.size(); ++i) {
      std::printf(
          "{\"workload\": \"%s\", \"impl\": \"tilecc\", \"shape\": [%d, %d, "
          "%d], \"dtype\": \"%s\", \"config\": \"%s\", \"ms\": %.5f, "
          "\"tflops\": %.1f, \"best\": %s, \"ok\": %s}\n",
          workload, m, n, k, dtype,
          (prefix + sample::describe(configs[timed[i]], meta_names)).c_str(),
          ms[i], 2.0 * m * n * k / ms[i] / 1e9,
          std::ptrdiff_t(i) == best ? "true" : "false",
          right[i] ? "true" : "false");
      ok &= right[i];
    }
  }
  return ok;
}

/// A launch of kernel `fn` through its wrapper with configuration c.
#define MATMUL_LAUNCH(fn)                                                      \
  [](int c, auto *a, auto *b, auto *out, int m, int n, int k) {                \
    return tilecc::fn(a, b, out, m, n, k, nullptr, c);                         \
  }

} // namespace

/// Reads "MxNxK" (positive sizes, nothing after them).
bool parseShape(const std::string &text, Shape &shape) {
  char end = 0;
  return std::sscanf(text.c_str(), "%dx%dx%d%c", &shape.m, &shape.n, &shape.k,
                     &end) == 3 &&
         shape.m > 0 && shape.n > 0 && shape.k > 0;
}

int main(int argc, char **argv) {
  // Arguments name the element types and shapes to time; none times every
  // type at 4096^3 and 8192^3.
  const std::set<std::string> known = {"fp16", "bf16", "tf32", "int8",
                                       "fp8e4m3"};
  std::set<std::string> wanted;
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; ++i) {
    Shape shape;
    if (parseShape(argv[i], shape)) {
      shapes.push_back(shape);
    } else if (known.count(argv[i])) {
      wanted.insert(argv[i]);
    } else {
      std::fprintf(stderr, "usage: matmul_bench [fp16|bf16|tf32|int8|fp8e4m3 "
                           "...] [MxNxK ...]\n");
      return 2;
    }
  }
  if (shapes.empty())
    shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
  auto wants = [&](const char *dtype) {
    return wanted.empty() || wanted.count(dtype) != 0;
  };
  if (!sample::have_gpu())
    return sample::exit_skip;
  const auto names = {"BM", "BN", "BK", "GROUP_M", "ACT"};
  bool ok = true;
  if (wants("fp16")) {
    ok &= bench<tile::half, tile::half, false>(shapes, "matmul_f16", "fp16", "",
                                               matmul_f16_tile_configs, names,
                                               MATMUL_LAUNCH(matmul_f16));
    ok &= bench<tile::half, tile::half, false>(
        shapes, "matmul_f16", "fp16", "persistent ",
        persistent_matmul_f16_tile_configs, names,
        MATMUL_LAUNCH(persistent_matmul_f16));
  }
  if (wants("bf16")) {
    ok &= bench<tile::bfloat16, tile::bfloat16, false>(
        shapes, "matmul_bf16", "bf16", "", matmul_bf16_tile_configs, names,
        MATMUL_LAUNCH(matmul_bf16));
    ok &= bench<tile::bfloat16, tile::bfloat16, false>(
        shapes, "matmul_bf16", "bf16", "persistent ",
        persistent_matmul_bf16_tile_configs, names,
        MATMUL_LAUNCH(persistent_matmul_bf16));
  }
  if (wants("tf32")) {
    ok &= bench<float, float, false>(shapes, "matmul_tf32", "tf32", "",
                                     matmul_tf32_tile_configs, names,
                                     MATMUL_LAUNCH(matmul_tf32));
    ok &=
        bench<float, float, false>(shapes, "matmul_tf32", "tf32", "persistent ",
                                   persistent_matmul_tf32_tile_configs, names,
                                   MATMUL_LAUNCH(persistent_matmul_tf32));
  }
  if (wants("int8"))
    ok &= bench<int8_t, int32_t, true>(
        shapes, "matmul_i8", "int8", "", matmul_i8_tile_configs,
        {"BM", "BN", "BK", "GROUP_M"}, MATMUL_LAUNCH(matmul_i8));
  if (wants("fp8e4m3"))
    ok &= bench<tile::float8_e4m3, tile::half, true>(
        shapes, "matmul_fp8", "fp8e4m3", "", matmul_fp8_tile_configs,
        {"BM", "BN", "BK", "GROUP_M"}, MATMUL_LAUNCH(matmul_fp8));
  return ok ? 0 : 1;
}
