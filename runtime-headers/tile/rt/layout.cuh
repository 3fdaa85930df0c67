// Distributed layouts: which thread of a program holds which element of a
// tile. Every generated kernel names its layouts with these types; element e
// of a thread's register array sits at coord(e, d) along dimension d.
//
// blocked: each thread holds SizePerThread contiguous elements per
// dimension; a warp's ThreadsPerWarp tile WarpReps times and then the
// program's WarpsPerCTA tile the tensor, repeating when the tensor is larger
// and wrapping (replicating) when it is smaller. Order lists dimensions
// fastest first. A thread's elements are numbered by their SizePerThread
// digits first, then their repetition digits (the warp's own repetitions
// fastest), both in Order. WarpReps is 1 except in the accumulator layouts
// of tensor-core instructions, where a warp owns a block of 16 rows (rows g
// and g + 8 of an mma fragment) and a run of 8-column chunks. Warps are
// numbered in WarpOrder, Order unless said: a wgmma accumulator whose
// warps split N too numbers them M first, so that each warpgroup's four
// warps stack along M.
//
// sliced<Dim, Parent>: the layout of a tile that gains dimension Dim by
// expand_dims (or loses it by a reduction): Parent's elements with the Dim
// digits dropped. Parent's shape is 1 along Dim.
//
// All element-index arithmetic is constexpr, and what depends on the
// element alone is tabulated (see tabulated): with unrolled loops over e the
// compiler folds it, leaving only the per-thread base.
#pragma once

// Layout arithmetic runs at compile time and in device code alike.
#define TILE_RT_HD __host__ __device__

namespace tile::rt {

namespace detail {
template <int N> struct int_table { int v[N]; };
template <class F, int N> TILE_RT_HD constexpr int_table<N> tabulate() {
  int_table<N> t{};
  for (int i = 0; i < N; ++i)
    t.v[i] = F::value(i);
  return t;
}
template <class F, int N> __device__ int look_up(int i) {
  static constexpr int_table<N> table = tabulate<F, N>();
  return table.v[i];
}
} // namespace detail

/// F::value(i) for i in [0, N), F::value being constexpr. Generated code
/// calls element-index functions inside loops over a thread's elements that
/// the device compiler unrolls, so i is not a constant to the C++ front end:
/// a call would be inlined, loops and all, and folded once per element by
/// cicc, which made such folding most of nvcc's time on large kernels. The
/// front end computes the table instead, and the one load per element from
/// it folds at once.
template <class F, int N> TILE_RT_HD constexpr int tabulated(int i) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if (!__builtin_is_constant_evaluated())
    return detail::look_up<F, N>(i);
#endif
  return F::value(i);
}

template <int R> struct dims {
  int v[R];
  TILE_RT_HD constexpr int operator[](int i) const { return v[i]; }
  static constexpr int rank = R;
};
template <class... T> dims(T...) -> dims<sizeof...(T)>;

template <int R> TILE_RT_HD constexpr dims<R> ones() {
  dims<R> d{};
  for (int i = 0; i < R; ++i)
    d.v[i] = 1;
  return d;
}

/// Per-dimension digits of one element (up to rank 4).
struct digits {
  int s[4] = {}; // which of the SizePerThread elements
  int r[4] = {}; // which repetition
};

namespace detail {
/// A 2-D layout parameter for the transposed tile: per-dimension values
/// swap, and an order of dimensions names each as the other.
template <int R> TILE_RT_HD constexpr dims<2> swapped(dims<R> d) {
  static_assert(R == 2, "a 2-D tile");
  return {d[1], d[0]};
}
template <int R> TILE_RT_HD constexpr dims<2> renamed(dims<R> order) {
  static_assert(R == 2, "a 2-D tile");
  return {1 - order[0], 1 - order[1]};
}
} // namespace detail

template <dims Shape, dims SizePerThread, dims ThreadsPerWarp, dims WarpsPerCTA,
          dims Order, dims WarpReps = ones<Shape.rank>(),
          dims WarpOrder = Order>
struct blocked {
  static constexpr int rank = Shape.rank;
  static constexpr int slice_dim = -1;
  using parent = blocked;

  /// The layout of the transposed tile (transposed_t), of a 2-D one.
  template <int R = rank>
  using transposed =
      blocked<detail::swapped<R>(Shape), detail::swapped<R>(SizePerThread),
              detail::swapped<R>(ThreadsPerWarp),
              detail::swapped<R>(WarpsPerCTA), detail::renamed<R>(Order),
              detail::swapped<R>(WarpReps), detail::renamed<R>(WarpOrder)>;

