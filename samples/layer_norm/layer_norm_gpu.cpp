// Runs layer_norm_fwd and the backward pass (layer_norm_bwd_dx, then
// layer_norm_bwd_dwdb), fp16 and bf16, on the GPU through their launch
// wrappers: tuned, with
// the configuration the wrapper picks and with every explicitly chosen one that
// holds a row, on aligned and unaligned rows, against the reference. Outputs
// and the partial sums are poisoned first. Exits 77 without a GPU.
#include "layer_norm.tile.cpp"
#include "layer_norm_bwd.hpp"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols, stride;
  std::size_t shift;
};
// Strides of whole 16-byte vectors with aligned rows select the aligned
// variant; the others the generic one. Rows of 20000 only the chunked
// forward configurations take (no backward one does).
constexpr Case cases[] = {{1, 1, 1, 0},          {7, 200, 208, 0},
                          {300, 781, 800, 0},    {33, 1000, 1001, 1},
                          {1000, 1024, 1024, 0}, {257, 4096, 4096, 0},
                          {97, 8192, 8195, 2},   {5, 20000, 20008, 0},
                          {3, 20000, 20003, 1},  {0, 100, 100, 0}};

/// The configurations of a type's forward and backward kernels.
struct Configs {
  const tile::config *fwd;
  int n_fwd;
  const tile::config *bwd;
  int n_bwd;
};

