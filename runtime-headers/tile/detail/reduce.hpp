//===- tile/detail/reduce.hpp - Folds and scans along an axis --*- C++ -*-===//
//
// The one implementation behind every reduction and scan in tile.hpp. Values
// travel as a std::tuple with one element per operand, so argmax's (value,
// index) pairs and the tuple forms of tile::reduce take the same path as sum.
// Lines are combined sequentially in index order: the GPU combines in a tree,
// which gives the same result only for associative combines (float sums
// differ in rounding).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_REDUCE_HPP
#define TILE_DETAIL_REDUCE_HPP

#include "convert.hpp"
#include "promote.hpp"
#include "shape.hpp"

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tile {
namespace detail {

/// Axis counted from the front; a negative Axis counts from the end. Out of
/// range it gives 0, so that only the caller's static_assert reports it.
constexpr int normalize_axis(int axis, int rank) {
  if (axis < -rank || axis >= rank)
    return 0;
  return axis < 0 ? axis + rank : axis;
}

/// Calls line(first, stride, index) for each line of elements along Axis of a
/// tile of shape Shape: `first` is the flat index of the line's element 0,
/// `stride` the flat distance between its neighbours and `index` the line's
/// flat index in the tile with Axis removed.
template <auto Shape, int Axis, class F> void for_each_line(F line) {
  int inner = 1;
  for (int d = Axis + 1; d < static_cast<int>(Shape.size()); ++d)
    inner *= Shape[d];
  int outer = 1;
  for (int d = 0; d < Axis; ++d)
    outer *= Shape[d];
  for (int o = 0; o < outer; ++o)
    for (int j = 0; j < inner; ++j)
      line(o * Shape[Axis] * inner + j, inner, o * inner + j);
}

/// The tiles of shape Shape for an accumulator std::tuple<R...>.
template <class Acc, auto Shape> struct tiles_of;

template <class... R, auto Shape> struct tiles_of<std::tuple<R...>, Shape> {
  using type = std::tuple<tensor_with_shape_t<R, Shape>...>;
};

template <class Tiles, class Acc>
void store_at(Tiles &tiles, int k, const Acc &acc) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((std::get<I>(tiles).data()[k] = std::get<I>(acc)), ...);
  }(std::make_index_sequence<std::tuple_size_v<Acc>>{});
}

/// Reduces every line along Axis of a tile of shape Shape with
/// acc = combine(acc, load(k, i)), starting from element 0, where load gives
/// the value tuple of flat index k at position i along the axis. The result is
/// a tuple of tiles of the reduced shape, or of values when no dimension is
/// left.
template <int Axis, bool KeepDims, auto Shape, class Load, class Combine>
auto fold_axis(Load load, Combine combine) {
  constexpr int rank = static_cast<int>(Shape.size());
  static_assert(Axis >= -rank && Axis < rank, "reduction axis out of range");
  constexpr int axis = normalize_axis(Axis, rank);
  constexpr auto out_shape = reduced_shape<KeepDims>(Shape, axis);
  using Acc = decltype(load(0, 0));
  auto fold_line = [&](int first, int stride) {
    Acc acc = load(first, 0);
    for (int i = 1; i < Shape[axis]; ++i)
      acc = combine(acc, load(first + i * stride, i));
    return acc;
  };
  if constexpr (out_shape.size() == 0) {
    return fold_line(0, 1);
  } else {
    typename tiles_of<Acc, out_shape>::type out;
    for_each_line<Shape, axis>([&](int first, int stride, int index) {
      store_at(out, index, fold_line(first, stride));
    });
    return out;
  }
}

/// Inclusive scan of every line along Axis: element i gets
/// combine(result at i - 1, value at i), in reverse index order with Reverse
/// (what Triton computes by flipping, scanning and flipping back).
template <int Axis, bool Reverse, auto Shape, class Load, class Combine>
auto scan_axis(Load load, Combine combine) {
  constexpr int rank = static_cast<int>(Shape.size());
  static_assert(Axis >= -rank && Axis < rank, "scan axis out of range");
  constexpr int axis = normalize_axis(Axis, rank);
  constexpr int length = Shape[axis];
  using Acc = decltype(load(0, 0));
  typename tiles_of<Acc, Shape>::type out;
  for_each_line<Shape, axis>([&](int first, int stride, int) {
    int i = Reverse ? length - 1 : 0;
    Acc acc = load(first + i * stride, i);
    store_at(out, first + i * stride, acc);
    for (int step = 1; step < length; ++step) {
      i = Reverse ? length - 1 - step : step;
      acc = combine(acc, load(first + i * stride, i));
      store_at(out, first + i * stride, acc);
    }
  });
  return out;
}

