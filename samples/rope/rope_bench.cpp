// Times rope_fwd and rope_bwd, bf16 and fp16, on issue 51's shape (batch 4
// x 4096 positions x head_dim 128, 32 query heads and 32 or 8 key heads,
// [batch, heads, seq, head_dim] contiguous, a model's cos/sin cache) with
// every configuration that fits; checks the first run against the double
// reference and prints JSON lines for scripts/bench.sh. q and k are rotated
// in place, so each timed run rotates the previous run's result: the same
// bytes and work. Bytes: q and k read and written (the cache is under 1 %).
// Exits 77 without a GPU.
#include "rope.tile.cpp"
#include "rope.tile.h"

#include "bench.hpp"
#include "reference.hpp"
#include "tensors.hpp"

#include <cmath>
#include <string>

namespace {

template <class T, class Kernel>
bool bench(const char *name, bool backward, int k_heads,
           const tile::config *configs, int n_configs, Kernel kernel,
           sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  constexpr int batch = 4, seq = 4096, q_heads = 32, head_dim = 128;
  const reference::Layout ql{batch,
                             q_heads,
                             seq,
                             head_dim,
                             int64_t(q_heads) * seq * head_dim,
                             int64_t(seq) * head_dim,
                             head_dim};
  const reference::Layout kl{batch,
                             k_heads,
                             seq,
                             head_dim,
                             int64_t(k_heads) * seq * head_dim,
                             int64_t(seq) * head_dim,
                             head_dim};
  auto q = sample::convert_all<T>(sample::random_vector(ql.size(), rng, -2, 2));
  auto k = sample::convert_all<T>(sample::random_vector(kl.size(), rng, -2, 2));
  const auto [cos, sin] = sample::rope_cache<T>(seq, head_dim, false);
  const auto cr = sample::convert_all<float>(cos),
             sr = sample::convert_all<float>(sin);
  const auto want_q =
      reference::rotate(sample::convert_all<float>(q), ql, cr, sr, backward);
  const auto want_k =
      reference::rotate(sample::convert_all<float>(k), kl, cr, sr, backward);
  const auto tol = reference::tolerance(bf16);
  sample::DeviceArray<T> dq(q, 0), dk(k, 0), dcos(cos, 0), dsin(sin, 0);
  auto run = [&](int c) {
    return kernel(dq.get(), dk.get(), dcos.get(), dsin.get(), batch, seq,
                  q_heads, k_heads, head_dim, ql.batch_stride, ql.head_stride,
                  ql.seq_stride, kl.batch_stride, kl.head_stride, kl.seq_stride,
                  nullptr, c);
  };
  std::vector<sample::Timing> timings;
  for (int c = 0; c < n_configs; ++c) {
    if (head_dim != 2 * configs[c].meta[1])
      continue;
    dq.upload(q);
    dk.upload(k);
    CUDA_CHECK(run(c));
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::string config = sample::describe(configs[c], {"ROWS", "HALF"});
    const std::string what = std::string(name) + " " + config;
    const bool right = sample::compare(what + " q", dq.download_floats(),
                                       want_q, {tol.abs, tol.rel}) &&
                       sample::compare(what + " k", dk.download_floats(),
                                       want_k, {tol.abs, tol.rel});
    timings.push_back(
        {config, sample::median_ms([&] { return run(c); }), right});
  }
  return sample::print_timings(
      name, {batch, q_heads, k_heads, seq, head_dim}, bf16 ? "bf16" : "fp16",
      "gbps", 2.0 * (ql.size() + kl.size()) * sizeof(T), timings);
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(103);
  bool ok = true;
  for (int k_heads : {32, 8}) {
#define ROPE_BENCH(KERNEL, BACKWARD, T)                                        \
  bench<T>(#KERNEL, BACKWARD, k_heads, KERNEL##_tile_configs,                  \
           tilecc::KERNEL##_num_configs, tilecc::KERNEL, rng)
    ok &= ROPE_BENCH(rope_fwd_bf16, false, tile::bfloat16);
    ok &= ROPE_BENCH(rope_bwd_bf16, true, tile::bfloat16);
    ok &= ROPE_BENCH(rope_fwd_f16, false, tile::half);
    ok &= ROPE_BENCH(rope_bwd_f16, true, tile::half);
#undef ROPE_BENCH
  }
  return ok ? 0 : 1;
}
