// Philox random numbers on the device: the algorithm tile.hpp emulates
// (tile/detail/philox.hpp), one word per call. Calls for several words of
// one (seed, offset) compute the same rounds, which the compiler shares.
#pragma once

#include "tile/detail/philox.hpp"
#include "tile/rt/types.cuh"

namespace tile::rt {

/// Word Word of Philox keyed by seed at counter (offset's low word, its
/// high word, 0, 0).
template <unsigned Word, unsigned Rounds, class T>
__device__ __forceinline__ std::uint32_t philox(std::uint64_t seed, T offset) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "Philox takes 32- or 64-bit offsets");
  return ::tile::detail::philox_word<Word, Rounds>(
      seed, std::uint32_t(offset), ::tile::detail::philox_high_word(offset));
}

} // namespace tile::rt
