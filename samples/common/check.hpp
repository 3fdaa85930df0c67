//===- samples/common/check.hpp - Inputs and comparisons --------*- C++ -*-===//
//
// What the emulation, GPU and benchmark programs of every sample share:
// reproducible random inputs, comparison with a reference under a stated
// tolerance, guard zones that catch writes outside an output, and names of
// configurations. Needs no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef SAMPLES_COMMON_CHECK_HPP
#define SAMPLES_COMMON_CHECK_HPP

#include <tile/autotune.hpp>
#include <tile/tile.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace sample {

/// splitmix64: the same numbers on every platform and standard library
/// (std::uniform_real_distribution's are not), and fast enough to fill
/// gigabyte inputs.
class Random {
public:
  explicit Random(std::uint64_t seed) : state(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// Uniform in [lo, hi), on a grid of 2^-24 (hi - lo): sums of two such
  /// values in [-1, 1) are exact in float, so no subnormals appear.
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 40) * 0x1p-24f;
  }

private:
  std::uint64_t state;
};

inline std::vector<float> random_vector(std::size_t n, Random &rng, float lo,
                                        float hi) {
  std::vector<float> v(n);
  for (float &e : v)
    e = rng.uniform(lo, hi);
  return v;
}

/// |got - want| <= abs + rel * |want| for every element. NaN never passes,
/// so an element the kernel did not write (outputs are poisoned with NaN)
/// is reported.
struct Tolerance {
  double abs = 0;
  double rel = 0;
};

/// Compares element by element and prints the first mismatch and the count.
inline bool compare(const std::string &what, std::span<const float> got,
                    std::span<const float> want, Tolerance tol) {
  if (got.size() != want.size()) {
    std::printf("FAIL: %s: %zu elements, want %zu\n", what.c_str(), got.size(),
                want.size());
    return false;
  }
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double g = got[i], w = want[i];
    if (!(std::fabs(g - w) <= tol.abs + tol.rel * std::fabs(w)) && bad++ == 0)
      first = i;
  }
  if (bad)
    std::printf("FAIL: %s: %zu of %zu differ; first at %zu: got %.9g, want "
                "%.9g\n",
                what.c_str(), bad, got.size(), first, double(got[first]),
                double(want[first]));
  return bad == 0;
}

/// Guard elements on each side of an output; 64 floats keep the output
/// 16-byte aligned (256 bytes, like cudaMalloc's own alignment).
inline constexpr std::size_t guard_elements = 64;

/// The poison written around and into outputs: a NaN whose bits are all ones
/// (what cudaMemset(0xff) writes).
inline float poison() {
  std::uint32_t bits = 0xffffffffu;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// Checks that a guard zone of `count` elements of `size` bytes still holds
/// the poison (all bits set) everywhere. `offset` is the zone's position, in
/// elements, relative to the output's first element.
inline bool guard_intact(const std::string &what, const void *zone,
                         std::size_t count, std::size_t size,
                         std::ptrdiff_t offset) {
  const auto *bytes = static_cast<const unsigned char *>(zone);
  for (std::size_t i = 0; i < count * size; ++i)
    if (bytes[i] != 0xff) {
      std::printf("FAIL: %s: wrote outside the output, at offset %td\n",
                  what.c_str(), offset + std::ptrdiff_t(i / size));
      return false;
    }
  return true;
}

/// A host output of n floats inside guard zones, poisoned throughout.
class GuardedOutput {
public:
  explicit GuardedOutput(std::size_t n)
      : n(n), all(n + 2 * guard_elements, poison()) {}
  float *data() { return all.data() + guard_elements; }
  std::span<const float> values() const {
    return {all.data() + guard_elements, n};
  }
  bool guards_intact(const std::string &what) const {
    std::span<const float> whole(all);
    return guard_intact(what, whole.data(), guard_elements, sizeof(float),
                        -std::ptrdiff_t(guard_elements)) &&
           guard_intact(what, whole.last(guard_elements).data(), guard_elements,
                        sizeof(float), std::ptrdiff_t(n));
  }

private:
  std::size_t n;
  std::vector<float> all;
};

/// n integers uniform in [0, hi).
inline std::vector<int> random_ints(std::size_t n, Random &rng, int hi) {
  std::vector<int> v(n);
  for (int &e : v)
    e = static_cast<int>(rng.next() % std::uint64_t(hi));
  return v;
}

/// The elements of a container converted to To (e.g. floats to tile::half
/// inputs, and back for the reference).
template <class To, class C> std::vector<To> convert_all(const C &v) {
  return std::vector<To>(v.begin(), v.end());
}

/// The first n_cols of each of n_rows rows `stride` apart, as floats: the
/// part of a strided output a kernel writes.
template <class C>
std::vector<float> dense_rows(const C &v, int n_rows, int n_cols, int stride) {
  std::vector<float> out;
  for (int r = 0; r < n_rows; ++r)
    for (int c = 0; c < n_cols; ++c)
      out.push_back(float(v[std::size_t(r) * stride + c]));
  return out;
}

/// Whether the columns past n_cols of each row still hold the poison.
inline bool row_gaps_intact(const std::string &what, std::span<const float> v,
                            int n_rows, int n_cols, int stride) {
  for (int r = 0; r < n_rows; ++r) {
    std::size_t gap = std::size_t(r) * stride + n_cols;
    if (!guard_intact(what, v.data() + gap, stride - n_cols, sizeof(float),
                      std::ptrdiff_t(gap)))
      return false;
  }
  return true;
}

/// Calls f(std::integral_constant<int, I>{}) for I in [0, N): lets a loop
/// over a kernel's configurations instantiate the kernel for each.
template <int N, class F> void for_each_index(F &&f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
  }
  (std::make_integer_sequence<int, N>{});
}

