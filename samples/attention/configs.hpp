// The attention kernels, the configurations of the one for element type T
// (bf16 has the defaults only), and what the tests and the benchmark give
// each: V as the kernel takes it, and its output and tolerance.
#ifndef SAMPLES_ATTENTION_CONFIGS_HPP
#define SAMPLES_ATTENTION_CONFIGS_HPP

#include "attention.tile.cpp"
#include "reference.hpp"

#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

template <class T> constexpr const auto &configs() {
  if constexpr (std::is_same_v<T, tile::half>)
    return attention_f16_tile_configs;
  else if constexpr (std::is_same_v<T, tile::bfloat16>)
    return attention_bf16_tile_configs;
  else
    return attention_fp8_tile_configs;
}

/// The names of the meta-parameters of the kernel for T, for
/// sample::describe: the fp8 kernel's CUBIC is its sixth.
inline constexpr std::initializer_list<const char *> meta_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT"};
inline constexpr std::initializer_list<const char *> fp8_meta_names = {
    "BM", "BN", "D", "CAUSAL", "PERSISTENT", "CUBIC"};
template <class T>
constexpr const std::initializer_list<const char *> &names_of() {
  return sizeof(T) == 1 ? fp8_meta_names : meta_names;
}

/// V (heads x seq x d) as the kernel for T takes it: transposed per head
/// for 8-bit floats (v_transposed).
template <class T>
std::vector<T> v_operand(const std::vector<T> &v, int heads, int seq, int d) {
  if constexpr (!v_transposed<T>) {
    return v;
  } else {
    std::vector<T> vt(v.size());
    for (int h = 0; h < heads; ++h)
      for (int j = 0; j < seq; ++j)
        for (int c = 0; c < d; ++c)
          vt[(std::size_t(h) * d + c) * seq + j] =
              v[(std::size_t(h) * seq + j) * d + c];
    return vt;
  }
}

/// The tolerance of the output for T: reference::out_tolerance, or, with
/// probabilities rounded to e4m3 (3 mantissa bits: a relative error up to
/// 1/16 each) weighting values in [-1, 1], 1/16 plus fp16's rounding of
/// the output.
template <class T> constexpr double out_tolerance() {
  return sizeof(T) == 1 ? 1.0 / 16 + 1.0 / 2048 : reference::out_tolerance;
}

#endif
