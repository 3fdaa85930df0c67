// Autotuning against an exhaustive search, on shapes the samples' default
// rules were not written for: matmul fp16 and bf16 (12 shapes of M, N, K
// from {512, 1000, 3000, 4096, 8192, 12288}, skinny ones included), softmax
// and layer norm with rows of 3000 and 12000, attention (batch 4 x 32 heads,
// head_dim 128) at seq 512, 2000 and 6000. For each shape every
// configuration that applies is checked, then the launch wrapper is asked
// to tune (tile::autotuned), then the configurations and the tuned launch
// are timed in interleaved rounds: the time of that first call, the tuned
// launch's median and its ratio to the fastest configuration's are
// printed, with each configuration's median, one JSON line ("autotune":
// true) per shape; and the dispatch overhead of a tuned launch beside an
// explicit one, over 100000 launches of a small vector_add
// (dispatchOverhead). An argument (dispatch, matmul, softmax, layer_norm,
// attention) runs that group only. scripts/bench_peers.py --only autotune
// (--workloads to choose kernels) times Triton's autotuned kernels on the
// same shapes. Exits 77 without a GPU.
// The kernels' sources, for their configurations.
#include "attention.tile.cpp"
#include "layer_norm.tile.cpp"
#include "matmul.tile.cpp"
#include "softmax.tile.cpp"

#include "attention.tile.h"
#include "layer_norm.tile.h"
#include "matmul.tile.h"
#include "softmax.tile.h"
#include "vector_add.tile.h"

#include "../attention/reference.hpp"
#include "../layer_norm/reference.hpp"
#include "../matmul/reference.hpp"
#include "../softmax/reference.hpp"
#include "bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Times every configuration of a kernel that applies to one shape and
/// that the tuner may choose (configs[c].autotune), and the tuned launch,
/// in interleaved rounds: a GPU whose clock falls as it heats must not make
/// whichever is timed last look slow. launch(config) launches into the
/// output, check(what) compares that output with the reference. Prints one
/// JSON line.
template <std::size_t N>
bool tuneCase(const std::string &kernel, const std::vector<long long> &shape,
              const tile::config (&configs)[N],
              const std::function<cudaError_t(int)> &launch,
              const std::function<bool(const std::string &)> &check) {
  std::string dims, shapeList;
  for (long long d : shape) {
    dims += dims.empty() ? "" : "x";
    dims += std::to_string(d);
    shapeList += shapeList.empty() ? "" : ", ";
    shapeList += std::to_string(d);
  }
  bool ok = true;
  std::vector<int> timed; // the configurations that apply, then the tuned
  for (int c = 0; c < int(N); ++c) {
    if (!configs[c].autotune)
      continue;
    const cudaError_t first = launch(c);
    if (first == cudaErrorInvalidValue) // the configuration does not apply
      continue;
    CUDA_CHECK(first);
    CUDA_CHECK(cudaDeviceSynchronize());
    ok &= check(kernel + " " + dims + " config " + std::to_string(c));
    timed.push_back(c);
  }
  const Clock::time_point start = Clock::now();
  CUDA_CHECK(launch(tile::autotuned));
  CUDA_CHECK(cudaDeviceSynchronize());
  const double tuningMs = millisecondsSince(start);
  ok &= check(kernel + " " + dims + " tuned");
  timed.push_back(tile::autotuned);
  // Five rounds of a fifth of median_ms's budget each; round r starts at
  // the r-th launch. Each one's time is the median of its rounds' medians.
  constexpr int rounds = 5;
  const int n = int(timed.size());
  std::vector<std::vector<double>> roundMs(n);
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < n; ++i) {
      const int j = (i + r) % n;
      roundMs[j].push_back(
          sample::median_ms([&] { return launch(timed[j]); }, 2, 10, {5, 20}));
    }
  std::vector<double> ms(n);
  for (int i = 0; i < n; ++i) {
    std::sort(roundMs[i].begin(), roundMs[i].end());
    ms[i] = roundMs[i][rounds / 2];
  }
  const double tunedMs = ms.back();
  int best = -1;
  double bestMs = 0;
  std::string configMs; // "index": median ms, of each configuration timed
  for (int i = 0; i + 1 < n; ++i) {
    char entry[48];
    std::snprintf(entry, sizeof entry, "%s\"%d\": %.5f",
                  configMs.empty() ? "" : ", ", timed[i], ms[i]);
    configMs += entry;
    if (best < 0 || ms[i] < bestMs) {
      best = timed[i];
      bestMs = ms[i];
    }
  }
  std::printf("{\"autotune\": true, \"kernel\": \"%s\", \"shape\": [%s], "
              "\"configs_timed\": %d, \"best_config\": %d, \"best_ms\": %.5f, "
              "\"tuned_ms\": %.5f, \"tuned_vs_best\": %.3f, \"tuning_ms\": "
              "%.1f, \"config_ms\": {%s}, \"ok\": %s}\n",
              kernel.c_str(), shapeList.c_str(), n - 1, best, bestMs, tunedMs,
              bestMs / tunedMs, tuningMs, configMs.c_str(),
              ok ? "true" : "false");
  std::fflush(stdout);
  return ok;
}

