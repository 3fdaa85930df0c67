//===- tile/detail/shape.hpp - Compile-time tile shapes --------*- C++ -*-===//
//
// Shape arithmetic on std::array<int, Rank>, evaluated at compile time:
// numpy broadcasting, axis insertion and removal, and the tile type of a
// shape.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_SHAPE_HPP
#define TILE_DETAIL_SHAPE_HPP

#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace tile {

template <class T, int... Dims> class tensor;

namespace detail {

template <std::size_t Rank> struct shape_result {
  std::array<int, Rank> shape;
  bool ok;
};

/// Numpy broadcasting: the shorter shape is extended with ones on the left,
/// then each dimension pair must be equal or contain a 1. A scalar has rank 0.
/// On a mismatch the result still holds valid dimensions, so that callers
/// report one static_assert rather than a cascade.
template <std::size_t RA, std::size_t RB>
constexpr auto broadcast_shapes(const std::array<int, RA> &a,
                                const std::array<int, RB> &b) {
  constexpr std::size_t rank = RA > RB ? RA : RB;
  shape_result<rank> r{{}, true};
  for (std::size_t i = 0; i < rank; ++i) {
    int da = i + RA >= rank ? a[i + RA - rank] : 1;
    int db = i + RB >= rank ? b[i + RB - rank] : 1;
    if (da != db && da != 1 && db != 1)
      r.ok = false;
    r.shape[i] = da > db ? da : db;
  }
  return r;
}

template <std::size_t Rank>
constexpr shape_result<Rank> broadcast_all(const std::array<int, Rank> &s) {
  return {s, true};
}

template <std::size_t R0, std::size_t R1, std::size_t... Rs>
constexpr auto broadcast_all(const std::array<int, R0> &s0,
                             const std::array<int, R1> &s1,
                             const std::array<int, Rs> &...rest) {
  auto head = broadcast_shapes(s0, s1);
  auto r = broadcast_all(head.shape, rest...);
  r.ok = r.ok && head.ok;
  return r;
}

template <std::size_t RA, std::size_t RB>
constexpr bool same_shape(const std::array<int, RA> &a,
                          const std::array<int, RB> &b) {
  if constexpr (RA != RB)
    return false;
  else
    return a == b;
}

/// Whether FROM broadcasts to exactly TO, as for a store value or a mask
/// applied to a pointer tile.
template <std::size_t RF, std::size_t RT>
constexpr bool broadcasts_to(const std::array<int, RF> &from,
                             const std::array<int, RT> &to) {
  auto r = broadcast_shapes(from, to);
  return r.ok && same_shape(r.shape, to);
}

/// Inserts a dimension of size 1 before position Axis (0 <= Axis <= Rank).
template <std::size_t Rank>
constexpr std::array<int, Rank + 1>
insert_unit_axis(const std::array<int, Rank> &s, int axis) {
  std::array<int, Rank + 1> r{};
  for (int i = 0, j = 0; i <= static_cast<int>(Rank); ++i)
    r[i] = i == axis ? 1 : s[j++];
  return r;
}

/// The shape left when a reduction removes dimension `axis` (0 <= axis <
/// Rank), or sets it to 1 with KeepDims.
template <bool KeepDims, std::size_t Rank>
constexpr auto reduced_shape(const std::array<int, Rank> &s, int axis) {
  std::array<int, KeepDims ? Rank : Rank - 1> r{};
  for (int i = 0, j = 0; i < static_cast<int>(Rank); ++i) {
    if (i != axis)
      r[j++] = s[i];
    else if (KeepDims)
      r[j++] = 1;
  }
  return r;
}

/// Maps the flat row-major index of an element of a tile of shape TO to the
/// flat index of the element of a tile of shape FROM that broadcasts onto it.
template <std::size_t RF, std::size_t RT>
constexpr int broadcast_source_index(const std::array<int, RF> &from,
                                     const std::array<int, RT> &to, int flat) {
  int src = 0;
  int stride = 1;
  for (std::size_t d = RT; d-- > 0;) {
    int i = flat % to[d];
    flat /= to[d];
    if (d + RF >= RT) {
      int extent = from[d + RF - RT];
      if (extent != 1)
        src += i * stride;
      stride *= extent;
    }
  }
  return src;
}

/// The shape of a tile of shape `in` permuted by `dims` (result dimension i
/// is dimension dims[i]), or nothing when dims is not a permutation.
template <std::size_t R>
constexpr std::optional<std::array<int, R>>
permuted_shape(const std::array<int, R> &in, const std::array<int, R> &dims) {
  std::array<int, R> out{};
  std::array<bool, R> seen{};
  for (std::size_t i = 0; i < R; ++i) {
    if (dims[i] < 0 || std::size_t(dims[i]) >= R || seen[dims[i]])
      return std::nullopt;
    seen[dims[i]] = true;
    out[i] = in[dims[i]];
  }
  return out;
}

template <std::size_t R>
constexpr std::array<int, R - 1> drop_last_dim(const std::array<int, R> &in) {
  std::array<int, R - 1> out{};
  for (std::size_t i = 0; i + 1 < R; ++i)
    out[i] = in[i];
  return out;
}

/// The row-major flat index of the element at `flat` once `dims` is
/// reversed.
template <std::size_t R>
constexpr int flipped_index(const std::array<int, R> &shape, int dim,
                            int flat) {
  int stride = 1;
  for (std::size_t d = R; d-- > std::size_t(dim) + 1;)
    stride *= shape[d];
  const int i = flat / stride % shape[dim];
  return flat + (shape[dim] - 1 - 2 * i) * stride;
}

template <class T, auto Shape,
          class Seq = std::make_index_sequence<Shape.size()>>
struct tensor_with_shape;

template <class T, auto Shape, std::size_t... I>
struct tensor_with_shape<T, Shape, std::index_sequence<I...>> {
  using type = tensor<T, Shape[I]...>;
};

/// The tile of T with shape Shape (a std::array<int, Rank>, Rank >= 1).
template <class T, auto Shape>
using tensor_with_shape_t = typename tensor_with_shape<T, Shape>::type;

} // namespace detail
} // namespace tile

#endif // TILE_DETAIL_SHAPE_HPP
