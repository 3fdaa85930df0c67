// Times every configuration of moe_routing on 16384 and 65536 tokens of 128
// bf16 expert logits, top 4 and top 8 (counts zeroed in each timed launch),
// checks the weights against the reference, and prints JSON lines for
// scripts/bench.sh. Bytes: the logits read, the weights and experts
// written (the counts are negligible). Exits 77 without a GPU.
#include "moe_routing.tile.cpp"
#include "moe_routing.tile.h"

#include "bench.hpp"
#include "reference.hpp"

#include <string>

int main() {
  if (!sample::have_gpu())
    return sample::exit_skip;
  constexpr int n_experts = 128;
  sample::Random rng(63);
  bool ok = true;
  for (int n_tokens : {16384, 65536}) {
    const auto logits = sample::convert_all<tile::bfloat16>(
        sample::random_vector(std::size_t(n_tokens) * n_experts, rng, -4, 4));
    const auto exact = sample::convert_all<float>(logits);
    sample::DeviceArray<tile::bfloat16> d_logits(logits, 0);
    sample::DeviceArray<int> d_counts(n_experts, 0);
    for (int k : {4, 8}) {
      sample::DeviceArray<float> d_weights(std::size_t(n_tokens) * k, 0);
      sample::DeviceArray<int> d_experts(std::size_t(n_tokens) * k, 0);
      std::vector<tile::config> fitting;
      std::vector<int> index;
      for (int c = 0; c < tilecc::moe_routing_num_configs; ++c)
        if (moe_routing_tile_configs[c].meta[2] == k) {
          fitting.push_back(moe_routing_tile_configs[c]);
          index.push_back(c);
        }
      sample::Workload workload{"moe_routing",
                                {n_tokens, n_experts, k},
                                double(n_tokens) * (n_experts * 2 + k * 8),
                                {1e-6, 1e-6},
                                "bf16"};
      ok &= sample::bench_configs(
          workload, fitting, {"BLOCK_T", "E", "K"}, d_weights,
          reference::route(exact, n_tokens, n_experts, k).weights, [&](int c) {
            if (cudaError_t e =
                    cudaMemsetAsync(d_counts.get(), 0, n_experts * sizeof(int)))
              return e;
            return tilecc::moe_routing(
                d_logits.get(), d_weights.get(), d_experts.get(),
                d_counts.get(), n_tokens, n_experts, k, nullptr, index[c]);
          });
    }
  }
  return ok ? 0 : 1;
}
