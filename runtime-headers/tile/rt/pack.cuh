// Several values combined as one: the elements of a tuple reduction or scan
// (tile::reduce over std::tuple{x, i}, Welford's (mean, m2, count)). Warp
// shuffles and shared memory move a pack like a scalar.
#pragma once

#include "tile/rt/layout.cuh"

#include <utility>

namespace tile::rt {

namespace detail {
template <int I, class T> struct pack_leaf {
  T value;
};
template <class Seq, class... T> struct pack_base;
template <int... I, class... T>
struct pack_base<std::integer_sequence<int, I...>, T...> : pack_leaf<I, T>... {
};
} // namespace detail

/// An aggregate of one value per type, read with rt::get<I>.
template <class... T>
struct pack
    : detail::pack_base<std::make_integer_sequence<int, sizeof...(T)>, T...> {
  static constexpr int size = sizeof...(T);
};

template <class... T> TILE_RT_HD pack<T...> make_pack(T... v) {
  return {{{v}...}};
}

template <int I, class T> TILE_RT_HD T get(const detail::pack_leaf<I, T> &p) {
  return p.value;
}

/// pack{f(get<0>(p)), f(get<1>(p)), ...}.
template <class F, class... T>
__device__ pack<T...> map(const pack<T...> &p, F f) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    return make_pack(f(get<I>(p))...);
  }(std::make_integer_sequence<int, sizeof...(T)>());
}

/// Adapts a combine that takes the accumulated values then the next ones
/// as separate arguments, f(a0, a1, ..., b0, b1, ...), and returns a pack,
/// to the (pack, pack) -> pack form rt::reduce and rt::scan call.
template <class F> struct unpacked_combine {
  F f;
  template <class... T>
  __device__ pack<T...> operator()(const pack<T...> &a,
                                   const pack<T...> &b) const {
    return [&]<int... I>(std::integer_sequence<int, I...>) {
      return f(get<I>(a)..., get<I>(b)...);
    }(std::make_integer_sequence<int, sizeof...(T)>());
  }
};
template <class F> __device__ unpacked_combine<F> unpacked(F f) { return {f}; }

} // namespace tile::rt
