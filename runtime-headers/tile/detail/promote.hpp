//===- tile/detail/promote.hpp - Triton's type promotion -------*- C++ -*-===//
//
// The one place that decides the element type of a mixed-type tile operation
// (Triton's computation_type_impl, inventory section 2.2). The translator reads
// result types from the calls Clang instantiated, so these traits are the
// single source of truth for both emulation and generated code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DETAIL_PROMOTE_HPP
#define TILE_DETAIL_PROMOTE_HPP

#include "../types.hpp"

#include <cstdint>
#include <type_traits>

namespace tile {
namespace detail {

/// Element types a tile may hold besides pointers. long double has no
/// counterpart on the GPU.
template <class T>
inline constexpr bool is_element_v = is_float16_v<T> ||
                                     (std::is_arithmetic_v<T> &&
                                      !std::is_same_v<T, long double>);

template <class T>
inline constexpr bool is_floating_v =
    is_float16_v<T> || is_float8_v<T> || std::is_floating_point_v<T>;

/// Kinds in the order that decides whether a weak scalar takes part in
/// promotion.
enum class kind { boolean, unsigned_integer, signed_integer, floating };

template <class T> constexpr kind kind_of() {
  if constexpr (std::is_same_v<T, bool>)
    return kind::boolean;
  else if constexpr (is_floating_v<T>)
    return kind::floating;
  else if constexpr (std::is_signed_v<T>)
    return kind::signed_integer;
  else
    return kind::unsigned_integer;
}

template <class A, class B> constexpr auto promote() {
  using std::is_same_v;
  using std::type_identity;
  if constexpr (is_same_v<A, B>)
    return type_identity<A>{};
  else if constexpr (is_same_v<A, double> || is_same_v<B, double>)
    return type_identity<double>{};
  else if constexpr (is_same_v<A, float> || is_same_v<B, float>)
    return type_identity<float>{};
  else if constexpr (is_same_v<A, half> || is_same_v<B, half>)
    return type_identity<half>{};
  // Two bfloat16s were handled above; bfloat16 with anything else widens.
  else if constexpr (is_same_v<A, bfloat16> || is_same_v<B, bfloat16>)
    return type_identity<float>{};
  else if constexpr (is_same_v<A, bool>)
    return type_identity<B>{};
  else if constexpr (is_same_v<B, bool>)
    return type_identity<A>{};
  // C's usual arithmetic conversions, but on the operand widths themselves:
  // unlike C++, int8 + int8 stays int8.
  else if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
    return type_identity<std::conditional_t<sizeof(A) >= sizeof(B), A, B>>{};
  else if constexpr (std::is_unsigned_v<A>)
    return type_identity<std::conditional_t<sizeof(A) >= sizeof(B), A, B>>{};
  else
    return type_identity<std::conditional_t<sizeof(B) >= sizeof(A), B, A>>{};
}

/// Whether a scalar S beside a tile of T takes part in promotion. Triton
/// leaves out a weak scalar of a kind no higher than the tile's (bool <
/// unsigned < signed < floating). A 64-bit integer is strong with an integer
/// tile: its program asked for 64 bits (an index past 2^31, say), which a
/// weak rule would narrow.
template <class T, class S> constexpr bool scalar_takes_part() {
  return (std::is_integral_v<S> && sizeof(S) == 8 && std::is_integral_v<T>) ||
         kind_of<S>() > kind_of<T>();
}

template <class T, class S> constexpr auto weak_promote() {
  if constexpr (!scalar_takes_part<T, S>())
    return std::type_identity<T>{};
  // Triton types a Python float as fp32 whatever its width; a 16-bit scalar
  // follows suit, as in the translator's table (TypeRules.cpp).
  else if constexpr (is_floating_v<S>)
    return std::type_identity<float>{};
  else
    return promote<T, S>();
}

/// Whether A and B (element types, each beside the other in promotion) are
/// integers of different signedness. Triton refuses to divide them: C's
/// conversion to unsigned is unlikely to give a useful quotient.
template <class A, class B> constexpr bool mixed_signedness() {
  if constexpr (std::is_same_v<A, bool> || std::is_same_v<B, bool> ||
                !std::is_integral_v<A> || !std::is_integral_v<B>)
    return false;
  else
    return std::is_signed_v<A> != std::is_signed_v<B>;
}

/// Triton divides integers in fp32 and 16-bit floats in fp32.
template <class T> constexpr auto true_div_type() {
  if constexpr (std::is_integral_v<T> || is_float16_v<T>)
    return std::type_identity<float>{};
  else
    return std::type_identity<T>{};
}

/// Triton takes the remainder of 16-bit floats in fp32.
template <class T> constexpr auto remainder_type() {
  if constexpr (is_float16_v<T>)
    return std::type_identity<float>{};
  else
    return std::type_identity<T>{};
}

template <class T>
using true_div_t = typename decltype(true_div_type<T>())::type;

template <class T>
using remainder_t = typename decltype(remainder_type<T>())::type;

} // namespace detail

/// The reductions and scans whose element type follows a fixed rule.
enum class reduce_op {
  sum,
  max,
  min,
  xor_sum,
  argmax,
  argmin,
  cumsum,
  cumprod
};

namespace detail {

/// Narrow inputs widen before they are reduced or scanned (inventory section
/// 2.4; docs/decisions.md says where this departs from Triton): 16-bit floats
/// to fp32, integers and bool narrower than 32 bits to 32 bits of their
/// signedness (bool counts as signed, as Triton's int1). Arg reductions give
/// int32 indices; xor_sum keeps its type.
template <reduce_op Op, class T> constexpr auto reduce_result() {
  if constexpr (Op == reduce_op::argmax || Op == reduce_op::argmin)
    return std::type_identity<std::int32_t>{};
  else if constexpr (Op == reduce_op::xor_sum)
    return std::type_identity<T>{};
  else if constexpr (is_float16_v<T>)
    return std::type_identity<float>{};
  else if constexpr (std::is_integral_v<T> && sizeof(T) < 4)
    return std::type_identity<
        std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                           std::uint32_t, std::int32_t>>{};
  else
    return std::type_identity<T>{};
}

} // namespace detail

/// The element type of a binary operation between two tiles (or two scalars)
/// with element types A and B.
template <class A, class B>
requires detail::is_element_v<A> && detail::is_element_v<B>
using promote_t = typename decltype(detail::promote<A, B>())::type;

/// The element type of a binary operation between a tile of T and a C++ scalar
/// of type S. The scalar is weak: it only widens the result if its kind is
/// above the tile's, or if it is a 64-bit integer and the tile's elements
/// are integers (docs/decisions.md).
template <class T, class S>
requires detail::is_element_v<T> && detail::is_element_v<S>
using weak_promote_t = typename decltype(detail::weak_promote<T, S>())::type;

/// The element type of `/` between element types A and B.
template <class A, class B>
requires detail::is_element_v<A> && detail::is_element_v<B>
using div_result_t = detail::true_div_t<promote_t<A, B>>;

/// The element type of `%` between element types A and B.
template <class A, class B>
requires detail::is_element_v<A> && detail::is_element_v<B>
using rem_result_t = detail::remainder_t<promote_t<A, B>>;

/// The element type of reduction or scan Op over a tile of T; the emulation
/// also accumulates in it.
template <reduce_op Op, class T>
requires detail::is_element_v<T>
using reduce_result_t = typename decltype(detail::reduce_result<Op, T>())::type;

} // namespace tile

#endif // TILE_DETAIL_PROMOTE_HPP