template <class T>
bool check(const char *type, const Configs &configs, const Case &k,
           sample::Random &rng, cudaStream_t stream, int &runs) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  std::size_t n = std::size_t(k.rows) * k.stride;
  auto x = sample::convert_all<T>(sample::random_vector(n, rng, -3.5f, -1.0f));
  auto dy = sample::convert_all<T>(sample::random_vector(n, rng, -0.2f, 0.2f));
  auto w = sample::convert_all<T>(sample::random_vector(k.cols, rng, 0, 1));
  auto b = sample::convert_all<T>(sample::random_vector(k.cols, rng, 0, 1));
  auto fwd = reference::layer_norm_fwd(
      sample::convert_all<float>(x), sample::convert_all<float>(w),
      sample::convert_all<float>(b), k.rows, k.cols, k.stride,
      reference::layer_norm_eps);
  auto bwd = reference::layer_norm_bwd(
      sample::convert_all<float>(x), sample::convert_all<float>(dy),
      sample::convert_all<float>(w), k.rows, k.cols, k.stride,
      reference::layer_norm_eps);
  sample::DeviceArray<T> dx_in(x, k.shift), ddy(dy, k.shift), dw_in(w, 0),
      db_in(b, 0), dy_out(n, k.shift), ddx(n, k.shift), ddw(k.cols, 0),
      ddb(k.cols, 0);
  sample::DeviceArray<float> dmean(k.rows, 0), drstd(k.rows, 0),
      fmean(fwd.mean, 0), frstd(fwd.rstd, 0);
  int groups = sample::layer_norm_groups(k.cols);
  sample::DeviceArray<float> pdw(std::size_t(groups) * k.cols, 0),
      pdb(std::size_t(groups) * k.cols, 0);
  sample::DeviceArray<int> locks(2 * groups, 0);
  sample::LayerNormScratch scratch{pdw.get(), pdb.get(), locks.get(), groups};
  std::string shape = std::string(type) + " " + std::to_string(k.rows) + "x" +
                      std::to_string(k.cols) +
                      " stride=" + std::to_string(k.stride) +
                      " shift=" + std::to_string(k.shift);
  bool ok = true;
  auto compare_rows = [&](const std::string &what,
                          const sample::DeviceArray<T> &got,
                          const std::vector<float> &want) {
    const auto tol = reference::output_tolerance(bf16);
    bool right = got.guards_intact(what);
    right &= sample::compare(
        what, sample::dense_rows(got.download(), k.rows, k.cols, k.stride),
        want, {tol.abs, tol.rel});
    return right;
  };
  float eps = reference::layer_norm_eps;

  for (int config = tile::autotuned; config < configs.n_fwd; ++config) {
    if (config >= 0 && !layer_norm_fwd_takes(configs.fwd[config], k.cols))
      continue;
    std::string what = "layer_norm_fwd " +
                       sample::describe_config(configs.fwd, config,
                                               {"ROWS", "BLOCK", "CHUNKED"}) +
                       " " + shape;
    dy_out.poison();
    dmean.poison();
    drstd.poison();
    CUDA_CHECK(sample::LayerNormKernels<T>::fwd(
        dx_in.get(), dy_out.get(), dw_in.get(), db_in.get(), dmean.get(),
        drstd.get(), k.stride, k.rows, k.cols, eps, stream, config));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ok &= compare_rows(what + " y", dy_out, fwd.y);
    ok &= sample::compare(what + " mean", dmean.download(), fwd.mean,
                          {0, reference::stats_rel_tol(k.cols)});
    ok &= sample::compare(what + " rstd", drstd.download(), fwd.rstd,
                          {0, reference::stats_rel_tol(k.cols)});
    ++runs;
  }

  // No backward configuration holds a longer row than its largest block:
  // the wrapper must say so, tuned or not, and run nothing.
  if (std::none_of(
          configs.bwd, configs.bwd + configs.n_bwd,
          [&](const tile::config &c) { return k.cols <= c.meta[1]; })) {
    for (int config : {tile::autotuned, -1}) {
      const cudaError_t status = sample::LayerNormKernels<T>::bwd_dx(
          ddx.get(), ddy.get(), pdw.get(), pdb.get(), dx_in.get(), dw_in.get(),
          fmean.get(), frstd.get(), locks.get(), k.stride, k.rows, k.cols,
          groups, stream, config);
      if (status != cudaErrorInvalidValue) {
        std::printf("FAIL: layer_norm_bwd %s: %s, not refused\n", shape.c_str(),
                    cudaGetErrorString(status));
        ok = false;
      }
    }
    return ok;
  }

  // No group to sum into: no configuration takes it (a persistent one
  // would launch no program, a locked one divide by zero).
  {
    const cudaError_t status = sample::LayerNormKernels<T>::bwd_dx(
        ddx.get(), ddy.get(), pdw.get(), pdb.get(), dx_in.get(), dw_in.get(),
        fmean.get(), frstd.get(), locks.get(), k.stride, k.rows, k.cols, 0,
        stream, -1);
    if (k.rows > 0 && status != cudaErrorInvalidValue) {
      std::printf("FAIL: layer_norm_bwd %s with no groups: %s, not refused\n",
                  shape.c_str(), cudaGetErrorString(status));
      ok = false;
    }
  }

  // Tuned too: measuring runs every configuration many times over the
  // locks and partial sums, which the tuning rule resets.
  for (int config = tile::autotuned; config < configs.n_bwd; ++config) {
    if (config >= 0 && k.cols > configs.bwd[config].meta[1])
      continue;
    std::string what =
        "layer_norm_bwd " +
        sample::describe_config(configs.bwd, config,
                                {"ROWS", "BLOCK", "PERSISTENT_STAGES"}) +
        " " + shape;
    ddx.poison();
    ddw.poison();
    ddb.poison();
    pdw.poison(); // the first row of each group must overwrite these
    pdb.poison();
    CUDA_CHECK(sample::layer_norm_bwd(
        ddx.get(), ddw.get(), ddb.get(), ddy.get(), dx_in.get(), dw_in.get(),
        fmean.get(), frstd.get(), scratch, k.stride, k.rows, k.cols, stream,
        config));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    ok &= compare_rows(what + " dx", ddx, bwd.dx);
    const auto tol = reference::dwdb_tolerance(bf16);
    sample::Tolerance sums{tol.abs, tol.rel};
    ok &= ddw.guards_intact(what + " dw") && ddb.guards_intact(what + " db");
    ok &= sample::compare(
        what + " dw", sample::convert_all<float>(ddw.download()), bwd.dw, sums);
    ok &= sample::compare(
        what + " db", sample::convert_all<float>(ddb.download()), bwd.db, sums);
    ++runs;
  }
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(22);
  bool ok = true;
  int runs = 0;
  const Configs fp16{
      layer_norm_fwd_tile_configs, tilecc::layer_norm_fwd_num_configs,
      layer_norm_bwd_dx_tile_configs, tilecc::layer_norm_bwd_dx_num_configs};
  const Configs bf16{layer_norm_fwd_bf16_tile_configs,
                     tilecc::layer_norm_fwd_bf16_num_configs,
                     layer_norm_bwd_dx_bf16_tile_configs,
                     tilecc::layer_norm_bwd_dx_bf16_num_configs};
  for (const Case &k : cases) {
    ok &= check<tile::half>("fp16", fp16, k, rng, stream, runs);
    ok &= check<tile::bfloat16>("bf16", bf16, k, rng, stream, runs);
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: layer_norm on the GPU, %d runs\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
