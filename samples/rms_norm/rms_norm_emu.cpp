// Runs every configuration of rms_norm_fwd and rms_norm_bwd (with
// rms_norm_dw) that holds a whole row in emulation, for bf16 and fp16, on
// rows whose length is not a power of two and that lie a stride apart,
// and compares y, rstd, dx and dw with the double reference; the gaps
// between rows must keep their poison.
#include "rms_norm.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols;
};
constexpr Case cases[] = {{1, 1},    {3, 200},  {9, 781},
                          {5, 2048}, {3, 3001}, {2, 8192}};

template <class T> struct Inputs {
  std::vector<T> x, w, dy;
  std::vector<float> xr, wr, dyr;
};

template <class T>
Inputs<T> make_inputs(const Case &k, int stride, sample::Random &rng) {
  Inputs<T> in;
  const std::size_t n = std::size_t(k.rows) * stride;
  in.x = sample::convert_all<T>(sample::random_vector(n, rng, -2, 2));
  in.dy = sample::convert_all<T>(sample::random_vector(n, rng, -1, 1));
  in.w = sample::convert_all<T>(sample::random_vector(k.cols, rng, 0.5f, 1.5f));
  in.xr = sample::convert_all<float>(in.x);
  in.dyr = sample::convert_all<float>(in.dy);
  in.wr = sample::convert_all<float>(in.w);
  return in;
}

/// The first cols of each of rows rows of got (stride apart), checked
/// against want's, with the gaps between rows still poisoned (all-ones
/// bits).
template <class T>
bool compare_rows(const std::string &what, const std::vector<T> &got,
                  const std::vector<float> &want, const Case &k, int stride,
                  reference::Tolerance tol) {
  bool ok = true;
  for (int r = 0; r < k.rows && ok; ++r) {
    const std::size_t gap = std::size_t(r) * stride + k.cols;
    ok = sample::guard_intact(what, got.data() + gap, stride - k.cols,
                              sizeof(T), std::ptrdiff_t(gap));
  }
  return ok &&
         sample::compare(what, sample::dense_rows(got, k.rows, k.cols, stride),
                         sample::dense_rows(want, k.rows, k.cols, stride),
                         {tol.abs, tol.rel});
}

template <class T, class Fwd, class Bwd, class Dw>
bool check(const char *type, Fwd fwd_configs, Bwd bwd_configs, Dw dw_kernel) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr float eps = float(reference::rms_norm_eps);
  sample::Random rng(71);
  bool ok = true;
  for (const Case &k : cases) {
    const int stride = k.cols + 3;
    const auto in = make_inputs<T>(k, stride, rng);
    const auto want_fwd =
        reference::rms_norm_fwd(in.xr, in.wr, k.rows, k.cols, stride, eps);
    const auto want_bwd = reference::rms_norm_bwd(in.xr, in.dyr, in.wr, k.rows,
                                                  k.cols, stride, eps);
    const std::string shape =
        std::to_string(k.rows) + "x" + std::to_string(k.cols);
    fwd_configs(
        [&](auto launch, const std::string &config, const tile::config &c) {
          if (k.cols > c.meta[1]) // BLOCK
            return;
          std::vector<T> y(in.x.size());
          std::vector<float> rstd(k.rows, sample::poison());
          std::memset(y.data(), 0xff, y.size() * sizeof(T));
          launch(in.x.data(), y.data(), in.w.data(), rstd.data(), stride,
                 k.rows, k.cols, eps);
          const std::string what =
              std::string("rms_norm_fwd ") + type + " " + config + " " + shape;
          ok &= compare_rows(what + " y", y, want_fwd.y, k, stride,
                             reference::output_tolerance(bf16, 1));
          ok &= sample::compare(what + " rstd", rstd, want_fwd.rstd, {0, 1e-5});
        });
    bwd_configs(
        [&](auto launch, const std::string &config, const tile::config &c) {
          if (k.cols > c.meta[0]) // BLOCK
            return;
          constexpr int n_partials = 3;
          std::vector<T> dx(in.x.size());
          std::memset(dx.data(), 0xff, dx.size() * sizeof(T));
          std::vector<float> partial(std::size_t(n_partials) * k.cols,
                                     sample::poison());
          std::vector<T> dw(k.cols);
          launch(in.dy.data(), in.x.data(), in.w.data(), want_fwd.rstd.data(),
                 dx.data(), partial.data(), stride, k.rows, k.cols, n_partials);
          dw_kernel(partial.data(), dw.data(), n_partials, k.cols);
          const std::string what =
              std::string("rms_norm_bwd ") + type + " " + config + " " + shape;
          ok &= compare_rows(what + " dx", dx, want_bwd.dx, k, stride,
                             reference::output_tolerance(bf16, 1));
          const auto tol = reference::dw_tolerance(bf16, k.rows);
          ok &= sample::compare(what + " dw", sample::convert_all<float>(dw),
                                want_bwd.dw, {tol.abs, tol.rel});
        });
  }
  std::printf("%s: rms_norm %s in emulation\n", ok ? "PASS" : "FAIL", type);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::bfloat16>(
      "bf16", SAMPLE_EACH_CONFIG(rms_norm_fwd_bf16, "ROWS", "BLOCK"),
      SAMPLE_EACH_CONFIG(rms_norm_bwd_bf16, "BLOCK", "STAGES"),
      SAMPLE_FIRST_CONFIG2(rms_norm_dw_bf16));
  ok &= check<tile::half>(
      "fp16", SAMPLE_EACH_CONFIG(rms_norm_fwd_f16, "ROWS", "BLOCK"),
      SAMPLE_EACH_CONFIG(rms_norm_bwd_f16, "BLOCK", "STAGES"),
      SAMPLE_FIRST_CONFIG2(rms_norm_dw_f16));
  return ok ? 0 : 1;
}
