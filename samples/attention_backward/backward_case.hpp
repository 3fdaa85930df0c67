// One test case of the backward kernels: random Q, K, V and dO in T, the
// forward pass's O (rounded to T) and lse, and what the reference makes of
// them: delta and every row of dQ, dK and dV. The emulation and GPU tests
// share it.
#ifndef SAMPLES_ATTENTION_BACKWARD_BACKWARD_CASE_HPP
#define SAMPLES_ATTENTION_BACKWARD_BACKWARD_CASE_HPP

#include "backward_reference.hpp"
#include "check.hpp"

#include <cmath>

namespace reference {

template <class T> struct BackwardCase {
  int heads, seq, d;
  bool causal;
  float scale;
  std::vector<T> q, k, v, d_o, o;
  std::vector<float> lse, delta;
  Gradients want;

  std::size_t elements() const { return std::size_t(heads) * seq * d; }
  std::size_t rows() const { return std::size_t(heads) * seq; }
};

template <class T>
BackwardCase<T> backward_case(int heads, int seq, int d, bool causal,
                              sample::Random &rng) {
  BackwardCase<T> c{heads, seq, d,  causal, 1.0f / std::sqrt(float(d)),
                    {},    {},  {}, {},     {},
                    {},    {},  {}};
  auto random = [&] {
    return sample::convert_all<T>(
        sample::random_vector(c.elements(), rng, -1, 1));
  };
  c.q = random(), c.k = random(), c.v = random(), c.d_o = random();
  auto qf = sample::convert_all<float>(c.q),
       kf = sample::convert_all<float>(c.k),
       vf = sample::convert_all<float>(c.v),
       d_of = sample::convert_all<float>(c.d_o);
  auto fwd = attention(qf, kf, vf, heads, seq, d, c.scale, causal);
  c.o = sample::convert_all<T>(fwd.out);
  c.lse = std::move(fwd.lse);
  c.delta = row_deltas(sample::convert_all<float>(c.o), d_of, c.rows(), d);
  c.want = attention_backward(
      {qf, kf, vf, d_of, c.lse, c.delta, seq, d, c.scale, causal}, heads);
  return c;
}

} // namespace reference

#endif
