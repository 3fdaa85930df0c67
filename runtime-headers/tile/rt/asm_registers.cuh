// Values moving through inline assembly's registers
// (tile::inline_asm_elementwise with a pack): elements narrower than the
// register side by side, the first in the low bits, which is how a PTX
// register holds a vector of them.
#pragma once

#include "tile/rt/types.cuh"

#include <cstring>

namespace tile::rt {

/// The values x..., each converted to T, as the bits of one register of
/// type Reg.
template <class Reg, class T, class... U>
__device__ __forceinline__ Reg pack_bits(const U &...x) {
  static_assert(sizeof(Reg) == sizeof...(U) * sizeof(T),
                "the values fill the register exactly");
  const T values[] = {static_cast<T>(x)...};
  Reg r;
  std::memcpy(static_cast<void *>(&r), values, sizeof r);
  return r;
}

/// The values of a register that pack_bits built, into x... in order.
template <class Reg, class T, class... U>
__device__ __forceinline__ void unpack_bits(const Reg &r, T &first,
                                            U &...rest) {
  static_assert(sizeof(Reg) == (1 + sizeof...(U)) * sizeof(T),
                "the values fill the register exactly");
  T values[1 + sizeof...(U)];
  std::memcpy(static_cast<void *>(values), &r, sizeof r);
  int i = 0;
  first = values[i++];
  ((rest = values[i++]), ...);
}

} // namespace tile::rt
