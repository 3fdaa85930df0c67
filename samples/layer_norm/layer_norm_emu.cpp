// Runs every configuration of layer_norm_fwd and layer_norm_bwd_dx (with
// layer_norm_bwd_dwdb) that holds a whole row in emulation, on rows whose
// length is not a power of two, and compares with the reference.
#include "layer_norm.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

namespace {

using tile::half;

struct Case {
  int rows, cols, groups;
};
constexpr Case cases[] = {
    {1, 1, 1}, {3, 200, 2}, {9, 781, 4}, {5, 1000, 8}, {3, 3001, 2}};

/// fp16 inputs, and the floats they hold for the reference.
struct Inputs {
  std::vector<half> x, w, b, dy;
  std::vector<float> xr, wr, br, dyr;
};

Inputs make_inputs(const Case &k, int stride, sample::Random &rng) {
  auto to_half = [](const std::vector<float> &v) {
    return std::vector<half>(v.begin(), v.end());
  };
  auto to_float = [](const std::vector<half> &v) {
    return std::vector<float>(v.begin(), v.end());
  };
  Inputs in;
  std::size_t n = std::size_t(k.rows) * stride;
  in.x = to_half(sample::random_vector(n, rng, -3.5f, -1.0f));
  in.dy = to_half(sample::random_vector(n, rng, -0.2f, 0.2f));
  in.w = to_half(sample::random_vector(k.cols, rng, 0, 1));
  in.b = to_half(sample::random_vector(k.cols, rng, 0, 1));
  in.xr = to_float(in.x);
  in.dyr = to_float(in.dy);
  in.wr = to_float(in.w);
  in.br = to_float(in.b);
  return in;
}

bool check_forward(const Case &k, const Inputs &in, int stride, int &runs) {
  auto want = reference::layer_norm_fwd(in.xr, in.wr, in.br, k.rows, k.cols,
                                        stride, reference::layer_norm_eps);
  bool ok = true;
  sample::for_each_index<std::size(layer_norm_fwd_tile_configs)>(
      [&](auto index) {
        constexpr tile::config c =
            layer_norm_fwd_tile_configs[decltype(index)::value];
        constexpr int rows_per_program = c.meta[0], block = c.meta[1];
        if (k.cols > block)
          return;
        std::string what =
            "layer_norm_fwd " + sample::describe(c, {"ROWS", "BLOCK"}) + " " +
            std::to_string(k.rows) + "x" + std::to_string(k.cols);
        std::vector<half> y(in.x.size());
        std::vector<float> mean(k.rows), rstd(k.rows);
        float eps = reference::layer_norm_eps;
        tile::emulate::launch(
            layer_norm_fwd_grid<rows_per_program, block>(
                in.x.data(), y.data(), in.w.data(), in.b.data(), mean.data(),
                rstd.data(), stride, k.rows, k.cols, eps),
            layer_norm_fwd<rows_per_program, block>, in.x.data(), y.data(),
            in.w.data(), in.b.data(), mean.data(), rstd.data(), stride, k.rows,
            k.cols, eps);
        ok &= sample::compare(
            what + " y", sample::dense_rows(y, k.rows, k.cols, stride), want.y,
            {reference::y_abs_tol, reference::y_rel_tol});
        ok &= sample::compare(what + " mean", mean, want.mean,
                              {0, reference::stats_rel_tol});
        ok &= sample::compare(what + " rstd", rstd, want.rstd,
                              {0, reference::stats_rel_tol});
        ++runs;
      });
  return ok;
}

bool check_backward(const Case &k, const Inputs &in, int stride, int &runs) {
  auto want = reference::layer_norm_bwd(in.xr, in.dyr, in.wr, k.rows, k.cols,
                                        stride, reference::layer_norm_eps);
  // The forward pass's statistics, as a training step would have them.
  auto fwd = reference::layer_norm_fwd(in.xr, in.wr, in.br, k.rows, k.cols,
                                       stride, reference::layer_norm_eps);
  constexpr tile::config sum_config = layer_norm_bwd_dwdb_tile_configs[0];
  constexpr int block_m = sum_config.meta[0], block_n = sum_config.meta[1];
  bool ok = true;
  sample::for_each_index<std::size(layer_norm_bwd_dx_tile_configs)>(
      [&](auto index) {
        constexpr tile::config c =
            layer_norm_bwd_dx_tile_configs[decltype(index)::value];
        constexpr int rows_per_program = c.meta[0], block = c.meta[1];
        if (k.cols > block)
          return;
        std::string what =
            "layer_norm_bwd " + sample::describe(c, {"ROWS", "BLOCK"}) + " " +
            std::to_string(k.rows) + "x" + std::to_string(k.cols) +
            " groups=" + std::to_string(k.groups);
        std::vector<half> dx(in.x.size()), dw(k.cols), db(k.cols);
        // Poisoned: the first program of each group must overwrite its
        // sums, and the groups no program reaches must not be read.
        std::vector<float> partial_dw(std::size_t(k.groups) * k.cols,
                                      sample::poison()),
            partial_db(partial_dw);
        std::vector<int> locks(2 * k.groups, 0);
        const int *counts = locks.data() + k.groups;
        auto dx_kernel = layer_norm_bwd_dx<rows_per_program, block>;
        tile::emulate::launch(
            layer_norm_bwd_dx_grid<rows_per_program, block>(
                dx.data(), in.dy.data(), partial_dw.data(), partial_db.data(),
                in.x.data(), in.w.data(), fwd.mean.data(), fwd.rstd.data(),
                locks.data(), stride, k.rows, k.cols, k.groups),
            dx_kernel, dx.data(), in.dy.data(), partial_dw.data(),
            partial_db.data(), in.x.data(), in.w.data(), fwd.mean.data(),
            fwd.rstd.data(), locks.data(), stride, k.rows, k.cols, k.groups);
        tile::emulate::launch(layer_norm_bwd_dwdb_grid<block_m, block_n>(
                                  partial_dw.data(), partial_db.data(), counts,
                                  dw.data(), db.data(), k.groups, k.cols),
                              layer_norm_bwd_dwdb<block_m, block_n>,
                              partial_dw.data(), partial_db.data(), counts,
                              dw.data(), db.data(), k.groups, k.cols);
        ok &= sample::compare(
            what + " dx", sample::dense_rows(dx, k.rows, k.cols, stride),
            want.dx, {reference::y_abs_tol, reference::y_rel_tol});
        sample::Tolerance sums{reference::dwdb_abs_tol,
                               reference::dwdb_rel_tol};
        ok &= sample::compare(what + " dw", sample::convert_all<float>(dw),
                              want.dw, sums);
        ok &= sample::compare(what + " db", sample::convert_all<float>(db),
                              want.db, sums);
        ++runs;
      });
  return ok;
}

} // namespace

int main() {
  sample::Random rng(21);
  bool ok = true;
  int runs = 0;
  for (const Case &k : cases) {
    const int stride = k.cols + 5; // rows not packed: the stride is honoured
    Inputs in = make_inputs(k, stride, rng);
    ok &= check_forward(k, in, stride, runs);
    ok &= check_backward(k, in, stride, runs);
  }
  std::printf("%s: layer_norm emulation, %d runs\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