/// Sampled elements of a row-major output against a reference element.
bool checkSampled(const std::string &what, const std::vector<float> &got,
                  int rows, int cols, sample::Random &rng,
                  const std::function<double(int, int)> &want,
                  sample::Tolerance tol) {
  std::vector<float> gotS, wantS;
  for (int s = 0; s < 1024; ++s) {
    const int i = int(rng.next() % rows), j = int(rng.next() % cols);
    gotS.push_back(got[std::size_t(i) * cols + j]);
    wantS.push_back(float(want(i, j)));
  }
  return sample::compare(what, gotS, wantS, tol);
}

template <class T, std::size_t N>
bool matmuls(const char *kernel,
             cudaError_t (*wrapper)(const T *, const T *, T *, int, int, int,
                                    cudaStream_t, int),
             const tile::config (&configs)[N]) {
  struct Shape {
    int m, n, k;
  };
  bool ok = true;
  sample::Random rng(52);
  for (auto [m, n, k] : {Shape{512, 512, 512}, Shape{1000, 1000, 1000},
                         Shape{3000, 3000, 3000}, Shape{1000, 3000, 4096},
                         Shape{4096, 1000, 3000}, Shape{8192, 512, 4096},
                         Shape{512, 8192, 8192}, Shape{12288, 4096, 1000},
                         Shape{3000, 12288, 512}, Shape{8192, 8192, 1000},
                         Shape{4096, 12288, 4096}, Shape{12288, 12288, 512}}) {
    auto af = sample::random_vector(std::size_t(m) * k, rng, -1, 1);
    auto bf = sample::random_vector(std::size_t(k) * n, rng, -1, 1);
    auto a = sample::convert_all<T>(af), b = sample::convert_all<T>(bf);
    auto ar = sample::convert_all<float>(a), br = sample::convert_all<float>(b);
    sample::DeviceArray<T> da(a, 0), db(b, 0), dc(std::size_t(m) * n, 0);
    const auto tol = reference::matmul_tolerance(k);
    ok &= tuneCase(
        kernel, {m, n, k}, configs,
        [&](int c) {
          return wrapper(da.get(), db.get(), dc.get(), m, n, k, nullptr, c);
        },
        [&](const std::string &what) {
          return checkSampled(what, dc.download_floats(), m, n, rng,
                              [&](int i, int j) {
                                return reference::matmul_element(ar, br, n, k,
                                                                 i, j, false);
                              },
                              {tol.abs, tol.rel});
        });
  }
  return ok;
}

