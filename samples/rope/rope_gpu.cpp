// Runs every configuration of rope_fwd and rope_bwd that fits (and the
// wrappers' defaults), bf16 and fp16, on the GPU through the launch
// wrappers, on q and k with padded strides, grouped key heads and a model's
// shape, and compares the tensors rotated in place with the double
// reference; the padding and the guard zones must keep their poison. A
// configuration with fewer heads than the call's must refuse the launch.
// Exits 77 without a GPU.
#include "rope.tile.cpp"
#include "rope.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"
#include "tensors.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// got (device) against want where the layout has elements; the poison
/// kept elsewhere and in the guard zones.
template <class T>
bool compare(const std::string &what, const sample::DeviceArray<T> &dev,
             const std::vector<float> &want, const reference::Layout &l,
             reference::Tolerance tol) {
  return dev.guards_intact(what) &&
         sample::compare_rope(what, dev.download(), want, l, tol);
}

template <class T, class Kernel>
bool check(const char *name, bool backward, const tile::config *configs,
           int n_configs, Kernel kernel, sample::Random &rng) {
  constexpr bool bf16 = std::is_same_v<T, tile::bfloat16>;
  bool ok = true;
  int runs = 0;
  struct Case {
    int batch, seq, q_heads, k_heads, head_dim;
    bool padded;
  };
  for (auto [batch, seq, q_heads, k_heads, head_dim, padded] :
       {Case{2, 37, 32, 8, 128, true}, Case{3, 19, 7, 7, 64, true},
        Case{4, 1024, 32, 32, 128, false}}) {
    const auto [ql, kl] = sample::rope_layouts(batch, seq, q_heads, k_heads,
                                               head_dim, padded ? 8 : 0);
    const auto q = sample::rope_tensor<T>(ql, rng),
               k = sample::rope_tensor<T>(kl, rng);
    const auto [cos, sin] = sample::rope_cache<T>(seq, head_dim, true);
    const auto cr = sample::convert_all<float>(cos),
               sr = sample::convert_all<float>(sin);
    const auto want_q =
        reference::rotate(sample::convert_all<float>(q), ql, cr, sr, backward);
    const auto want_k =
        reference::rotate(sample::convert_all<float>(k), kl, cr, sr, backward);
    sample::DeviceArray<T> dq(q.size(), 0), dk(k.size(), 0), dcos(cos, 0),
        dsin(sin, 0);
    // Tuned too: measuring rotates q and k many times over, which the
    // tuning rule restores.
    for (int c = tile::autotuned; c < n_configs; ++c) {
      const std::string what =
          std::string(name) + " " +
          sample::describe_config(configs, c, {"ROWS", "HALF"}) + " " +
          std::to_string(batch) + "x" + std::to_string(q_heads) + "/" +
          std::to_string(k_heads) + "x" + std::to_string(seq) + "x" +
          std::to_string(head_dim);
      dq.poison();
      dk.poison();
      dq.upload(q);
      dk.upload(k);
      const cudaError_t e = kernel(
          dq.get(), dk.get(), dcos.get(), dsin.get(), batch, seq, q_heads,
          k_heads, head_dim, ql.batch_stride, ql.head_stride, ql.seq_stride,
          kl.batch_stride, kl.head_stride, kl.seq_stride, nullptr, c);
      const bool fits = c < 0 || head_dim == 2 * configs[c].meta[1];
      if (!fits) {
        if (e != cudaErrorInvalidValue) {
          std::printf("FAIL: %s: a configuration that does not fit ran\n",
                      what.c_str());
          ok = false;
        }
        continue;
      }
      CUDA_CHECK(e);
      CUDA_CHECK(cudaDeviceSynchronize());
      const auto tol = reference::tolerance(bf16);
      ok &= compare(what + " q", dq, want_q, ql, tol);
      ok &= compare(what + " k", dk, want_k, kl, tol);
      ++runs;
    }
  }
  std::printf("%s: %s on the GPU, %d runs\n", ok ? "PASS" : "FAIL", name, runs);
  return ok;
}

} // namespace

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  sample::Random rng(102);
#define ROPE_CHECK(KERNEL, BACKWARD, T)                                        \
  check<T>(#KERNEL, BACKWARD, KERNEL##_tile_configs,                           \
           tilecc::KERNEL##_num_configs, tilecc::KERNEL, rng)
  bool ok = ROPE_CHECK(rope_fwd_bf16, false, tile::bfloat16);
  ok &= ROPE_CHECK(rope_bwd_bf16, true, tile::bfloat16);
  ok &= ROPE_CHECK(rope_fwd_f16, false, tile::half);
  ok &= ROPE_CHECK(rope_bwd_f16, true, tile::half);
#undef ROPE_CHECK
  return ok ? 0 : 1;
}
