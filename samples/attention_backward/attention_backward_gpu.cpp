// Runs the backward kernels (fp16) on the GPU through their launch
// wrappers, with the default configuration (picked by head_dim and masking)
// and every explicit one that applies, on sequence lengths below, at and
// not at multiples of the blocks, causal and not, head_dim 64 and 128, into
// poisoned outputs with guard zones; once more with misaligned pointers
// (the generic variant). dK, dV and dQ use the kernel's delta; the fused
// kernel (dQ in fp32 beside dK and dV) is checked through its cast. Exits
// 77 without a GPU.
#include "attention_backward.tile.cpp"
#include "attention_backward.tile.h"

#include "backward_case.hpp"
#include "cuda_check.hpp"

#include <cstdio>
#include <string>

namespace {

constexpr std::initializer_list<const char *> delta_names = {"BM", "D",
                                                             "ZERO_DQ"};
constexpr std::initializer_list<const char *> block_names = {"BM", "BN", "D",
                                                             "CAUSAL"};
constexpr std::initializer_list<const char *> fused_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT"};

/// The configurations of a kernel to run for one shape, where any serves
/// it: -1 (the wrapper's choice) and, with aligned pointers, the tuned
/// launch (the fused kernel's rule zeroes dq_acc for each trial) and every
/// explicit one that serves it.
template <std::size_t N, class Serves>
std::vector<int> configs_to_run(const tile::config (&configs)[N], bool shifted,
                                Serves serves) {
  std::vector<int> run;
  for (std::size_t c = 0; c < N; ++c)
    if (serves(configs[c]))
      run.push_back(int(c));
  if (run.empty())
    return run;
  if (shifted)
    run.clear();
  else
    run.insert(run.begin(), tile::autotuned);
  run.insert(run.begin(), -1);
  return run;
}

template <class T> bool check(const char *name) {
  constexpr int heads = 3;
  sample::Random rng(45);
  bool ok = true;
  int runs = 0;
  const sample::Tolerance tol{reference::gradient_abs_tolerance,
                              reference::gradient_rel_tolerance};
  for (int d : {64, 128})
    for (int causal : {0, 1})
      for (int seq : {1, 64, 70, 208, 1000}) {
        const auto tc = reference::backward_case<T>(heads, seq, d, causal, rng);
        const std::size_t n = tc.elements();
        const float scale = tc.scale;
        for (std::size_t shift : {0, 1}) {
          sample::DeviceArray<T> g_q(tc.q, shift), g_k(tc.k, shift),
              g_v(tc.v, shift), g_o(tc.o, shift), g_do(tc.d_o, shift),
              g_dq(n, shift), g_dk(n, shift), g_dv(n, shift);
          sample::DeviceArray<float> g_lse(tc.lse, shift),
              g_delta(tc.rows(), shift), g_dq_acc(n, shift);
          const std::string shape = " seq=" + std::to_string(seq) +
                                    " d=" + std::to_string(d) +
                                    " causal=" + std::to_string(causal) +
                                    (shift ? " misaligned" : "");
          for (int c : configs_to_run(
                   attention_bwd_delta_f16_tile_configs, shift,
                   [&](const tile::config &cfg) { return cfg.meta[1] == d; })) {
            std::string what =
                std::string(name) + " delta " +
                sample::describe_config(attention_bwd_delta_f16_tile_configs, c,
                                        delta_names) +
                shape;
            // A zeroing configuration (ZERO_DQ) must zero every element of
            // dq_acc, poisoned here; the wrapper's choice (-1) takes none.
            const bool zeroes =
                c >= 0 && attention_bwd_delta_f16_tile_configs[c].meta[2];
            g_dq_acc.poison();
            ok &=
                sample::check_launch(what, g_delta, nullptr,
                                     [&] {
                                       return tilecc::attention_bwd_delta_f16(
                                           g_o.get(), g_do.get(), g_delta.get(),
                                           zeroes ? g_dq_acc.get() : nullptr,
                                           seq, heads, d, nullptr, c);
                                     },
                                     tc.delta, {reference::delta_tolerance, 0});
            if (zeroes)
              ok &=
                  g_dq_acc.guards_intact(what + " dq_acc") &&
                  sample::compare(what + " dq_acc", g_dq_acc.download_floats(),
                                  std::vector<float>(n, 0.0f), {0, 0});
            ++runs;
          }
          auto serves = [&](const tile::config &cfg) {
            return cfg.meta[2] == d && cfg.meta[3] == causal;
          };
          for (int c : configs_to_run(attention_bwd_dkdv_f16_tile_configs,
                                      shift, serves)) {
            std::string what =
                std::string(name) + " dkdv " +
                sample::describe_config(attention_bwd_dkdv_f16_tile_configs, c,
                                        block_names) +
                shape;
            g_dv.poison();
            ok &= sample::check_launch(
                what + " dk", g_dk, nullptr,
                [&] {
                  return tilecc::attention_bwd_dkdv_f16(
                      g_q.get(), g_k.get(), g_v.get(), g_do.get(), g_lse.get(),
                      g_delta.get(), g_dk.get(), g_dv.get(), scale, seq, heads,
                      d, causal, nullptr, c);
                },
                tc.want.dk, tol);
            ok &= g_dv.guards_intact(what + " dv") &&
                  sample::compare(what + " dv", g_dv.download_floats(),
                                  tc.want.dv, tol);
            ++runs;
          }
          for (int c : configs_to_run(attention_bwd_dq_f16_tile_configs, shift,
                                      serves)) {
            std::string what =
                std::string(name) + " dq " +
                sample::describe_config(attention_bwd_dq_f16_tile_configs, c,
                                        block_names) +
                shape;
            ok &= sample::check_launch(
                what, g_dq, nullptr,
                [&] {
                  return tilecc::attention_bwd_dq_f16(
                      g_q.get(), g_k.get(), g_v.get(), g_do.get(), g_lse.get(),
                      g_delta.get(), g_dq.get(), scale, seq, heads, d, causal,
                      nullptr, c);
                },
                tc.want.dq, tol);
            ++runs;
          }
          // The fused pass: delta, which zeroes dq_acc (poisoned here), then
          // dQ added up there in fp32 beside dK and dV, then rounded.
          for (int c : configs_to_run(attention_bwd_fused_f16_tile_configs,
                                      shift, serves)) {
            std::string what =
                std::string(name) + " fused " +
                sample::describe_config(attention_bwd_fused_f16_tile_configs, c,
                                        fused_names) +
                shape;
            g_dv.poison();
            g_dq_acc.poison();
            ok &= sample::check_launch(
                what + " dk", g_dk, nullptr,
                [&] {
                  cudaError_t err = tilecc::attention_bwd_delta_f16(
                      g_o.get(), g_do.get(), g_delta.get(), g_dq_acc.get(), seq,
                      heads, d);
                  if (err != cudaSuccess)
                    return err;
                  return tilecc::attention_bwd_fused_f16(
                      g_q.get(), g_k.get(), g_v.get(), g_do.get(), g_lse.get(),
                      g_delta.get(), g_dk.get(), g_dv.get(), g_dq_acc.get(),
                      scale, seq, heads, d, causal, nullptr, c);
                },
                tc.want.dk, tol);
            ok &= g_dv.guards_intact(what + " dv") &&
                  sample::compare(what + " dv", g_dv.download_floats(),
                                  tc.want.dv, tol);
            ok &= g_dq_acc.guards_intact(what + " dq_acc");
            ok &= sample::check_launch(
                what + " dq", g_dq, nullptr,
                [&] {
                  return tilecc::attention_bwd_dq_cast_f16(
                      g_dq_acc.get(), g_dq.get(), seq, heads, d);
                },
                tc.want.dq, tol);
            ++runs;
          }
        }
      }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  return check<tile::half>("attention_bwd_f16") ? 0 : 1;
}
