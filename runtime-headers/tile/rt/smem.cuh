// Operand tiles in shared memory for tensor cores, and pipeline stages that
// threads fill for themselves. A Rows x Cols tile is
// stored as slabs of at most 128 bytes per row (slab s holds columns
// [s * SlabCols, (s + 1) * SlabCols) of every row, rows one after another),
// and within each 8-row group of a slab the 16-byte chunks are XOR-swizzled
// by the row: the canonical layouts of wgmma's 128/64/32-byte swizzle
// modes (and TMA's), under which ldmatrix and 16-byte cp.async are also
// free of bank conflicts. Tiles start 1024-byte aligned.
#pragma once

#include "tile/rt/layout.cuh"
#include "tile/rt/memory.cuh"

namespace tile::rt {

template <class T, int Rows, int Cols> struct smem_tile {
  static constexpr int rows = Rows, cols = Cols;
  static constexpr int slab_cols =
      Cols * int(sizeof(T)) < 128 ? Cols : 128 / int(sizeof(T));
  static constexpr int row_bytes = slab_cols * int(sizeof(T));
  static constexpr int slab_elems = Rows * slab_cols;
  static constexpr int elems = Rows * Cols;
  static_assert(Cols % slab_cols == 0 && row_bytes % 16 == 0,
                "rows of whole 16-byte chunks");

  T *base;

  /// Element offset of (r, c) from base.
  __device__ static constexpr int offset(int r, int c) {
    int o = (r * slab_cols + c % slab_cols) * int(sizeof(T));
    o ^= ((o >> 7) & (row_bytes / 16 - 1)) << 4;
    return (c / slab_cols) * slab_elems + o / int(sizeof(T));
  }
  __device__ T &operator()(int r, int c) const { return base[offset(r, c)]; }
  __device__ T *at(int r, int c) const { return base + offset(r, c); }
  /// Where this thread's element e of a tile in layout L goes; Swap: the
  /// tile is stored transposed (L's dimension 0 is contiguous here).
  template <class L, bool Swap = false> __device__ T *at(int e) const {
    return Swap ? at(L::coord(e, 1), L::coord(e, 0))
                : at(L::coord(e, 0), L::coord(e, 1));
  }

  /// How many elements a thread of layout L moves with one access: the
  /// neighbours L numbers consecutively along the tile's rows (L's dimension
  /// 1, or 0 when Swap), at most 16 bytes, which the swizzle keeps together
  /// (it moves whole 16-byte chunks).
  template <class L, bool Swap> TILE_RT_HD static constexpr int vector_width() {
    constexpr int d = Swap ? 0 : 1;
    for (int v = 16 / int(sizeof(T)); v > 1; v /= 2)
      if (run_along<L>(d) % v == 0 && L::shape(d) % v == 0 &&
          slab_cols % v == 0)
        return v;
    return 1;
  }
  /// Writes this thread's elements of a tile in layout L (copies that L
  /// replicates once), vector_width of them per store.
  template <class L, bool Swap = false, int N>
  __device__ void store(const T (&v)[N]) const {
    constexpr int V = vector_width<L, Swap>();
#pragma unroll
    for (int e = 0; e < N; e += V)
      store_vector<V>(at<L, Swap>(e), &v[e], L::owns(e));
  }
  /// Reads this thread's elements of a tile in layout L, vector_width of
  /// them per load.
  template <class L, bool Swap = false, int N>
  __device__ void load(T (&v)[N]) const {
    constexpr int V = vector_width<L, Swap>();
#pragma unroll
    for (int e = 0; e < N; e += V)
      load_vector<V>(&v[e], at<L, Swap>(e), true, T());
  }
};

/// One stage of a pipelined load that feeds no dot: every thread copies the
/// elements it holds and reads them back itself, so the stage needs no
/// barrier. Thread t's elements [e, e + V) lie at (e / V * Threads + t) * V:
/// a warp's V-element vectors side by side, free of bank conflicts.
template <class T, int PerThread, int Threads> struct thread_stage {
  static constexpr int elems = PerThread * Threads;
  T *base;
  template <int V> __device__ T *at(int e) const {
    return base + (e / V * Threads + int(threadIdx.x)) * V + e % V;
  }
};

#if !defined(__HIPCC__)
/// The kernel's dynamic shared memory (pipeline stages) from byte Offset,
/// the whole of it 1024-byte aligned (the launch asks for 1024 more bytes
/// than the stages take).
template <class T> __device__ T *dynamic_smem(unsigned offset) {
  extern __shared__ __align__(1024) unsigned char tile_dynamic_smem[];
  unsigned base =
      static_cast<unsigned>(__cvta_generic_to_shared(tile_dynamic_smem));
  unsigned pad = (1024 - base % 1024) % 1024;
  return reinterpret_cast<T *>(tile_dynamic_smem + pad + offset);
}
#endif

/// A dot operand in shared memory seen as MN x K (A: M x K, B: N x K),
/// stored K-contiguous (Tile is MN x K) or MN-contiguous (Tile is K x MN).
template <class Tile, bool KMajor> struct smem_operand {
  using tile = Tile;
  static constexpr bool in_registers = false;
  static constexpr bool k_major = KMajor;
  static constexpr int k = KMajor ? Tile::cols : Tile::rows;
  Tile t;
  __device__ auto *at(int i, int kk) const {
    return KMajor ? t.at(i, kk) : t.at(kk, i);
  }
};

template <bool KMajor, class Tile>
__device__ smem_operand<Tile, KMajor> operand(Tile t) {
  return {t};
}

} // namespace tile::rt
