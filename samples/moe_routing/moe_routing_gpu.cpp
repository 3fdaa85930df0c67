// Runs every configuration of moe_routing (and the wrapper's default) on the
// GPU through its launch wrapper, on token counts from one to 65543 (ragged
// blocks) with tied logits, and compares the experts and counts exactly and
// the weights within 1e-6 with the reference; a configuration for another
// K must refuse the launch, and the outputs' guard zones keep their poison.
// Exits 77 without a GPU.
#include "moe_routing.tile.cpp"
#include "moe_routing.tile.h"

#include "cuda_check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  static_assert(std::size(moe_routing_tile_configs) ==
                tilecc::moe_routing_num_configs);
  constexpr int n_experts = 128;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  sample::Random rng(62);
  bool ok = true;
  int runs = 0;
  for (int n_tokens : {1, 1000, 65543}) {
    auto grid =
        sample::random_vector(std::size_t(n_tokens) * n_experts, rng, -4, 4);
    for (float &v : grid)
      v = std::round(v * 8) / 8;
    const auto logits = sample::convert_all<tile::bfloat16>(grid);
    const auto exact = sample::convert_all<float>(logits);
    sample::DeviceArray<tile::bfloat16> d_logits(logits, 0);
    for (int k : {4, 8}) {
      const auto want = reference::route(exact, n_tokens, n_experts, k);
      sample::DeviceArray<float> d_weights(std::size_t(n_tokens) * k, 0);
      sample::DeviceArray<int> d_experts(std::size_t(n_tokens) * k, 0),
          d_counts(n_experts, 0);
      // Tuned too: measuring adds to the counts many times, which the
      // tuning rule resets.
      for (int config = tile::autotuned;
           config < tilecc::moe_routing_num_configs; ++config) {
        const std::string what =
            "moe_routing " +
            sample::describe_config(moe_routing_tile_configs, config,
                                    {"BLOCK_T", "E", "K"}) +
            " n_tokens=" + std::to_string(n_tokens) + " k=" + std::to_string(k);
        auto launch = [&] {
          if (cudaError_t e = cudaMemsetAsync(d_counts.get(), 0,
                                              n_experts * sizeof(int), stream))
            return e;
          return tilecc::moe_routing(d_logits.get(), d_weights.get(),
                                     d_experts.get(), d_counts.get(), n_tokens,
                                     n_experts, k, stream, config);
        };
        if (config >= 0 && moe_routing_tile_configs[config].meta[2] != k) {
          if (launch() != cudaErrorInvalidValue) {
            std::printf("FAIL: %s: a configuration for another K ran\n",
                        what.c_str());
            ok = false;
          }
          continue;
        }
        d_experts.poison();
        d_counts.poison();
        ok &= sample::check_launch(what + " weights", d_weights, stream, launch,
                                   want.weights, {1e-6, 1e-6});
        ok &= d_experts.guards_intact(what) && d_counts.guards_intact(what);
        ok &= sample::compare(what + " experts",
                              sample::convert_all<float>(d_experts.download()),
                              sample::convert_all<float>(want.experts), {});
        ok &= sample::compare(what + " counts",
                              sample::convert_all<float>(d_counts.download()),
                              sample::convert_all<float>(want.counts), {});
        ++runs;
      }
    }
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("%s: moe_routing on the GPU, %d runs\n", ok ? "PASS" : "FAIL",
              runs);
  return ok ? 0 : 1;
}
