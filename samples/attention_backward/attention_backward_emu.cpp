// Runs every configuration of the backward kernels (fp16) in
// emulation, each with the head_dim and masking it serves and its grid
// rule, on two heads of 70 rows (not a multiple of the blocks), against the
// reference: delta first, then dK and dV, and dQ from the kernel's delta;
// then the fused kernel (dQ in fp32 beside dK and dV) and its cast.
#include "attention_backward.tile.cpp"

#include "backward_case.hpp"
#include "check.hpp"

#include <cstdio>
#include <iterator>
#include <string>
#include <tuple>

namespace {

constexpr std::initializer_list<const char *> delta_names = {"BM", "D",
                                                             "ZERO_DQ"};
constexpr std::initializer_list<const char *> block_names = {"BM", "BN", "D",
                                                             "CAUSAL"};
constexpr std::initializer_list<const char *> fused_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT"};

template <class T> bool check(const char *name) {
  constexpr int heads = 2, seq = 70;
  sample::Random rng(44);
  bool ok = true;
  for (int d : {64, 128})
    for (int causal : {0, 1}) {
      auto tc = reference::backward_case<T>(heads, seq, d, causal, rng);
      const std::size_t n = tc.elements();
      const float scale = tc.scale;
      const std::string shape =
          " d=" + std::to_string(d) + " causal=" + std::to_string(causal);
      std::vector<float> delta(tc.rows());
      sample::for_each_index<std::size(attention_bwd_delta_f16_tile_configs)>(
          [&](auto i) {
            constexpr tile::config c =
                attention_bwd_delta_f16_tile_configs[decltype(i)::value];
            constexpr int bm = c.meta[0], cd = c.meta[1], zero = c.meta[2];
            if (cd != d)
              return;
            const tile::grid grid = attention_bwd_delta_f16_grid<bm, cd, zero>(
                nullptr, nullptr, nullptr, nullptr, seq, heads, d);
            std::fill(delta.begin(), delta.end(), sample::poison());
            std::vector<float> dq_acc(zero ? n : 0, sample::poison());
            tile::emulate::launch(grid, attention_bwd_delta_f16<bm, cd, zero>,
                                  tc.o.data(), tc.d_o.data(), delta.data(),
                                  zero ? dq_acc.data() : nullptr, seq, heads,
                                  d);
            const std::string what = std::string(name) + " delta " +
                                     sample::describe(c, delta_names) + shape;
            ok &= sample::compare(what, delta, tc.delta,
                                  {reference::delta_tolerance, 0});
            if (zero)
              ok &= sample::compare(what + " dq_acc", dq_acc,
                                    std::vector<float>(n, 0.0f), {0, 0});
          });
      const sample::Tolerance tol{reference::gradient_abs_tolerance,
                                  reference::gradient_rel_tolerance};
      sample::for_each_index<std::size(attention_bwd_dkdv_f16_tile_configs)>(
          [&](auto i) {
            constexpr tile::config c =
                attention_bwd_dkdv_f16_tile_configs[decltype(i)::value];
            constexpr int bm = c.meta[0], bn = c.meta[1], cd = c.meta[2],
                          cc = c.meta[3];
            if (cd != d || cc != causal)
              return;
            const tile::grid grid = attention_bwd_dkdv_f16_grid<bm, bn, cd, cc>(
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, scale, seq, heads, d, causal);
            std::vector<T> dk(n), dv(n);
            tile::emulate::launch(grid, attention_bwd_dkdv_f16<bm, bn, cd, cc>,
                                  tc.q.data(), tc.k.data(), tc.v.data(),
                                  tc.d_o.data(), tc.lse.data(), delta.data(),
                                  dk.data(), dv.data(), scale, seq, heads, d,
                                  causal);
            std::string what = std::string(name) + " dkdv " +
                               sample::describe(c, block_names) + shape;
            ok &= sample::compare(what + " dk", sample::convert_all<float>(dk),
                                  tc.want.dk, tol);
            ok &= sample::compare(what + " dv", sample::convert_all<float>(dv),
                                  tc.want.dv, tol);
          });
      sample::for_each_index<std::size(attention_bwd_dq_f16_tile_configs)>(
          [&](auto i) {
            constexpr tile::config c =
                attention_bwd_dq_f16_tile_configs[decltype(i)::value];
            constexpr int bm = c.meta[0], bn = c.meta[1], cd = c.meta[2],
                          cc = c.meta[3];
            if (cd != d || cc != causal)
              return;
            const tile::grid grid = attention_bwd_dq_f16_grid<bm, bn, cd, cc>(
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                scale, seq, heads, d, causal);
            std::vector<T> dq(n);
            tile::emulate::launch(grid, attention_bwd_dq_f16<bm, bn, cd, cc>,
                                  tc.q.data(), tc.k.data(), tc.v.data(),
                                  tc.d_o.data(), tc.lse.data(), delta.data(),
                                  dq.data(), scale, seq, heads, d, causal);
            ok &= sample::compare(std::string(name) + " dq " +
                                      sample::describe(c, block_names) + shape,
                                  sample::convert_all<float>(dq), tc.want.dq,
                                  tol);
          });
      sample::for_each_index<std::size(attention_bwd_fused_f16_tile_configs)>(
          [&](auto i) {
            constexpr tile::config c =
                attention_bwd_fused_f16_tile_configs[decltype(i)::value];
            constexpr int bm = c.meta[0], bn = c.meta[1], cd = c.meta[2],
                          cc = c.meta[3], cp = c.meta[4];
            if (cd == d && cc == causal) {
              const tile::grid grid =
                  attention_bwd_fused_f16_grid<bm, bn, cd, cc, cp>(
                      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                      nullptr, nullptr, nullptr, scale, seq, heads, d, causal);
              std::vector<T> dk(n), dv(n), dq(n);
              // dq_acc zeroed by delta's zeroing configuration, as on the GPU.
              std::vector<float> dq_acc(n, sample::poison());
              tile::emulate::launch(
                  attention_bwd_delta_f16_grid<64, cd, 1>(
                      nullptr, nullptr, nullptr, nullptr, seq, heads, d),
                  attention_bwd_delta_f16<64, cd, 1>, tc.o.data(),
                  tc.d_o.data(), delta.data(), dq_acc.data(), seq, heads, d);
              tile::emulate::launch(
                  grid, attention_bwd_fused_f16<bm, bn, cd, cc, cp>,
                  tc.q.data(), tc.k.data(), tc.v.data(), tc.d_o.data(),
                  tc.lse.data(), delta.data(), dk.data(), dv.data(),
                  dq_acc.data(), scale, seq, heads, d, causal);
              tile::emulate::launch(attention_bwd_dq_cast_f16_grid<64, cd>(
                                        nullptr, nullptr, seq, heads, d),
                                    attention_bwd_dq_cast_f16<64, cd>,
                                    dq_acc.data(), dq.data(), seq, heads, d);
              std::string what = std::string(name) + " fused " +
                                 sample::describe(c, fused_names) + shape;
              for (auto [got, want, which] :
                   {std::tuple{&dk, &tc.want.dk, " dk"},
                    std::tuple{&dv, &tc.want.dv, " dv"},
                    std::tuple{&dq, &tc.want.dq, " dq"}})
                ok &= sample::compare(
                    what + which, sample::convert_all<float>(*got), *want, tol);
            }
          });
    }
  std::printf("%s: %s in emulation\n", ok ? "PASS" : "FAIL", name);
  return ok;
}

} // namespace

int main() { return check<tile::half>("attention_bwd_f16") ? 0 : 1; }
