// dropout's reference: Philox's first word for (seed, i) as a uniform float
// in [0, 1) (as tl.rand makes it), kept where above p and then x / (1 - p),
// else 0. The generator's bits are checked against an independent Philox
// and Triton's own values by the conformance suite (case 13).
#ifndef SAMPLES_DROPOUT_REFERENCE_HPP
#define SAMPLES_DROPOUT_REFERENCE_HPP

#include <tile/detail/philox.hpp>

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace reference {

/// tl.rand(seed, i) for a 32-bit offset i.
inline float uniform(int seed, std::uint32_t i) {
  const std::uint32_t word =
      tile::detail::philox_word<0, 10>(std::uint64_t(std::int64_t(seed)), i, 0);
  std::int32_t v = std::int32_t(word);
  if (v < 0)
    v = ~v;
  return float(v) * 4.6566127342e-10f;
}

/// x / (1 - p) computed in double and rounded once, where kept.
inline std::vector<float> dropout(std::span<const float> x, float p, int seed) {
  std::vector<float> out(x.size());
  const float scale_by = 1 - p;
  for (std::size_t i = 0; i < x.size(); ++i)
    out[i] = uniform(seed, std::uint32_t(i)) > p
                 ? static_cast<float>(double(x[i]) / double(scale_by))
                 : 0.0f;
  return out;
}

/// fp32 division is div.full on the GPU (within 2 ulp); the reference
/// rounds the exact quotient once. The mask must match exactly: a dropped
/// element is 0 and a kept one is not.
inline constexpr double dropout_rel_tol = 2.5 * FLT_EPSILON;

} // namespace reference

#endif // SAMPLES_DROPOUT_REFERENCE_HPP
