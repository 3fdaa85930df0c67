//===- tile/tile.hpp - The tile kernel language -----------------*- C++ -*-===//
//
// The user API of tilecc kernels and its CPU emulation. tilecc maps each call
// to a TileIR op through the TILE_OP annotation on the declaration and never
// reads the bodies; the bodies define the semantics that emulation runs and
// that the generated code must reproduce.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TILE_HPP
#define TILE_TILE_HPP

#include "detail/convert.hpp"
#include "detail/exp2_cubic.hpp"
#include "detail/philox.hpp"
#include "detail/promote.hpp"
#include "detail/reduce.hpp"
#include "detail/shape.hpp"
#include "types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__clang__)
#define TILE_OP(name) [[clang::annotate("tile.op", name)]]
#define TILE_KERNEL [[clang::annotate("tile.kernel")]]
#define TILE_GRID(kernel) [[clang::annotate("tile.grid", #kernel)]]
#define TILE_SELECT(kernel) [[clang::annotate("tile.select", #kernel)]]
#define TILE_CONFIGS_ATTR(kernel) [[clang::annotate("tile.configs", #kernel)]]
#define TILE_TUNE(kernel) [[clang::annotate("tile.tune", #kernel)]]
#else
#define TILE_OP(name)
#define TILE_KERNEL
#define TILE_GRID(kernel)
#define TILE_SELECT(kernel)
#define TILE_CONFIGS_ATTR(kernel)
#define TILE_TUNE(kernel)
#endif

#define TILE_CONFIGS(kernel, ...)                                              \
  TILE_CONFIGS_ATTR(kernel)                                                    \
  inline constexpr ::tile::config kernel##_tile_configs[] = {__VA_ARGS__}

namespace tile {

/// Launch grid in programs; an aggregate so grid rules can `return {x, y};`.
struct grid {
  int x = 1, y = 1, z = 1;
};

/// One launch configuration: the kernel's template arguments in order, then
/// the launch resources.
/// What every launch of a configuration passes, so that fewer variants of
/// it are built (tilecc --assume sets the same for all configurations):
///   none         nothing: a variant for any arguments is built too;
///   aligned16    pointers 16-byte aligned and integers divisible by 16;
///   unit_stride  that, and inner strides (integers multiplying an index
///                along a tile's last dimension) equal to 1.
/// The variants built ask each integer only for the divisibility its
/// accesses need (4 for a row of floats); a launch whose arguments they
/// cannot take (an unaligned pointer, such an integer not divisible)
/// returns cudaErrorInvalidValue (hipErrorInvalidValue) and runs nothing.
enum class assumption { none, aligned16, unit_stride };

struct config {
  long long meta[8] = {};
  int num_warps = 4;
  int num_stages = 1;
  /// Programs an SM must be able to hold at once: bounds each thread's
  /// registers (CUDA's __launch_bounds__ minimum blocks per multiprocessor).
  int min_programs_per_sm = 1;
  /// On sm_90a, a warpgroup more than num_warps issues the TMA copies of a
  /// pipelined loop (a producer) while the num_warps warps compute.
  bool warp_specialize = false;
  /// With warp_specialize and two or more consumer warpgroups (num_warps
  /// 8 or more): they take turns issuing the tensor-core products of the
  /// pipelined loops, so that one's softmax runs while another's products
  /// do (FlashAttention-3's ping-pong schedule).
  bool pingpong = false;
  /// On sm_90a, a programmatic dependent launch: the program may start
  /// while the kernel before it in the stream finishes (Triton's
  /// launch_pdl). It waits for that kernel's results at tile::gdc_wait(),
  /// or at its entry where it calls none.
  bool launch_pdl = false;
  /// What its launches' arguments satisfy (see assumption above).
  assumption assume = assumption::none;
  /// Whether the autotuner may choose it: false for a configuration that
  /// computes something else than the others (a fused activation asked for
  /// by index) or is there only to be compared.
  bool autotune = true;
  /// Loops that only stream memory (no dot, atomic, barrier or volatile
  /// access, no tile::range stages of their own) load the next iteration's
  /// tiles at the top of each iteration, into registers (up to 16 a thread
  /// per loop): the next chunk's loads overlap this one's arithmetic.
  bool register_prefetch = false;
};

/// What the autotuner keys its choice on, and the device buffers it must
/// protect while it tries configurations (Triton's autotune key=,
/// reset_to_zero= and restore_value=): returned by a kernel's TILE_TUNE
/// rule, which takes the kernel's arguments. Without a rule the key is the
/// kernel's integer arguments and nothing is protected.
struct tuning {
  static constexpr int capacity = 16;
  /// Up to capacity values; a rule that lists more makes the launch
  /// wrapper return its invalid-value error. Only the first size items are
  /// ever read: the rest are left unset, as zeroing them would be most of
  /// what a tuned launch costs on the host.
  template <class T> struct list {
    T items[capacity];
    int size = 0;
    // User-provided, so that value-initialization (`= {}`, a member a
    // designated initializer leaves out) does not zero the items first.
    constexpr list() {}
    constexpr list(std::initializer_list<T> values)
        : size(static_cast<int>(values.size())) {
      int i = 0;
      for (const T &v : values)
        if (i < capacity)
          items[i++] = v;
    }
  };
  /// The first bytes of a device buffer.
  struct buffer {
    void *data;
    std::size_t bytes;
  };
  /// How a key's values are compared: rounded up to a power of two (a
  /// choice measured for 3000 columns serves 2049 to 4096), or as they are.
  enum class rounding { next_power_of_2, exact };

  list<long long> key = {};
  rounding key_rounding = rounding::next_power_of_2;
  /// Measures only the first max_trials configurations that apply, in
  /// TILE_CONFIGS order (Triton's prune_configs_by top_k, with the
  /// declaration order as the performance model); 0 measures them all.
  int max_trials = 0;
  /// Zeroed before every trial and before the launch that follows the
  /// tuning: what the kernel expects zero (locks, arrival counters).
  list<buffer> reset_to_zero = {};
  /// Copied before the tuning and put back before every trial and before
  /// the launch that follows: what the kernel reads and updates (an output
  /// it accumulates into).
  list<buffer> restore_value = {};
};

/// count elements of type T at data, for tuning::reset_to_zero and
/// tuning::restore_value.
template <class T>
requires(!std::is_const_v<T>) tuning::buffer
    elements(T *data, long long count) {
  return {static_cast<void *>(data),
          count > 0 ? static_cast<std::size_t>(count) * sizeof(T) : 0};
}

template <class A, class B>
requires std::is_integral_v<A> && std::is_integral_v<B> TILE_OP("cdiv")
constexpr std::common_type_t<A, B> cdiv(A a, B b) { return (a + b - 1) / b; }

namespace detail {
/// How num_sms() asks the device, set where a file that includes the CUDA or
/// HIP runtime first (every launch wrapper's) is part of the program, so
/// that num_sms() is one function whatever a file included before tile.hpp.
inline int (*num_sms_query)() = nullptr;
#if defined(CUDART_VERSION)
inline int device_sms() {
  int device = 0, count = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) !=
          cudaSuccess)
    return 1;
  return count;
}
inline const bool device_sms_known = (num_sms_query = device_sms, true);
#elif defined(__HIP_PLATFORM_AMD__) && defined(HIP_VERSION)
inline int device_sms() {
  int device = 0, count = 0;
  if (hipGetDevice(&device) != hipSuccess ||
      hipDeviceGetAttribute(&count, hipDeviceAttributeMultiprocessorCount,
                            device) != hipSuccess)
    return 1;
  return count;
}
inline const bool device_sms_known = (num_sms_query = device_sms, true);
#endif
} // namespace detail

/// Streaming multiprocessors (compute units) of the current device, for the
/// grid rules of persistent kernels and the buffers they size. The launch
/// wrappers ask the CUDA or HIP runtime; in emulation (no wrapper in the
/// program) it is 1, as programs run one after another anyway. Not before
/// main: the wrappers' files set the query as the program starts.
inline int num_sms() {
  const int n = detail::num_sms_query ? detail::num_sms_query() : 1;
  return n > 0 ? n : 1;
}

namespace detail {
/// Set by a launch wrapper while it evaluates a grid rule: how many programs
/// of the configuration being launched one SM holds at once.
inline thread_local int (*programs_per_sm_query)() = nullptr;

/// Makes programs_per_sm() answer for one configuration in a scope.
class programs_per_sm_scope {
public:
  explicit programs_per_sm_scope(int (*query)()) {
    programs_per_sm_query = query;
  }
  ~programs_per_sm_scope() { programs_per_sm_query = nullptr; }
  programs_per_sm_scope(const programs_per_sm_scope &) = delete;
  programs_per_sm_scope &operator=(const programs_per_sm_scope &) = delete;
};
} // namespace detail

/// How many programs of the configuration being launched one SM (compute
/// unit) runs at once, given the kernel's registers, shared memory and
/// threads (the CUDA/HIP occupancy calculator), for the grid rules of
/// persistent kernels: num_sms() * programs_per_sm() programs all run at
/// once. 1 in emulation.
inline int programs_per_sm() {
  int n = detail::programs_per_sm_query ? detail::programs_per_sm_query() : 1;
  return n > 0 ? n : 1;
}

/// A tile: a power-of-two shaped block of values held by one program.
/// Elements are numbers, tile::half/bfloat16 or pointers.
template <class T, int... Dims> class tensor {
  static constexpr bool valid_shape =
      sizeof...(Dims) >= 1 && ((Dims > 0 && (Dims & (Dims - 1)) == 0) && ...);
  static_assert(sizeof...(Dims) >= 1, "tiles need at least one dimension");
  static_assert(valid_shape, "tile shape dimensions must be powers of two");

public:
  using element_type = T;
  static constexpr int rank = sizeof...(Dims);
  static constexpr std::array<int, rank> shape = {Dims...};
  static constexpr int numel = valid_shape ? (Dims * ... * 1) : 1;
  static_assert(numel <= (1 << 20),
                "tiles hold at most 1048576 elements (Triton's limit)");

  template <class... I>
  requires(sizeof...(I) == rank && (std::is_integral_v<I> && ...)) T &
  operator()(I... index) {
    return values[flat_index(index...)];
  }
  template <class... I>
  requires(sizeof...(I) == rank && (std::is_integral_v<I> && ...)) const T &
  operator()(I... index) const {
    return values[flat_index(index...)];
  }

  T *data() { return values.data(); }
  const T *data() const { return values.data(); }

  // Compound assignment is the binary operator followed by assignment, so the
  // result must keep this tile's type and shape.
  template <class R>
  requires(!std::is_pointer_v<T>) TILE_OP("add")
  tensor &operator+=(const R &rhs) { return assign(*this + rhs); }
  template <class R>
  requires std::is_pointer_v<T> TILE_OP("addptr")
  tensor &operator+=(const R &offsets) { return assign(*this + offsets); }
  template <class R>
  requires(!std::is_pointer_v<T>) TILE_OP("sub")
  tensor &operator-=(const R &rhs) { return assign(*this - rhs); }
  template <class R>
  requires std::is_pointer_v<T> TILE_OP("subptr")
  tensor &operator-=(const R &offsets) { return assign(*this - offsets); }
  template <class R> TILE_OP("mul") tensor &operator*=(const R &rhs) {
    return assign(*this * rhs);
  }
  template <class R> TILE_OP("div") tensor &operator/=(const R &rhs) {
    return assign(*this / rhs);
  }
  template <class R> TILE_OP("rem") tensor &operator%=(const R &rhs) {
    return assign(*this % rhs);
  }
  template <class R> TILE_OP("and") tensor &operator&=(const R &rhs) {
    return assign(*this & rhs);
  }
  template <class R> TILE_OP("or") tensor &operator|=(const R &rhs) {
    return assign(*this | rhs);
  }
  template <class R> TILE_OP("xor") tensor &operator^=(const R &rhs) {
    return assign(*this ^ rhs);
  }
  template <class R> TILE_OP("shl") tensor &operator<<=(const R &rhs) {
    return assign(*this << rhs);
  }
  template <class R> TILE_OP("shr") tensor &operator>>=(const R &rhs) {
    return assign(*this >> rhs);
  }

private:
  template <class... I> static int flat_index(I... index) {
    int flat = 0;
    int d = 0;
    ((flat = flat * shape[d++] + static_cast<int>(index)), ...);
    return flat;
  }

  template <class R> tensor &assign(const R &result) {
    static_assert(std::is_same_v<R, tensor>,
                  "compound assignment must keep the tile's element type and "
                  "shape; use tile::cast or a new variable");
    if constexpr (std::is_same_v<R, tensor>)
      *this = result;
    return *this;
  }

  std::array<T, numel> values{};
};

