// The kernels of softmax.tile.cpp with their configuration lists, for the
// emulation test, the GPU test and the benchmark.
#ifndef SAMPLES_SOFTMAX_CONFIGS_HPP
#define SAMPLES_SOFTMAX_CONFIGS_HPP

#include "softmax.tile.cpp"

/// The configurations of softmax_persistent, or of the one-row kernels.
template <bool Persistent> constexpr const auto &configs() {
  if constexpr (Persistent)
    return softmax_persistent_tile_configs;
  else
    return softmax_tile_configs;
}

#endif // SAMPLES_SOFTMAX_CONFIGS_HPP
