// Times layer_norm_fwd and the backward pass (locks cleared, dx with the
// groups' partial sums, then dw and db) on fp16 and bf16 rows of issue 3's
// shapes (32768 x 1024, 4096, 8192) with every configuration that takes
// the rows, and prints JSON lines for scripts/bench.sh (workloads
// layer_norm_fwd and layer_norm_bwd for fp16, as tutorial 05; _bf16 after them
// for bf16). Bytes as Triton's tutorial 05 counts them: x read and y written
// (forward); x, dy read and dx written (backward). Exits 77 without a GPU.
// Arguments: one type (fp16 or bf16) and other row lengths.
#include "layer_norm.tile.cpp"
#include "layer_norm_bwd.hpp"

#include "bench.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// The configurations of `configs` that take rows of n_cols (takes(config,
/// n_cols)), and their indices.
template <class Takes>
std::pair<std::vector<tile::config>, std::vector<int>>
fitting(const tile::config *configs, int count, int n_cols, Takes takes) {
  std::pair<std::vector<tile::config>, std::vector<int>> out;
  for (int c = 0; c < count; ++c)
    if (takes(configs[c], n_cols)) {
      out.first.push_back(configs[c]);
      out.second.push_back(c);
    }
  return out;
}

/// Whether a backward configuration's block holds a row of n_cols.
bool holds_row(const tile::config &c, int n_cols) {
  return n_cols <= c.meta[1];
}

/// One type's kernels: the workloads' suffix and the configurations.
struct Kernels {
  const char *suffix, *dtype;
  const tile::config *fwd;
  int n_fwd;
  const tile::config *bwd;
  int n_bwd;
};

template <class T>
bool bench(const Kernels &kernels, int rows, int cols, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  std::size_t n = std::size_t(rows) * cols;
  auto x = sample::convert_all<T>(sample::random_vector(n, rng, -3.5f, -1.0f));
  auto dy = sample::convert_all<T>(sample::random_vector(n, rng, -0.2f, 0.2f));
  auto w = sample::convert_all<T>(sample::random_vector(cols, rng, 0, 1));
  auto b = sample::convert_all<T>(sample::random_vector(cols, rng, 0, 1));
  auto fwd = reference::layer_norm_fwd(sample::convert_all<float>(x),
                                       sample::convert_all<float>(w),
                                       sample::convert_all<float>(b), rows,
                                       cols, cols, reference::layer_norm_eps);
  auto bwd = reference::layer_norm_bwd(sample::convert_all<float>(x),
                                       sample::convert_all<float>(dy),
                                       sample::convert_all<float>(w), rows,
                                       cols, cols, reference::layer_norm_eps);
  sample::DeviceArray<T> dx_in(x, 0), ddy(dy, 0), dw_in(w, 0), db_in(b, 0),
      dy_out(n, 0), ddx(n, 0), ddw(cols, 0), ddb(cols, 0);
  sample::DeviceArray<float> dmean(rows, 0), drstd(rows, 0), fmean(fwd.mean, 0),
      frstd(fwd.rstd, 0);
  int groups = sample::layer_norm_groups(cols);
  sample::DeviceArray<float> pdw(std::size_t(groups) * cols, 0),
      pdb(std::size_t(groups) * cols, 0);
  sample::DeviceArray<int> locks(2 * groups, 0);
  sample::LayerNormScratch scratch{pdw.get(), pdb.get(), locks.get(), groups};
  float eps = reference::layer_norm_eps;
  const auto tol = reference::output_tolerance(bf16);
  const std::string fwd_name = std::string("layer_norm_fwd") + kernels.suffix;
  const std::string bwd_name = std::string("layer_norm_bwd") + kernels.suffix;
  bool ok = true;

  auto [fwd_configs, fwd_index] =
      fitting(kernels.fwd, kernels.n_fwd, cols, layer_norm_fwd_takes);
  sample::Workload fwd_work{fwd_name,
                            {rows, cols},
                            2.0 * n * sizeof(T),
                            {tol.abs, tol.rel},
                            kernels.dtype};
  ok &= sample::bench_configs(
      fwd_work, fwd_configs, {"ROWS", "BLOCK", "CHUNKED"}, dy_out, fwd.y,
      [&](int c) {
        return sample::LayerNormKernels<T>::fwd(
            dx_in.get(), dy_out.get(), dw_in.get(), db_in.get(), dmean.get(),
            drstd.get(), cols, rows, cols, eps, nullptr, fwd_index[c]);
      });
  ok &= sample::compare(fwd_name + " mean", dmean.download(), fwd.mean,
                        {0, reference::stats_rel_tol(cols)});
  ok &= sample::compare(fwd_name + " rstd", drstd.download(), fwd.rstd,
                        {0, reference::stats_rel_tol(cols)});

  auto [bwd_configs, bwd_index] =
      fitting(kernels.bwd, kernels.n_bwd, cols, holds_row);
  sample::Workload bwd_work{bwd_name,
                            {rows, cols},
                            3.0 * n * sizeof(T),
                            {tol.abs, tol.rel},
                            kernels.dtype};
  ok &= sample::bench_configs(
      bwd_work, bwd_configs, {"ROWS", "BLOCK", "PERSISTENT_STAGES"}, ddx,
      bwd.dx, [&](int c) {
        return sample::layer_norm_bwd(ddx.get(), ddw.get(), ddb.get(),
                                      ddy.get(), dx_in.get(), dw_in.get(),
                                      fmean.get(), frstd.get(), scratch, cols,
                                      rows, cols, nullptr, bwd_index[c]);
      });
  // Rows longer than every backward block have no backward to check.
  if (bwd_configs.empty())
    return ok;
  const auto sum_tol = reference::dwdb_tolerance(bf16);
  sample::Tolerance sums{sum_tol.abs, sum_tol.rel};
  ok &=
      sample::compare(bwd_name + " dw",
                      sample::convert_all<float>(ddw.download()), bwd.dw, sums);
  ok &=
      sample::compare(bwd_name + " db",
                      sample::convert_all<float>(ddb.download()), bwd.db, sums);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  // [fp16|bf16 [COLS...]]: one type, and these row lengths.
  const std::string only = argc > 1 ? argv[1] : "";
  std::vector<int> widths;
  for (int i = 2; i < argc; ++i)
    widths.push_back(std::atoi(argv[i]));
  if ((!only.empty() && only != "fp16" && only != "bf16") ||
      std::find_if(widths.begin(), widths.end(),
                   [](int c) { return c <= 0; }) != widths.end()) {
    std::fprintf(stderr, "usage: %s [fp16|bf16 [COLS...]]\n", argv[0]);
    return 2;
  }
  if (widths.empty())
    widths = {1024, 4096, 8192};
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(23);
  bool ok = true;
  const Kernels fp16{"",
                     "fp16",
                     layer_norm_fwd_tile_configs,
                     tilecc::layer_norm_fwd_num_configs,
                     layer_norm_bwd_dx_tile_configs,
                     tilecc::layer_norm_bwd_dx_num_configs};
  const Kernels bf16{"_bf16",
                     "bf16",
                     layer_norm_fwd_bf16_tile_configs,
                     tilecc::layer_norm_fwd_bf16_num_configs,
                     layer_norm_bwd_dx_bf16_tile_configs,
                     tilecc::layer_norm_bwd_dx_bf16_num_configs};
  for (int cols : widths) {
    if (only != "bf16")
      ok &= bench<tile::half>(fp16, 32768, cols, rng);
    if (only != "fp16")
      ok &= bench<tile::bfloat16>(bf16, 32768, cols, rng);
  }
  return ok ? 0 : 1;
}