namespace detail {

template <class X> struct operand_traits {
  using element = X;
  static constexpr bool is_tensor = false;
  static constexpr std::array<int, 0> shape{};
};

template <class T, int... D> struct operand_traits<tensor<T, D...>> {
  using element = T;
  static constexpr bool is_tensor = true;
  static constexpr std::array<int, sizeof...(D)> shape{D...};
};

/// The element type of a tile, or a scalar's own type.
template <class X>
using element_t = typename operand_traits<std::remove_cvref_t<X>>::element;

template <class X>
inline constexpr bool is_tensor_v =
    operand_traits<std::remove_cvref_t<X>>::is_tensor;

/// The elements of a tile, or 1 for a scalar.
template <class X> constexpr int numel_of() {
  if constexpr (is_tensor_v<X>)
    return std::remove_cvref_t<X>::numel;
  else
    return 1;
}

template <class X>
concept numeric_operand = is_element_v<element_t<X>>;

/// Operands of an overloaded operator: at least one tile, all numeric.
template <class A, class B>
concept numeric_operands =
    (is_tensor_v<A> || is_tensor_v<B>)&&numeric_operand<A> &&numeric_operand<B>;

/// An operand that may offset a pointer tile. Floating offsets are accepted
/// here so that the operator can reject them with a clear message.
template <class X>
concept offset_operand = numeric_operand<X>;

template <class... X>
inline constexpr auto broadcast_of =
    broadcast_all(operand_traits<std::remove_cvref_t<X>>::shape...);

/// The tile of R whose shape is the broadcast of all tile operands' shapes.
template <class R, class... X>
using broadcast_tensor_t = tensor_with_shape_t<R, broadcast_of<X...>.shape>;

/// The value of operand X at flat index K of the result tile Out.
template <class Out, class X> auto operand_at(const X &x, int k) {
  if constexpr (is_tensor_v<X>) {
    if constexpr (same_shape(X::shape, Out::shape))
      return x.data()[k];
    else
      return x.data()[broadcast_source_index(X::shape, Out::shape, k)];
  } else {
    return x;
  }
}

/// Applies F elementwise over the broadcast of the operands; scalars are
/// splatted. With no tile among the operands, F is applied once to scalars.
template <class R, class F, class... X> auto elementwise(F f, const X &...xs) {
  if constexpr ((is_tensor_v<X> || ...)) {
    static_assert(broadcast_of<X...>.ok, "cannot broadcast tile shapes");
    using Out = broadcast_tensor_t<R, X...>;
    Out out;
    for (int k = 0; k < Out::numel; ++k)
      out.data()[k] = f(operand_at<Out>(xs, k)...);
    return out;
  } else {
    return static_cast<R>(f(xs...));
  }
}

/// Element type of two operands combined: tile with tile (or scalar with
/// scalar) promotes; a scalar with a tile is weak. Equal types, pointers
/// included, stay as they are.
template <class A, class B> constexpr auto common_element() {
  using EA = element_t<A>;
  using EB = element_t<B>;
  if constexpr (std::is_same_v<EA, EB>)
    return std::type_identity<EA>{};
  else if constexpr (is_tensor_v<A> == is_tensor_v<B>)
    return std::type_identity<promote_t<EA, EB>>{};
  else if constexpr (is_tensor_v<A>)
    return std::type_identity<weak_promote_t<EA, EB>>{};
  else
    return std::type_identity<weak_promote_t<EB, EA>>{};
}

template <class A, class B>
using common_element_t = typename decltype(common_element<A, B>())::type;

/// Whether A and B are integers of different signedness that both take part
/// in promotion (a weak scalar may not).
template <class A, class B> constexpr bool mixes_signedness() {
  using EA = element_t<A>;
  using EB = element_t<B>;
  if constexpr (is_tensor_v<A> == is_tensor_v<B>)
    return mixed_signedness<EA, EB>();
  else if constexpr (is_tensor_v<A>)
    return scalar_takes_part<EA, EB>() && mixed_signedness<EA, EB>();
  else
    return scalar_takes_part<EB, EA>() && mixed_signedness<EA, EB>();
}

/// Stands for the combination of A and B when folding over more operands:
/// still a tile if either was one.
template <class A, class B>
using combined_operand_t = std::conditional_t<is_tensor_v<A> || is_tensor_v<B>,
                                              tensor<common_element_t<A, B>, 1>,
                                              common_element_t<A, B>>;

template <class A, class B, class C>
using common_element3_t = common_element_t<combined_operand_t<A, B>, C>;

/// An unsigned type at least as wide as unsigned int, in which the integer
/// operations of T wrap instead of overflowing.
template <class T>
using wrap_t = typename std::conditional_t<(sizeof(T) < sizeof(unsigned)),
                                           std::type_identity<unsigned>,
                                           std::make_unsigned<T>>::type;

/// Narrows a wrapped result back to T; int1 arithmetic is modulo 2.
template <class T, class U> T unwrap(U v) {
  if constexpr (std::is_same_v<T, bool>)
    return (v & 1) != 0;
  else
    return static_cast<T>(v);
}

template <class T> constexpr int bit_width_of() {
  return std::is_same_v<T, bool> ? 1 : static_cast<int>(sizeof(T) * 8);
}

enum class binop {
  add,
  sub,
  mul,
  div,
  rem,
  floordiv,
  bit_and,
  bit_or,
  bit_xor,
  shl,
  shr,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  logical_and,
  logical_or
};

constexpr bool is_bitwise(binop op) {
  return op == binop::bit_and || op == binop::bit_or || op == binop::bit_xor ||
         op == binop::shl || op == binop::shr;
}

constexpr bool is_comparison(binop op) {
  return op >= binop::eq && op <= binop::ge;
}

constexpr bool is_logical(binop op) {
  return op == binop::logical_and || op == binop::logical_or;
}

/// Applies Op to two values already converted to their computation type R.
template <binop Op, class R> auto apply(R x, R y) {
  using C = compute_t<R>;
  if constexpr (Op == binop::add || Op == binop::sub || Op == binop::mul) {
    if constexpr (std::is_integral_v<R>) {
      using U = wrap_t<R>;
      U a = static_cast<U>(x), b = static_cast<U>(y);
      return unwrap<R>(Op == binop::add   ? U(a + b)
                       : Op == binop::sub ? U(a - b)
                                          : U(a * b));
    } else {
      C a = static_cast<C>(x), b = static_cast<C>(y);
      return convert<R>(Op == binop::add   ? a + b
                        : Op == binop::sub ? a - b
                                           : a * b);
    }
  } else if constexpr (Op == binop::div) {
    return x / y;
  } else if constexpr (Op == binop::rem) {
    if constexpr (std::is_floating_point_v<R>)
      return std::fmod(x, y);
    else if constexpr (std::is_signed_v<R>)
      // INT_MIN % -1 would trap; its value is 0.
      return y == -1 ? R(0) : static_cast<R>(x % y);
    else
      return static_cast<R>(x % y);
  } else if constexpr (Op == binop::floordiv) {
    if constexpr (std::is_signed_v<R>)
      // INT_MIN / -1 would trap; it wraps to INT_MIN.
      return y == -1 ? unwrap<R>(wrap_t<R>(0) - static_cast<wrap_t<R>>(x))
                     : static_cast<R>(x / y);
    else
      return static_cast<R>(x / y);
  } else if constexpr (Op == binop::bit_and || Op == binop::bit_or ||
                       Op == binop::bit_xor) {
    using U = wrap_t<R>;
    U a = static_cast<U>(x), b = static_cast<U>(y);
    return unwrap<R>(Op == binop::bit_and  ? U(a & b)
                     : Op == binop::bit_or ? U(a | b)
                                           : U(a ^ b));
  } else if constexpr (Op == binop::shl || Op == binop::shr) {
    // Shifting by the bit width or more, or by a negative amount, is
    // undefined in Triton; give what PTX's clamped shifts give.
    constexpr int width = bit_width_of<R>();
    bool in_range = y < R(width);
    if constexpr (std::is_signed_v<R>)
      in_range = in_range && y >= 0;
    if constexpr (Op == binop::shl) {
      using U = wrap_t<R>;
      return in_range ? unwrap<R>(U(static_cast<U>(x) << y)) : R(0);
    } else if constexpr (std::is_signed_v<R>) {
      // C++20 defines >> on negative values as arithmetic.
      return in_range ? static_cast<R>(x >> y) : R(x < 0 ? -1 : 0);
    } else {
      return in_range ? static_cast<R>(x >> y) : R(0);
    }
  } else if constexpr (Op == binop::eq) {
    return static_cast<C>(x) == static_cast<C>(y);
  } else if constexpr (Op == binop::ne) {
    return static_cast<C>(x) != static_cast<C>(y);
  } else if constexpr (Op == binop::lt) {
    return static_cast<C>(x) < static_cast<C>(y);
  } else if constexpr (Op == binop::le) {
    return static_cast<C>(x) <= static_cast<C>(y);
  } else if constexpr (Op == binop::gt) {
    return static_cast<C>(x) > static_cast<C>(y);
  } else if constexpr (Op == binop::ge) {
    return static_cast<C>(x) >= static_cast<C>(y);
  } else if constexpr (Op == binop::logical_and) {
    return x && y;
  } else {
    return x || y;
  }
}

/// The type operands of Op are converted to before it applies.
template <binop Op, class Common> constexpr auto operation_type() {
  if constexpr (Op == binop::div)
    return std::type_identity<true_div_t<Common>>{};
  else if constexpr (Op == binop::rem)
    return std::type_identity<remainder_t<Common>>{};
  else
    return std::type_identity<Common>{};
}

template <binop Op, class A, class B> auto binary(const A &a, const B &b) {
  using EA = element_t<A>;
  using EB = element_t<B>;
  constexpr bool integers = std::is_integral_v<EA> && std::is_integral_v<EB>;
  constexpr bool bools = std::is_same_v<EA, bool> && std::is_same_v<EB, bool>;
  static_assert(!is_bitwise(Op) || integers,
                "bitwise operators need integer tiles");
  static_assert(!is_logical(Op) || bools, "logical operators need bool tiles");
  static_assert(Op != binop::floordiv || integers,
                "floordiv needs integer operands");
  constexpr bool divides =
      Op == binop::div || Op == binop::floordiv || Op == binop::rem;
  static_assert(!divides || !mixes_signedness<A, B>(),
                "cannot divide integers of different signedness (/, floordiv "
                "and %), as in Triton: cast one to the other's signedness");
  if constexpr ((!is_bitwise(Op) || integers) && (!is_logical(Op) || bools) &&
                (Op != binop::floordiv || integers) &&
                (!divides || !mixes_signedness<A, B>())) {
    using R =
        typename decltype(operation_type<Op, common_element_t<A, B>>())::type;
    using Result = decltype(apply<Op>(R{}, R{}));
    return elementwise<Result>(
        [](auto x, auto y) { return apply<Op>(convert<R>(x), convert<R>(y)); },
        a, b);
  } else {
    // A tile of the expected kind, so that the check above is the only
    // error.
    return broadcast_tensor_t<
        std::conditional_t<is_logical(Op), bool, element_t<A>>, A, B>{};
  }
}

template <class T> T offset_pointer(T p, std::uintptr_t bytes, bool subtract) {
  auto address = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<T>(subtract ? address - bytes : address + bytes);
}

/// Pointer plus or minus integer offsets, computed on addresses: the
/// emulation forms out-of-range pointers for masked-off lanes, which C++
/// pointer arithmetic would make undefined. Unsigned offsets zero-extend.
template <bool Subtract, class P, class O>
auto pointer_offset(const P &ptrs, const O &offsets) {
  using Pointer = element_t<P>;
  using Offset = element_t<O>;
  static_assert(std::is_integral_v<Offset>, "pointer offsets must be integers");
  if constexpr (std::is_integral_v<Offset>) {
    return elementwise<Pointer>(
        [](Pointer p, Offset i) {
          return offset_pointer(p, static_cast<std::uintptr_t>(i) * sizeof(*p),
                                Subtract);
        },
        ptrs, offsets);
  }
}

template <class M> constexpr void check_mask() {
  static_assert(std::is_same_v<element_t<M>, bool>,
                "load and store masks must be bool tiles or bool values");
}

template <class T> constexpr void check_math() {
  static_assert(std::is_floating_point_v<T>,
                "math functions take float or double tiles; cast "
                "half/bfloat16 first");
}

/// What a program of the current emulated launch sees.
struct program_state {
  int id[3] = {0, 0, 0};
  int count[3] = {1, 1, 1};
};

inline thread_local program_state current_program;

inline int checked_axis(int axis, const char *op) {
  if (axis < 0 || axis > 2) {
    std::fprintf(stderr, "tile::%s: axis must be 0, 1, or 2 but got %d\n", op,
                 axis);
    std::abort();
  }
  return axis;
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Grid and index
//===----------------------------------------------------------------------===//

TILE_OP("program_id") inline int program_id(int axis) {
  return detail::current_program.id[detail::checked_axis(axis, "program_id")];
}

TILE_OP("num_programs") inline int num_programs(int axis) {
  return detail::current_program
      .count[detail::checked_axis(axis, "num_programs")];
}

namespace detail {
/// The iterations of tile::range: begin, begin + step, ... while < end.
template <class I> struct iteration_range {
  I lo, hi, step;
  struct iterator {
    I at, hi, step;
    I operator*() const { return at; }
    iterator &operator++() {
      at += step;
      return *this;
    }
    bool operator!=(const iterator &) const { return at < hi; }
  };
  iterator begin() const { return {lo, hi, step}; }
  iterator end() const { return {hi, hi, step}; }
};
} // namespace detail

/// `for (int i : tile::range(lo, hi, step, num_stages, loop_unroll_factor))`
/// is `for (int i = lo; i < hi; i += step)` (Triton's tl.range); a constant
/// num_stages (1 to 8) sets the software pipelining of this loop: its loads
/// are issued num_stages - 1 iterations ahead into shared memory (1: not
/// pipelined; 0, the default: the configuration's num_stages, for loads
/// that feed tile::dot only). A constant loop_unroll_factor (up to 1024)
/// unrolls the loop that many times (1: not at all; 0, the default: as the
/// device compiler chooses).
template <class Lo, class Hi, class Step = int>
TILE_OP("range")
detail::iteration_range<std::common_type_t<Lo, Hi, Step>> range(
    Lo lo, Hi hi, Step step = 1, [[maybe_unused]] int num_stages = 0,
    [[maybe_unused]] int loop_unroll_factor = 0) {
  using I = std::common_type_t<Lo, Hi, Step>;
  static_assert(std::is_integral_v<I>, "tile::range iterates over integers");
  return {static_cast<I>(lo), static_cast<I>(hi), static_cast<I>(step)};
}

template <int N> TILE_OP("arange") tensor<int, N> arange() {
  tensor<int, N> r;
  for (int i = 0; i < N; ++i)
    r.data()[i] = i;
  return r;
}

template <int Start, int End>
TILE_OP("arange")
tensor<int, (End > Start ? End - Start : 1)> arange() {
  static_assert(End > Start, "arange needs End > Start");
  tensor<int, (End > Start ? End - Start : 1)> r;
  for (int i = 0; i < End - Start; ++i)
    r.data()[i] = Start + i;
  return r;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

template <int... Dims, class T>
TILE_OP("full")
tensor<T, Dims...> full(T value) {
  tensor<T, Dims...> r;
  for (int k = 0; k < r.numel; ++k)
    r.data()[k] = value;
  return r;
}

template <class T, int... Dims> TILE_OP("zeros") tensor<T, Dims...> zeros() {
  return tensor<T, Dims...>{};
}

//===----------------------------------------------------------------------===//
// Pointer arithmetic
//===----------------------------------------------------------------------===//

template <class T, class I, int... D>
TILE_OP("addptr")
auto operator+(T *base, const tensor<I, D...> &offsets) {
  return detail::pointer_offset<false>(base, offsets);
}

template <class I, int... D, class T>
TILE_OP("addptr")
auto operator+(const tensor<I, D...> &offsets, T *base) {
  return detail::pointer_offset<false>(base, offsets);
}

template <class T, int... D, detail::offset_operand O>
TILE_OP("addptr")
auto operator+(const tensor<T *, D...> &ptrs, const O &offsets) {
  return detail::pointer_offset<false>(ptrs, offsets);
}

template <detail::offset_operand O, class T, int... D>
TILE_OP("addptr")
auto operator+(const O &offsets, const tensor<T *, D...> &ptrs) {
  return detail::pointer_offset<false>(ptrs, offsets);
}

template <class T, class I, int... D>
TILE_OP("subptr")
auto operator-(T *base, const tensor<I, D...> &offsets) {
  return detail::pointer_offset<true>(base, offsets);
}

template <class T, int... D, detail::offset_operand O>
TILE_OP("subptr")
auto operator-(const tensor<T *, D...> &ptrs, const O &offsets) {
  return detail::pointer_offset<true>(ptrs, offsets);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// How a load or store uses the caches (Triton's cache_modifier, and
/// volatile): the PTX cache operator of the access. Loads take ca, cg, cs,
/// lu, cv and volatile_, stores wb, cg, cs, wt and volatile_. volatile_
/// reads or writes memory each time, where written (ld.volatile); the
/// others are hints. On AMD GPUs cs and cv are non-temporal accesses and
/// the other hints plain ones.
enum class cache { normal, ca, cg, cs, lu, cv, wb, wt, volatile_ };

/// Which data the caches give up first (Triton's eviction_policy): first
/// for data read or written once, last for data used again. Not with a
/// cache modifier, which PTX does not combine with it.
enum class evict { normal, first, last };

namespace detail {
template <cache C, evict E> constexpr void check_load_hints() {
  static_assert(C != cache::wb && C != cache::wt,
                "a load's cache modifier is ca, cg, cs, lu, cv or volatile_");
  static_assert(C == cache::normal || E == evict::normal,
                "a cache modifier and an eviction policy do not combine");
}
template <cache C, evict E> constexpr void check_store_hints() {
  static_assert(C == cache::normal || C == cache::wb || C == cache::cg ||
                    C == cache::cs || C == cache::wt || C == cache::volatile_,
                "a store's cache modifier is wb, cg, cs, wt or volatile_");
  static_assert(C == cache::normal || E == evict::normal,
                "a cache modifier and an eviction policy do not combine");
}
} // namespace detail

/// Gathers through a pointer tile. Lanes whose mask is false are never
/// dereferenced and read `other` (zero by default) converted to the pointee
/// type. The mask and `other` broadcast with the pointers.
template <cache C = cache::normal, evict E = evict::normal, class T, int... D,
          class M, class O>
TILE_OP("load")
auto load(const tensor<T *, D...> &ptrs, const M &mask, const O &other) {
  detail::check_load_hints<C, E>();
  detail::check_mask<M>();
  using V = std::remove_const_t<T>;
  return detail::elementwise<V>(
      [](T *p, bool m, detail::element_t<O> o) {
        return m ? *p : detail::convert<V>(o);
      },
      ptrs, mask, other);
}

template <cache C = cache::normal, evict E = evict::normal, class T, int... D,
          class M>
TILE_OP("load")
auto load(const tensor<T *, D...> &ptrs, const M &mask) {
  return load<C, E>(ptrs, mask, std::remove_const_t<T>{});
}

template <cache C = cache::normal, evict E = evict::normal, class T, int... D>
TILE_OP("load")
tensor<std::remove_const_t<T>, D...> load(const tensor<T *, D...> &ptrs) {
  detail::check_load_hints<C, E>();
  return detail::elementwise<std::remove_const_t<T>>([](T *p) { return *p; },
                                                     ptrs);
}

template <cache C = cache::normal, evict E = evict::normal, class T, class O>
TILE_OP("load")
std::remove_const_t<T> load(T *p, bool mask, const O &other) {
  detail::check_load_hints<C, E>();
  return mask ? *p : detail::convert<std::remove_const_t<T>>(other);
}

template <cache C = cache::normal, evict E = evict::normal, class T>
TILE_OP("load")
std::remove_const_t<T> load(T *p, bool mask) {
  return load<C, E>(p, mask, std::remove_const_t<T>{});
}

template <cache C = cache::normal, evict E = evict::normal, class T>
TILE_OP("load")
std::remove_const_t<T> load(T *p) {
  return load<C, E>(p, true);
}

/// Scatters through a pointer tile. The value and the mask broadcast to the
/// pointers' shape; the value is converted to the pointee type.
template <cache C = cache::normal, evict E = evict::normal, class T, int... D,
          class V, class M>
TILE_OP("store")
void store(const tensor<T *, D...> &ptrs, const V &value, const M &mask) {
  detail::check_store_hints<C, E>();
  static_assert(!std::is_const_v<T>, "cannot store through a pointer to const");
  detail::check_mask<M>();
  using P = tensor<T *, D...>;
  static_assert(
      detail::broadcasts_to(detail::operand_traits<V>::shape, P::shape) &&
          detail::broadcasts_to(detail::operand_traits<M>::shape, P::shape),
      "cannot broadcast tile shapes");
  if constexpr (!std::is_const_v<T>) {
    for (int k = 0; k < P::numel; ++k)
      if (detail::operand_at<P>(mask, k))
        *ptrs.data()[k] = detail::convert<T>(detail::operand_at<P>(value, k));
  }
}

template <cache C = cache::normal, evict E = evict::normal, class T, int... D,
          class V>
TILE_OP("store")
void store(const tensor<T *, D...> &ptrs, const V &value) {
  store<C, E>(ptrs, value, true);
}

template <cache C = cache::normal, evict E = evict::normal, class T, class V>
requires(!detail::is_tensor_v<V>) TILE_OP("store")
void store(T *p, const V &value, bool mask) {
  detail::check_store_hints<C, E>();
  static_assert(!std::is_const_v<T>, "cannot store through a pointer to const");
  if constexpr (!std::is_const_v<T>) {
    if (mask)
      *p = detail::convert<T>(value);
  }
}

template <cache C = cache::normal, evict E = evict::normal, class T, class V>
requires(!detail::is_tensor_v<V>) TILE_OP("store")
void store(T *p, const V &value) { store<C, E>(p, value, true); }

//===----------------------------------------------------------------------===//
// Elementwise operators
//===----------------------------------------------------------------------===//

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("add")
auto operator+(const A &a, const B &b) {
  return detail::binary<detail::binop::add>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("sub")
auto operator-(const A &a, const B &b) {
  return detail::binary<detail::binop::sub>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("mul")
auto operator*(const A &a, const B &b) {
  return detail::binary<detail::binop::mul>(a, b);
}

/// True division: integers divide in fp32 and 16-bit floats in fp32
/// (tile::div_result_t).
template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("div")
auto operator/(const A &a, const B &b) {
  return detail::binary<detail::binop::div>(a, b);
}

/// Remainder with the sign of the dividend (C's % and fmod).
template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("rem")
auto operator%(const A &a, const B &b) {
  return detail::binary<detail::binop::rem>(a, b);
}

/// Triton's `//` on integers: C division, truncating toward zero despite the
/// name. Takes scalars too, since `/` on integers divides in fp32. Division by
/// zero is undefined, as in Triton.
template <class A, class B>
requires detail::numeric_operand<A> && detail::numeric_operand<B>
    TILE_OP("floordiv")
auto floordiv(const A &a, const B &b) {
  return detail::binary<detail::binop::floordiv>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("and")
auto operator&(const A &a, const B &b) {
  return detail::binary<detail::binop::bit_and>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("or")
auto operator|(const A &a, const B &b) {
  return detail::binary<detail::binop::bit_or>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("xor")
auto operator^(const A &a, const B &b) {
  return detail::binary<detail::binop::bit_xor>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("shl")
auto operator<<(const A &a, const B &b) {
  return detail::binary<detail::binop::shl>(a, b);
}

/// Arithmetic for signed, logical for unsigned element types.
template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("shr")
auto operator>>(const A &a, const B &b) {
  return detail::binary<detail::binop::shr>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("eq")
auto operator==(const A &a, const B &b) {
  return detail::binary<detail::binop::eq>(a, b);
}

/// Unordered: NaN != NaN is true.
template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("ne")
auto operator!=(const A &a, const B &b) {
  return detail::binary<detail::binop::ne>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("lt")
auto operator<(const A &a, const B &b) {
  return detail::binary<detail::binop::lt>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("le")
auto operator<=(const A &a, const B &b) {
  return detail::binary<detail::binop::le>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("gt")
auto operator>(const A &a, const B &b) {
  return detail::binary<detail::binop::gt>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("ge")
auto operator>=(const A &a, const B &b) {
  return detail::binary<detail::binop::ge>(a, b);
}

/// Elementwise and evaluates both operands: there is no short circuit.
template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("logical_and")
auto operator&&(const A &a, const B &b) {
  return detail::binary<detail::binop::logical_and>(a, b);
}

template <class A, class B>
requires detail::numeric_operands<A, B> TILE_OP("logical_or")
auto operator||(const A &a, const B &b) {
  return detail::binary<detail::binop::logical_or>(a, b);
}

/// Integer negation wraps; 16-bit floats flip the sign bit.
template <class T, int... D>
requires detail::is_element_v<T> TILE_OP("neg")
tensor<T, D...> operator-(const tensor<T, D...> &x) {
  return detail::elementwise<T>(
      [](T v) {
        if constexpr (std::is_integral_v<T>)
          return detail::unwrap<T>(detail::wrap_t<T>(0) -
                                   static_cast<detail::wrap_t<T>>(v));
        else
          return T(-v);
      },
      x);
}

template <class T, int... D>
requires detail::is_element_v<T> TILE_OP("not")
tensor<T, D...> operator~(const tensor<T, D...> &x) {
  static_assert(std::is_integral_v<T>, "bitwise operators need integer tiles");
  if constexpr (std::is_integral_v<T>) {
    return detail::elementwise<T>(
        [](T v) {
          return detail::unwrap<T>(
              detail::wrap_t<T>(~static_cast<detail::wrap_t<T>>(v)));
        },
        x);
  }
}

template <class T, int... D>
requires detail::is_element_v<T> TILE_OP("logical_not")
tensor<bool, D...> operator!(const tensor<T, D...> &x) {
  static_assert(std::is_same_v<T, bool>, "logical operators need bool tiles");
  return detail::elementwise<bool>([](T v) { return !v; }, x);
}

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

/// Picks a where cond holds, else b, after broadcasting all three; a and b
/// combine like a binary operator's operands and may be pointers.
template <class C, class A, class B>
TILE_OP("where")
auto where(const C &cond, const A &a, const B &b) {
  static_assert(std::is_same_v<detail::element_t<C>, bool>,
                "where needs a bool condition");
  using R = detail::common_element_t<A, B>;
  return detail::elementwise<R>(
      [](bool c, auto x, auto y) {
        return c ? detail::convert<R>(x) : detail::convert<R>(y);
      },
      cond, a, b);
}

namespace detail {

/// IEEE maxNum/minNum: a NaN operand is ignored. Integers compare with their
/// own signedness.
template <bool Max, class R> R min_max(R x, R y) {
  using C = compute_t<R>;
  auto a = static_cast<C>(x), b = static_cast<C>(y);
  if constexpr (is_floating_v<R>) {
    if (std::isnan(a))
      return y;
    if (std::isnan(b))
      return x;
  }
  return (Max ? a < b : b < a) ? y : x;
}

} // namespace detail

template <class A, class B>
requires detail::numeric_operand<A> && detail::numeric_operand<B>
    TILE_OP("maximum")
auto maximum(const A &a, const B &b) {
  using R = detail::common_element_t<A, B>;
  return detail::elementwise<R>(
      [](auto x, auto y) {
        return detail::min_max<true>(detail::convert<R>(x),
                                     detail::convert<R>(y));
      },
      a, b);
}

template <class A, class B>
requires detail::numeric_operand<A> && detail::numeric_operand<B>
    TILE_OP("minimum")
auto minimum(const A &a, const B &b) {
  using R = detail::common_element_t<A, B>;
  return detail::elementwise<R>(
      [](auto x, auto y) {
        return detail::min_max<false>(detail::convert<R>(x),
                                      detail::convert<R>(y));
      },
      a, b);
}

// Functions of two float or double operands, which combine like a binary
// operator's.
#define TILE_DETAIL_MATH_FUNCTION2(NAME, EXPR)                                 \
  template <class A, class B>                                                  \
  requires detail::numeric_operand<A> && detail::numeric_operand<B> TILE_OP(   \
      #NAME)                                                                   \
  auto NAME(const A &a, const B &b) {                                          \
    using R = detail::common_element_t<A, B>;                                  \
    detail::check_math<R>();                                                   \
    return detail::elementwise<R>(                                             \
        [](auto x, auto y) {                                                   \
          const R u = detail::convert<R>(x), v = detail::convert<R>(y);        \
          return R(EXPR);                                                      \
        },                                                                     \
        a, b);                                                                 \
  }

// a raised to the power b (libdevice's pow).
TILE_DETAIL_MATH_FUNCTION2(pow, std::pow(u, v))
TILE_DETAIL_MATH_FUNCTION2(atan2, std::atan2(u, v))
TILE_DETAIL_MATH_FUNCTION2(hypot, std::hypot(u, v))
TILE_DETAIL_MATH_FUNCTION2(copysign, std::copysign(u, v))
// The IEEE quotient, rounded to nearest (tl.div_rn); `/` of float tiles is
// within 2 ulp on the GPU.
TILE_DETAIL_MATH_FUNCTION2(div_rn, u / v)

#undef TILE_DETAIL_MATH_FUNCTION2

/// Fast division (tl.fdiv): what `/` of float tiles is.
template <class A, class B>
requires detail::numeric_operand<A> && detail::numeric_operand<B>
auto fdiv(const A &a, const B &b) {
  static_assert(detail::is_floating_v<detail::common_element_t<A, B>>,
                "fdiv takes float or double operands");
  return a / b;
}

namespace detail {

template <class T> T high_product(T a, T b) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "umulhi takes 32- or 64-bit integers");
  using Wide = std::conditional_t<
      sizeof(T) == 4,
      std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>,
      std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>;
  return T(Wide(a) * Wide(b) >> (8 * sizeof(T)));
}

} // namespace detail

/// The high half of the full product of two 32- or 64-bit integers
/// (tl.umulhi); both operands have one type.
template <class A, class B>
requires detail::numeric_operand<A> && detail::numeric_operand<B>
    TILE_OP("umulhi")
auto umulhi(const A &a, const B &b) {
  using R = detail::common_element_t<A, B>;
  static_assert(std::is_integral_v<R> && !std::is_same_v<R, bool>,
                "umulhi takes integer operands");
  return detail::elementwise<R>(
      [](auto x, auto y) {
        return detail::high_product(detail::convert<R>(x),
                                    detail::convert<R>(y));
      },
      a, b);
}

/// Triton's swizzle2d: the (row, column) that program (i, j) of a size_i x
/// size_j grid, numbered row-major, should compute so that programs run
/// column by column within groups of size_g rows, and the blocks of the
/// inputs that neighbouring programs share stay in L2 (tutorial 03's
/// grouped ordering). Indices and sizes are non-negative. An ordinary
/// function: tilecc translates its body.
inline std::tuple<int, int> swizzle2d(int i, int j, int size_i, int size_j,
                                      int size_g) {
  const int ij = i * size_j + j;
  const int per_group = size_g * size_j;
  const int first_row = ij / per_group * size_g;
  const int rows = minimum(size_i - first_row, size_g);
  const int in_group = ij % per_group;
  return std::make_tuple(first_row + in_group % rows, in_group / rows);
}

/// minimum(maximum(x, lo), hi): a NaN x gives lo.
template <class X, class L, class H>
requires detail::numeric_operand<X> && detail::numeric_operand<L> &&
    detail::numeric_operand<H>
        TILE_OP("clamp")
auto clamp(const X &x, const L &lo, const H &hi) {
  using R = detail::common_element3_t<X, L, H>;
  static_assert(detail::is_floating_v<R>, "clamp takes floating-point tiles");
  return detail::elementwise<R>(
      [](auto v, auto l, auto h) {
        return detail::min_max<false>(
            detail::min_max<true>(detail::convert<R>(v), detail::convert<R>(l)),
            detail::convert<R>(h));
      },
      x, lo, hi);
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

namespace detail {

/// The inverse of erf, which <cmath> lacks: Newton's method on std::erf in
/// long double from Winitzki's approximation (within 0.2%), whose error
/// each step squares. NaN outside [-1, 1], infinite at the ends.
template <class T> T erfinv(T y) {
  using L = long double;
  const L v = y;
  if (!(v >= -1 && v <= 1))
    return std::numeric_limits<T>::quiet_NaN();
  if (v == 1 || v == -1)
    return std::copysign(std::numeric_limits<T>::infinity(), y);
  const L pi = 3.141592653589793238462643383279502884L, a = 0.147L;
  const L ln = std::log1p(-v * v), t = 2 / (pi * a) + ln / 2;
  L x = std::copysign(std::sqrt(std::sqrt(t * t - ln / a) - t), v);
  for (int step = 0; step < 4 && x != 0; ++step)
    x -= (std::erf(x) - v) / (2 / std::sqrt(pi) * std::exp(-x * x));
  return static_cast<T>(x);
}

} // namespace detail

// Each function has a tile and a scalar form. Like Triton, all but abs take
// fp32/fp64 only, so that a silent fp16 round trip cannot hide in a kernel.
#define TILE_DETAIL_MATH_FUNCTION(NAME, EXPR)                                  \
  template <class T, int... D>                                                 \
  TILE_OP(#NAME)                                                               \
  tensor<T, D...> NAME(const tensor<T, D...> &x) {                             \
    detail::check_math<T>();                                                   \
    return detail::elementwise<T>([](T v) { return T(EXPR); }, x);             \
  }                                                                            \
  template <class T>                                                           \
  requires detail::is_element_v<T> TILE_OP(#NAME)                              \
  T NAME(T v) {                                                                \
    detail::check_math<T>();                                                   \
    return T(EXPR);                                                            \
  }

TILE_DETAIL_MATH_FUNCTION(exp, std::exp(v))
TILE_DETAIL_MATH_FUNCTION(exp2, std::exp2(v))
TILE_DETAIL_MATH_FUNCTION(log, std::log(v))
TILE_DETAIL_MATH_FUNCTION(log2, std::log2(v))
TILE_DETAIL_MATH_FUNCTION(sqrt, std::sqrt(v))
TILE_DETAIL_MATH_FUNCTION(rsqrt, T(1) / std::sqrt(v))
TILE_DETAIL_MATH_FUNCTION(sin, std::sin(v))
TILE_DETAIL_MATH_FUNCTION(cos, std::cos(v))
TILE_DETAIL_MATH_FUNCTION(floor, std::floor(v))
TILE_DETAIL_MATH_FUNCTION(ceil, std::ceil(v))
TILE_DETAIL_MATH_FUNCTION(erf, std::erf(v))
TILE_DETAIL_MATH_FUNCTION(tanh, std::tanh(v))
TILE_DETAIL_MATH_FUNCTION(sigmoid, T(1) / (T(1) + std::exp(-v)))
// libdevice's functions (tl.extra.libdevice), the accurate ones.
TILE_DETAIL_MATH_FUNCTION(tan, std::tan(v))
TILE_DETAIL_MATH_FUNCTION(asin, std::asin(v))
TILE_DETAIL_MATH_FUNCTION(acos, std::acos(v))
TILE_DETAIL_MATH_FUNCTION(atan, std::atan(v))
TILE_DETAIL_MATH_FUNCTION(sinh, std::sinh(v))
TILE_DETAIL_MATH_FUNCTION(cosh, std::cosh(v))
TILE_DETAIL_MATH_FUNCTION(asinh, std::asinh(v))
TILE_DETAIL_MATH_FUNCTION(acosh, std::acosh(v))
TILE_DETAIL_MATH_FUNCTION(atanh, std::atanh(v))
TILE_DETAIL_MATH_FUNCTION(log10, std::log10(v))
TILE_DETAIL_MATH_FUNCTION(log1p, std::log1p(v))
TILE_DETAIL_MATH_FUNCTION(expm1, std::expm1(v))
TILE_DETAIL_MATH_FUNCTION(cbrt, std::cbrt(v))
TILE_DETAIL_MATH_FUNCTION(erfc, std::erfc(v))
TILE_DETAIL_MATH_FUNCTION(erfinv, detail::erfinv(v))
TILE_DETAIL_MATH_FUNCTION(trunc, std::trunc(v))
// Halfway cases to even (rint) or away from zero (round).
TILE_DETAIL_MATH_FUNCTION(rint, std::nearbyint(v))
TILE_DETAIL_MATH_FUNCTION(round, std::round(v))
// The IEEE square root, rounded to nearest (tl.sqrt_rn); sqrt may be
// approximate on the GPU.
TILE_DETAIL_MATH_FUNCTION(sqrt_rn, std::sqrt(v))

#undef TILE_DETAIL_MATH_FUNCTION

namespace detail {
template <int K, class T> constexpr void check_exp2_cubic() {
  static_assert(K >= 0 && K <= 8,
                "exp2_cubic<K>: K of every 8 elements, from 0 to 8");
  static_assert(std::is_same_v<T, float>,
                "exp2_cubic takes float tiles and scalars; cast first");
}
} // namespace detail

/// 2^x with K of every 8 elements a GPU thread holds (0 to 8) computed by a
/// cubic polynomial on the FMA units rather than by the unit that computes
/// exp2 (on sm_90 16 results a cycle an SM, against 128 fused
/// multiply-adds), so that both work: FlashAttention-4's split, for a
/// softmax whose exp2 bounds it. Those elements are within a relative
/// error of 7.5e-5 (below the rounding of a half, a bfloat16 or an 8-bit
/// float) for x in [-126, 127.5), 0 below and infinite above
/// (detail/exp2_cubic.hpp); the others are exp2's. float only. In
/// emulation every element takes the polynomial where K > 0.
template <int K, class T>
requires detail::is_element_v<T> TILE_OP("exp2_cubic")
T exp2_cubic(T v) {
  detail::check_exp2_cubic<K, T>();
  return K ? detail::exp2_cubic(v) : std::exp2(v);
}
template <int K, class T, int... D>
TILE_OP("exp2_cubic")
tensor<T, D...> exp2_cubic(const tensor<T, D...> &x) {
  detail::check_exp2_cubic<K, T>();
  return detail::elementwise<T>([](T v) { return exp2_cubic<K>(v); }, x);
}

namespace detail {

template <class T> T abs_value(T v) {
  if constexpr (is_float16_v<T>)
    return T::from_bits(static_cast<std::uint16_t>(v.bits & 0x7fff));
  else if constexpr (std::is_floating_point_v<T>)
    return std::fabs(v);
  else if constexpr (std::is_signed_v<T>)
    // Wraps like the GPU's iabs: abs(INT_MIN) is INT_MIN.
    return v < 0 ? unwrap<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(v)) : v;
  else
    return v;
}

} // namespace detail

template <class T, int... D>
requires detail::is_element_v<T> TILE_OP("abs")
tensor<T, D...> abs(const tensor<T, D...> &x) {
  return detail::elementwise<T>([](T v) { return detail::abs_value(v); }, x);
}

template <class T>
requires detail::is_element_v<T> TILE_OP("abs")
T abs(T v) { return detail::abs_value(v); }

template <class A, class B, class C>
requires detail::numeric_operand<A> && detail::numeric_operand<B> &&
    detail::numeric_operand<C>
        TILE_OP("fma")
auto fma(const A &a, const B &b, const C &c) {
  using R = detail::common_element3_t<A, B, C>;
  detail::check_math<R>();
  return detail::elementwise<R>(
      [](auto x, auto y, auto z) {
        return std::fma(detail::convert<R>(x), detail::convert<R>(y),
                        detail::convert<R>(z));
      },
      a, b, c);
}

//===----------------------------------------------------------------------===//
// Casts and shapes
//===----------------------------------------------------------------------===//

/// How a floating-point downcast rounds (tl.cast's fp_downcast_rounding):
/// to nearest even, or toward zero.
enum class rounding { rtne, rtz };

namespace detail {
template <class U, rounding R, class T> U cast_element(T v) {
  constexpr bool downcast = is_floating_v<T> && is_floating_v<U> &&
                            !is_float8_v<U> && sizeof(U) < sizeof(T);
  static_assert(R == rounding::rtne || downcast,
                "rounding::rtz applies to floating-point downcasts to "
                "float32, float16 or bfloat16");
  static_assert(!std::is_pointer_v<U> || std::is_pointer_v<T> ||
                    (std::is_integral_v<T> && sizeof(T) == 8),
                "only 64-bit integers cast to pointers");
  static_assert(!std::is_pointer_v<T> || std::is_pointer_v<U> ||
                    std::is_same_v<U, bool> ||
                    (std::is_integral_v<U> && sizeof(U) == 8),
                "pointers cast to 64-bit integers");
  if constexpr (R == rounding::rtz && downcast)
    return convert_toward_zero<U>(v);
  else
    return convert<U>(v);
}
} // namespace detail

/// Triton's cast: float to int truncates toward zero, anything to bool is
/// `!= 0`, narrower floats round to nearest even, or with rounding::rtz
/// toward zero.
template <class U, rounding R = rounding::rtne, class T, int... D>
TILE_OP("cast")
tensor<U, D...> cast(const tensor<T, D...> &x) {
  return detail::elementwise<U>(
      [](T v) { return detail::cast_element<U, R>(v); }, x);
}

template <class U, rounding R = rounding::rtne, class T>
requires(!detail::is_tensor_v<T>) TILE_OP("cast")
U cast(T v) { return detail::cast_element<U, R>(v); }

namespace detail {

template <class U, class T> U same_bits_as(T v) {
  static_assert(sizeof(U) == sizeof(T) && !std::is_same_v<U, bool> &&
                    !std::is_same_v<T, bool>,
                "bitcast needs element types of one width (not bool)");
  U u;
  std::memcpy(static_cast<void *>(&u), &v, sizeof u);
  return u;
}

} // namespace detail

/// x's bits read as U, which has the width of x's elements (tl.bitcast:
/// x.to(U, bitcast=True)).
template <class U, class T, int... D>
TILE_OP("bitcast")
tensor<U, D...> bitcast(const tensor<T, D...> &x) {
  return detail::elementwise<U>([](T v) { return detail::same_bits_as<U>(v); },
                                x);
}

template <class U, class T>
requires(!detail::is_tensor_v<T>) TILE_OP("bitcast")
U bitcast(T v) { return detail::same_bits_as<U>(v); }

/// A tile of zeros (or of value) with x's shape and element type.
template <class T, int... D>
tensor<T, D...> zeros_like(const tensor<T, D...> &) {
  return zeros<T, D...>();
}
template <class T, int... D, class V>
tensor<T, D...> full_like(const tensor<T, D...> &, V value) {
  return full<D...>(cast<T>(value));
}

/// Inserts a dimension of size 1 before Axis; Axis counts from the end when
/// negative, as in Python (-1 appends).
template <int Axis, class T, int... D>
TILE_OP("expand_dims")
auto expand_dims(const tensor<T, D...> &x) {
  constexpr int rank = sizeof...(D);
  static_assert(Axis >= -(rank + 1) && Axis <= rank, "invalid axis");
  constexpr int axis = Axis < 0 ? Axis + rank + 1 : Axis;
  using Out =
      detail::tensor_with_shape_t<T, detail::insert_unit_axis(
                                         std::array<int, rank>{D...},
                                         axis >= 0 && axis <= rank ? axis : 0)>;
  Out r;
  for (int k = 0; k < Out::numel; ++k)
    r.data()[k] = x.data()[k];
  return r;
}

template <int Axis, class T>
requires(!detail::is_tensor_v<T>) TILE_OP("expand_dims")
tensor<T, 1> expand_dims(T v) {
  static_assert(Axis == 0 || Axis == -1, "invalid axis");
  return full<1>(v);
}

template <int... NewDims, class T, int... D>
TILE_OP("broadcast_to")
tensor<T, NewDims...> broadcast_to(const tensor<T, D...> &x) {
  static_assert(
      detail::broadcasts_to(std::array<int, sizeof...(D)>{D...},
                            std::array<int, sizeof...(NewDims)>{NewDims...}),
      "cannot broadcast tile shapes");
  tensor<T, NewDims...> r;
  for (int k = 0; k < r.numel; ++k)
    r.data()[k] = detail::operand_at<tensor<T, NewDims...>>(x, k);
  return r;
}

template <int... NewDims, class T>
requires(!detail::is_tensor_v<T>) TILE_OP("broadcast_to")
tensor<T, NewDims...> broadcast_to(T v) { return full<NewDims...>(v); }

//===----------------------------------------------------------------------===//
// Shape operations
//===----------------------------------------------------------------------===//

// Triton's reshape, permute, join, split, interleave, cat and flip. Element
// order is row-major, as in Triton with can_reorder=False: a reshape keeps
// each element's flat index. On the GPU they move no data where the tile's
// layout allows (tilecc --emit=layouts says which).

/// x's elements, in row-major order, as a tile of shape NewDims (tl.reshape
/// and x.view, keeping the order).
template <int... NewDims, class T, int... D>
TILE_OP("reshape")
tensor<T, NewDims...> reshape(const tensor<T, D...> &x) {
  static_assert((NewDims * ... * 1) == (D * ... * 1),
                "reshape cannot change the number of elements of a tile");
  tensor<T, NewDims...> r;
  if constexpr ((NewDims * ... * 1) == (D * ... * 1))
    std::copy_n(x.data(), r.numel, r.data());
  return r;
}

template <int... NewDims, class T, int... D>
TILE_OP("reshape")
tensor<T, NewDims...> view(const tensor<T, D...> &x) {
  return reshape<NewDims...>(x);
}

/// x as a 1-D tile, in row-major order (tl.ravel).
template <class T, int... D>
tensor<T, (D * ... * 1)> ravel(const tensor<T, D...> &x) {
  return reshape<(D * ... * 1)>(x);
}

/// Dimension i of the result is dimension Dims[i] of x (tl.permute).
template <int... Dims, class T, int... D>
TILE_OP("permute")
auto permute(const tensor<T, D...> &x) {
  using X = tensor<T, D...>;
  static_assert(sizeof...(Dims) == X::rank,
                "permute takes one dimension per dimension of the tile");
  if constexpr (sizeof...(Dims) == X::rank) {
    constexpr std::array<int, X::rank> dims{Dims...};
    constexpr auto shape = detail::permuted_shape<X::rank>(X::shape, dims);
    static_assert(shape.has_value(), "permute's dimensions must be a "
                                     "permutation of 0, 1, ..., n-1");
    if constexpr (shape.has_value()) {
      using Out = detail::tensor_with_shape_t<T, *shape>;
      int stride[X::rank];
      for (int d = X::rank, s = 1; d-- > 0; s *= X::shape[d])
        stride[d] = s;
      Out r;
      for (int k = 0; k < Out::numel; ++k) {
        int src = 0, flat = k;
        for (int i = X::rank; i-- > 0; flat /= Out::shape[i])
          src += flat % Out::shape[i] * stride[dims[i]];
        r.data()[k] = x.data()[src];
      }
      return r;
    } else {
      return x; // the assertion is the only error
    }
  } else {
    return x;
  }
}

/// tl.trans with dimensions: permute.
template <int D0, int... Dims, class T, int... D>
TILE_OP("permute")
auto trans(const tensor<T, D...> &x) {
  return permute<D0, Dims...>(x);
}

/// a and b side by side along a new last dimension of 2 (tl.join): element
/// (..., 0) is a's, (..., 1) is b's.
template <class T, int... D>
TILE_OP("join")
tensor<T, D..., 2> join(const tensor<T, D...> &a, const tensor<T, D...> &b) {
  tensor<T, D..., 2> r;
  for (int k = 0; k < a.numel; ++k) {
    r.data()[2 * k] = a.data()[k];
    r.data()[2 * k + 1] = b.data()[k];
  }
  return r;
}

template <class A, class B>
requires(!detail::is_tensor_v<A> && !detail::is_tensor_v<B>) TILE_OP("join")
tensor<std::common_type_t<A, B>, 2> join(A a, B b) {
  tensor<std::common_type_t<A, B>, 2> r;
  r.data()[0] = a;
  r.data()[1] = b;
  return r;
}

/// The two halves of a tile whose last dimension is 2 (tl.split): the
/// elements (..., 0) and (..., 1).
template <class T, int... D>
TILE_OP("split")
auto split(const tensor<T, D...> &x) {
  using X = tensor<T, D...>;
  static_assert(X::shape[X::rank - 1] == 2,
                "split takes a tile whose last dimension is 2");
  if constexpr (X::rank == 1) {
    return std::tuple<T, T>{x.data()[0], x.data()[1]};
  } else if constexpr (X::shape[X::rank - 1] == 2) {
    using Half =
        detail::tensor_with_shape_t<T, detail::drop_last_dim(X::shape)>;
    std::tuple<Half, Half> r;
    for (int k = 0; k < Half::numel; ++k) {
      std::get<0>(r).data()[k] = x.data()[2 * k];
      std::get<1>(r).data()[k] = x.data()[2 * k + 1];
    }
    return r;
  } else {
    return std::tuple<X, X>{}; // the assertions are the only errors
  }
}

/// a and b interleaved along their last dimension (tl.interleave): their
/// join with its last two dimensions merged.
template <class T, int... D>
TILE_OP("interleave")
auto interleave(const tensor<T, D...> &a, const tensor<T, D...> &b) {
  constexpr auto shape = [] {
    std::array<int, sizeof...(D)> s{D...};
    s.back() *= 2;
    return s;
  }();
  detail::tensor_with_shape_t<T, shape> r;
  const auto j = join(a, b);
  std::copy_n(j.data(), r.numel, r.data());
  return r;
}

/// b's rows after a's: the concatenation along dimension 0 (tl.cat, in
/// order; Triton may reorder).
template <class T, int D0, int... D>
TILE_OP("cat")
tensor<T, 2 * D0, D...> cat(const tensor<T, D0, D...> &a,
                            const tensor<T, D0, D...> &b) {
  tensor<T, 2 * D0, D...> r;
  std::copy_n(a.data(), a.numel, r.data());
  std::copy_n(b.data(), b.numel, r.data() + a.numel);
  return r;
}

/// x reversed along Dim, the last by default (tl.flip).
template <int Dim = -1, class T, int... D>
TILE_OP("flip")
tensor<T, D...> flip(const tensor<T, D...> &x) {
  using X = tensor<T, D...>;
  static_assert(Dim >= -X::rank && Dim < X::rank, "invalid dimension");
  constexpr int dim = Dim < 0 ? Dim + X::rank : Dim;
  X r;
  if constexpr (dim >= 0 && dim < X::rank)
    for (int k = 0; k < X::numel; ++k)
      r.data()[k] = x.data()[detail::flipped_index(X::shape, dim, k)];
  return r;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// Triton's counter-based generator (tl.randint, tl.rand, tl.randn): a pure
// function of an integer seed and each element's offset, so that the same
// seed and offsets give the same bits in every program, run and backend.
// Words are uint32 for 32- and 64-bit offsets alike.

namespace detail {

/// Word Word of Philox's four after Rounds rounds.
template <unsigned Word, unsigned Rounds, class S, class T, int... D>
TILE_OP("philox")
tensor<std::uint32_t, D...> philox(S seed, const tensor<T, D...> &offset) {
  static_assert(std::is_integral_v<S> && !std::is_same_v<S, bool>,
                "the seed of a random number is an integer scalar");
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "random numbers take 32- or 64-bit integer offsets");
  return elementwise<std::uint32_t>(
      [seed](T o) {
        return philox_word<Word, Rounds>(std::uint64_t(seed), std::uint32_t(o),
                                         philox_high_word(o));
      },
      offset);
}

} // namespace detail

/// Random integers: Philox's first word (tl.randint).
template <int Rounds = 10, class S, class T, int... D>
auto randint(S seed, const tensor<T, D...> &offset) {
  return detail::philox<0, Rounds>(seed, offset);
}

/// Four streams of random integers (tl.randint4x).
template <int Rounds = 10, class S, class T, int... D>
auto randint4x(S seed, const tensor<T, D...> &offset) {
  return std::make_tuple(detail::philox<0, Rounds>(seed, offset),
                         detail::philox<1, Rounds>(seed, offset),
                         detail::philox<2, Rounds>(seed, offset),
                         detail::philox<3, Rounds>(seed, offset));
}

/// A random integer word as a float in [0, 1): read as signed, folded onto
/// the non-negative values and scaled so that the largest stays below 1
/// (tl.uint_to_uniform_float).
template <class T, int... D>
tensor<float, D...> uint_to_uniform_float(const tensor<T, D...> &x) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "uint_to_uniform_float takes 32- or 64-bit integers");
  using Signed = std::make_signed_t<T>;
  auto s = bitcast<Signed>(x);
  auto folded = where(s < 0, ~s, s);
  if constexpr (sizeof(T) == 4)
    return cast<float>(folded) * 4.6566127342e-10f;
  else
    return cast<float>(folded) * 1.0842020432385337e-19f;
}

/// Uniform floats in [0, 1) (tl.rand).
template <int Rounds = 10, class S, class T, int... D>
tensor<float, D...> rand(S seed, const tensor<T, D...> &offset) {
  return uint_to_uniform_float(randint<Rounds>(seed, offset));
}

/// Four streams of uniform floats (tl.rand4x).
template <int Rounds = 10, class S, class T, int... D>
auto rand4x(S seed, const tensor<T, D...> &offset) {
  auto [i1, i2, i3, i4] = randint4x<Rounds>(seed, offset);
  return std::make_tuple(uint_to_uniform_float(i1), uint_to_uniform_float(i2),
                         uint_to_uniform_float(i3), uint_to_uniform_float(i4));
}

/// Two independent standard normal samples from two uniform ones (the
/// Box-Muller transform, u1 kept at least 1e-7; tl.pair_uniform_to_normal).
template <int... D>
std::tuple<tensor<float, D...>, tensor<float, D...>>
pair_uniform_to_normal(const tensor<float, D...> &u1,
                       const tensor<float, D...> &u2) {
  auto th = 6.283185307179586f * u2;
  auto r = sqrt(-2.0f * log(maximum(u1, 1.0e-7f)));
  return std::make_tuple(r * cos(th), r * sin(th));
}

/// Standard normal floats (tl.randn).
template <int Rounds = 10, class S, class T, int... D>
tensor<float, D...> randn(S seed, const tensor<T, D...> &offset) {
  auto [i1, i2, i3, i4] = randint4x<Rounds>(seed, offset);
  auto [n1, n2] = pair_uniform_to_normal(uint_to_uniform_float(i1),
                                         uint_to_uniform_float(i2));
  return n1;
}

/// Four streams of standard normal floats (tl.randn4x).
template <int Rounds = 10, class S, class T, int... D>
auto randn4x(S seed, const tensor<T, D...> &offset) {
  auto [u1, u2, u3, u4] = rand4x<Rounds>(seed, offset);
  auto [n1, n2] = pair_uniform_to_normal(u1, u2);
  auto [n3, n4] = pair_uniform_to_normal(u3, u4);
  return std::make_tuple(n1, n2, n3, n4);
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

// Axis counts from the end when negative. Reducing removes the axis (or keeps
// it with size 1 under KeepDims); a 1-D tile reduced without KeepDims, and
// every tile reduced without an axis, gives a plain value. The emulation
// combines in index order; the GPU's tree only matches it for associative
// combines, so float sums differ in rounding.

namespace detail {

/// (value, index) pairs: the larger value for Max (else the smaller), the lower
/// index on ties. NaN values lose to any number. The tie and NaN rules make
/// the combine associative and commutative, so any combining order gives the
/// same index.
template <bool Max, class V>
std::tuple<V, std::int32_t> arg_combine(const std::tuple<V, std::int32_t> &a,
                                        const std::tuple<V, std::int32_t> &b) {
  auto [va, ia] = a;
  auto [vb, ib] = b;
  if constexpr (is_floating_v<V>) {
    if (std::isnan(vb))
      return a;
    if (std::isnan(va))
      return b;
  }
  bool better = Max ? va < vb : vb < va;
  return better || (va == vb && ib < ia) ? b : a;
}

/// A built-in reduction of x, seen with shape Shape, along Axis.
template <reduce_op Op, int Axis, bool KeepDims, auto Shape, class T, int... D>
auto builtin_reduce(const tensor<T, D...> &x) {
  static_assert(is_element_v<T>, "reductions need numeric tiles");
  static_assert(Op != reduce_op::xor_sum || std::is_integral_v<T>,
                "xor_sum needs integer tiles");
  using R = reduce_result_t<Op, T>;
  constexpr bool largest = Op == reduce_op::max || Op == reduce_op::argmax;
  if constexpr (Op == reduce_op::sum) {
    return reduce_values<Axis, KeepDims, Shape, R>(x, apply<binop::add, R>);
  } else if constexpr (Op == reduce_op::max || Op == reduce_op::min) {
    return reduce_values<Axis, KeepDims, Shape, R>(x, min_max<largest, R>);
  } else if constexpr (Op == reduce_op::xor_sum) {
    if constexpr (std::is_integral_v<T>)
      return reduce_values<Axis, KeepDims, Shape, R>(x,
                                                     apply<binop::bit_xor, R>);
  } else {
    // Values compare in the type max/min would use; indices count along the
    // axis (through the whole tile, row-major, without one).
    using V = reduce_result_t<reduce_op::max, T>;
    auto load = [&x](int k, int i) {
      return std::tuple<V, std::int32_t>(convert<V>(x.data()[k]), i);
    };
    return std::get<1>(
        fold_axis<Axis, KeepDims, Shape>(load, arg_combine<largest, V>));
  }
}

template <class T, int... D>
inline constexpr std::array<int, 1> flat_shape = {tensor<T, D...>::numel};

} // namespace detail

// Each reduction has an axis form, NAME<Axis, KeepDims>(x), and a whole-tile
// form, NAME(x), which reduces the row-major flattening of x to one value.
#define TILE_DETAIL_REDUCTION(NAME)                                            \
  template <int Axis, bool KeepDims = false, class T, int... D>                \
  TILE_OP(#NAME)                                                               \
  auto NAME(const tensor<T, D...> &x) {                                        \
    return detail::builtin_reduce<reduce_op::NAME, Axis, KeepDims,             \
                                  tensor<T, D...>::shape>(x);                  \
  }                                                                            \
  template <class T, int... D>                                                 \
  TILE_OP(#NAME)                                                               \
  auto NAME(const tensor<T, D...> &x) {                                        \
    return detail::builtin_reduce<reduce_op::NAME, 0, false,                   \
                                  detail::flat_shape<T, D...>>(x);             \
  }

/// Sum in tile::reduce_result_t<reduce_op::sum, T>: integers and bool narrower
/// than 32 bits give (u)int32, half and bfloat16 give float. Integers wrap.
TILE_DETAIL_REDUCTION(sum)
/// Maximum; narrow types widen as for sum. A NaN is ignored unless every
/// value is NaN (IEEE maxNum, like tile::maximum).
TILE_DETAIL_REDUCTION(max)
/// Minimum; as max.
TILE_DETAIL_REDUCTION(min)
/// Exclusive or of integer tiles, in their own type.
TILE_DETAIL_REDUCTION(xor_sum)
/// int32 index of the maximum, the lowest index on ties. NaN is ignored
/// unless every value is NaN, which gives index 0.
TILE_DETAIL_REDUCTION(argmax)
/// int32 index of the minimum; as argmax.
TILE_DETAIL_REDUCTION(argmin)

#undef TILE_DETAIL_REDUCTION

/// The element type a sum is taken in (Triton's dtype=):
/// tile::sum<1>(x, tile::dtype<float>) converts x's elements to float and
/// adds them in float, whatever x's type.
template <class T> struct dtype_t {};
template <class T> inline constexpr dtype_t<T> dtype{};

template <int Axis, bool KeepDims = false, class Acc, class T, int... D>
TILE_OP("sum")
auto sum(const tensor<T, D...> &x, dtype_t<Acc>) {
  static_assert(detail::is_element_v<Acc>, "a sum's dtype is a number type");
  return detail::reduce_values<Axis, KeepDims, tensor<T, D...>::shape, Acc>(
      x, detail::apply<detail::binop::add, Acc>);
}

template <class Acc, class T, int... D>
TILE_OP("sum")
auto sum(const tensor<T, D...> &x, dtype_t<Acc>) {
  static_assert(detail::is_element_v<Acc>, "a sum's dtype is a number type");
  return detail::reduce_values<0, false, detail::flat_shape<T, D...>, Acc>(
      x, detail::apply<detail::binop::add, Acc>);
}

/// Reduces with combine(a, b), a left fold in index order: combine takes two
/// values of T and returns one, which converts back to T as a C++ return
/// would. The result keeps the element type T.
template <int Axis, bool KeepDims = false, class Combine, class T, int... D>
TILE_OP("reduce")
auto reduce(const tensor<T, D...> &x, Combine combine) {
  constexpr bool combines = detail::scalar_combine<Combine, T>;
  static_assert(combines, "combine must take two values of the tile's element "
                          "type and return one");
  if constexpr (combines)
    return detail::reduce_values<Axis, KeepDims, tensor<T, D...>::shape, T>(
        x, combine);
}

/// Reduces several tiles of one shape together, as Triton's tuple form:
/// combine(a0, b0, ..., a1, b1, ...) takes the values of the accumulated and
/// the next element and returns a std::tuple of one value per tile. Returns a
/// std::tuple of result tiles (of values for a fully reduced 1-D tile).
template <int Axis, bool KeepDims = false, class Combine, class... X>
requires(sizeof...(X) >= 1 && (detail::is_tensor_v<X> && ...)) TILE_OP("reduce")
auto reduce(const std::tuple<X...> &xs, Combine combine) {
  return detail::tuple_operation(xs, combine, [](auto load, auto on_tuples) {
    return detail::fold_axis<Axis, KeepDims, detail::first_shape<X...>>(
        load, on_tuples);
  });
}

namespace detail {
/// A built-in scan of x: Op's running result along Axis, in the type of
/// tile::sum, combining with Combine.
template <reduce_op Op, binop Combine, int Axis, bool Reverse, class T,
          int... D>
auto builtin_scan(const tensor<T, D...> &x) {
  static_assert(is_element_v<T>, "scans need numeric tiles");
  if constexpr (is_element_v<T>) {
    using R = reduce_result_t<Op, T>;
    return scan_values<Axis, Reverse, R>(x, apply<Combine, R>);
  } else {
    return x; // the assertion is the only error
  }
}
} // namespace detail

/// Inclusive prefix sum along Axis (suffix sum with Reverse), in the type of
/// tile::sum.
template <int Axis, bool Reverse = false, class T, int... D>
TILE_OP("cumsum")
auto cumsum(const tensor<T, D...> &x) {
  return detail::builtin_scan<reduce_op::cumsum, detail::binop::add, Axis,
                              Reverse>(x);
}

/// Inclusive prefix product along Axis (suffix product with Reverse), in the
/// type of tile::sum.
template <int Axis, bool Reverse = false, class T, int... D>
TILE_OP("cumprod")
auto cumprod(const tensor<T, D...> &x) {
  return detail::builtin_scan<reduce_op::cumprod, detail::binop::mul, Axis,
                              Reverse>(x);
}

/// Inclusive scan with combine(a, b), where a is the result so far and b the
/// next element (the following one with Reverse); combine need not be
/// commutative. Keeps the element type T.
template <int Axis, bool Reverse = false, class Combine, class T, int... D>
TILE_OP("associative_scan")
auto associative_scan(const tensor<T, D...> &x, Combine combine) {
  constexpr bool combines = detail::scalar_combine<Combine, T>;
  static_assert(combines, "combine must take two values of the tile's element "
                          "type and return one");
  if constexpr (combines)
    return detail::scan_values<Axis, Reverse, T>(x, combine);
}

/// Scans several tiles of one shape together; combine as for the tuple form
/// of tile::reduce. Returns a std::tuple of tiles.
template <int Axis, bool Reverse = false, class Combine, class... X>
requires(sizeof...(X) >= 1 && (detail::is_tensor_v<X> && ...))
    TILE_OP("associative_scan")
auto associative_scan(const std::tuple<X...> &xs, Combine combine) {
  return detail::tuple_operation(xs, combine, [](auto load, auto on_tuples) {
    return detail::scan_axis<Axis, Reverse, detail::first_shape<X...>>(
        load, on_tuples);
  });
}

//===----------------------------------------------------------------------===//
// Histograms
//===----------------------------------------------------------------------===//

/// The number of x's values equal to each of 0, 1 ... Bins - 1, counting
/// only where mask holds (tl.histogram); values outside that range are not
/// counted. The mask broadcasts to x's shape.
template <int Bins, class T, int N, class M>
TILE_OP("histogram")
tensor<std::int32_t, Bins> histogram(const tensor<T, N> &x, const M &mask) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                "histogram counts the values of a 1-D integer tile");
  static_assert(std::is_same_v<detail::element_t<M>, bool>,
                "histogram's mask is a bool tile or bool value");
  using X = tensor<T, N>;
  static_assert(
      detail::broadcasts_to(detail::operand_traits<M>::shape, X::shape),
      "cannot broadcast tile shapes");
  tensor<std::int32_t, Bins> counts;
  std::fill_n(counts.data(), Bins, 0);
  for (int i = 0; i < N; ++i)
    if (const T v = x.data()[i]; detail::operand_at<X>(mask, i) &&
                                 std::cmp_greater_equal(v, 0) &&
                                 std::cmp_less(v, Bins))
      ++counts.data()[static_cast<int>(v)];
  return counts;
}

template <int Bins, class T, int N>
TILE_OP("histogram")
tensor<std::int32_t, Bins> histogram(const tensor<T, N> &x) {
  return histogram<Bins>(x, true);
}

//===----------------------------------------------------------------------===//
// Matrix multiply and transpose
//===----------------------------------------------------------------------===//

/// How dot multiplies float operands (Triton's input_precision): tf32
/// keeps each operand's top 10 mantissa bits, as tensor cores read TF32
/// operands; tf32x3 (three TF32 products) and ieee give float accuracy.
enum class input_precision { tf32, tf32x3, ieee };

namespace detail {

/// The accumulator type of dot for operands of type T (inventory 1.13):
/// 8-bit integers accumulate in int32, double in double, the other
/// floating types in float.
template <class T> struct dot_accumulator { using type = void; };
template <> struct dot_accumulator<std::int8_t> { using type = std::int32_t; };
template <> struct dot_accumulator<std::uint8_t> { using type = std::int32_t; };
template <> struct dot_accumulator<half> { using type = float; };
template <> struct dot_accumulator<bfloat16> { using type = float; };
template <> struct dot_accumulator<float> { using type = float; };
template <> struct dot_accumulator<double> { using type = double; };
template <> struct dot_accumulator<float8_e4m3> { using type = float; };
template <> struct dot_accumulator<float8_e5m2> { using type = float; };
template <class T> using dot_accumulator_t = typename dot_accumulator<T>::type;

/// Whether dot of T operands may produce R: the accumulator type, or half
/// for half operands (summed in float and rounded once per dot).
template <class T, class R>
inline constexpr bool dot_result_ok =
    !std::is_void_v<dot_accumulator_t<T>> &&
    (std::is_same_v<R, dot_accumulator_t<T>> ||
     (std::is_same_v<T, half> && std::is_same_v<R, half>));

/// x as the tensor cores read a TF32 operand: its low 13 mantissa bits
/// dropped (a truncation toward zero; Triton's tf32 dot does not round
/// either). NaNs stay NaNs.
inline float truncate_to_tf32(float x) {
  if (!std::isfinite(x))
    return x;
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits &= 0xffffe000u;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

template <class TA, class TB, class R, int M, int KA, int KB, int N>
constexpr bool check_dot() {
  static_assert(KA == KB, "dot: the columns of a (K) must match the rows of b");
  static_assert(std::is_same_v<TA, TB>,
                "dot: both operands must have one element type");
  static_assert(!std::is_void_v<dot_accumulator_t<TA>>,
                "dot takes int8, uint8, float8_e4m3, float8_e5m2, half, "
                "bfloat16, float or double operands");
  static_assert(std::is_void_v<dot_accumulator_t<TA>> || dot_result_ok<TA, R>,
                "dot: the result must have the accumulator type (int32 for "
                "8-bit integers, double for double, float otherwise; half "
                "operands may also give half)");
  static_assert(M >= 16 && N >= 16 && KA >= 16,
                "dot needs M, N and K of at least 16");
  static_assert(sizeof(TA) > 1 || KA >= 32,
                "dot of 8-bit operands needs K of at least 32");
  return KA == KB && std::is_same_v<TA, TB> && dot_result_ok<TA, R> &&
         M >= 16 && N >= 16 && KA >= 16 && (sizeof(TA) > 1 || KA >= 32);
}

} // namespace detail

namespace detail {

/// r = acc + a b for one M x K by K x N product, each operand row-major.
template <class TA, class TC, int M, int K, int N>
void dot_product(const TA *a, const TA *b, const TC *acc, TC *r,
                 input_precision precision) {
  using Acc = dot_accumulator_t<TA>;
  auto operand = [precision](TA v) {
    auto f = convert<Acc>(v);
    if constexpr (std::is_same_v<TA, float>)
      if (precision == input_precision::tf32)
        return truncate_to_tf32(f);
    return f;
  };
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      Acc s = convert<Acc>(acc[i * N + j]);
      for (int k = 0; k < K; ++k) {
        Acc x = operand(a[i * K + k]), y = operand(b[k * N + j]);
        if constexpr (std::is_integral_v<Acc>)
          s = static_cast<Acc>(static_cast<std::uint32_t>(s) +
                               static_cast<std::uint32_t>(x * y));
        else
          s = std::fma(x, y, s);
      }
      r[i * N + j] = convert<TC>(s);
    }
}

/// Whether a batched dot's operands hold as many matrices.
template <int BatchA, int BatchB> constexpr bool check_batch() {
  static_assert(BatchA == BatchB, "dot: a and b must hold as many matrices");
  return BatchA == BatchB;
}

} // namespace detail

/// acc + a b for a M x K and b K x N. Products are exact and summed in k
/// order in the accumulator type (int32 wraps); float operands are first
/// truncated to TF32 unless `precision` says otherwise. A half result is
/// summed in float and rounded once (tensor cores round along the way, so
/// the GPU may differ in the last bits).
template <class TA, class TB, class TC, int M, int KA, int KB, int N, int MC,
          int NC>
TILE_OP("dot")
tensor<TC, M, N> dot(const tensor<TA, M, KA> &a, const tensor<TB, KB, N> &b,
                     const tensor<TC, MC, NC> &acc,
                     input_precision precision = input_precision::tf32) {
  static_assert(MC == M && NC == N, "dot: acc must be M x N");
  tensor<TC, M, N> r;
  if constexpr (detail::check_dot<TA, TB, TC, M, KA, KB, N>())
    detail::dot_product<TA, TC, M, KA, N>(a.data(), b.data(), acc.data(),
                                          r.data(), precision);
  return r;
}

/// The batched product: acc[i] + a[i] b[i] for each of the Batch
/// matrices along the first dimension, as the 2-D dot computes each.
template <class TA, class TB, class TC, int Batch, int M, int KA, int BatchB,
          int KB, int N, int BatchC, int MC, int NC>
TILE_OP("dot")
tensor<TC, Batch, M, N> dot(const tensor<TA, Batch, M, KA> &a,
                            const tensor<TB, BatchB, KB, N> &b,
                            const tensor<TC, BatchC, MC, NC> &acc,
                            input_precision precision = input_precision::tf32) {
  static_assert(BatchC == Batch && MC == M && NC == N,
                "dot: acc must be Batch x M x N");
  tensor<TC, Batch, M, N> r;
  if constexpr (detail::check_batch<Batch, BatchB>() &&
                detail::check_dot<TA, TB, TC, M, KA, KB, N>())
    for (int i = 0; i < Batch; ++i)
      detail::dot_product<TA, TC, M, KA, N>(
          a.data() + i * M * KA, b.data() + i * KA * N, acc.data() + i * M * N,
          r.data() + i * M * N, precision);
  return r;
}

/// a b in the accumulator type (int32 for 8-bit integers, double for
/// double, float otherwise), or in Out: dot<tile::half>(a, b) for half
/// operands. a and b both 2-D, or both 3-D (a batch of products).
template <class Out = void, class TA, class TB, int... SA, int... SB>
requires(sizeof...(SA) == sizeof...(SB) &&
         (sizeof...(SA) == 2 || sizeof...(SA) == 3)) TILE_OP("dot")
auto dot(const tensor<TA, SA...> &a, const tensor<TB, SB...> &b,
         input_precision precision = input_precision::tf32) {
  using R = std::conditional_t<std::is_void_v<Out>,
                               detail::dot_accumulator_t<TA>, Out>;
  using Result = std::conditional_t<std::is_void_v<R>, float, R>;
  constexpr std::array<int, sizeof...(SA)> ShapeA{SA...};
  constexpr std::array<int, sizeof...(SB)> ShapeB{SB...};
  constexpr int Rank = sizeof...(SA), M = ShapeA[Rank - 2],
                KA = ShapeA[Rank - 1], KB = ShapeB[Rank - 2],
                N = ShapeB[Rank - 1];
  using Product = std::conditional_t<Rank == 2, tensor<Result, M, N>,
                                     tensor<Result, ShapeA[0], M, N>>;
  // Checked here as well: this body is instantiated at the user's call,
  // the other dot's only after the whole file.
  if constexpr (detail::check_batch < ShapeA[0],
                Rank == 3
                    ? ShapeB[0]
                    : ShapeA[0] > () &&
                          detail::check_dot<TA, TB, Result, M, KA, KB, N>())
    return dot(a, b, Product{}, precision);
  else
    return Product{};
}

/// The transpose of a 2-D tile.
template <class T, int M, int N>
TILE_OP("trans")
tensor<T, N, M> trans(const tensor<T, M, N> &x) {
  tensor<T, N, M> r;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      r.data()[j * M + i] = x.data()[i * N + j];
  return r;
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// Atomics update global memory through a pointer tile (or one pointer) and
// return the values they replaced. The value (and the mask) broadcast to the
// pointers' shape and convert to the pointee type; lanes whose mask is false
// are left alone and return zero. Programs run one after another in
// emulation, and lanes in row-major order, so a plain read-modify-write is
// atomic there and duplicate addresses all take effect.

/// Memory ordering of an atomic (Triton's `sem`).
enum class mem_order { relaxed, acquire, release, acq_rel };

/// The threads an atomic's ordering is guaranteed to (Triton's `scope`).
enum class mem_scope { gpu, cta, sys };

namespace detail {

enum class atomic_op { add, max, min, bit_and, bit_or, bit_xor, xchg };

/// The element types each atomic takes on the GPU (inventory section 1.14).
template <atomic_op Op, class T> constexpr bool atomic_supports() {
  constexpr bool word = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                        (sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (Op == atomic_op::add)
    return word || std::is_same_v<T, half> || std::is_same_v<T, bfloat16> ||
           std::is_floating_point_v<T>;
  else if constexpr (Op == atomic_op::max || Op == atomic_op::min ||
                     Op == atomic_op::xchg)
    return word || std::is_floating_point_v<T>;
  else
    return word;
}

/// The new value of an atomic read-modify-write. Float max and min follow
/// tile::maximum (NaN ignored); the GPU's integer-compare emulation of them
/// may differ for NaN and -0.0.
template <atomic_op Op, class T> T atomic_update(T old, T value) {
  if constexpr (Op == atomic_op::add)
    return apply<binop::add>(old, value);
  else if constexpr (Op == atomic_op::max)
    return min_max<true>(old, value);
  else if constexpr (Op == atomic_op::min)
    return min_max<false>(old, value);
  else if constexpr (Op == atomic_op::bit_and)
    return apply<binop::bit_and>(old, value);
  else if constexpr (Op == atomic_op::bit_or)
    return apply<binop::bit_or>(old, value);
  else if constexpr (Op == atomic_op::bit_xor)
    return apply<binop::bit_xor>(old, value);
  else
    return value;
}

template <class P> using pointee_t = std::remove_pointer_t<element_t<P>>;

template <class P>
concept pointer_operand = std::is_pointer_v<element_t<P>>;

/// Runs *p = update(*p, values...) for each lane whose mask holds, with the
/// values converted to the pointee type, and returns the old values.
template <class P, class M, class Update, class... V>
auto atomic_rmw(const P &ptrs, const M &mask, Update update,
                const V &...values) {
  using T = pointee_t<P>;
  static_assert(!std::is_const_v<T>, "atomics need a pointer to non-const");
  static_assert(std::is_same_v<element_t<M>, bool>,
                "atomic masks must be bool tiles or bool values");
  constexpr auto shape = operand_traits<std::remove_cvref_t<P>>::shape;
  constexpr bool broadcasts =
      (broadcasts_to(operand_traits<M>::shape, shape) && ... &&
       broadcasts_to(operand_traits<V>::shape, shape));
  static_assert(broadcasts, "cannot broadcast tile shapes");
  if constexpr (!std::is_const_v<T> && broadcasts) {
    return elementwise<T>(
        [update](T *p, bool m, element_t<V>... v) {
          if (!m)
            return T{};
          T old = *p;
          *p = update(old, convert<T>(v)...);
          return old;
        },
        ptrs, mask, values...);
  }
}

} // namespace detail

#define TILE_DETAIL_ATOMIC(NAME, OP)                                           \
  template <class P, class V, class M = bool>                                  \
  requires detail::pointer_operand<P> TILE_OP(#NAME)                           \
  auto NAME(const P &ptrs, const V &value, const M &mask = true,               \
            [[maybe_unused]] mem_order order = mem_order::acq_rel,             \
            [[maybe_unused]] mem_scope scope = mem_scope::gpu) {               \
    using T = std::remove_const_t<detail::pointee_t<P>>;                       \
    constexpr bool supported =                                                 \
        detail::atomic_supports<detail::atomic_op::OP, T>();                   \
    static_assert(supported, #NAME " does not support this element type");     \
    if constexpr (supported)                                                   \
      return detail::atomic_rmw(                                               \
          ptrs, mask, detail::atomic_update<detail::atomic_op::OP, T>, value); \
  }

/// int32, uint32, int64, uint64, half, bfloat16, float, double.
TILE_DETAIL_ATOMIC(atomic_add, add)
/// int32, uint32, int64, uint64, float, double.
TILE_DETAIL_ATOMIC(atomic_max, max)
TILE_DETAIL_ATOMIC(atomic_min, min)
/// int32, uint32, int64, uint64.
TILE_DETAIL_ATOMIC(atomic_and, bit_and)
TILE_DETAIL_ATOMIC(atomic_or, bit_or)
TILE_DETAIL_ATOMIC(atomic_xor, bit_xor)
/// Stores the value; int32, uint32, int64, uint64, float, double.
TILE_DETAIL_ATOMIC(atomic_xchg, xchg)

#undef TILE_DETAIL_ATOMIC

/// Stores val where the memory holds cmp and returns the old values, for any
/// 16-, 32- or 64-bit element type. Values compare bit for bit, as the
/// hardware does: -0.0 differs from 0.0 and a NaN can match itself.
template <class P, class C, class V>
requires detail::pointer_operand<P> TILE_OP("atomic_cas")
auto atomic_cas(const P &ptrs, const C &cmp, const V &value,
                [[maybe_unused]] mem_order order = mem_order::acq_rel,
                [[maybe_unused]] mem_scope scope = mem_scope::gpu) {
  using T = std::remove_const_t<detail::pointee_t<P>>;
  constexpr bool supported =
      detail::is_element_v<T> && !std::is_same_v<T, bool> &&
      (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  static_assert(supported, "atomic_cas does not support this element type");
  if constexpr (supported)
    return detail::atomic_rmw(
        ptrs, true,
        [](T old, T expected, T desired) {
          return std::memcmp(&old, &expected, sizeof(T)) == 0 ? desired : old;
        },
        cmp, value);
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

/// Barrier among the threads of a program (__syncthreads); programs have no
/// threads in emulation.
TILE_OP("debug_barrier") inline void debug_barrier() {}

/// In a kernel launched with `launch_pdl`, waits until the kernel before it
/// in the stream has finished and its writes are visible; what comes before
/// must not read them. Programs run one launch after another in emulation.
TILE_OP("gdc_wait") inline void gdc_wait() {}

/// Lets a kernel launched after this one with `launch_pdl` start its
/// programs once every program of this one has got here (or ended), rather
/// than once they have all ended; they still wait for this kernel's results
/// at their gdc_wait.
TILE_OP("gdc_launch_dependents") inline void gdc_launch_dependents() {}

//===----------------------------------------------------------------------===//
// Printing and assertions
//===----------------------------------------------------------------------===//

namespace detail {

/// Whether device_assert checks: where TILE_DEBUG is defined (tilecc
/// -DTILE_DEBUG, add_tile_kernel's DEBUG, or the emulation's own build).
#ifdef TILE_DEBUG
inline constexpr bool debug_checks = true;
#else
inline constexpr bool debug_checks = false;
#endif

/// Prints v's bits in hexadecimal, two digits per byte (device_print's
/// hex=True).
template <class T> void print_hex(T v) {
  if constexpr (sizeof(T) == 8) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    std::printf("0x%016llx", static_cast<unsigned long long>(bits));
  } else {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    std::printf("0x%0*x", int(2 * sizeof(T)), bits);
  }
}

template <class T> void print_value(T v) {
  if constexpr (std::is_pointer_v<T>)
    std::printf("%p", static_cast<const void *>(v));
  else if constexpr (is_floating_v<T>)
    std::printf("%f", double(convert<float>(v)));
  else if constexpr (std::is_same_v<T, std::int64_t>)
    std::printf("%lld", static_cast<long long>(v));
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    std::printf("%llu", static_cast<unsigned long long>(v));
  else if constexpr (std::is_signed_v<T> || std::is_same_v<T, bool>)
    std::printf("%d", int(v));
  else
    std::printf("%u", unsigned(v));
}

/// The digits of the largest index below n.
constexpr int index_width(int n) {
  int w = 1;
  for (int i = n - 1; i >= 10; i /= 10)
    ++w;
  return w;
}

/// Prints "pid (x, y, z) idx (i, j)" for element k of a tile of type X.
template <class X> void print_position(std::FILE *out, int k) {
  const auto &p = current_program.id;
  std::fprintf(out, "pid (%d, %d, %d) idx (", p[0], p[1], p[2]);
  if constexpr (is_tensor_v<X>) {
    int stride = X::numel;
    for (int d = 0; d < X::rank; ++d) {
      stride /= X::shape[d];
      std::fprintf(out, d ? ", %*d" : "%*d", index_width(X::shape[d]),
                   k / stride % X::shape[d]);
    }
  }
  std::fprintf(out, ")");
}

} // namespace detail

/// How device_print writes values: as numbers, or their bits in
/// hexadecimal (Triton's hex=True: 0x and two digits per byte).
enum class print_format { decimal, hex };
inline constexpr print_format hex = print_format::hex;

/// Prints each element of each value, one line each, as Triton's
/// device_print does: `pid (x, y, z) idx (i, j) prefix: value`, with
/// `(operand n)` after the prefix when there are several values;
/// device_print<tile::hex> prints their bits. On the GPU the lines of
/// different threads come in any order.
template <print_format Format = print_format::decimal, class... A>
TILE_OP("device_print")
void device_print(const char *prefix, const A &...values) {
  std::string p = prefix;
  while (!p.empty() && (p.back() == ' ' || p.back() == ':'))
    p.pop_back();
  const auto &pid = detail::current_program.id;
  if constexpr (sizeof...(A) == 0)
    std::printf("pid (%d, %d, %d) %s\n", pid[0], pid[1], pid[2], p.c_str());
  int operand = 0;
  auto print = [&](const auto &v) {
    using V = std::remove_cvref_t<decltype(v)>;
    constexpr int n = detail::numel_of<V>();
    for (int k = 0; k < n; ++k) {
      detail::print_position<V>(stdout, k);
      std::printf("%s%s", p.empty() ? "" : " ", p.c_str());
      if (sizeof...(A) > 1)
        std::printf(" (operand %d)", operand);
      std::printf(": ");
      if constexpr (Format == print_format::hex)
        detail::print_hex(detail::operand_at<V>(v, k));
      else
        detail::print_value(detail::operand_at<V>(v, k));
      std::printf("\n");
    }
    ++operand;
  };
  (print(values), ...);
}

/// Prints its arguments, constants (string literals, meta-parameters,
/// constexpr values), when tilecc translates the kernel, once per
/// configuration (tl.static_print): `file:line:col: remark: BLOCK 128`.
/// The emulation has no translation step and prints nothing.
template <class... A>
TILE_OP("static_print")
void static_print([[maybe_unused]] const A &...values) {}

/// Stops the program where an element of cond is false (and, with a mask,
/// its element of mask true), reporting message, the file and line of the
/// call, the program and the element; only where TILE_DEBUG is defined, as
/// Triton checks only with debug on. On the GPU it is the runtime's assert
/// failure: the launch, and each one after it, returns cudaErrorAssert.
template <bool Enabled = detail::debug_checks, class C>
TILE_OP("device_assert")
void device_assert(const C &cond, const char *message = "",
                   std::source_location at = std::source_location::current()) {
  if constexpr (Enabled) {
    constexpr int n = detail::numel_of<C>();
    for (int k = 0; k < n; ++k) {
      if (static_cast<bool>(detail::operand_at<C>(cond, k)))
        continue;
      std::fflush(stdout);
      std::fprintf(stderr, "%s:%u: ", at.file_name(), unsigned(at.line()));
      detail::print_position<C>(stderr, k);
      std::fprintf(stderr, ": Assertion `%s` failed.\n", message);
      std::abort();
    }
  }
}

template <bool Enabled = detail::debug_checks, class C, class M>
TILE_OP("device_assert")
void device_assert(const C &cond, const char *message, const M &mask,
                   std::source_location at = std::source_location::current()) {
  device_assert<Enabled>(cond || !mask, message, at);
}

//===----------------------------------------------------------------------===//
// Sorting and gathering
//===----------------------------------------------------------------------===//

namespace detail {

/// The order sort puts values in: NaN after every number (as torch.sort);
/// -0.0 and 0.0 are equal, so their order among themselves is unspecified.
template <class T> bool sorts_before(T a, T b) {
  if constexpr (is_floating_v<T>) {
    const double x = convert<double>(a), y = convert<double>(b);
    return (!std::isnan(x) && std::isnan(y)) || x < y;
  } else {
    return a < b;
  }
}

/// x's lines along dimension dim sorted, the first K of each kept.
template <int K, int Dim, bool Descending, class T, int... D>
auto sorted_lines(const tensor<T, D...> &x) {
  using X = tensor<T, D...>;
  static_assert(is_element_v<T>, "sort takes a tile of numbers");
  constexpr int dim = Dim < 0 ? Dim + X::rank : Dim;
  static_assert(dim >= 0 && dim < X::rank, "invalid dimension");
  constexpr auto shape = [] {
    auto s = X::shape;
    s[dim >= 0 && dim < X::rank ? dim : 0] = K;
    return s;
  }();
  tensor_with_shape_t<T, shape> r;
  if constexpr (dim >= 0 && dim < X::rank) {
    constexpr int n = X::shape[dim];
    static_assert(K >= 1 && K <= n, "topk keeps 1 to n values of a line");
    int inner = 1;
    for (int d = dim + 1; d < X::rank; ++d)
      inner *= X::shape[d];
    std::array<T, n> line;
    for (int outer = 0; outer < X::numel / (n * inner); ++outer)
      for (int i = 0; i < inner; ++i) {
        for (int j = 0; j < n; ++j)
          line[j] = x.data()[(outer * n + j) * inner + i];
        std::sort(line.begin(), line.end(), [](T a, T b) {
          return Descending ? sorts_before(b, a) : sorts_before(a, b);
        });
        for (int j = 0; j < K; ++j)
          r.data()[(outer * K + j) * inner + i] = line[j];
      }
  }
  return r;
}

} // namespace detail

/// x's values along Dim (the last by default) in ascending order, or
/// descending (tl.sort). NaN sorts after every number.
template <int Dim = -1, bool Descending = false, class T, int... D>
TILE_OP("sort")
auto sort(const tensor<T, D...> &x) {
  constexpr int dim = Dim < 0 ? Dim + int(sizeof...(D)) : Dim;
  constexpr int n =
      dim >= 0 && dim < int(sizeof...(D)) ? tensor<T, D...>::shape[dim] : 1;
  return detail::sorted_lines<n, Dim, Descending>(x);
}

/// The K largest values along Dim (the last by default), largest first
/// (tl.topk).
template <int K, int Dim = -1, class T, int... D>
TILE_OP("topk")
auto topk(const tensor<T, D...> &x) {
  return detail::sorted_lines<K, Dim, true>(x);
}

/// out's element at position p is src's at p with its coordinate along Axis
/// replaced by index's element at p (tl.gather). index has src's shape but
/// along Axis. An index outside src stops the program in emulation, and on
/// the GPU where TILE_DEBUG is defined (elsewhere it wraps around).
template <int Axis, bool Checked = detail::debug_checks, class T, class I,
          int... S, int... D>
TILE_OP("gather")
tensor<T, D...> gather(
    const tensor<T, S...> &src, const tensor<I, D...> &index,
    std::source_location at = std::source_location::current()) {
  using Src = tensor<T, S...>;
  using Out = tensor<T, D...>;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "gather's index is an integer tile");
  static_assert(Src::rank == Out::rank,
                "gather's index has the rank of its source");
  constexpr int axis = Axis < 0 ? Axis + Src::rank : Axis;
  static_assert(axis >= 0 && axis < Src::rank, "invalid axis");
  static_assert(
      [] {
        for (int d = 0; d < Src::rank && d < Out::rank; ++d)
          if (d != axis && Src::shape[d] != Out::shape[d])
            return false;
        return true;
      }(),
      "gather's index has its source's shape but along the axis");
  Out r;
  if constexpr (std::is_integral_v<I> && Src::rank == Out::rank && axis >= 0 &&
                axis < Src::rank) {
    int inner = 1;
    for (int d = axis + 1; d < Src::rank; ++d)
      inner *= Src::shape[d];
    for (int k = 0; k < Out::numel; ++k) {
      const auto i = index.data()[k];
      device_assert<true>(std::cmp_greater_equal(i, 0) &&
                              std::cmp_less(i, Src::shape[axis]),
                          "gather: index out of range", at);
      const int outer = k / (inner * Out::shape[axis]);
      r.data()[k] =
          src.data()[(outer * Src::shape[axis] + int(i)) * inner + k % inner];
    }
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors and block pointers
//===----------------------------------------------------------------------===//

/// Which dimensions a block pointer's load or store keeps inside the tensor
/// (Triton's boundary_check): `tile::load(p, tile::boundary_check<0, 1>)`.
template <int... Dims> struct boundary_check_t {};
template <int... Dims>
inline constexpr boundary_check_t<Dims...> boundary_check{};

/// What a block pointer's load reads outside the tensor (padding_option).
enum class padding { zero, nan };

template <class T, int... Block> class tensor_descriptor;
template <class T, int... Block> class block_ptr;

namespace detail {

/// A box of Block elements at offsets in a tensor (shape, strides): the
/// element pointers, and which elements are inside along the dimensions in
/// Checked. An element outside along another dimension stops the program:
/// the kernel said it never leaves the tensor there.
template <int... Block, class T, std::size_t R>
auto box(T *base, const int (&shape)[R], const int (&strides)[R],
         const std::array<int, R> &offsets, unsigned checked,
         std::source_location at) {
  using P = tensor<T *, Block...>;
  std::pair<P, tensor<bool, Block...>> r;
  for (int k = 0; k < P::numel; ++k) {
    bool inside = true;
    std::int64_t element = 0;
    for (int d = int(R) - 1, rest = k; d >= 0; --d) {
      const std::int64_t i = std::int64_t(offsets[d]) + rest % P::shape[d];
      rest /= P::shape[d];
      const bool in = i >= 0 && i < shape[d];
      if (!(checked >> d & 1))
        device_assert<true>(in,
                            "block_ptr: the box leaves the tensor along a "
                            "dimension boundary_check does not name",
                            at);
      inside = inside && in;
      element += i * strides[d];
    }
    r.first.data()[k] = inside ? base + element : base;
    r.second.data()[k] = inside;
  }
  return r;
}

/// The tensor's elements lie within 2^31 of its base (the offsets the GPU
/// computes are 32-bit).
template <std::size_t R>
void check_tensor(const int (&shape)[R], const int (&strides)[R],
                  std::source_location at) {
  std::int64_t last = 0, first = 0;
  for (std::size_t d = 0; d < R; ++d) {
    device_assert<true>(shape[d] >= 0, "a tensor's shape is not negative", at);
    const std::int64_t reach = std::int64_t(shape[d] - 1) * strides[d];
    (reach > 0 ? last : first) += shape[d] > 0 ? reach : 0;
  }
  device_assert<true>(last <= INT32_MAX && first >= INT32_MIN,
                      "a tensor descriptor or block pointer addresses its "
                      "elements with 32-bit offsets",
                      at);
}

template <int... Dims> constexpr unsigned dimension_bits(int rank) {
  return (0u | ... | (1u << (Dims < 0 ? Dims + rank : Dims)));
}

template <int Rank, int... Dims> constexpr bool valid_dimensions() {
  return ((Dims >= -Rank && Dims < Rank) && ...);
}

} // namespace detail

/// A tensor in global memory, read and written in boxes of shape Block
/// (tl.make_tensor_descriptor): `desc.load({m, k})` is the box whose first
/// element is (m, k). Where a box reaches outside the tensor, loads read
/// zeros and stores and atomics leave memory alone. Strides count elements;
/// the last is 1. On sm_90 a 2-D descriptor's loads and stores become TMA
/// copies where the launch's alignment allows.
template <class T, int... Block> class tensor_descriptor {
public:
  static constexpr int rank = sizeof...(Block);
  static_assert(rank >= 1 && rank <= 5, "descriptors have 1 to 5 dimensions");
  using coordinates = std::array<int, rank>;

  tensor_descriptor() = default;
  /// The host's descriptor of the tensor, for a kernel parameter: its last
  /// stride must be 1 and its elements lie within 2^31 of its base (the
  /// launch wrapper refuses others).
  tensor_descriptor(const host_tensor_descriptor<T, rank> &h,
                    std::source_location at = std::source_location::current())
      : base_(h.base) {
    std::copy(h.shape, h.shape + rank, shape_);
    std::copy(h.strides, h.strides + rank, strides_);
    device_assert<true>(strides_[rank - 1] == 1,
                        "a tensor descriptor's last stride is 1", at);
    detail::check_tensor(shape_, strides_, at);
  }

  TILE_OP("descriptor_load")
  tensor<std::remove_const_t<T>, Block...>
  load(const coordinates &offsets,
       std::source_location at = std::source_location::current()) const {
    auto [ptrs, inside] = box(offsets, at);
    return tile::load(ptrs, inside);
  }

  template <class V>
  TILE_OP("descriptor_store")
  void store(const coordinates &offsets, const V &value,
             std::source_location at = std::source_location::current()) const {
    auto [ptrs, inside] = box(offsets, at);
    tile::store(ptrs, value, inside);
  }

  /// The tensor's extent and stride along dimension d (desc.shape[d],
  /// desc.strides[d]); in a kernel, d is a constant.
  TILE_OP("descriptor_shape") int shape(int d) const {
    return shape_[checked_dimension(d)];
  }
  TILE_OP("descriptor_stride") int stride(int d) const {
    return strides_[checked_dimension(d)];
  }

#define TILE_DETAIL_DESCRIPTOR_ATOMIC(NAME)                                    \
  template <class V>                                                           \
  TILE_OP("descriptor_" #NAME)                                                 \
  void NAME(const coordinates &offsets, const V &value,                        \
            std::source_location at = std::source_location::current()) const { \
    auto [ptrs, inside] = box(offsets, at);                                    \
    tile::NAME(ptrs, value, inside, mem_order::relaxed);                       \
  }
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_add)
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_min)
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_max)
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_and)
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_or)
  TILE_DETAIL_DESCRIPTOR_ATOMIC(atomic_xor)
#undef TILE_DETAIL_DESCRIPTOR_ATOMIC

private:
  template <int... B, class U, bool Checked>
  friend tensor_descriptor<U, B...>
  make_tensor_descriptor(U *, const std::array<int, sizeof...(B)> &,
                         const std::array<int, sizeof...(B)> &,
                         std::source_location);

  auto box(const coordinates &offsets, std::source_location at) const {
    return detail::box<Block...>(base_, shape_, strides_, offsets,
                                 (1u << rank) - 1, at);
  }

  static int checked_dimension(int d) {
    device_assert<true>(d >= 0 && d < rank, "the descriptor has no such "
                                            "dimension");
    return d;
  }

  T *base_;
  int shape_[rank];
  int strides_[rank];
};

/// The descriptor of the tensor at base of the given shape and strides, in
/// boxes of Block (Triton's block_shape). Its elements lie within 2^31 of
/// base: checked in emulation, and on the GPU where TILE_DEBUG is defined.
template <int... Block, class T, bool Checked = detail::debug_checks>
TILE_OP("make_tensor_descriptor")
tensor_descriptor<T, Block...> make_tensor_descriptor(
    T *base, const std::array<int, sizeof...(Block)> &shape,
    const std::array<int, sizeof...(Block)> &strides,
    std::source_location at = std::source_location::current()) {
  tensor_descriptor<T, Block...> d;
  d.base_ = base;
  std::copy(shape.begin(), shape.end(), d.shape_);
  std::copy(strides.begin(), strides.end(), d.strides_);
  device_assert<true>(strides.back() == 1,
                      "a tensor descriptor's last stride is 1", at);
  detail::check_tensor(d.shape_, d.strides_, at);
  return d;
}

/// A box of shape Block at offsets in a tensor (tl.make_block_ptr), moved
/// by advance and read and written by load and store, which keep the
/// dimensions boundary_check names inside the tensor.
template <class T, int... Block> class block_ptr {
public:
  static constexpr int rank = sizeof...(Block);
  static_assert(rank >= 1 && rank <= 5,
                "block pointers have 1 to 5 dimensions");
  using coordinates = std::array<int, rank>;

private:
  template <int... B, class U, bool Checked>
  friend block_ptr<U, B...>
  make_block_ptr(U *, const std::array<int, sizeof...(B)> &,
                 const std::array<int, sizeof...(B)> &,
                 const std::array<int, sizeof...(B)> &, std::source_location);
  template <class U, int... B>
  friend block_ptr<U, B...>
  advance(const block_ptr<U, B...> &,
          const typename block_ptr<U, B...>::coordinates &);
  template <cache C, evict E, class U, int... B, int... Checked>
  friend tensor<std::remove_const_t<U>, B...>
  load(const block_ptr<U, B...> &, boundary_check_t<Checked...>, padding,
       std::source_location);
  template <cache C, evict E, class U, int... B, class V, int... Checked>
  friend void store(const block_ptr<U, B...> &, const V &,
                    boundary_check_t<Checked...>, std::source_location);

  auto box(unsigned checked, std::source_location at) const {
    coordinates offsets;
    std::copy(offsets_, offsets_ + rank, offsets.begin());
    return detail::box<Block...>(base_, shape_, strides_, offsets, checked, at);
  }

  T *base_;
  int shape_[rank];
  int strides_[rank];
  int offsets_[rank];
};

/// The block pointer to the box of shape Block at offsets in the tensor at
/// base of the given shape and strides. (Triton's order argument is not
/// needed: the layout follows the strides.) Its elements lie within 2^31
/// of base, checked as for make_tensor_descriptor.
template <int... Block, class T, bool Checked = detail::debug_checks>
TILE_OP("make_block_ptr")
block_ptr<T, Block...> make_block_ptr(
    T *base, const std::array<int, sizeof...(Block)> &shape,
    const std::array<int, sizeof...(Block)> &strides,
    const std::array<int, sizeof...(Block)> &offsets,
    std::source_location at = std::source_location::current()) {
  block_ptr<T, Block...> p;
  p.base_ = base;
  std::copy(shape.begin(), shape.end(), p.shape_);
  std::copy(strides.begin(), strides.end(), p.strides_);
  std::copy(offsets.begin(), offsets.end(), p.offsets_);
  detail::check_tensor(p.shape_, p.strides_, at);
  return p;
}

/// p moved by delta elements along each dimension (tl.advance).
template <class T, int... Block>
TILE_OP("advance")
block_ptr<T, Block...> advance(
    const block_ptr<T, Block...> &p,
    const typename block_ptr<T, Block...>::coordinates &delta) {
  block_ptr<T, Block...> r = p;
  for (int d = 0; d < r.rank; ++d)
    r.offsets_[d] += delta[d];
  return r;
}

/// The box p points at. Along the dimensions Checked names, elements
/// outside the tensor read zero (padding::nan: NaN); along the others the
/// box must lie inside it.
template <cache C = cache::normal, evict E = evict::normal, class T,
          int... Block, int... Checked>
TILE_OP("block_load")
tensor<std::remove_const_t<T>, Block...> load(
    const block_ptr<T, Block...> &p, boundary_check_t<Checked...> = {},
    padding pad = padding::zero,
    std::source_location at = std::source_location::current()) {
  static_assert(detail::valid_dimensions<sizeof...(Block), Checked...>(),
                "boundary_check names a dimension the block pointer lacks");
  using V = std::remove_const_t<T>;
  auto [ptrs, inside] =
      p.box(detail::dimension_bits<Checked...>(sizeof...(Block)), at);
  if constexpr (detail::is_floating_v<V>) {
    if (pad == padding::nan)
      return load<C, E>(ptrs, inside, std::numeric_limits<float>::quiet_NaN());
  }
  device_assert<true>(pad == padding::zero,
                      "padding::nan pads floating-point tiles only", at);
  return load<C, E>(ptrs, inside);
}

/// Writes value (a tile of the box's shape, or a scalar) to the box p
/// points at: along the dimensions Checked names, not outside the tensor.
template <cache C = cache::normal, evict E = evict::normal, class T,
          int... Block, class V, int... Checked>
TILE_OP("block_store")
void store(const block_ptr<T, Block...> &p, const V &value,
           boundary_check_t<Checked...> = {},
           std::source_location at = std::source_location::current()) {
  static_assert(detail::valid_dimensions<sizeof...(Block), Checked...>(),
                "boundary_check names a dimension the block pointer lacks");
  auto [ptrs, inside] =
      p.box(detail::dimension_bits<Checked...>(sizeof...(Block)), at);
  store<C, E>(ptrs, value, inside);
}

//===----------------------------------------------------------------------===//
// Inline assembly
//===----------------------------------------------------------------------===//

/// Runs the PTX text asm_text on the elements of the arguments, broadcast
/// together (tl.inline_asm_elementwise with is_pure): $0 is the result, of
/// type R, and $1, $2, ... the arguments. constraints gives each its
/// register, "=r,r,r": r for 32 bits, l 64, h 16, f a float, d a double,
/// which must be the element's width (the bits move unchanged).
/// With Pack > 1 (a power of two up to 16) one run takes Pack elements of a
/// thread: those narrower than 32 bits side by side in registers of up to
/// 32 bits (the first in the low bits), wider ones a register each; the
/// result's registers come first ("=r,=r,r,r" for two fp32 elements), then
/// each argument's. The text must compute each element from the same
/// element of the arguments, and nothing else. The emulation, which cannot
/// run it, calls emulate on the elements instead. Not on AMD GPUs.
template <class R, int Pack = 1, class F, class... A>
TILE_OP("inline_asm_elementwise")
auto inline_asm_elementwise([[maybe_unused]] const char *asm_text,
                            [[maybe_unused]] const char *constraints, F emulate,
                            const A &...args) {
  static_assert(sizeof...(A) >= 1, "inline assembly takes an argument");
  static_assert(Pack >= 1 && Pack <= 16 && (Pack & (Pack - 1)) == 0,
                "pack is a power of two from 1 to 16");
  return detail::elementwise<R>(
      [&](detail::element_t<A>... v) { return static_cast<R>(emulate(v...)); },
      args...);
}

//===----------------------------------------------------------------------===//
// Compiler hints
//===----------------------------------------------------------------------===//

/// Lets the compiler take cond to hold from here on (tl.assume): nvcc and
/// hipcc may optimize on it (a stride known positive, an index known in
/// range), so a false assumption gives undefined results. With TILE_DEBUG
/// it is checked instead, on the GPU and in emulation, as device_assert
/// checks.
template <bool Checked = detail::debug_checks, class C>
TILE_OP("assume")
void assume(const C &cond,
            std::source_location at = std::source_location::current()) {
  static_assert(std::is_same_v<C, bool>, "assume takes a bool value");
  device_assert<Checked>(cond, "assume: the condition is false", at);
}

// What the user knows of a value and the compiler cannot prove (a size
// passed as a parameter that is always a multiple of 16): each is x itself,
// and tells tilecc's axis analysis, so that accesses through it vectorize.
// N is one power of two for every dimension, or one per dimension.

/// Each element of x is a multiple of N (tl.multiple_of). With TILE_DEBUG,
/// an integer x is checked (each element a multiple of the smallest N), on
/// the GPU and in emulation.
template <int... N, class T, bool Checked = detail::debug_checks>
requires(sizeof...(N) > 0) TILE_OP("multiple_of")
T multiple_of(const T &x) {
  using E = detail::element_t<T>;
  if constexpr (Checked && std::is_integral_v<E> && !std::is_same_v<E, bool>) {
    constexpr int smallest = std::min({N...});
    constexpr int n = detail::numel_of<T>();
    for (int k = 0; k < n; ++k) {
      const E v = detail::operand_at<T>(x, k);
      if (v % E(smallest) != 0) {
        std::fflush(stdout);
        std::fprintf(stderr,
                     "multiple_of: a value is not a multiple of %d (%lld)\n",
                     smallest, static_cast<long long>(v));
        std::abort();
      }
    }
  }
  return x;
}

/// x is made of runs of N consecutive values, each run starting at a
/// multiple of N along its dimension (tl.max_contiguous).
template <int... N, class T>
requires(sizeof...(N) > 0) TILE_OP("max_contiguous")
T max_contiguous(const T &x) { return x; }

//===----------------------------------------------------------------------===//
// Emulation
//===----------------------------------------------------------------------===//

namespace emulate {

/// Runs every program of the grid one after another on the calling thread,
/// x fastest, like TRITON_INTERPRET=1. The arguments are converted to the
/// kernel's parameter types once, then copied into each program.
template <class... P, class... A>
void launch(grid g, void (*kernel)(P...), A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "launch needs one argument per kernel parameter");
  std::tuple<P...> params{std::forward<A>(args)...};
  // Restored on exit so that a launch from inside an emulated program (or a
  // later host call to program_id) sees the surrounding state.
  struct restore {
    detail::program_state saved = detail::current_program;
    ~restore() { detail::current_program = saved; }
  } guard;
  for (int z = 0; z < g.z; ++z)
    for (int y = 0; y < g.y; ++y)
      for (int x = 0; x < g.x; ++x) {
        detail::current_program = {{x, y, z}, {g.x, g.y, g.z}};
        std::apply(kernel, params);
      }
}

} // namespace emulate
} // namespace tile

#endif // TILE_TILE_HPP
