// Global memory access, one helper per access width, and the read-back of a
// pipeline stage a thread filled itself. tilecc picks the width from axis
// information: contiguity and alignment proven for V elements (16 bytes at
// most) give one V-wide access.
#pragma once

namespace tile::rt {

template <class T, int V> struct alignas(sizeof(T) * V) vec {
  T v[V];
};

/// Loads V elements at p (a generic address) into dst if pred, else fills
/// dst with other.
template <int V, class T>
__device__ __forceinline__ void load_vector(T *dst, const T *p, bool pred,
                                            T other) {
  static_assert(sizeof(T) * V <= 16, "at most 16 bytes per access");
  if (pred) {
    vec<T, V> x = *reinterpret_cast<const vec<T, V> *>(p);
#pragma unroll
    for (int i = 0; i < V; ++i)
      dst[i] = x.v[i];
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i)
      dst[i] = other;
  }
}

/// Stores V elements of src at p (a generic address) if pred.
template <int V, class T>
__device__ __forceinline__ void store_vector(T *p, const T *src, bool pred) {
  static_assert(sizeof(T) * V <= 16, "at most 16 bytes per access");
  if (pred) {
    vec<T, V> x;
#pragma unroll
    for (int i = 0; i < V; ++i)
      x.v[i] = src[i];
    *reinterpret_cast<vec<T, V> *>(p) = x;
  }
}

#define TILE_RT_ACCESS_WIDTH(V)                                                \
  template <class T>                                                           \
  __device__ __forceinline__ void ld_global_v##V(T *dst, const T *p,           \
                                                 bool pred, T other) {         \
    load_vector<V>(dst, p, pred, other);                                       \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void ld_shared_v##V(T *dst, const T *p,           \
                                                 bool pred, T other) {         \
    load_vector<V>(dst, p, pred, other);                                       \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void st_global_v##V(T *p, const T *src,           \
                                                 bool pred) {                  \
    store_vector<V>(p, src, pred);                                             \
  }
TILE_RT_ACCESS_WIDTH(1)
TILE_RT_ACCESS_WIDTH(2)
TILE_RT_ACCESS_WIDTH(4)
TILE_RT_ACCESS_WIDTH(8)
TILE_RT_ACCESS_WIDTH(16)
#undef TILE_RT_ACCESS_WIDTH

} // namespace tile::rt
