// Runs every configuration of layer_norm_fwd and layer_norm_bwd_dx (with
// layer_norm_bwd_dwdb) that takes the rows in emulation, fp16 and bf16,
// on rows whose length is not a power of two, and compares with the
// reference.
#include "layer_norm.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

struct Case {
  int rows, cols, groups;
};
// Rows of 17000 only the chunked forward configurations take.
constexpr Case cases[] = {{1, 1, 1},    {3, 200, 2},  {9, 781, 4},
                          {5, 1000, 8}, {3, 3001, 2}, {2, 17000, 2}};

/// Inputs in the kernels' type, and the floats they hold for the reference.
template <class T> struct Inputs {
  std::vector<T> x, w, b, dy;
  std::vector<float> xr, wr, br, dyr;
};

template <class T>
Inputs<T> make_inputs(const Case &k, int stride, sample::Random &rng) {
  Inputs<T> in;
  std::size_t n = std::size_t(k.rows) * stride;
  in.x = sample::convert_all<T>(sample::random_vector(n, rng, -3.5f, -1.0f));
  in.dy = sample::convert_all<T>(sample::random_vector(n, rng, -0.2f, 0.2f));
  in.w = sample::convert_all<T>(sample::random_vector(k.cols, rng, 0, 1));
  in.b = sample::convert_all<T>(sample::random_vector(k.cols, rng, 0, 1));
  in.xr = sample::convert_all<float>(in.x);
  in.dyr = sample::convert_all<float>(in.dy);
  in.wr = sample::convert_all<float>(in.w);
  in.br = sample::convert_all<float>(in.b);
  return in;
}

template <class T, class Each>
bool check_forward(const char *type, Each each_config, const Case &k,
                   const Inputs<T> &in, int stride, int &runs) {
  const auto tol =
      reference::output_tolerance(std::is_same_v<T, tile::bfloat16>);
  auto want = reference::layer_norm_fwd(in.xr, in.wr, in.br, k.rows, k.cols,
                                        stride, reference::layer_norm_eps);
  bool ok = true;
  each_config(
      [&](auto launch, const std::string &config, const tile::config &c) {
        if (!layer_norm_fwd_takes(c, k.cols))
          return;
        std::string what = std::string("layer_norm_fwd ") + type + " " +
                           config + " " + std::to_string(k.rows) + "x" +
                           std::to_string(k.cols);
        std::vector<T> y(in.x.size());
        std::vector<float> mean(k.rows), rstd(k.rows);
        launch(in.x.data(), y.data(), in.w.data(), in.b.data(), mean.data(),
               rstd.data(), stride, k.rows, k.cols,
               float(reference::layer_norm_eps));
        ok &= sample::compare(what + " y",
                              sample::dense_rows(y, k.rows, k.cols, stride),
                              want.y, {tol.abs, tol.rel});
        ok &= sample::compare(what + " mean", mean, want.mean,
                              {0, reference::stats_rel_tol(k.cols)});
        ok &= sample::compare(what + " rstd", rstd, want.rstd,
                              {0, reference::stats_rel_tol(k.cols)});
        ++runs;
      });
  return ok;
}

template <class T, class Each, class Sums>
bool check_backward(const char *type, Each each_config, Sums sum_groups,
                    const Case &k, const Inputs<T> &in, int stride, int &runs) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  const auto tol = reference::output_tolerance(bf16);
  const auto sums = reference::dwdb_tolerance(bf16);
  auto want = reference::layer_norm_bwd(in.xr, in.dyr, in.wr, k.rows, k.cols,
                                        stride, reference::layer_norm_eps);
  // The forward pass's statistics, as a training step would have them.
  auto fwd = reference::layer_norm_fwd(in.xr, in.wr, in.br, k.rows, k.cols,
                                       stride, reference::layer_norm_eps);
  bool ok = true;
  each_config(
      [&](auto launch, const std::string &config, const tile::config &c) {
        if (k.cols > c.meta[1])
          return;
        std::string what = std::string("layer_norm_bwd ") + type + " " +
                           config + " " + std::to_string(k.rows) + "x" +
                           std::to_string(k.cols) +
                           " groups=" + std::to_string(k.groups);
        std::vector<T> dx(in.x.size()), dw(k.cols), db(k.cols);
        // Poisoned: the first program of each group must overwrite its sums,
        // and the groups no program reaches must not be read.
        std::vector<float> partial_dw(std::size_t(k.groups) * k.cols,
                                      sample::poison()),
            partial_db(partial_dw);
        std::vector<int> locks(2 * k.groups, 0);
        const int *counts = locks.data() + k.groups;
        launch(dx.data(), in.dy.data(), partial_dw.data(), partial_db.data(),
               in.x.data(), in.w.data(), fwd.mean.data(), fwd.rstd.data(),
               locks.data(), stride, k.rows, k.cols, k.groups);
        sum_groups(partial_dw.data(), partial_db.data(), counts, dw.data(),
                   db.data(), k.groups, k.cols);
        ok &= sample::compare(what + " dx",
                              sample::dense_rows(dx, k.rows, k.cols, stride),
                              want.dx, {tol.abs, tol.rel});
        ok &= sample::compare(what + " dw", sample::convert_all<float>(dw),
                              want.dw, {sums.abs, sums.rel});
        ok &= sample::compare(what + " db", sample::convert_all<float>(db),
                              want.db, {sums.abs, sums.rel});
        ++runs;
      });
  return ok;
}

template <class T, class Fwd, class Bwd, class Sums>
bool check(const char *type, Fwd fwd_configs, Bwd bwd_configs,
           Sums sum_groups) {
  sample::Random rng(21);
  bool ok = true;
  int runs = 0;
  for (const Case &k : cases) {
    const int stride = k.cols + 5; // rows not packed: the stride is honoured
    const Inputs<T> in = make_inputs<T>(k, stride, rng);
    ok &= check_forward(type, fwd_configs, k, in, stride, runs);
    ok &= check_backward(type, bwd_configs, sum_groups, k, in, stride, runs);
  }
  std::printf("%s: layer_norm %s emulation, %d runs\n", ok ? "PASS" : "FAIL",
              type, runs);
  return ok;
}

} // namespace

int main() {
  bool ok = check<tile::half>(
      "fp16", SAMPLE_EACH_CONFIG(layer_norm_fwd, "ROWS", "BLOCK", "CHUNKED"),
      SAMPLE_EACH_CONFIG(layer_norm_bwd_dx, "ROWS", "BLOCK",
                         "PERSISTENT_STAGES"),
      SAMPLE_FIRST_CONFIG2(layer_norm_bwd_dwdb));
  ok &= check<tile::bfloat16>(
      "bf16",
      SAMPLE_EACH_CONFIG(layer_norm_fwd_bf16, "ROWS", "BLOCK", "CHUNKED"),
      SAMPLE_EACH_CONFIG(layer_norm_bwd_dx_bf16, "ROWS", "BLOCK",
                         "PERSISTENT_STAGES"),
      SAMPLE_FIRST_CONFIG2(layer_norm_bwd_dwdb_bf16));
  return ok ? 0 : 1;
}
