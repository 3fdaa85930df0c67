// The kernels of softmax.tile.cpp with their configuration lists, for the
// emulation test, the GPU test and the benchmark.
#ifndef SAMPLES_SOFTMAX_CONFIGS_HPP
#define SAMPLES_SOFTMAX_CONFIGS_HPP

#include "softmax.tile.cpp"

#include <initializer_list>

/// How a kernel spreads the rows over programs: one per program (softmax,
/// softmax_f16), every num_programs-th to each (softmax_persistent), or
/// from a counter (softmax_persistent_dynamic).
enum class Schedule { one_row, persistent, dynamic };

/// The configurations of the kernels scheduled so.
template <Schedule S> constexpr const auto &configs() {
  if constexpr (S == Schedule::persistent)
    return softmax_persistent_tile_configs;
  else if constexpr (S == Schedule::dynamic)
    return softmax_persistent_dynamic_tile_configs;
  else
    return softmax_tile_configs;
}

/// The names of their meta-parameters.
template <Schedule S>
constexpr std::initializer_list<const char *> meta_names = {"BLOCK"};
template <>
constexpr std::initializer_list<const char *> meta_names<Schedule::persistent> =
    {"BLOCK", "STAGES"};

#endif // SAMPLES_SOFTMAX_CONFIGS_HPP
