// Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11) as Triton's tl.randint keys it, shared by the CPU emulation
// (tile.hpp) and the device (tile/rt/random.cuh), so that both give the
// same bits. The key is the seed's low and high words; the counter is the
// offset's low and high words, then two zeros (Triton 3.6: a 64-bit offset
// fills the second counter word, and the words stay 32-bit).
#pragma once

#include "mulhi.hpp"

#include <cstdint>

namespace tile::detail {

/// Word Word (0-3) of Philox after Rounds rounds, keyed by seed, at counter
/// (c0, c1, 0, 0).
template <unsigned Word, unsigned Rounds>
TILE_HOST_DEVICE_FUNCTION std::uint32_t
philox_word(std::uint64_t seed, std::uint32_t c0, std::uint32_t c1) {
  static_assert(Word < 4, "Philox has four words");
  constexpr std::uint32_t KeyA = 0x9E3779B9, KeyB = 0xBB67AE85;
  constexpr std::uint32_t RoundA = 0xD2511F53, RoundB = 0xCD9E8D57;
  std::uint32_t c[4] = {c0, c1, 0, 0};
  std::uint32_t k0 = std::uint32_t(seed), k1 = std::uint32_t(seed >> 32);
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
  for (unsigned r = 0; r < Rounds; ++r) {
    const std::uint32_t c0 = c[0], c2 = c[2];
    c[0] = mulhi32(RoundB, c2) ^ c[1] ^ k0;
    c[2] = mulhi32(RoundA, c0) ^ c[3] ^ k1;
    c[1] = RoundB * c2;
    c[3] = RoundA * c0;
    k0 += KeyA;
    k1 += KeyB;
  }
  return c[Word];
}

/// The counter words of a 32- or 64-bit integer offset.
template <class T>
TILE_HOST_DEVICE_FUNCTION std::uint32_t philox_high_word(T offset) {
  if constexpr (sizeof(T) == 8)
    return std::uint32_t(std::uint64_t(offset) >> 32);
  else
    return 0;
}

} // namespace tile::detail