  TILE_RT_HD static constexpr int shape(int d) { return Shape[d]; }
  /// Elements one pass of the whole program covers along d.
  TILE_RT_HD static constexpr int numel() {
    int n = 1;
    for (int d = 0; d < rank; ++d)
      n *= Shape[d];
    return n;
  }
  TILE_RT_HD static constexpr int threads_per_warp(int d) {
    return ThreadsPerWarp[d];
  }
  TILE_RT_HD static constexpr int warps_per_cta(int d) {
    return WarpsPerCTA[d];
  }
  TILE_RT_HD static constexpr int size_per_thread(int d) {
    return SizePerThread[d];
  }
  /// How far apart, in lanes, neighbours along d are.
  TILE_RT_HD static constexpr int lane_stride(int d) {
    int stride = 1;
    for (int i = 0; i < rank && Order[i] != d; ++i)
      stride *= ThreadsPerWarp[Order[i]];
    return stride;
  }
  TILE_RT_HD static constexpr int warp_reps(int d) { return WarpReps[d]; }
  /// The i-th fastest dimension in which a thread's elements are numbered,
  /// and in which warps are.
  TILE_RT_HD static constexpr int order(int i) { return Order[i]; }
  TILE_RT_HD static constexpr int warp_order(int i) { return WarpOrder[i]; }
  /// Elements one warp covers along d, and the whole program.
  TILE_RT_HD static constexpr int warp_tile(int d) {
    return SizePerThread[d] * ThreadsPerWarp[d] * WarpReps[d];
  }
  TILE_RT_HD static constexpr int tile(int d) {
    return warp_tile(d) * WarpsPerCTA[d];
  }
  /// Repetitions per thread along d: the warp's own, times the program's.
  TILE_RT_HD static constexpr int reps(int d) {
    return WarpReps[d] * (Shape[d] > tile(d) ? Shape[d] / tile(d) : 1);
  }
  TILE_RT_HD static constexpr int warp_threads() {
    int n = 1;
    for (int d = 0; d < rank; ++d)
      n *= ThreadsPerWarp[d];
    return n;
  }

  /// Elements per thread, leaving out dimension Skip (-1: none).
  TILE_RT_HD static constexpr int elems(int skip = -1) {
    int n = 1;
    for (int d = 0; d < rank; ++d)
      if (d != skip)
        n *= SizePerThread[d] * reps(d);
    return n;
  }
  TILE_RT_HD static constexpr digits decompose(int e, int skip = -1) {
    digits g;
    for (int i = 0; i < rank; ++i)
      if (int o = Order[i]; o != skip) {
        g.s[o] = e % SizePerThread[o];
        e /= SizePerThread[o];
      }
    for (int i = 0; i < rank; ++i)
      if (int o = Order[i]; o != skip) {
        g.r[o] = e % reps(o);
        e /= reps(o);
      }
    return g;
  }
  /// Digits of element e in the parent's dimensions (here: its own).
  TILE_RT_HD static constexpr digits parent_digits(int e) {
    return decompose(e);
  }
  TILE_RT_HD static constexpr int compose(const digits &g, int skip = -1) {
    int e = 0, scale = 1;
    for (int i = 0; i < rank; ++i)
      if (int o = Order[i]; o != skip) {
        e += g.s[o] * scale;
        scale *= SizePerThread[o];
      }
    for (int i = 0; i < rank; ++i)
      if (int o = Order[i]; o != skip) {
        e += g.r[o] * scale;
        scale *= reps(o);
      }
    return e;
  }

  /// This thread's index along d among ThreadsPerWarp, and its warp's
  /// index along d among WarpsPerCTA.
  __device__ static int lane_pos(int d) {
    int t = threadIdx.x % warp_threads();
    for (int i = 0; i < rank; ++i) {
      int o = Order[i];
      if (o == d)
        return t % ThreadsPerWarp[o];
      t /= ThreadsPerWarp[o];
    }
    return 0;
  }
  __device__ static int warp_pos(int d) {
    int w = threadIdx.x / warp_threads();
    for (int i = 0; i < rank; ++i) {
      int o = WarpOrder[i];
      if (o == d)
        return w % WarpsPerCTA[o];
      w /= WarpsPerCTA[o];
    }
    return 0;
  }

  /// Position along d of the element with digits g relative to the
  /// thread's first element, and of the thread's first element.
  TILE_RT_HD static constexpr int element_offset(const digits &g, int d) {
    int warp_rep = g.r[d] % WarpReps[d], rep = g.r[d] / WarpReps[d];
    return rep * tile(d) + warp_rep * ThreadsPerWarp[d] * SizePerThread[d] +
           g.s[d];
  }
  __device__ static int thread_offset(int d) {
    return warp_pos(d) * warp_tile(d) + lane_pos(d) * SizePerThread[d];
  }
  /// element_offset of element i / rank (numbered without dimension Skip)
  /// along dimension i % rank.
  template <int Skip> struct element_offsets {
    TILE_RT_HD static constexpr int value(int i) {
      return element_offset(decompose(i / rank, Skip), i % rank);
    }
  };
  /// Position along d, before wrapping, of this thread's element e
  /// numbered without dimension Skip.
  template <int Skip = -1>
  __device__ static int element_position(int e, int d) {
    return tabulated<element_offsets<Skip>, elems(Skip) * rank>(e * rank + d) +
           thread_offset(d);
  }
  __device__ static int wrap(int c, int d) {
    return tile(d) > Shape[d] ? c % Shape[d] : c;
  }
  /// Coordinate along d of this thread's element e.
  __device__ static int coord(int e, int d) {
    return wrap(element_position(e, d), d);
  }