bool softmaxes() {
  bool ok = true;
  sample::Random rng(53);
  for (int cols : {3000, 12000}) {
    const int rows = 8192;
    const std::size_t n = std::size_t(rows) * cols;
    auto x = sample::random_vector(n, rng, -8, 8);
    sample::DeviceArray<float> dx(x, 0), dy(n, 0);
    const std::vector<float> want = reference::softmax(x, rows, cols, cols);
    ok &= tuneCase(
        "softmax", {rows, cols}, softmax_tile_configs,
        [&](int c) {
          return tilecc::softmax(dx.get(), dy.get(), cols, cols, rows, cols,
                                 nullptr, c);
        },
        [&](const std::string &what) {
          return sample::compare(what, dy.download(), want,
                                 {0, reference::softmax_rel_tol});
        });
  }
  return ok;
}

bool layerNorms() {
  bool ok = true;
  sample::Random rng(54);
  for (int cols : {3000, 12000}) {
    const int rows = 8192;
    const std::size_t n = std::size_t(rows) * cols;
    auto x =
        sample::convert_all<tile::half>(sample::random_vector(n, rng, -4, 4));
    auto w = sample::convert_all<tile::half>(
        sample::random_vector(cols, rng, 0.5, 1.5));
    auto b = sample::convert_all<tile::half>(
        sample::random_vector(cols, rng, -1, 1));
    sample::DeviceArray<tile::half> dx(x, 0), dw(w, 0), db(b, 0), dy(n, 0);
    sample::DeviceArray<float> dmean(rows, 0), drstd(rows, 0);
    const auto want = reference::layer_norm_fwd(
        sample::convert_all<float>(x), sample::convert_all<float>(w),
        sample::convert_all<float>(b), rows, cols, cols,
        reference::layer_norm_eps);
    ok &= tuneCase(
        "layer_norm_fwd", {rows, cols}, layer_norm_fwd_tile_configs,
        [&](int c) {
          return tilecc::layer_norm_fwd(
              dx.get(), dy.get(), dw.get(), db.get(), dmean.get(), drstd.get(),
              cols, rows, cols, float(reference::layer_norm_eps), nullptr, c);
        },
        [&](const std::string &what) {
          return sample::compare(what + " y", dy.download_floats(), want.y,
                                 {reference::output_tolerance(false).abs,
                                  reference::output_tolerance(false).rel});
        });
  }
  return ok;
}

bool attentions() {
  constexpr int batch = 4, headsPer = 32, heads = batch * headsPer, d = 128;
  bool ok = true;
  sample::Random rng(55);
  for (int seq : {512, 2000, 6000}) {
    const std::size_t n = std::size_t(heads) * seq * d;
    auto q =
        sample::convert_all<tile::half>(sample::random_vector(n, rng, -1, 1));
    auto k =
        sample::convert_all<tile::half>(sample::random_vector(n, rng, -1, 1));
    auto v =
        sample::convert_all<tile::half>(sample::random_vector(n, rng, -1, 1));
    auto qf = sample::convert_all<float>(q), kf = sample::convert_all<float>(k),
         vf = sample::convert_all<float>(v);
    sample::DeviceArray<tile::half> dq(q, 0), dk(k, 0), dv(v, 0), dout(n, 0);
    sample::DeviceArray<float> dlse(std::size_t(heads) * seq, 0);
    const float scale = 1.0f / std::sqrt(float(d));
    ok &= tuneCase(
        "attention_f16", {batch, headsPer, seq, d}, attention_f16_tile_configs,
        [&](int c) {
          return tilecc::attention_f16(dq.get(), dk.get(), dv.get(), dout.get(),
                                       dlse.get(), scale, seq, heads, d, 0,
                                       nullptr, c);
        },
        [&](const std::string &what) {
          const std::vector<float> got = dout.download_floats();
          std::vector<float> gotS, wantS(std::size_t(64) * d);
          for (int s = 0; s < 64; ++s) {
            const int h = int(rng.next() % heads), i = int(rng.next() % seq);
            reference::attention_row(
                qf, kf, vf, seq, d, scale, false, h, i,
                std::span(wantS).subspan(std::size_t(s) * d, d));
            auto row = got.begin() + (std::size_t(h) * seq + i) * d;
            gotS.insert(gotS.end(), row, row + d);
          }
          return sample::compare(what, gotS, wantS,
                                 {reference::out_tolerance, 0});
        });
  }
  return ok;
}

