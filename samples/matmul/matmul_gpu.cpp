// Runs matmul_f16, matmul_bf16 and matmul_tf32, their persistent forms,
// matmul_fp8 and matmul_i8 on the GPU through their launch wrappers with the
// default and every explicit configuration, on aligned sizes (the pipelined
// tensor-core path, TMA copies on sm_90), ragged ones (M, N, K not multiples of
// the blocks; K below one block; 208 x 336 x 48 is ragged but 16-aligned, so
// TMA fills the edges with zeros) and unaligned ones (the generic variant),
// into poisoned outputs with guard zones; and that every wrapper refuses a
// problem with an operand of 2^31 elements or more. Exits 77 without a GPU.
#include "matmul.tile.cpp"
#include "matmul.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <type_traits>

namespace {

struct Shape {
  int m, n, k;
};
// {300, 208, 96}: rows that end inside a block run the aligned variant,
// which m's divisibility does not decide.
constexpr Shape shapes[] = {{512, 512, 512}, {384, 640, 1024}, {300, 200, 96},
                            {300, 208, 96},  {200, 304, 40},   {208, 336, 48},
                            {129, 97, 8},    {0, 64, 64}};

template <class T, bool Persistent> bool check(const char *name) {
  sample::Random rng(32);
  bool ok = true;
  int runs = 0;
  for (auto [m, n, k] : shapes) {
    auto af = sample::random_vector(std::size_t(m) * k, rng, -1, 1);
    auto bf = sample::random_vector(std::size_t(k) * n, rng, -1, 1);
    auto a = sample::convert_all<T>(af), b = sample::convert_all<T>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    auto tol = reference::matmul_tolerance(k);
    auto want = reference::matmul(ar, br, m, n, k, false);
    auto want_leaky = reference::matmul(ar, br, m, n, k, true);
    sample::DeviceArray<T> da(a, 0), db(b, 0), dc(std::size_t(m) * n, 0);
    // The f16 and bf16 kernels share their configurations.
    const auto &configs = []() -> const auto & {
      if constexpr (Persistent)
        return persistent_matmul_f16_tile_configs;
      else
        return matmul_f16_tile_configs;
    }();
    for (int config = -1; config < int(std::size(configs)); ++config) {
      bool leaky = config >= 0 && configs[config].meta[4] == 1;
      std::string what =
          std::string(name) + " " +
          sample::describe_config(configs, config,
                                  {"BM", "BN", "BK", "GROUP_M", "ACT"}) +
          " " + std::to_string(m) + "x" + std::to_string(n) + "x" +
          std::to_string(k);
      ok &= sample::check_launch(
          what, dc, nullptr,
          [&] {
            constexpr bool half = std::is_same_v<T, tile::half>;
            if constexpr (half && Persistent)
              return tilecc::persistent_matmul_f16(da.get(), db.get(), dc.get(),
                                                   m, n, k, nullptr, config);
            else if constexpr (Persistent)
              return tilecc::persistent_matmul_bf16(
                  da.get(), db.get(), dc.get(), m, n, k, nullptr, config);
            else if constexpr (half)
              return tilecc::matmul_f16(da.get(), db.get(), dc.get(), m, n, k,
                                        nullptr, config);
            else
              return tilecc::matmul_bf16(da.get(), db.get(), dc.get(), m, n, k,
                                         nullptr, config);
          },
          leaky ? want_leaky : want, {tol.abs, tol.rel});
      ++runs;
    }
  }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

/// matmul_tf32 on inputs on a grid of 2^-10 (exact in TF32, so that only
/// the summation errs: within the 1e-3 relative of TF32 dots), matmul_fp8
/// on their e4m3 roundings (the fp16 output's tolerance), and matmul_i8
/// on int8 inputs: exact. B is given transposed to the 8-bit kernels.
bool check_other_types() {
  sample::Random rng(33);
  bool ok = true;
  int runs = 0;
  auto on_grid = [&](std::size_t count) {
    auto v = sample::random_vector(count, rng, -1, 1);
    for (float &e : v)
      e = std::round(e * 1024) / 1024;
    return v;
  };
  auto int8s = [&](std::size_t count) {
    std::vector<int8_t> v(count);
    for (int8_t &e : v)
      e = int8_t(sample::random_ints(1, rng, 256)[0] - 128);
    return v;
  };
  for (auto [m, n, k] : shapes) {
    const std::string size = " " + std::to_string(m) + "x" + std::to_string(n) +
                             "x" + std::to_string(k);
    // Every configuration of one kernel (and the default) into out.
    auto each_config = [&](const char *name, const auto &configs,
                           std::initializer_list<const char *> names, auto &out,
                           auto launch, auto want_of, sample::Tolerance tol) {
      for (int config = -1; config < int(std::size(configs)); ++config) {
        ok &= sample::check_launch(
            name + (" " + sample::describe_config(configs, config, names)) +
                size,
            out, nullptr, [&] { return launch(config); }, want_of(config), tol);
        ++runs;
      }
    };
    auto af = on_grid(std::size_t(m) * k), bf = on_grid(std::size_t(k) * n);
    sample::DeviceArray<float> da(af, 0), db(bf, 0), dc(std::size_t(m) * n, 0);
    auto want = reference::matmul(af, bf, m, n, k, false);
    auto want_leaky = reference::matmul(af, bf, m, n, k, true);
    each_config(
        "matmul_tf32", matmul_tf32_tile_configs,
        {"BM", "BN", "BK", "GROUP_M", "ACT"}, dc,
        [&](int c) {
          return tilecc::matmul_tf32(da.get(), db.get(), dc.get(), m, n, k,
                                     nullptr, c);
        },
        [&](int c) -> const std::vector<float> & {
          return c >= 0 && matmul_tf32_tile_configs[c].meta[4] == 1 ? want_leaky
                                                                    : want;
        },
        {1e-3 * std::sqrt(k / 9.0 + 1.0), 1e-3});
    each_config(
        "persistent_matmul_tf32", persistent_matmul_tf32_tile_configs,
        {"BM", "BN", "BK", "GROUP_M", "ACT"}, dc,
        [&](int c) {
          return tilecc::persistent_matmul_tf32(da.get(), db.get(), dc.get(), m,
                                                n, k, nullptr, c);
        },
        [&](int) -> const std::vector<float> & { return want; },
        {1e-3 * std::sqrt(k / 9.0 + 1.0), 1e-3});
    auto a8 = sample::convert_all<tile::float8_e4m3>(af);
    auto b8 = sample::convert_all<tile::float8_e4m3>(bf);
    sample::DeviceArray<tile::float8_e4m3> fa(a8, 0),
        fb(reference::transposed(b8, k, n), 0);
    sample::DeviceArray<tile::half> fc(std::size_t(m) * n, 0);
    auto want_8 =
        reference::matmul(sample::convert_all<float>(a8),
                          sample::convert_all<float>(b8), m, n, k, false);
    auto tol = reference::matmul_tolerance(k);
    each_config(
        "matmul_fp8", matmul_fp8_tile_configs, {"BM", "BN", "BK", "GROUP_M"},
        fc,
        [&](int c) {
          return tilecc::matmul_fp8(fa.get(), fb.get(), fc.get(), m, n, k,
                                    nullptr, c);
        },
        [&](int) -> const std::vector<float> & { return want_8; },
        {tol.abs, tol.rel});
    auto a = int8s(std::size_t(m) * k), b = int8s(std::size_t(k) * n);
    sample::DeviceArray<int8_t> ia(a, 0), ib(reference::transposed(b, k, n), 0);
    sample::DeviceArray<int32_t> ic(std::size_t(m) * n, 0);
    auto want_i =
        reference::matmul(sample::convert_all<float>(a),
                          sample::convert_all<float>(b), m, n, k, false);
    each_config(
        "matmul_i8", matmul_i8_tile_configs, {"BM", "BN", "BK", "GROUP_M"}, ic,
        [&](int c) {
          return tilecc::matmul_i8(ia.get(), ib.get(), ic.get(), m, n, k,
                                   nullptr, c);
        },
        [&](int) -> const std::vector<float> & { return want_i; }, {0, 0});
  }
  std::printf("%s: matmul_tf32 and its persistent form, matmul_fp8 and "
              "matmul_i8 on the GPU, %d runs\n",
              ok ? "PASS" : "FAIL", runs);
  return ok;
}

/// Every wrapper refuses a problem with an operand of 2^31 elements or more
/// (its kernels' offsets are 32-bit), by default and at each configuration,
/// before it touches memory: null pointers stand for the operands.
bool check_refused() {
  bool ok = true;
  auto refuses = [&](const char *name, int n_configs, auto launch) {
    for (auto [m, n, k] :
         {Shape{1 << 16, 64, 1 << 15}, Shape{64, 1 << 16, 1 << 15},
          Shape{1 << 16, 1 << 15, 64}})
      for (int c = -1; c < n_configs; ++c)
        if (launch(m, n, k, c) != cudaErrorInvalidValue) {
          std::printf("FAIL: %s config %d ran %d x %d x %d, whose operands "
                      "pass 2^31 elements\n",
                      name, c, m, n, k);
          ok = false;
        }
  };
#define MATMUL_REFUSES(KERNEL, TA, TB, TC)                                     \
  refuses(#KERNEL, tilecc::KERNEL##_num_configs,                               \
          [](int m, int n, int k, int c) {                                     \
            return tilecc::KERNEL(static_cast<const TA *>(nullptr),            \
                                  static_cast<const TB *>(nullptr),            \
                                  static_cast<TC *>(nullptr), m, n, k,         \
                                  nullptr, c);                                 \
          })
  MATMUL_REFUSES(matmul_f16, tile::half, tile::half, tile::half);
  MATMUL_REFUSES(matmul_bf16, tile::bfloat16, tile::bfloat16, tile::bfloat16);
  MATMUL_REFUSES(matmul_tf32, float, float, float);
  MATMUL_REFUSES(matmul_fp8, tile::float8_e4m3, tile::float8_e4m3, tile::half);
  MATMUL_REFUSES(matmul_i8, int8_t, int8_t, int32_t);
  MATMUL_REFUSES(persistent_matmul_f16, tile::half, tile::half, tile::half);
  MATMUL_REFUSES(persistent_matmul_bf16, tile::bfloat16, tile::bfloat16,
                 tile::bfloat16);
  MATMUL_REFUSES(persistent_matmul_tf32, float, float, float);
#undef MATMUL_REFUSES
  std::printf("%s: the matmul wrappers refuse operands past 2^31 elements\n",
              ok ? "PASS" : "FAIL");
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  bool ok = check<tile::half, false>("matmul_f16");
  ok &= check<tile::bfloat16, false>("matmul_bf16");
  ok &= check<tile::half, true>("persistent_matmul_f16");
  ok &= check<tile::bfloat16, true>("persistent_matmul_bf16");
  ok &= check_other_types();
  ok &= check_refused();
  return ok ? 0 : 1;
}
