// moe_routing's reference: each token's K largest logits by sorting, their
// softmax in double, and the experts' counts by plain counting.
#ifndef SAMPLES_MOE_ROUTING_REFERENCE_HPP
#define SAMPLES_MOE_ROUTING_REFERENCE_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

namespace reference {

struct Routing {
  std::vector<float> weights; // n_tokens x k
  std::vector<int> experts;   // n_tokens x k
  std::vector<int> counts;    // n_experts
};

/// Each row of n_experts logits: its k largest, largest first (0.0 above
/// -0.0; among equal values the lower expert first), and their softmax.
inline Routing route(std::span<const float> logits, int n_tokens, int n_experts,
                     int k) {
  Routing r{std::vector<float>(std::size_t(n_tokens) * k),
            std::vector<int>(std::size_t(n_tokens) * k),
            std::vector<int>(n_experts)};
  std::vector<int> order(n_experts);
  for (int t = 0; t < n_tokens; ++t) {
    const float *row = logits.data() + std::size_t(t) * n_experts;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (row[a] != row[b])
        return row[a] > row[b];
      return !std::signbit(row[a]) && std::signbit(row[b]);
    });
    double sum = 0;
    for (int j = 0; j < k; ++j)
      sum += std::exp(double(row[order[j]]) - double(row[order[0]]));
    for (int j = 0; j < k; ++j) {
      const std::size_t at = std::size_t(t) * k + j;
      r.experts[at] = order[j];
      r.weights[at] = static_cast<float>(
          std::exp(double(row[order[j]]) - double(row[order[0]])) / sum);
      ++r.counts[order[j]];
    }
  }
  return r;
}

} // namespace reference

#endif // SAMPLES_MOE_ROUTING_REFERENCE_HPP