  /// Whether the program's threads tile the shape without wrapping, so
  /// that no thread holds a copy.
  TILE_RT_HD static constexpr bool covers_exactly() {
    for (int d = 0; d < rank; ++d)
      if (Shape[d] % tile(d) != 0)
        return false;
    return true;
  }

  /// Whether this thread's copy of its element e (numbered without
  /// dimension Skip) is the one that acts (stores, atomics): a layout larger
  /// than its tile wraps, and the copies past the tile's end do not.
  template <int Skip = -1> __device__ static bool owns_element(int e) {
    if constexpr (covers_exactly())
      return true;
    bool own = true;
    for (int d = 0; d < rank; ++d)
      own = own && element_position<Skip>(e, d) < Shape[d];
    return own;
  }
  __device__ static bool owns(int e) { return owns_element(e); }
};

template <int Dim, class Parent> struct sliced {
  static constexpr int rank = Parent::rank - 1;
  static constexpr int slice_dim = Dim;
  using parent = Parent;
  /// Parent dimension of this layout's dimension d.
  TILE_RT_HD static constexpr int pdim(int d) { return d < Dim ? d : d + 1; }
  TILE_RT_HD static constexpr int shape(int d) {
    return Parent::shape(pdim(d));
  }
  TILE_RT_HD static constexpr int elems() { return Parent::elems(Dim); }
  TILE_RT_HD static constexpr int numel() {
    int n = 1;
    for (int d = 0; d < rank; ++d)
      n *= shape(d);
    return n;
  }
  /// Digits in this layout's own dimensions.
  TILE_RT_HD static constexpr digits decompose(int e) {
    digits p = Parent::decompose(e, Dim), g;
    for (int d = 0; d < rank; ++d) {
      g.s[d] = p.s[pdim(d)];
      g.r[d] = p.r[pdim(d)];
    }
    return g;
  }
  TILE_RT_HD static constexpr digits parent_digits(int e) {
    return Parent::decompose(e, Dim);
  }
  TILE_RT_HD static constexpr int compose(const digits &g) {
    digits p;
    for (int d = 0; d < rank; ++d) {
      p.s[pdim(d)] = g.s[d];
      p.r[pdim(d)] = g.r[d];
    }
    return Parent::compose(p, Dim);
  }
  __device__ static int coord(int e, int d) {
    return Parent::wrap(Parent::template element_position<Dim>(e, pdim(d)),
                        pdim(d));
  }
  /// The parent's tile is 1 wide along the removed dimension, so threads
  /// away from its first position hold copies.
  __device__ static bool owns(int e) {
    return Parent::template owns_element<Dim>(e);
  }
};

namespace detail {
template <class Src, class Dst> struct broadcast_source {
  TILE_RT_HD static constexpr int value(int e) {
    // Src lacks Dst's dimension slice_dim only when it is one rank lower
    // (expand_dims); a slice of Dst's rank (two slices of one parent) has
    // every dimension.
    constexpr bool expands = Src::rank < Dst::rank;
    digits p = Dst::decompose(e), g;
    for (int d = 0, s = 0; d < Dst::rank; ++d) {
      if (expands && d == Src::slice_dim)
        continue;
      g.s[s] = p.s[d];
      g.r[s] = Src::shape(s) == 1 ? 0 : p.r[d];
      ++s;
    }
    return Src::compose(g);
  }
};
} // namespace detail

/// The element of Src that element e of Dst copies, where Dst is Src
/// broadcast: Src has Dst's layout parameters, with size-1 dimensions where
/// Dst is larger, and may lack one dimension altogether (a slice of Dst's
/// layout, for expand_dims). Covers any chain of expand_dims and broadcast.
template <class Src, class Dst>
TILE_RT_HD constexpr int broadcast_index(int e) {
  return tabulated<detail::broadcast_source<Src, Dst>, Dst::elems()>(e);
}

/// How many of a thread's elements of layout L, numbered consecutively from
/// a multiple of that count, are neighbours along dimension d: a blocked
/// layout numbers its SizePerThread digits first, fastest dimension first.
template <class L> TILE_RT_HD constexpr int run_along(int d) {
  if constexpr (L::slice_dim >= 0)
    return 1;
  else
    return L::order(0) == d ? L::size_per_thread(d) : 1;
}

/// The layout of the transpose of a 2-D tile in blocked layout L that
/// leaves every element in the register it was in: L with its dimensions
/// swapped. A thread numbers its elements, and lanes and warps are
/// numbered, by Order and WarpOrder, which swap with the rest.
template <class L> using transposed_t = typename L::template transposed<>;

/// Row-major position of this thread's element e in the whole tile.
template <class L> __device__ int linear_index(int e) {
  int idx = 0;
  for (int d = 0; d < L::rank; ++d)
    idx = idx * L::shape(d) + L::coord(e, d);
  return idx;
}

} // namespace tile::rt
