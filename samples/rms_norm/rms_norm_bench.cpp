// Times rms_norm_fwd and the backward pass (rms_norm_bwd, then rms_norm_dw
// over 2 x SMs rows of partial sums) on bf16 and fp16 rows of issue 51's
// shapes (4096 x 4096, 4096 x 8192, 16384 x 2048) with every configuration
// that holds a row, checks the outputs against the double reference, and
// prints JSON lines for scripts/bench.sh. Bytes: x read and y written
// (forward); x and dy read, dx written (backward; w, rstd and the partial
// sums are under 1 %). Exits 77 without a GPU.
#include "rms_norm.tile.cpp"
#include "rms_norm.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <string>

namespace {

template <class T, class Fwd, class Bwd, class Dw>
bool bench(const char *type, int rows, int cols, const tile::config *fwd_all,
           int n_fwd, const tile::config *bwd_all, int n_bwd, Fwd fwd, Bwd bwd,
           Dw dw_kernel, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr float eps = float(reference::rms_norm_eps);
  const std::size_t n = std::size_t(rows) * cols;
  auto x = sample::convert_all<T>(sample::random_vector(n, rng, -2, 2));
  auto dy = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
  auto w = sample::convert_all<T>(sample::random_vector(cols, rng, 0.5f, 1.5f));
  const auto xr = sample::convert_all<float>(x);
  const auto want_fwd = reference::rms_norm_fwd(
      xr, sample::convert_all<float>(w), rows, cols, cols, eps);
  const auto want_bwd = reference::rms_norm_bwd(
      xr, sample::convert_all<float>(dy), sample::convert_all<float>(w), rows,
      cols, cols, eps);
  const int n_partials = 2 * tile::num_sms();
  sample::DeviceArray<T> dx_in(x, 0), ddy(dy, 0), dw_in(w, 0), dy_out(n, 0),
      ddx(n, 0), ddw(cols, 0);
  sample::DeviceArray<float> drstd(rows, 0), frstd(want_fwd.rstd, 0),
      partial(std::size_t(n_partials) * cols, 0);
  const auto tol = reference::output_tolerance(bf16, 1);
  const std::string dtype = bf16 ? "bf16" : "fp16";
  auto fitting = [&](const tile::config *all, int count, int block_index) {
    std::pair<std::vector<tile::config>, std::vector<int>> out;
    for (int c = 0; c < count; ++c)
      if (cols <= all[c].meta[block_index]) {
        out.first.push_back(all[c]);
        out.second.push_back(c);
      }
    return out;
  };
  bool ok = true;
  auto [fwd_configs, fwd_index] = fitting(fwd_all, n_fwd, 1);
  ok &= sample::bench_configs(
      sample::Workload{std::string("rms_norm_fwd_") + type,
                       {rows, cols},
                       2.0 * n * sizeof(T),
                       {tol.abs, tol.rel},
                       dtype},
      fwd_configs, {"ROWS", "BLOCK"}, dy_out, want_fwd.y, [&](int c) {
        return fwd(dx_in.get(), dy_out.get(), dw_in.get(), drstd.get(), cols,
                   rows, cols, eps, nullptr, fwd_index[c]);
      });
  auto [bwd_configs, bwd_index] = fitting(bwd_all, n_bwd, 0);
  ok &= sample::bench_configs(
      sample::Workload{std::string("rms_norm_bwd_") + type,
                       {rows, cols},
                       3.0 * n * sizeof(T),
                       {tol.abs, tol.rel},
                       dtype},
      bwd_configs, {"BLOCK", "STAGES"}, ddx, want_bwd.dx, [&](int c) {
        if (cudaError_t e = bwd(ddy.get(), dx_in.get(), dw_in.get(),
                                frstd.get(), ddx.get(), partial.get(), cols,
                                rows, cols, n_partials, nullptr, bwd_index[c]))
          return e;
        return dw_kernel(partial.get(), ddw.get(), n_partials, cols, nullptr,
                         -1);
      });
  const auto dw_tol = reference::dw_tolerance(bf16, rows);
  ok &= sample::compare(std::string("rms_norm_bwd_") + type + " dw",
                        ddw.download_floats(), want_bwd.dw,
                        {dw_tol.abs, dw_tol.rel});
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(73);
  bool ok = true;
  for (auto [rows, cols] :
       {std::pair{4096, 4096}, std::pair{4096, 8192}, std::pair{16384, 2048}}) {
    ok &= bench<tile::bfloat16>(
        "bf16", rows, cols, rms_norm_fwd_bf16_tile_configs,
        tilecc::rms_norm_fwd_bf16_num_configs, rms_norm_bwd_bf16_tile_configs,
        tilecc::rms_norm_bwd_bf16_num_configs, tilecc::rms_norm_fwd_bf16,
        tilecc::rms_norm_bwd_bf16, tilecc::rms_norm_dw_bf16, rng);
    ok &= bench<tile::half>(
        "f16", rows, cols, rms_norm_fwd_f16_tile_configs,
        tilecc::rms_norm_fwd_f16_num_configs, rms_norm_bwd_f16_tile_configs,
        tilecc::rms_norm_bwd_f16_num_configs, tilecc::rms_norm_fwd_f16,
        tilecc::rms_norm_bwd_f16, tilecc::rms_norm_dw_f16, rng);
  }
  return ok ? 0 : 1;
}