/// For a kernel whose one meta-parameter is BLOCK: calls F(launch,
/// description, BLOCK) for each of its configurations, launch(args...)
/// running the kernel with that configuration in emulation (its grid rule's
/// grid).
#define SAMPLE_EACH_BLOCK_CONFIG(KERNEL, F)                                    \
  ::sample::for_each_index<std::size(KERNEL##_tile_configs)>([&](auto i) {     \
    constexpr int block = KERNEL##_tile_configs[decltype(i)::value].meta[0];   \
    F(                                                                         \
        [](auto... args) {                                                     \
          tile::emulate::launch(KERNEL##_grid<block>(args...), KERNEL<block>,  \
                                args...);                                      \
        },                                                                     \
        ::sample::describe(KERNEL##_tile_configs[decltype(i)::value],          \
                           {"BLOCK"}),                                         \
        block);                                                                \
  })

/// For a kernel whose meta-parameters are named by the string literals
/// after KERNEL: a callable that, given f, calls f(launch, description,
/// config) for each of the kernel's configurations, launch(args...) running
/// the kernel with that configuration in emulation (its grid rule's grid).
#define SAMPLE_EACH_CONFIG(KERNEL, ...)                                        \
  [](auto &&f) {                                                               \
    ::sample::for_each_index<std::size(KERNEL##_tile_configs)>([&](auto i) {   \
      constexpr tile::config c = KERNEL##_tile_configs[decltype(i)::value];    \
      f(                                                                       \
          [](auto... args) {                                                   \
            [&]<std::size_t... M>(std::index_sequence<M...>) {                 \
              constexpr auto m =                                               \
                  KERNEL##_tile_configs[decltype(i)::value].meta;              \
              tile::emulate::launch(KERNEL##_grid<m[M]...>(args...),           \
                                    KERNEL<m[M]...>, args...);                 \
            }                                                                  \
            (std::make_index_sequence<                                         \
                std::initializer_list<const char *>{__VA_ARGS__}.size()>{});   \
          },                                                                   \
          ::sample::describe(c, {__VA_ARGS__}), c);                            \
    });                                                                        \
  }

/// launch(args...) of a kernel with two meta-parameters in its first
/// configuration, in emulation.
#define SAMPLE_FIRST_CONFIG2(KERNEL)                                           \
  [](auto... args) {                                                           \
    constexpr tile::config c = KERNEL##_tile_configs[0];                       \
    tile::emulate::launch(KERNEL##_grid<c.meta[0], c.meta[1]>(args...),        \
                          KERNEL<c.meta[0], c.meta[1]>, args...);              \
  }

/// "BLOCK=1024,num_warps=4" from a configuration and the names of the
/// kernel's template parameters; ",num_stages=3" follows for pipelined ones
/// and ",min_programs_per_sm=2" for those whose registers are bounded,
/// ",warp_specialize" for those with a producer warpgroup (",pingpong"
/// when its consumers take turns), ",register_prefetch" for those whose
/// streaming loops load an iteration ahead.
inline std::string describe(const tile::config &c,
                            std::initializer_list<const char *> names) {
  std::string s;
  int i = 0;
  for (const char *name : names)
    s += std::string(name) + "=" + std::to_string(c.meta[i++]) + ",";
  s += "num_warps=" + std::to_string(c.num_warps);
  if (c.num_stages > 1)
    s += ",num_stages=" + std::to_string(c.num_stages);
  if (c.min_programs_per_sm > 1)
    s += ",min_programs_per_sm=" + std::to_string(c.min_programs_per_sm);
  if (c.warp_specialize)
    s += ",warp_specialize";
  if (c.pingpong)
    s += ",pingpong";
  if (c.register_prefetch)
    s += ",register_prefetch";
  return s;
}

/// describe() of configs[index], "default config" for index -1 (the
/// launch wrapper chooses) or "autotuned" for tile::autotuned (the wrapper
/// measures).
inline std::string describe_config(const tile::config *configs, int index,
                                   std::initializer_list<const char *> names) {
  if (index == tile::autotuned)
    return "autotuned";
  return index == -1 ? std::string("default config")
                     : describe(configs[index], names);
}

} // namespace sample

#endif // SAMPLES_COMMON_CHECK_HPP
