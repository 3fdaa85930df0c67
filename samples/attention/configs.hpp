// The attention kernels and the configurations of the one for element type
// T (bf16 has the defaults only), for the tests that run every one.
#ifndef SAMPLES_ATTENTION_CONFIGS_HPP
#define SAMPLES_ATTENTION_CONFIGS_HPP

#include "attention.tile.cpp"

#include <type_traits>

template <class T> constexpr const auto &configs() {
  if constexpr (std::is_same_v<T, tile::half>)
    return attention_f16_tile_configs;
  else
    return attention_bf16_tile_configs;
}

#endif
