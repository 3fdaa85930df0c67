// The host side of fused_linear_cross_entropy: the chunks' launches, in
// order, through a set of kernels the caller binds (the launch wrappers on
// the GPU, tile::emulate in emulation), so both run the same sequence.
#ifndef SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_HPP
#define SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace flce {

/// The cross-entropy kernel writes grad_scale times the gradient of the
/// summed loss, and the products divide by grad_scale and the count in
/// fp32: the mean loss's gradient, 1/n of the sum's, falls into fp16's
/// subnormals at thousands of tokens. 2^14: |G| <= 2^14 stays below fp16's
/// largest value, and G's entries of a probability p are normal down to
/// p = 2^-28.
constexpr int grad_scale = 1 << 14;

/// The problem: tokens x hidden inputs, a vocab x hidden weight, the
/// tokens' targets; chunk tokens' logits at a time.
struct Shape {
  int tokens, hidden, vocab, chunk;
};

/// Whether every operand of the kernels (x, W, dx, dW and a chunk of
/// logits) has fewer than 2^31 elements, as their 32-bit offsets need, and
/// the sizes are positive.
inline bool fits(const Shape &s) {
  constexpr std::int64_t limit = std::numeric_limits<int>::max();
  return s.tokens > 0 && s.hidden > 0 && s.vocab > 0 && s.chunk > 0 &&
         std::int64_t(s.tokens) * s.hidden <= limit &&
         std::int64_t(s.vocab) * s.hidden <= limit &&
         std::int64_t(std::min(s.chunk, s.tokens)) * s.vocab <= limit;
}

/// The loss shares (loss[t], summing to the mean loss), dx and dW (fp32) of
/// the cross-entropy of softmax(x W^T) against target, with ignore_index
/// and label smoothing as the cross_entropy sample takes them. logits is
/// the workspace of one chunk (min(chunk, tokens) x vocab), count one int.
/// K provides, each returning an error E (E{} on success):
///   zero(p, bytes), count_targets(target, count, n, ignore_index),
///   logits(x, w, logits, m, n, k), cross_entropy(logits, target, loss,
///   count, rows, vocab, stride, ignore_index, smoothing) (the loss shares
///   and, in place, the scaled gradient G), grad_input(G, w, dx, count, m,
///   n, k), grad_weight(G, x, dw, count, m, n, k, accumulate) (dW added to
///   where accumulate holds, written where not), and invalid (the error
///   of a shape that does not fit).
template <class T, class K>
auto forward_backward(const K &k, const Shape &s, const T *x, const T *w,
                      const std::int64_t *target, std::int64_t ignore_index,
                      float smoothing, T *logits, int *count, float *loss,
                      T *dx, float *dw) {
  using E = decltype(k.zero(count, sizeof(int)));
  if (!fits(s))
    return k.invalid;
  E e{};
  auto step = [&](E result) {
    if (e == E{})
      e = result;
    return e == E{};
  };
  if (!step(k.zero(count, sizeof(int))) ||
      !step(k.count_targets(target, count, s.tokens, ignore_index)))
    return e;
  for (int first = 0; first < s.tokens; first += s.chunk) {
    const int rows = std::min(s.chunk, s.tokens - first);
    const T *xc = x + std::size_t(first) * s.hidden;
    if (!step(k.logits(xc, w, logits, rows, s.vocab, s.hidden)) ||
        !step(k.cross_entropy(logits, target + first, loss + first, count, rows,
                              s.vocab, std::int64_t(s.vocab), ignore_index,
                              smoothing)) ||
        !step(k.grad_input(logits, w, dx + std::size_t(first) * s.hidden, count,
                           rows, s.hidden, s.vocab)) ||
        !step(k.grad_weight(logits, xc, dw, count, s.vocab, s.hidden, rows,
                            first > 0)))
      return e;
  }
  return e;
}

} // namespace flce

#endif // SAMPLES_FUSED_LINEAR_CROSS_ENTROPY_HPP
