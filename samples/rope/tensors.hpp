// rope's test inputs and comparisons, shared by its emulation, GPU and
// benchmark programs: q and k in strided layouts, poisoned between their
// elements, and cos/sin caches.
#ifndef SAMPLES_ROPE_TENSORS_HPP
#define SAMPLES_ROPE_TENSORS_HPP

#include "check.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace sample {

/// The tests' layouts of q and k: q [batch, heads, seq, head_dim] and k
/// [batch, seq, heads, head_dim] (positions outer, as some models keep it),
/// each with pad elements after every row and before every next head
/// (q) or batch (k).
struct RopeLayouts {
  reference::Layout q, k;
};
inline RopeLayouts rope_layouts(int batch, int seq, int q_heads, int k_heads,
                                int head_dim, int64_t pad) {
  const int64_t q_seq = head_dim + pad, q_head = q_seq * seq + pad;
  const int64_t k_head = head_dim + pad, k_seq = k_head * k_heads;
  return {{batch, q_heads, seq, head_dim, q_head * q_heads, q_head, q_seq},
          {batch, k_heads, seq, head_dim, k_seq * seq + pad, k_head, k_seq}};
}

/// Storage for layout l, its elements uniform in [-2, 2) and the rest
/// poisoned (all-ones bits).
template <class T>
std::vector<T> rope_tensor(const reference::Layout &l, Random &rng) {
  std::vector<T> v(l.size());
  std::memset(v.data(), 0xff, v.size() * sizeof(T));
  for (int b = 0; b < l.batch; ++b)
    for (int h = 0; h < l.heads; ++h)
      for (int s = 0; s < l.seq; ++s)
        for (int d = 0; d < l.head_dim; ++d)
          v[l.at(b, h, s, d)] = T(rng.uniform(-2, 2));
  return v;
}

/// cos and sin caches of seq rows of head_dim: a model's (each half the
/// same frequencies), or with distinct_halves every column its own, so that
/// a kernel reading the wrong half is caught.
template <class T> struct RopeCache { std::vector<T> cos, sin; };
template <class T>
RopeCache<T> rope_cache(int seq, int head_dim, bool distinct_halves) {
  RopeCache<T> c{std::vector<T>(std::size_t(seq) * head_dim),
                 std::vector<T>(std::size_t(seq) * head_dim)};
  for (int s = 0; s < seq; ++s)
    for (int d = 0; d < head_dim; ++d) {
      const double theta =
          distinct_halves
              ? s * std::pow(10000.0, -1.0 * d / head_dim) + 0.3
              : s * std::pow(10000.0, -2.0 * (d % (head_dim / 2)) / head_dim);
      c.cos[std::size_t(s) * head_dim + d] = T(float(std::cos(theta)));
      c.sin[std::size_t(s) * head_dim + d] = T(float(std::sin(theta)));
    }
  return c;
}

/// got against want where layout l has elements, and the poison kept
/// elsewhere.
template <class T>
bool compare_rope(const std::string &what, const std::vector<T> &got,
                  const std::vector<float> &want, const reference::Layout &l,
                  reference::Tolerance tol) {
  std::vector<bool> element(got.size());
  std::vector<float> g, w;
  for (int b = 0; b < l.batch; ++b)
    for (int h = 0; h < l.heads; ++h)
      for (int s = 0; s < l.seq; ++s)
        for (int d = 0; d < l.head_dim; ++d) {
          const std::size_t i = l.at(b, h, s, d);
          element[i] = true;
          g.push_back(float(got[i]));
          w.push_back(want[i]);
        }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!element[i] &&
        !guard_intact(what, &got[i], 1, sizeof(T), std::ptrdiff_t(i)))
      return false;
  return compare(what, g, w, {tol.abs, tol.rel});
}

} // namespace sample

#endif // SAMPLES_ROPE_TENSORS_HPP
