// Runs every configuration of rms_norm_fwd and rms_norm_bwd (with
// rms_norm_dw) that holds a whole row, and the wrappers' defaults, on the
// GPU through the launch wrappers, for bf16 and fp16, on row lengths from 1
// to 8192 with aligned and unaligned strides, and compares y, rstd, dx and
// dw with the double reference; outputs are poisoned first and their guard
// zones must keep the poison. A configuration whose block is shorter than
// the rows, and n_partials of 0, must refuse the launch. Exits 77 without a
// GPU.
#include "rms_norm.tile.cpp"
#include "rms_norm.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols, stride;
};
constexpr Case cases[] = {{1, 1, 1},         {37, 781, 781},
                          {300, 2048, 2048}, {130, 4096, 4100},
                          {64, 8192, 8192},  {1000, 3001, 3003}};

template <class T, class Fwd, class Bwd, class Dw>
bool check(const char *type, const tile::config *fwd_configs, int n_fwd,
           const tile::config *bwd_configs, int n_bwd, Fwd fwd, Bwd bwd,
           Dw dw_kernel) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr float eps = float(reference::rms_norm_eps);
  sample::Random rng(72);
  bool ok = true;
  int runs = 0;
  for (const Case &k : cases) {
    const std::size_t n = std::size_t(k.rows) * k.stride;
    auto x = sample::convert_all<T>(sample::random_vector(n, rng, -2, 2));
    auto dy = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
    auto w =
        sample::convert_all<T>(sample::random_vector(k.cols, rng, 0.5f, 1.5f));
    const auto xr = sample::convert_all<float>(x),
               dyr = sample::convert_all<float>(dy),
               wr = sample::convert_all<float>(w);
    const auto want_fwd =
        reference::rms_norm_fwd(xr, wr, k.rows, k.cols, k.stride, eps);
    const auto want_bwd =
        reference::rms_norm_bwd(xr, dyr, wr, k.rows, k.cols, k.stride, eps);
    const auto dense = [&](const std::vector<float> &v) {
      return sample::dense_rows(v, k.rows, k.cols, k.stride);
    };
    const int n_partials = 2 * tile::num_sms();
    sample::DeviceArray<T> dx_in(x, 0), ddy(dy, 0), dw_in(w, 0), dy_out(n, 0),
        ddx(n, 0), ddw(k.cols, 0);
    sample::DeviceArray<float> drstd(k.rows, 0), frstd(want_fwd.rstd, 0),
        partial(std::size_t(n_partials) * k.cols, 0);
    const std::string shape = std::to_string(k.rows) + "x" +
                              std::to_string(k.cols) + " stride " +
                              std::to_string(k.stride);
    const auto tol = reference::output_tolerance(bf16, 1);
    const auto dw_tol = reference::dw_tolerance(bf16, k.rows);
    for (int c = -1; c < n_fwd; ++c) {
      const std::string what =
          std::string("rms_norm_fwd ") + type + " " +
          (c < 0 ? std::string("default config")
                 : sample::describe(fwd_configs[c], {"ROWS", "BLOCK"})) +
          " " + shape;
      auto launch = [&] {
        return fwd(dx_in.get(), dy_out.get(), dw_in.get(), drstd.get(),
                   k.stride, k.rows, k.cols, eps, nullptr, c);
      };
      if (c >= 0 && k.cols > fwd_configs[c].meta[1]) {
        if (launch() != cudaErrorInvalidValue) {
          std::printf("FAIL: %s: a block shorter than the rows ran\n",
                      what.c_str());
          ok = false;
        }
        continue;
      }
      dy_out.poison();
      drstd.poison();
      CUDA_CHECK(launch());
      CUDA_CHECK(cudaDeviceSynchronize());
      ok &= dy_out.guards_intact(what) && drstd.guards_intact(what);
      ok &= sample::compare(what + " y", dense(dy_out.download_floats()),
                            dense(want_fwd.y), {tol.abs, tol.rel});
      ok &= sample::compare(what + " rstd", drstd.download(), want_fwd.rstd,
                            {0, 1e-5});
      ++runs;
    }
    for (int c = -1; c < n_bwd; ++c) {
      const std::string what =
          std::string("rms_norm_bwd ") + type + " " +
          (c < 0 ? std::string("default config")
                 : sample::describe(bwd_configs[c], {"BLOCK", "STAGES"})) +
          " " + shape;
      auto launch = [&](int partials) {
        return bwd(ddy.get(), dx_in.get(), dw_in.get(), frstd.get(), ddx.get(),
                   partial.get(), k.stride, k.rows, k.cols, partials, nullptr,
                   c);
      };
      if (launch(0) != cudaErrorInvalidValue) {
        std::printf("FAIL: %s: a launch with no partial sums ran\n",
                    what.c_str());
        ok = false;
      }
      if (c >= 0 && k.cols > bwd_configs[c].meta[0]) {
        if (launch(n_partials) != cudaErrorInvalidValue) {
          std::printf("FAIL: %s: a block shorter than the rows ran\n",
                      what.c_str());
          ok = false;
        }
        continue;
      }
      ddx.poison();
      ddw.poison();
      partial.poison();
      CUDA_CHECK(launch(n_partials));
      CUDA_CHECK(
          dw_kernel(partial.get(), ddw.get(), n_partials, k.cols, nullptr, -1));
      CUDA_CHECK(cudaDeviceSynchronize());
      ok &= ddx.guards_intact(what) && ddw.guards_intact(what) &&
            partial.guards_intact(what);
      ok &= sample::compare(what + " dx", dense(ddx.download_floats()),
                            dense(want_bwd.dx), {tol.abs, tol.rel});
      ok &= sample::compare(what + " dw", ddw.download_floats(), want_bwd.dw,
                            {dw_tol.abs, dw_tol.rel});
      ++runs;
    }
  }
  std::printf("%s: rms_norm %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL",
              type, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  bool ok = check<tile::bfloat16>(
      "bf16", rms_norm_fwd_bf16_tile_configs,
      tilecc::rms_norm_fwd_bf16_num_configs, rms_norm_bwd_bf16_tile_configs,
      tilecc::rms_norm_bwd_bf16_num_configs, tilecc::rms_norm_fwd_bf16,
      tilecc::rms_norm_bwd_bf16, tilecc::rms_norm_dw_bf16);
  ok &= check<tile::half>(
      "fp16", rms_norm_fwd_f16_tile_configs,
      tilecc::rms_norm_fwd_f16_num_configs, rms_norm_bwd_f16_tile_configs,
      tilecc::rms_norm_bwd_f16_num_configs, tilecc::rms_norm_fwd_f16,
      tilecc::rms_norm_bwd_f16, tilecc::rms_norm_dw_f16);
  return ok ? 0 : 1;
}
