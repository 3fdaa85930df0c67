// Runs every configuration of moe_routing in emulation on a few token
// counts (one, one block and a ragged many) with logits on a coarse grid,
// so that rows hold ties, and one row of equal logits; compares the experts
// and counts exactly and the weights within 1e-6 with the reference.
#include "moe_routing.tile.cpp"

#include "check.hpp"
#include "reference.hpp"

#include <cstdio>
#include <string>

int main() {
  constexpr auto &configs = moe_routing_tile_configs;
  sample::Random rng(61);
  bool ok = true;
  for (int n_tokens : {1, 32, 203}) {
    auto grid = sample::random_vector(std::size_t(n_tokens) * 128, rng, -4, 4);
    for (float &v : grid)
      v = std::round(v * 8) / 8;
    std::fill_n(grid.begin(), 128, 0.5f); // every expert ties in row 0
    const auto logits = sample::convert_all<tile::bfloat16>(grid);
    const auto exact = sample::convert_all<float>(logits);
    sample::for_each_index<std::size(configs)>([&](auto index) {
      constexpr tile::config c = configs[decltype(index)::value];
      constexpr int block = c.meta[0], e = c.meta[1], k = c.meta[2];
      const auto want = reference::route(exact, n_tokens, e, k);
      std::vector<float> weights(std::size_t(n_tokens) * k, sample::poison());
      std::vector<int> experts(weights.size(), -1), counts(e, 0);
      tile::emulate::launch(moe_routing_grid<block, e, k>(
                                logits.data(), weights.data(), experts.data(),
                                counts.data(), n_tokens, e, k),
                            moe_routing<block, e, k>, logits.data(),
                            weights.data(), experts.data(), counts.data(),
                            n_tokens, e, k);
      const std::string what = "moe_routing " +
                               sample::describe(c, {"BLOCK_T", "E", "K"}) +
                               " n_tokens=" + std::to_string(n_tokens);
      ok &= sample::compare(what + " experts",
                            sample::convert_all<float>(experts),
                            sample::convert_all<float>(want.experts), {});
      ok &=
          sample::compare(what + " counts", sample::convert_all<float>(counts),
                          sample::convert_all<float>(want.counts), {});
      ok &= sample::compare(what + " weights", weights, want.weights,
                            {1e-6, 1e-6});
    });
  }
  std::printf("%s: moe_routing in emulation\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