/// The load of fold_axis and scan_axis that reads tiles of equal shape and
/// converts their elements to R....
template <class... R, class... X> auto tile_loader(const X &...xs) {
  static_assert(sizeof...(R) == sizeof...(X));
  return [&xs...](int k, int) {
    return std::tuple<R...>(convert<R>(xs.data()[k])...);
  };
}

template <class X>
concept element_value = is_element_v<std::remove_cvref_t<X>>;

template <class U, std::size_t N>
concept tuple_of_size = requires {
  std::tuple_size<std::remove_cvref_t<U>>::value;
} && std::tuple_size<std::remove_cvref_t<U>>::value == N;

/// combine(a, b) on two values of T gives one value.
template <class C, class T>
concept scalar_combine = requires(const C &c, T v) {
  { c(v, v) } -> element_value;
};

/// combine(a0, b0, ..., a1, b1, ...) gives a tuple of one value per operand.
template <class C, class... R>
concept tuple_combine = requires(const C &c) {
  {
    c(std::declval<R>()..., std::declval<R>()...)
  } -> tuple_of_size<sizeof...(R)>;
};

/// A scalar combine as fold_axis and scan_axis take it. Its result converts
/// to R like a C++ return would: int8_t + int8_t is an int in C++.
template <class R, class Combine> auto on_tuples(Combine combine) {
  return [combine](const std::tuple<R> &a, const std::tuple<R> &b) {
    return std::tuple<R>(convert<R>(combine(std::get<0>(a), std::get<0>(b))));
  };
}

/// A combine over flattened operand lists as fold_axis and scan_axis take it.
template <class... R, class Combine> auto on_flat_tuples(Combine combine) {
  return [combine](const std::tuple<R...> &a, const std::tuple<R...> &b) {
    auto r = std::apply(combine, std::tuple_cat(a, b));
    return std::apply(
        [](const auto &...v) { return std::tuple<R...>(convert<R>(v)...); }, r);
  };
}

/// Reduces tile x, seen with shape Shape, along Axis in type R.
template <int Axis, bool KeepDims, auto Shape, class R, class X, class Combine>
auto reduce_values(const X &x, Combine combine) {
  return std::get<0>(fold_axis<Axis, KeepDims, Shape>(tile_loader<R>(x),
                                                      on_tuples<R>(combine)));
}

template <int Axis, bool Reverse, class R, class X, class Combine>
auto scan_values(const X &x, Combine combine) {
  return std::get<0>(scan_axis<Axis, Reverse, X::shape>(tile_loader<R>(x),
                                                        on_tuples<R>(combine)));
}

template <class First, class...>
inline constexpr auto first_shape = std::remove_cvref_t<First>::shape;

template <class First, class... Rest> constexpr bool same_shapes() {
  return (same_shape(First::shape, Rest::shape) && ...);
}

/// The operand tiles of a tuple form (reduce or associative_scan) and their
/// combine, checked; run(loader, combine) does the work.
template <class... X, class Combine, class Run>
auto tuple_operation(const std::tuple<X...> &xs, Combine combine, Run run) {
  static_assert(same_shapes<std::remove_cvref_t<X>...>(),
                "the tuple's tiles must have one shape");
  constexpr bool combines =
      tuple_combine<Combine, typename std::remove_cvref_t<X>::element_type...>;
  static_assert(combines,
                "combine must take the values of two elements, (a0, b0, ..., "
                "a1, b1, ...), and return a std::tuple of one value per tile");
  if constexpr (combines) {
    return std::apply(
        [&](const auto &...x) {
          return run(
              tile_loader<typename std::remove_cvref_t<X>::element_type...>(
                  x...),
              on_flat_tuples<typename std::remove_cvref_t<X>::element_type...>(
                  combine));
        },
        xs);
  }
}

} // namespace detail
} // namespace tile

#endif // TILE_DETAIL_REDUCE_HPP
