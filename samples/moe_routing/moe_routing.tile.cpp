// Mixture-of-experts routing (the top-k step of a gate, as Mixtral's and the
// routing of Triton's triton_kernels compute it): for each token's row of E
// expert logits (bf16), the K largest, largest first (ties to the lower
// expert), their experts, and the softmax of those K logits (weights that
// sum to 1); and the number of tokens routed to each expert, a histogram of
// the chosen experts that each program adds to the global counts once.
//
// A logit and its expert travel together as one 32-bit key, as
// triton_kernels packs them: the logit's 16 bits made to order as unsigned
// integers do (negative values' bits flipped, positive ones' sign bit set)
// in the high half, E - 1 - expert in the low half, so that the largest key
// is the largest logit and, among equal ones, the lowest expert (-0.0
// ranks below 0.0). The counts are added to: the caller zeroes them.
// n_experts and k choose the configuration (its E and K).
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK_T, int E, int K>
TILE_KERNEL void moe_routing(const tile::bfloat16 *logits, float *weights,
                             int *experts, int *counts, int n_tokens,
                             [[maybe_unused]] int n_experts,
                             [[maybe_unused]] int k) {
  static_assert(E <= 65536, "an expert's number fits the key's low half");
  auto rows = tile::program_id(0) * BLOCK_T + tile::arange<BLOCK_T>();
  auto cols = tile::arange<E>();
  auto live = tile::expand_dims<1>(rows < n_tokens);
  auto bits = tile::cast<uint32_t>(tile::bitcast<uint16_t>(tile::load(
      logits + tile::expand_dims<1>(rows) * E + tile::expand_dims<0>(cols),
      live)));
  auto ordered = tile::where(bits >= 0x8000u, bits ^ 0xffffu, bits | 0x8000u);
  auto keys = (ordered << 16) |
              tile::expand_dims<0>(tile::cast<uint32_t>(E - 1 - cols));
  auto top = tile::topk<K>(keys);
  auto high = top >> 16;
  auto value_bits =
      tile::where(high >= 0x8000u, high ^ 0x8000u, high ^ 0xffffu);
  auto values = tile::cast<float>(
      tile::bitcast<tile::bfloat16>(tile::cast<uint16_t>(value_bits)));
  auto chosen = E - 1 - tile::cast<int>(top & 0xffffu);
  // The softmax of the K chosen logits; the largest is the first.
  auto e = tile::exp(values - tile::expand_dims<1>(tile::max<1>(values)));
  auto w = e / tile::expand_dims<1>(tile::sum<1>(e));
  auto out =
      tile::expand_dims<1>(rows) * K + tile::expand_dims<0>(tile::arange<K>());
  auto out_live = tile::broadcast_to<BLOCK_T, K>(live);
  tile::store(weights + out, w, out_live);
  tile::store(experts + out, chosen, out_live);
  // Relaxed: nothing else is published through the counts.
  tile::atomic_add(
      counts + cols,
      tile::histogram<E>(tile::ravel(chosen), tile::ravel(out_live)), true,
      tile::mem_order::relaxed);
}

// E = 128 experts (as gpt-oss and Qwen3's MoE models route), top 4 and
// top 8; the select rule picks those of the call's E and K, tuning picks
// the block (the blocks and warps Triton's version tunes over).
TILE_CONFIGS(moe_routing, tile::config{.meta = {8, 128, 4}, .num_warps = 4},
             tile::config{.meta = {16, 128, 4}, .num_warps = 4},
             tile::config{.meta = {32, 128, 4}, .num_warps = 4},
             tile::config{.meta = {32, 128, 4}, .num_warps = 8},
             tile::config{.meta = {64, 128, 4}, .num_warps = 8},
             tile::config{.meta = {8, 128, 8}, .num_warps = 4},
             tile::config{.meta = {16, 128, 8}, .num_warps = 4},
             tile::config{.meta = {32, 128, 8}, .num_warps = 4},
             tile::config{.meta = {32, 128, 8}, .num_warps = 8},
             tile::config{.meta = {64, 128, 8}, .num_warps = 8});

template <int BLOCK_T, int E, int K>
TILE_SELECT(moe_routing)
bool moe_routing_fits(const tile::bfloat16 *, float *, int *, int *, int,
                      int n_experts, int k) {
  return n_experts == E && k == K;
}

// Tuning zeroes the expert counts before each trial: the kernel adds to them.
TILE_TUNE(moe_routing)
tile::tuning moe_routing_tuning(const tile::bfloat16 *, float *, int *,
                                int *counts, int n_tokens, int n_experts,
                                int k) {
  return {.key = {n_tokens, n_experts, k},
          .reset_to_zero = {tile::elements(counts, n_experts)}};
}

template <int BLOCK_T, int E, int K>
TILE_GRID(moe_routing)
tile::grid moe_routing_grid(const tile::bfloat16 *, float *, int *, int *,
                            int n_tokens, int, int) {
  return {tile::cdiv(n_tokens, BLOCK_T)};
}