/// Host time per launch of a 4096-element vector_add, configuration 0 asked
/// for by index and tuned (its key measured beforehand), in 40 alternating
/// rounds of 2500 launches on one stream: the medians of each and of the
/// rounds' differences, and the spread of the by-index rounds (a
/// difference inside it is noise).
void dispatchOverhead() {
  constexpr int n = 4096, rounds = 40, launches = 2500;
  sample::Random rng(56);
  auto x = sample::random_vector(n, rng, -1, 1);
  sample::DeviceArray<float> dx(x, 0), dy(x, 0), dout(n, 0);
  auto perLaunchUs = [&](int config) {
    CUDA_CHECK(cudaDeviceSynchronize());
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < launches; ++i)
      CUDA_CHECK(tilecc::vector_add(dx.get(), dy.get(), dout.get(), n, nullptr,
                                    config));
    CUDA_CHECK(cudaDeviceSynchronize());
    return 1000.0 * millisecondsSince(start) / launches;
  };
  perLaunchUs(tile::autotuned); // tunes the key
  perLaunchUs(0);
  std::vector<double> direct, tuned, difference;
  for (int r = 0; r < rounds; ++r) {
    // Which goes first alternates, so that neither always follows a sync.
    const bool tunedFirst = r % 2;
    const double first = perLaunchUs(tunedFirst ? tile::autotuned : 0);
    const double second = perLaunchUs(tunedFirst ? 0 : tile::autotuned);
    direct.push_back(tunedFirst ? second : first);
    tuned.push_back(tunedFirst ? first : second);
    difference.push_back(tuned.back() - direct.back());
  }
  auto quantile = [](std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::size_t(q * double(v.size() - 1) + 0.5)];
  };
  std::printf("{\"autotune\": true, \"kernel\": \"vector_add\", \"shape\": "
              "[%d], \"dispatch\": true, \"launches\": %d, \"direct_us\": "
              "%.3f, \"tuned_us\": %.3f, \"difference_us\": %.3f, "
              "\"direct_p10_us\": %.3f, \"direct_p90_us\": %.3f, \"ok\": "
              "true}\n",
              n, rounds * launches, quantile(direct, 0.5), quantile(tuned, 0.5),
              quantile(difference, 0.5), quantile(direct, 0.1),
              quantile(direct, 0.9));
}

} // namespace

int main(int argc, char **argv) {
  if (!sample::have_gpu())
    return sample::exit_skip;
  // An argument runs one group: dispatch, matmul, softmax, layer_norm or
  // attention.
  const std::string only = argc > 1 ? argv[1] : "";
  const char *const groups[] = {"dispatch", "matmul", "softmax", "layer_norm",
                                "attention"};
  if (argc > 2 ||
      (!only.empty() && std::find(std::begin(groups), std::end(groups), only) ==
                            std::end(groups))) {
    std::fprintf(stderr,
                 "usage: %s [dispatch|matmul|softmax|layer_norm|attention]\n",
                 argv[0]);
    return 2;
  }
  auto runs = [&](const char *group) { return only.empty() || only == group; };
  if (runs("dispatch"))
    dispatchOverhead();
  bool ok = true;
  if (runs("matmul")) {
    ok &= matmuls<tile::half>("matmul_f16", tilecc::matmul_f16,
                              matmul_f16_tile_configs);
    ok &= matmuls<tile::bfloat16>("matmul_bf16", tilecc::matmul_bf16,
                                  matmul_bf16_tile_configs);
  }
  if (runs("softmax"))
    ok &= softmaxes();
  if (runs("layer_norm"))
    ok &= layerNorms();
  if (runs("attention"))
    ok &= attentions();
  return ok ? 0 : 1;
}
