// Kernels of the conformance suite (docs/conformance.md): the semantics of
// Triton's test_core.py, case by case. core_test.cpp runs them in emulation
// or on the GPU and compares with references of its own.
#include <array>
#include <cstdint>
#include <tile/tile.hpp>
#include <type_traits>

// Case 1, vec_add_tail: a grid whose last program is partly masked.
template <int BLOCK>
TILE_KERNEL void vec_add(const float *x, const float *y, float *out, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store(out + offs,
              tile::load(x + offs, mask) + tile::load(y + offs, mask), mask);
}
TILE_CONFIGS(vec_add, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(vec_add)
tile::grid vec_add_grid(const float *, const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// Case 3, weak_scalar_typing: a literal takes the tile's type (float16
// times 2.0 is float16, int8 plus 5 is int8 and wraps), unless it is a
// float beside an integer tile (int8 plus 2.5f is float32).
template <int BLOCK>
TILE_KERNEL void weak_scalars(const tile::half *h, const std::int8_t *b,
                              tile::half *out_h, std::int8_t *out_b,
                              float *out_f) {
  auto i = tile::arange<BLOCK>();
  auto x = tile::load(h + i);
  auto y = tile::load(b + i);
  static_assert(std::is_same_v<decltype(x * 2.0), decltype(x)>);
  static_assert(std::is_same_v<decltype(y + 5), decltype(y)>);
  static_assert(std::is_same_v<decltype(y + 2.5f), tile::tensor<float, BLOCK>>);
  tile::store(out_h + i, x * 2.0);
  tile::store(out_b + i, y + 5);
  tile::store(out_f + i, y + 2.5f);
}
TILE_CONFIGS(weak_scalars, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(weak_scalars)
tile::grid weak_scalars_grid(const tile::half *, const std::int8_t *,
                             tile::half *, std::int8_t *, float *) {
  return {1};
}

// Case 4, compare_nan: the six comparisons of float tiles, NaN on either
// side, infinities, signed zeros, subnormals.
template <int BLOCK>
TILE_KERNEL void compare_f32(const float *x, const float *y, bool *out) {
  auto i = tile::arange<BLOCK>();
  auto a = tile::load(x + i);
  auto b = tile::load(y + i);
  tile::store(out + i, a == b);
  tile::store(out + BLOCK + i, a != b);
  tile::store(out + 2 * BLOCK + i, a < b);
  tile::store(out + 3 * BLOCK + i, a <= b);
  tile::store(out + 4 * BLOCK + i, a > b);
  tile::store(out + 5 * BLOCK + i, a >= b);
}
TILE_CONFIGS(compare_f32, tile::config{.meta = {64}, .num_warps = 2});
template <int BLOCK>
TILE_GRID(compare_f32)
tile::grid compare_f32_grid(const float *, const float *, bool *) {
  return {1};
}

// Case 5, masked_load_other: lanes past n_in read `other`, for every
// element type.
template <int BLOCK, class T>
void masked_copy(const T *in, T *out, int n_in, T other) {
  auto i = tile::arange<BLOCK>();
  tile::store(out + i, tile::load(in + i, i < n_in, other));
}
#define CONFORMANCE_MASKED_LOAD(NAME, T)                                       \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME(const T *in, T *out, int n_in, T other) {              \
    masked_copy<BLOCK>(in, out, n_in, other);                                  \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {128}, .num_warps = 4});             \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, T *, int, T) {                             \
    return {1};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_MASKED_LOAD(masked_load_##S, T)
#include "element_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_MASKED_LOAD

// Case 5 also: masked loads and stores with each cache modifier and
// eviction policy (test_load_cache_modifier, test_store_cache_modifier,
// test_store_eviction_policy) move the same values as plain ones; a
// volatile scalar is read and written once.
template <int BLOCK>
TILE_KERNEL void access_hints(const float *x, float *out, int *flag, int n) {
  using tile::cache, tile::evict;
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  tile::store<cache::wb>(out + offs, tile::load<cache::ca>(x + offs, mask),
                         mask);
  tile::store<cache::cg>(out + n + offs, tile::load<cache::cg>(x + offs, mask),
                         mask);
  tile::store<cache::cs>(out + 2 * n + offs,
                         tile::load<cache::cs>(x + offs, mask), mask);
  tile::store<cache::wt>(out + 3 * n + offs,
                         tile::load<cache::lu>(x + offs, mask), mask);
  tile::store<cache::volatile_>(out + 4 * n + offs,
                                tile::load<cache::cv>(x + offs, mask), mask);
  tile::store<cache::normal, evict::first>(
      out + 5 * n + offs, tile::load<cache::volatile_>(x + offs, mask), mask);
  tile::store<cache::normal, evict::last>(
      out + 6 * n + offs,
      tile::load<cache::normal, evict::first>(x + offs, mask), mask);
  tile::store(out + 7 * n + offs,
              tile::load<cache::normal, evict::last>(x + offs, mask), mask);
  if (tile::program_id(0) == 0)
    tile::store<cache::volatile_>(flag + 1,
                                  tile::load<cache::volatile_>(flag) + 1);
}
TILE_CONFIGS(access_hints, tile::config{.meta = {256}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(access_hints)
tile::grid access_hints_grid(const float *, float *, int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// Case 6, block_ptr_copy_pad: each program copies a BM-row band of x
// (rows x cols) block by block, advancing a block pointer along the
// columns, with both dimensions checked; its last column block is also
// stored whole, padded with NaN and with zeros, to a band of padded (BM
// rows x 2 BN per program). A 3-D block pointer copies cube's box at
// (1, 2, 3), checked along dimensions 1 and 2 only.
template <int BM>
TILE_KERNEL void block_copy(const float *x, float *out, float *padded,
                            const int *cube, int *cube_out, int rows,
                            int cols) {
  constexpr int BN = 2 * BM;
  const int row = tile::program_id(0) * BM;
  auto src = tile::make_block_ptr<BM, BN>(x, {rows, cols}, {cols, 1}, {row, 0});
  auto dst =
      tile::make_block_ptr<BM, BN>(out, {rows, cols}, {cols, 1}, {row, 0});
  for (int c = 0; c < cols; c += BN) {
    tile::store(dst, tile::load(src, tile::boundary_check<0, 1>),
                tile::boundary_check<0, 1>);
    src = tile::advance(src, {0, BN});
    dst = tile::advance(dst, {0, BN});
  }
  auto last = tile::advance(src, {0, -BN});
  auto pad = tile::make_block_ptr<BM, BN>(
      padded, {tile::num_programs(0) * BM, 2 * BN}, {2 * BN, 1}, {row, 0});
  tile::store(pad,
              tile::load(last, tile::boundary_check<0, 1>, tile::padding::nan));
  tile::store(tile::advance(pad, {0, BN}),
              tile::load(last, tile::boundary_check<-1, -2>));
  auto box =
      tile::make_block_ptr<2, 4, 8>(cube, {3, 5, 7}, {35, 7, 1}, {1, 2, 3});
  auto box_out =
      tile::make_block_ptr<2, 4, 8>(cube_out, {3, 5, 7}, {35, 7, 1}, {1, 2, 3});
  if (tile::program_id(0) == 0)
    tile::store(box_out, tile::load(box, tile::boundary_check<1, 2>),
                tile::boundary_check<2, 1>);
}
TILE_CONFIGS(block_copy, tile::config{.meta = {16}, .num_warps = 4});
template <int BM>
TILE_GRID(block_copy)
tile::grid block_copy_grid(const float *, float *, float *, const int *, int *,
                           int rows, int) {
  return {tile::cdiv(rows, BM)};
}

// Case 6 also, tensor descriptors: boxes shifted by (dm, dn), some starting
// before the tensor, tile the plane; each program loads its box, stores
// twice its values and adds them atomically (relaxed) into sum and takes
// their maximum into peak; a 1-D descriptor copies a vector in boxes that
// overhang its end.
template <int BM>
TILE_KERNEL void descriptor_ops(const float *x, float *twice, float *sum,
                                int *peak, const int *v, int *v_out, int rows,
                                int cols, int dm, int dn, int len) {
  constexpr int BN = 2 * BM;
  auto in = tile::make_tensor_descriptor<BM, BN>(x, {rows, cols}, {cols, 1});
  auto out =
      tile::make_tensor_descriptor<BM, BN>(twice, {rows, cols}, {cols, 1});
  auto acc = tile::make_tensor_descriptor<BM, BN>(sum, {rows, cols}, {cols, 1});
  auto top =
      tile::make_tensor_descriptor<BM, BN>(peak, {rows, cols}, {cols, 1});
  const int m = tile::program_id(0) * BM + dm;
  const int n = tile::program_id(1) * BN + dn;
  auto t = in.load({m, n});
  out.store({m, n}, t * 2.0f);
  acc.atomic_add({m, n}, t);
  top.atomic_max({m, n}, tile::cast<int>(t));
  auto vin = tile::make_tensor_descriptor<BM>(v, {len}, {1});
  auto vout = tile::make_tensor_descriptor<BM>(v_out, {len}, {1});
  const int i =
      (tile::program_id(0) * tile::num_programs(1) + tile::program_id(1)) * BM;
  vout.store({i}, vin.load({i}) + 1);
}
TILE_CONFIGS(descriptor_ops, tile::config{.meta = {16}, .num_warps = 4});
template <int BM>
TILE_GRID(descriptor_ops)
tile::grid
    descriptor_ops_grid(const float *, float *, float *, int *, const int *,
                        int *, int rows, int cols, int, int, int) {
  return {tile::cdiv(rows, BM) + 1, tile::cdiv(cols, 2 * BM) + 1};
}

// Case 6 also: tutorial 03's block-pointer matmul, A (m x k) and B (k x n)
// read through block pointers advanced along K, C written through a tensor
// descriptor: the loads are the pipelined ones (TMA copies on sm_90a where
// the sizes are 16-aligned), the boxes' edges masked by the bounds.
template <int BM>
TILE_KERNEL void block_matmul(const tile::half *a, const tile::half *b,
                              float *c, int m, int n, int k) {
  constexpr int BN = BM, BK = 32;
  const int om = tile::program_id(0) * BM, on = tile::program_id(1) * BN;
  auto a_ptr = tile::make_block_ptr<BM, BK>(a, {m, k}, {k, 1}, {om, 0});
  auto b_ptr = tile::make_block_ptr<BK, BN>(b, {k, n}, {n, 1}, {0, on});
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    acc = tile::dot(tile::load(a_ptr, tile::boundary_check<0, 1>),
                    tile::load(b_ptr, tile::boundary_check<0, 1>), acc);
    a_ptr = tile::advance(a_ptr, {0, BK});
    b_ptr = tile::advance(b_ptr, {BK, 0});
  }
  tile::make_tensor_descriptor<BM, BN>(c, {m, n}, {n, 1}).store({om, on}, acc);
}
TILE_CONFIGS(block_matmul,
             tile::config{.meta = {64}, .num_warps = 4, .num_stages = 3});
template <int BM>
TILE_GRID(block_matmul)
tile::grid block_matmul_grid(const tile::half *, const tile::half *, float *,
                             int m, int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BM)};
}

// Case 6 also: descriptors made on the host (Triton's TensorDescriptor),
// the kernel's parameters: the same matmul with A, B and C read and
// written through them (TMA on sm_90a where the launch's sizes are
// 16-aligned).
template <int BM>
TILE_KERNEL void
host_descriptor_matmul(tile::tensor_descriptor<const tile::half, BM, 32> a,
                       tile::tensor_descriptor<const tile::half, 32, BM> b,
                       tile::tensor_descriptor<float, BM, BM> c, int k) {
  constexpr int BK = 32;
  const int om = tile::program_id(0) * BM, on = tile::program_id(1) * BM;
  auto acc = tile::zeros<float, BM, BM>();
  for (int k0 = 0; k0 < k; k0 += BK)
    acc = tile::dot(a.load({om, k0}), b.load({k0, on}), acc);
  c.store({om, on}, acc);
}
TILE_CONFIGS(host_descriptor_matmul,
             tile::config{.meta = {64}, .num_warps = 4, .num_stages = 3});
template <int BM>
TILE_GRID(host_descriptor_matmul)
tile::grid host_descriptor_matmul_grid(
    tile::tensor_descriptor<const tile::half, BM, 32>,
    tile::tensor_descriptor<const tile::half, 32, BM>,
    tile::tensor_descriptor<float, BM, BM> c, int) {
  return {tile::cdiv(c.shape(0), BM), tile::cdiv(c.shape(1), BM)};
}

// Case 18, atomics: five programs of 64 lanes add, max and min into one
// address each (every lane the same address), and add into four addresses
// that lanes share; 2000 programs count under a spin lock taken with
// atomic_cas and released with atomic_xchg.
#define CONFORMANCE_ATOMICS(NAME, T)                                           \
  template <int BLOCK> TILE_KERNEL void NAME(const T *x, T *out) {             \
    auto i = tile::arange<BLOCK>();                                            \
    auto v = tile::load(x + tile::program_id(0) * BLOCK + i);                  \
    auto same = i * 0;                                                         \
    tile::atomic_add(out + same, v);                                           \
    tile::atomic_max(out + 1 + same, v);                                       \
    tile::atomic_min(out + 2 + same, v);                                       \
    tile::atomic_add(out + 3 + i % 4, v);                                      \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {64}, .num_warps = 2});              \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, T *) {                                     \
    return {5};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_ATOMICS(atomics_##S, T)
#include "atomic_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_ATOMICS

template <int BLOCK> TILE_KERNEL void spin_lock(int *lock, int *count) {
  while (tile::atomic_cas(lock, 0, 1) == 1) {
  }
  tile::store(count, tile::load(count) + BLOCK);
  tile::atomic_xchg(lock, 0);
}
TILE_CONFIGS(spin_lock, tile::config{.meta = {1}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(spin_lock)
tile::grid spin_lock_grid(int *, int *) {
  return {2000};
}

// Case 10 (histogram): four programs of 512 values count them into 64
// bins, and the first n of them into 256 bins, and add their counts.
#define CONFORMANCE_HISTOGRAM(NAME, T)                                         \
  template <int BLOCK> TILE_KERNEL void NAME(const T *x, int *counts, int n) { \
    auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();           \
    auto v = tile::load(x + offs);                                             \
    tile::atomic_add(counts + tile::arange<64>(), tile::histogram<64>(v));     \
    tile::atomic_add(counts + 64 + tile::arange<256>(),                        \
                     tile::histogram<256>(v, offs < n));                       \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {512}, .num_warps = 4});             \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, int *, int) {                              \
    return {4};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_HISTOGRAM(histogram_##S, T)
#include "integer_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_HISTOGRAM

// Case 11 (shape_ops): join, split and interleave of arange(0, N) and
// arange(N, 2N); a tile packed as (rows, 2 x cols) split into its halves
// (swiglu's gate and up); a dot's result subtiled as tutorial 09's
// epilogue (reshape, permute, split); permute of (2, 2, 8, 64) by each of
// the 24 permutations; reshapes of tiles smaller than a program, 2-D to
// 2-D and 2-D to 3-D (reduced afterwards); flip along either dimension;
// cat of 1-D and 2-D tiles.
#define CONFORMANCE_JOIN_SPLIT(NAME, T)                                        \
  template <int N>                                                             \
  TILE_KERNEL void NAME(const T *a, const T *b, T *joined, T *inter, T *p,     \
                        T *q) {                                                \
    auto i = tile::arange<N>();                                                \
    auto x = tile::load(a + i);                                                \
    auto y = tile::load(b + i);                                                \
    auto j = tile::join(x, y);                                                 \
    tile::store(joined + tile::expand_dims<1>(i) * 2 +                         \
                    tile::expand_dims<0>(tile::arange<2>()),                   \
                j);                                                            \
    tile::store(inter + tile::arange<2 * N>(), tile::interleave(x, y));        \
    auto [lo, hi] = tile::split(j);                                            \
    tile::store(p + i, lo);                                                    \
    tile::store(q + i, hi);                                                    \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {128}, .num_warps = 4});             \
  template <int N>                                                             \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, const T *, T *, T *, T *, T *) {           \
    return {1};                                                                \
  }
CONFORMANCE_JOIN_SPLIT(join_split_i32, int)
CONFORMANCE_JOIN_SPLIT(join_split_f16, tile::half)
#undef CONFORMANCE_JOIN_SPLIT

template <int M>
TILE_KERNEL void swiglu_halves(const tile::half *x, float *out) {
  constexpr int N = 64;
  auto r = tile::expand_dims<1>(tile::arange<M>());
  auto packed =
      tile::load(x + r * (2 * N) + tile::expand_dims<0>(tile::arange<2 * N>()));
  auto [gate, up] = tile::split(tile::reshape<M, N, 2>(packed));
  tile::store(out + r * N + tile::expand_dims<0>(tile::arange<N>()),
              tile::cast<float>(gate) * tile::cast<float>(up));
}
TILE_CONFIGS(swiglu_halves, tile::config{.meta = {32}, .num_warps = 4});
template <int M>
TILE_GRID(swiglu_halves)
tile::grid swiglu_halves_grid(const tile::half *, float *) {
  return {1};
}

template <int BM>
TILE_KERNEL void epilogue_subtile(const tile::half *a, const tile::half *b,
                                  float *c) {
  constexpr int BN = 64;
  auto rm = tile::expand_dims<1>(tile::arange<BM>());
  auto rk = tile::arange<32>();
  auto rn = tile::expand_dims<0>(tile::arange<BN>());
  auto acc = tile::dot(tile::load(a + rm * 32 + tile::expand_dims<0>(rk)),
                       tile::load(b + tile::expand_dims<1>(rk) * BN + rn));
  auto [left, right] =
      tile::split(tile::permute<0, 2, 1>(tile::reshape<BM, 2, BN / 2>(acc)));
  auto half_n = tile::expand_dims<0>(tile::arange<BN / 2>());
  tile::store(c + rm * BN + half_n, left);
  tile::store(c + rm * BN + BN / 2 + half_n, right);
}
TILE_CONFIGS(epilogue_subtile, tile::config{.meta = {64}, .num_warps = 4});
template <int BM>
TILE_GRID(epilogue_subtile)
tile::grid
    epilogue_subtile_grid(const tile::half *, const tile::half *, float *) {
  return {1};
}

/// The P-th permutation of (0, 1, 2, 3) in lexicographic order.
constexpr std::array<int, 4> nthPermutation(int P) {
  std::array<int, 4> Left{0, 1, 2, 3}, Out{};
  for (int I = 0, Radix = 6; I < 4; ++I) {
    const int K = P / Radix;
    P %= Radix;
    Radix = I < 3 ? Radix / (3 - I) : 1;
    Out[I] = Left[K];
    for (int J = K; J < 3 - I; ++J)
      Left[J] = Left[J + 1];
  }
  return Out;
}
template <int P> constexpr std::array<int, 4> kPermutation = nthPermutation(P);

template <int P> TILE_KERNEL void permute4(const float *x, float *out) {
  auto i = tile::arange<2048>();
  auto v = tile::reshape<2, 2, 8, 64>(tile::load(x + i));
  tile::store(
      out + i,
      tile::ravel(tile::permute<kPermutation<P>[0], kPermutation<P>[1],
                                kPermutation<P>[2], kPermutation<P>[3]>(v)));
}
TILE_CONFIGS(permute4, tile::config{.meta = {0}}, tile::config{.meta = {1}},
             tile::config{.meta = {2}}, tile::config{.meta = {3}},
             tile::config{.meta = {4}}, tile::config{.meta = {5}},
             tile::config{.meta = {6}}, tile::config{.meta = {7}},
             tile::config{.meta = {8}}, tile::config{.meta = {9}},
             tile::config{.meta = {10}}, tile::config{.meta = {11}},
             tile::config{.meta = {12}}, tile::config{.meta = {13}},
             tile::config{.meta = {14}}, tile::config{.meta = {15}},
             tile::config{.meta = {16}}, tile::config{.meta = {17}},
             tile::config{.meta = {18}}, tile::config{.meta = {19}},
             tile::config{.meta = {20}}, tile::config{.meta = {21}},
             tile::config{.meta = {22}}, tile::config{.meta = {23}});
template <int P>
TILE_GRID(permute4)
tile::grid permute4_grid(const float *, float *) {
  return {1};
}

/// The row-major offsets of a 2-D tile of shape (M, N).
template <int M, int N> auto offsets2() {
  return tile::expand_dims<1>(tile::arange<M>()) * N +
         tile::expand_dims<0>(tile::arange<N>());
}

template <int K>
TILE_KERNEL void reshapes(const float *x, float *small, float *wide,
                          float *cube, float *sums, float *nested) {
  tile::store(small + offsets2<8, 8>(),
              tile::reshape<8, 8>(tile::load(x + tile::arange<64>())));
  tile::store(wide + offsets2<16, 4>(),
              tile::reshape<16, 4>(tile::load(x + offsets2<2, 32>())));
  auto c = tile::reshape<16, 8, 16>(tile::load(x + offsets2<64, 32>()));
  tile::store(cube + tile::reshape<16, 8, 16>(offsets2<64, 32>()), c);
  tile::store(sums + tile::arange<16>(), tile::sum<1>(tile::sum<2>(c)));
  // The same offsets from 1-D ones by two expand_dims each.
  auto i = tile::expand_dims<1>(tile::expand_dims<1>(tile::arange<16>()));
  auto j = tile::expand_dims<0>(tile::expand_dims<1>(tile::arange<8>()));
  auto k = tile::expand_dims<0>(tile::expand_dims<0>(tile::arange<16>()));
  tile::store(nested + i * 128 + j * 16 + k, c);
}
TILE_CONFIGS(reshapes, tile::config{.meta = {0}, .num_warps = 4});
template <int K>
TILE_GRID(reshapes)
tile::grid
    reshapes_grid(const float *, float *, float *, float *, float *, float *) {
  return {1};
}

template <int M>
TILE_KERNEL void flip_cat(const float *x, float *last, float *first,
                          float *cat1, float *cat2) {
  auto offs = offsets2<M, 64>();
  auto v = tile::load(x + offs);
  tile::store(last + offs, tile::flip(v));
  tile::store(first + offs, tile::flip<0>(v));
  auto i = tile::arange<128>();
  tile::store(cat1 + tile::arange<256>(),
              tile::cat(tile::load(x + i), tile::load(x + 1000 + i)));
  tile::store(cat2 + offsets2<2 * M, 64>(), tile::cat(v, v * 2.0f));
}
TILE_CONFIGS(flip_cat, tile::config{.meta = {8}, .num_warps = 4});
template <int M>
TILE_GRID(flip_cat)
tile::grid flip_cat_grid(const float *, float *, float *, float *, float *) {
  return {1};
}

// Case 10 (sort_flip_topk): lines of (8, 64), (512, 8) and (1, 512) tiles
// sorted up and down, their top 4, flipped, and gathered two ways: each
// line reversed through an index, and rows picked by a loaded index.
constexpr int sortRows(int S) { return S == 0 ? 8 : S == 1 ? 512 : 1; }
constexpr int sortCols(int S) { return S == 0 ? 64 : S == 1 ? 8 : 512; }
#define CONFORMANCE_SORT(NAME, T)                                              \
  template <int S>                                                             \
  TILE_KERNEL void NAME(const T *x, const int *rows, T *up, T *down, T *top,   \
                        T *flipped, T *reversed, T *picked) {                  \
    constexpr int M = sortRows(S), N = sortCols(S);                            \
    auto offs = offsets2<M, N>();                                              \
    auto v = tile::load(x + offs);                                             \
    tile::store(up + offs, tile::sort(v));                                     \
    tile::store(down + offs, tile::sort<1, true>(v));                          \
    tile::store(top + offsets2<M, 4>(), tile::topk<4>(v));                     \
    tile::store(flipped + offs, tile::flip(v));                                \
    auto back = tile::broadcast_to<M, N>(                                      \
        (N - 1) - tile::expand_dims<0>(tile::arange<N>()));                    \
    tile::store(reversed + offs, tile::gather<1>(v, back));                    \
    tile::store(picked + offs, tile::gather<0>(v, tile::load(rows + offs)));   \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {0}, .num_warps = 4},                \
               tile::config{.meta = {1}, .num_warps = 4},                      \
               tile::config{.meta = {2}, .num_warps = 4});                     \
  template <int S>                                                             \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, const int *, T *, T *, T *, T *, T *,      \
                         T *) {                                                \
    return {1};                                                                \
  }
CONFORMANCE_SORT(sort_i32, int)
CONFORMANCE_SORT(sort_f16, tile::half)
CONFORMANCE_SORT(sort_f32, float)
CONFORMANCE_SORT(sort_bf16, tile::bfloat16)
#undef CONFORMANCE_SORT

// Case 19, control_flow: a 64-bit induction variable from 2^35, nested
// while loops, continue and break, a return from inside a loop, helpers
// that return values (a scalar, a tile) from inside loops.
inline int first_at_least(int n, int limit) {
  for (int i = 0; i < n; ++i)
    if (i * i >= limit)
      return i;
  return n;
}

inline int find_pair(int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (i * j == 12)
        return i * 100 + j;
  return -1;
}

template <class T> T doubled_until(T x, int n, int stop) {
  for (int i = 0; i < n; ++i) {
    if (i == stop)
      return x + float(i);
    x = x * 2.0f;
  }
  return x;
}

template <int BLOCK>
TILE_KERNEL void control_flow(std::int64_t *out, std::int64_t lo, int n) {
  std::int64_t span = 0;
  for (std::int64_t i = lo; i < lo + 10; ++i)
    span += i - lo;
  tile::store(out, span);
  int nested = 0, j = 0;
  while (j < 5) {
    int k = 0;
    while (k < 8) {
      nested += 1;
      k += 1;
    }
    j += 1;
  }
  tile::store(out + 1, std::int64_t(nested));
  std::int64_t odd = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 2 == 0)
      continue;
    if (i > 11)
      break;
    odd += i;
  }
  tile::store(out + 2, odd);
  tile::store(out + 4, std::int64_t(first_at_least(n, 10)));
  tile::store(out + 5, std::int64_t(find_pair(8)));
  tile::store(out + 6, std::int64_t(first_at_least(3, 100)));
  auto steps = doubled_until(tile::cast<float>(tile::arange<4>()), n, 3);
  tile::store(out + 7, tile::cast<std::int64_t>(tile::sum(steps)));
  for (int i = 0; i < n; ++i)
    if (i == 4) {
      tile::store(out + 3, std::int64_t(i));
      return;
    }
  tile::store(out + 3, std::int64_t(-1));
}
TILE_CONFIGS(control_flow, tile::config{.meta = {1}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(control_flow)
tile::grid control_flow_grid(std::int64_t *, std::int64_t, int) {
  return {1};
}

// Case 7, reduce_suite: sum, max, min, argmax and argmin of a 2 x 32 tile
// along each axis and over the whole tile; ties go to the lowest index.
#define CONFORMANCE_REDUCE(NAME, T)                                            \
  template <int BLOCK> TILE_KERNEL void NAME(const T *x, T *out, int *index) { \
    auto rows = tile::arange<2>();                                             \
    auto cols = tile::arange<BLOCK>();                                         \
    auto v = tile::load(x + tile::expand_dims<1>(rows) * BLOCK +               \
                        tile::expand_dims<0>(cols));                           \
    tile::store(out + cols, tile::sum<0>(v));                                  \
    tile::store(out + BLOCK + rows, tile::sum<1>(v));                          \
    tile::store(out + BLOCK + 2 + rows, tile::max<1>(v));                      \
    tile::store(out + BLOCK + 4 + cols, tile::min<0>(v));                      \
    tile::store(out + 2 * BLOCK + 4, tile::sum(tile::sum<1>(v)));              \
    tile::store(index + rows, tile::argmax<1>(v));                             \
    tile::store(index + 2 + rows, tile::argmin<1>(v));                         \
    tile::store(index + 4 + cols, tile::argmax<0>(v));                         \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {32}, .num_warps = 1});              \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, T *, int *) {                              \
    return {1};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_REDUCE(reduce_##S, T)
#include "numeric_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_REDUCE

// Case 7 also: sum's dtype (Triton's dtype=): int8 values summed in int8
// wrap, as by default they do not (int32); float16 rows summed in float64
// and in float16.
template <int N>
TILE_KERNEL void sum_dtype(const std::int8_t *b, const tile::half *h,
                           std::int8_t *narrow, int *wide, double *rows,
                           tile::half *half_rows) {
  auto i = tile::arange<N>();
  auto v = tile::load(b + i);
  tile::store(narrow, tile::sum(v, tile::dtype<std::int8_t>));
  tile::store(wide, tile::sum(v));
  auto offs =
      tile::expand_dims<1>(tile::arange<4>()) * N + tile::expand_dims<0>(i);
  auto m = tile::load(h + offs);
  tile::store(rows + tile::arange<4>(), tile::sum<1>(m, tile::dtype<double>));
  tile::store(half_rows + tile::arange<4>(),
              tile::sum<1>(m, tile::dtype<tile::half>));
}
TILE_CONFIGS(sum_dtype, tile::config{.meta = {64}, .num_warps = 4});
template <int N>
TILE_GRID(sum_dtype)
tile::grid sum_dtype_grid(const std::int8_t *, const tile::half *,
                          std::int8_t *, int *, double *, tile::half *) {
  return {1};
}

// Case 8, custom_tuple_reduce: Welford's mean and variance of 512 values
// as a reduction of (mean, m2, count) triples.
template <int BLOCK> TILE_KERNEL void welford(const float *x, float *out) {
  auto v = tile::load(x + tile::arange<BLOCK>());
  auto [mean, m2, count] = tile::reduce<0>(
      std::tuple{v, tile::zeros<float, BLOCK>(), tile::full<BLOCK>(1.0f)},
      [](float mean_a, float m2_a, float n_a, float mean_b, float m2_b,
         float n_b) {
        float n = n_a + n_b;
        float delta = mean_b - mean_a;
        float w = n_b / n;
        return std::tuple{mean_a + delta * w,
                          m2_a + m2_b + delta * delta * n_a * w, n};
      });
  tile::store(out, mean);
  tile::store(out + 1, m2 / count);
}
TILE_CONFIGS(welford, tile::config{.meta = {512}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(welford)
tile::grid welford_grid(const float *, float *) {
  return {1};
}

// Case 9, scan_suite: on a 4 x 32 tile, cumsum along the rows, a reverse
// cumsum down the columns, cumprod along the rows, a running maximum, and
// the linear recurrence h = a h + b as a scan of (a, b) pairs.
template <int BLOCK>
TILE_KERNEL void scans(const float *x, const float *a, float *out) {
  auto offs = tile::expand_dims<1>(tile::arange<4>()) * BLOCK +
              tile::expand_dims<0>(tile::arange<BLOCK>());
  auto v = tile::load(x + offs);
  tile::store(out + offs, tile::cumsum<1>(v));
  tile::store(out + 4 * BLOCK + offs, tile::cumsum<0, true>(v));
  tile::store(out + 8 * BLOCK + offs, tile::cumprod<1>(v));
  tile::store(out + 12 * BLOCK + offs,
              tile::associative_scan<1>(
                  v, [](float p, float q) { return p > q ? p : q; }));
  [[maybe_unused]] auto [ha, hb] =
      tile::associative_scan<1>(std::tuple{tile::load(a + offs), v},
                                [](float a1, float b1, float a2, float b2) {
                                  return std::tuple{a1 * a2, b1 * a2 + b2};
                                });
  tile::store(out + 16 * BLOCK + offs, hb);
}
TILE_CONFIGS(scans, tile::config{.meta = {32}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(scans)
tile::grid scans_grid(const float *, const float *, float *) {
  return {1};
}

// Case 9 for every numeric type: cumsum along the rows, a reverse cumsum
// down the columns, cumprod along the rows (narrow types widen first).
#define CONFORMANCE_SCANS(NAME, T)                                             \
  template <int BLOCK> TILE_KERNEL void NAME(const T *x, T *out) {             \
    auto offs = tile::expand_dims<1>(tile::arange<4>()) * BLOCK +              \
                tile::expand_dims<0>(tile::arange<BLOCK>());                   \
    auto v = tile::load(x + offs);                                             \
    tile::store(out + offs, tile::cumsum<1>(v));                               \
    tile::store(out + 4 * BLOCK + offs, tile::cumsum<0, true>(v));             \
    tile::store(out + 8 * BLOCK + offs, tile::cumprod<1>(v));                  \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {32}, .num_warps = 1});              \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, T *) {                                     \
    return {1};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_SCANS(scans_##S, T)
#include "numeric_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_SCANS

// Case 15, dot_base: square products of 16, 32 and 64 (8-bit: 32 and
// 64), one configuration per size: float16 and bfloat16 to float32,
// float32 as TF32 and in full precision, int8 and uint8 to int32, the
// 8-bit floats to float32.
template <int M, tile::input_precision P, class T, class R>
void square_dot(const T *a, const T *b, R *c) {
  auto r = tile::arange<M>();
  auto offs = tile::expand_dims<1>(r) * M + tile::expand_dims<0>(r);
  tile::store(c + offs,
              tile::dot(tile::load(a + offs), tile::load(b + offs), P));
}
#define CONFORMANCE_DOT(NAME, T, R, PRECISION, ...)                            \
  template <int M> TILE_KERNEL void NAME(const T *a, const T *b, R *c) {       \
    square_dot<M, tile::input_precision::PRECISION>(a, b, c);                  \
  }                                                                            \
  TILE_CONFIGS(NAME, __VA_ARGS__);                                             \
  template <int M>                                                             \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, const T *, R *) {                          \
    return {1};                                                                \
  }
CONFORMANCE_DOT(dot_f16, tile::half, float, tf32, tile::config{.meta = {16}},
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_tf32, float, float, tf32, tile::config{.meta = {16}},
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_ieee, float, float, ieee, tile::config{.meta = {16}},
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_i8, std::int8_t, std::int32_t, tf32,
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_bf16, tile::bfloat16, float, tf32,
                tile::config{.meta = {16}}, tile::config{.meta = {32}},
                tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_u8, std::uint8_t, std::int32_t, tf32,
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_e4m3, tile::float8_e4m3, float, tf32,
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_e5m2, tile::float8_e5m2, float, tf32,
                tile::config{.meta = {32}}, tile::config{.meta = {64}})
CONFORMANCE_DOT(dot_f64, double, double, ieee, tile::config{.meta = {16}},
                tile::config{.meta = {32}})
#undef CONFORMANCE_DOT

// Case 16, dot_3d_and_mulbroadcast: BATCH products of M x K by K x N in
// one dot, added to c (test_dot3d), for float16 to float32, float32 in
// full precision, int8 to int32 and float64, two shapes each; and the
// product written as a broadcast multiply summed along k
// (test_dot_mulbroadcasted).
template <int BATCH, int M, int K, int N, tile::input_precision P, class T,
          class R>
void batched_dot(const T *a, const T *b, const R *c, R *out) {
  auto pa = tile::make_block_ptr<BATCH, M, K>(a, {BATCH, M, K}, {M * K, K, 1},
                                              {0, 0, 0});
  auto pb = tile::make_block_ptr<BATCH, K, N>(b, {BATCH, K, N}, {K * N, N, 1},
                                              {0, 0, 0});
  auto pc = tile::make_block_ptr<BATCH, M, N>(c, {BATCH, M, N}, {M * N, N, 1},
                                              {0, 0, 0});
  auto po = tile::make_block_ptr<BATCH, M, N>(out, {BATCH, M, N}, {M * N, N, 1},
                                              {0, 0, 0});
  tile::store(po, tile::dot(tile::load(pa), tile::load(pb), tile::load(pc), P));
}
#define CONFORMANCE_DOT3D(NAME, T, R, PRECISION)                               \
  template <int BATCH, int M, int K, int N>                                    \
  TILE_KERNEL void NAME(const T *a, const T *b, const R *c, R *out) {          \
    batched_dot<BATCH, M, K, N, tile::input_precision::PRECISION>(a, b, c,     \
                                                                  out);        \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {2, 16, 32, 16}},                    \
               tile::config{.meta = {4, 32, 32, 64}, .num_warps = 8});         \
  template <int BATCH, int M, int K, int N>                                    \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const T *, const T *, const R *, R *) {               \
    return {1};                                                                \
  }
CONFORMANCE_DOT3D(dot3d_f16, tile::half, float, tf32)
CONFORMANCE_DOT3D(dot3d_f32, float, float, ieee)
CONFORMANCE_DOT3D(dot3d_i8, std::int8_t, std::int32_t, tf32)
CONFORMANCE_DOT3D(dot3d_f64, double, double, ieee)
#undef CONFORMANCE_DOT3D

template <int M>
TILE_KERNEL void dot_mulbroadcast(const float *x, const float *y, float *out) {
  auto r = tile::arange<M>();
  auto offs = tile::expand_dims<1>(r) * M + tile::expand_dims<0>(r);
  auto products = tile::expand_dims<2>(tile::load(x + offs)) *
                  tile::expand_dims<0>(tile::load(y + offs));
  tile::store(out + offs, tile::sum<1>(products));
}
TILE_CONFIGS(dot_mulbroadcast, tile::config{.meta = {16}});
template <int M>
TILE_GRID(dot_mulbroadcast)
tile::grid dot_mulbroadcast_grid(const float *, const float *, float *) {
  return {1};
}

// Case 12 also: pointers from int64 addresses, as tutorial 08 passes its
// groups' matrices; each program reads its row through the pointer it
// loaded and writes the pointer's address back as an integer.
template <int BLOCK>
TILE_KERNEL void pointers_from_addresses(const std::int64_t *rows, float *out,
                                         std::int64_t *addresses, int n) {
  const int g = tile::program_id(0);
  const auto *row = tile::cast<const float *>(tile::load(rows + g));
  auto i = tile::arange<BLOCK>();
  tile::store(out + g * BLOCK + i, tile::load(row + i, i < n, -1.0f));
  tile::store(addresses + g, tile::cast<std::int64_t>(row));
}
TILE_CONFIGS(pointers_from_addresses,
             tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(pointers_from_addresses)
tile::grid pointers_from_addresses_grid(const std::int64_t *, float *,
                                        std::int64_t *, int) {
  return {4};
}

// Case 12, where_broadcast_ptr: where over 1000 lanes for each element
// type, and where between two pointer tiles, then a load through the
// pointers picked.
#define CONFORMANCE_WHERE(NAME, T)                                             \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME(const bool *cond, const T *x, const T *y, T *out,      \
                        T *picked, int n) {                                    \
    auto i = tile::arange<BLOCK>();                                            \
    auto mask = i < n;                                                         \
    auto c = tile::load(cond + i, mask, false);                                \
    tile::store(                                                               \
        out + i,                                                               \
        tile::where(c, tile::load(x + i, mask), tile::load(y + i, mask)),      \
        mask);                                                                 \
    tile::store(picked + i, tile::load(tile::where(c, x + i, y + i), mask),    \
                mask);                                                         \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {1024}, .num_warps = 4});            \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const bool *, const T *, const T *, T *, T *, int) {  \
    return {1};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_WHERE(where_##S, T)
#include "element_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_WHERE

// Case 2, binop_promotion_matrix: +, -, *, /, % and floordiv of two tiles
// for every pair of element types, and a tile plus a scalar of the other
// type; the result types are checked against binop_pairs.def's table.
template <int BLOCK, bool DIVIDES, class P, class Q, class R, class W, class X,
          class Y>
void binops(const X *x, const Y *y, P *sum, P *diff, P *prod, Q *quot, R *rem,
            P *trunc, W *weak) {
  auto i = tile::arange<BLOCK>();
  auto a = tile::load(x + i);
  auto b = tile::load(y + i);
  using Sum = tile::tensor<P, BLOCK>;
  static_assert(std::is_same_v<decltype(a + b), Sum>);
  static_assert(std::is_same_v<decltype(a - b), Sum>);
  static_assert(std::is_same_v<decltype(a * b), Sum>);
  tile::store(sum + i, a + b);
  tile::store(diff + i, a - b);
  tile::store(prod + i, a * b);
  if constexpr (DIVIDES) {
    static_assert(std::is_same_v<decltype(a / b), tile::tensor<Q, BLOCK>>);
    static_assert(std::is_same_v<decltype(a % b), tile::tensor<R, BLOCK>>);
    tile::store(quot + i, a / b);
    tile::store(rem + i, a % b);
    if constexpr (std::is_integral_v<X> && std::is_integral_v<Y>) {
      static_assert(std::is_same_v<decltype(tile::floordiv(a, b)), Sum>);
      tile::store(trunc + i, tile::floordiv(a, b));
    }
  }
  auto scalar = tile::load(y);
  static_assert(std::is_same_v<decltype(a + scalar), tile::tensor<W, BLOCK>>);
  tile::store(weak + i, a + scalar);
}
#define CONFORMANCE_PAIR(S, X, Y, P, Q, R, W, DIVIDES, NAME)                   \
  template <int BLOCK>                                                         \
  TILE_KERNEL void binops_##S(const X *x, const Y *y, P *sum, P *diff,         \
                              P *prod, Q *quot, R *rem, P *trunc, W *weak) {   \
    binops<BLOCK, DIVIDES>(x, y, sum, diff, prod, quot, rem, trunc, weak);     \
  }                                                                            \
  TILE_CONFIGS(binops_##S, tile::config{.meta = {128}, .num_warps = 4});       \
  template <int BLOCK>                                                         \
  TILE_GRID(binops_##S)                                                        \
  tile::grid binops_##S##_grid(const X *, const Y *, P *, P *, P *, Q *, R *,  \
                               P *, W *) {                                     \
    return {1};                                                                \
  }
#include "binop_pairs.def"
#undef CONFORMANCE_PAIR

// Case 14, cast_exhaustive: tile::cast from each element type to every
// element type (8-bit floats included), one kernel per source type.
template <int BLOCK, class X>
void cast_to_all(const X *x, bool *to_bool, std::int8_t *to_i8,
                 std::int16_t *to_i16, std::int32_t *to_i32,
                 std::int64_t *to_i64, std::uint8_t *to_u8,
                 std::uint16_t *to_u16, std::uint32_t *to_u32,
                 std::uint64_t *to_u64, tile::half *to_f16,
                 tile::bfloat16 *to_bf16, float *to_f32, double *to_f64,
                 tile::float8_e4m3 *to_e4m3, tile::float8_e5m2 *to_e5m2) {
  auto i = tile::arange<BLOCK>();
  auto v = tile::load(x + i);
  tile::store(to_bool + i, tile::cast<bool>(v));
  tile::store(to_i8 + i, tile::cast<std::int8_t>(v));
  tile::store(to_i16 + i, tile::cast<std::int16_t>(v));
  tile::store(to_i32 + i, tile::cast<std::int32_t>(v));
  tile::store(to_i64 + i, tile::cast<std::int64_t>(v));
  tile::store(to_u8 + i, tile::cast<std::uint8_t>(v));
  tile::store(to_u16 + i, tile::cast<std::uint16_t>(v));
  tile::store(to_u32 + i, tile::cast<std::uint32_t>(v));
  tile::store(to_u64 + i, tile::cast<std::uint64_t>(v));
  tile::store(to_f16 + i, tile::cast<tile::half>(v));
  tile::store(to_bf16 + i, tile::cast<tile::bfloat16>(v));
  tile::store(to_f32 + i, tile::cast<float>(v));
  tile::store(to_f64 + i, tile::cast<double>(v));
  tile::store(to_e4m3 + i, tile::cast<tile::float8_e4m3>(v));
  tile::store(to_e5m2 + i, tile::cast<tile::float8_e5m2>(v));
}
#define CONFORMANCE_CASTS(NAME, X)                                             \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME(                                                       \
      const X *x, bool *to_bool, std::int8_t *to_i8, std::int16_t *to_i16,     \
      std::int32_t *to_i32, std::int64_t *to_i64, std::uint8_t *to_u8,         \
      std::uint16_t *to_u16, std::uint32_t *to_u32, std::uint64_t *to_u64,     \
      tile::half *to_f16, tile::bfloat16 *to_bf16, float *to_f32,              \
      double *to_f64, tile::float8_e4m3 *to_e4m3,                              \
      tile::float8_e5m2 *to_e5m2) {                                            \
    cast_to_all<BLOCK>(x, to_bool, to_i8, to_i16, to_i32, to_i64, to_u8,       \
                       to_u16, to_u32, to_u64, to_f16, to_bf16, to_f32,        \
                       to_f64, to_e4m3, to_e5m2);                              \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {256}, .num_warps = 4});             \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const X *, bool *, std::int8_t *, std::int16_t *,     \
                         std::int32_t *, std::int64_t *, std::uint8_t *,       \
                         std::uint16_t *, std::uint32_t *, std::uint64_t *,    \
                         tile::half *, tile::bfloat16 *, float *, double *,    \
                         tile::float8_e4m3 *, tile::float8_e5m2 *) {           \
    return {1};                                                                \
  }
#define CONFORMANCE_TYPE(S, T, NAME) CONFORMANCE_CASTS(casts_from_##S, T)
#include "element_types.def"
#include "float8_types.def"
#undef CONFORMANCE_TYPE
#undef CONFORMANCE_CASTS

// Case 14 also: downcasts rounding toward zero (tl.cast's
// fp_downcast_rounding="rtz") of float and double.
template <int BLOCK, class X>
void casts_toward_zero(const X *x, tile::half *to_f16, tile::bfloat16 *to_bf16,
                       float *to_f32) {
  using tile::rounding;
  auto i = tile::arange<BLOCK>();
  auto v = tile::load(x + i);
  tile::store(to_f16 + i, tile::cast<tile::half, rounding::rtz>(v));
  tile::store(to_bf16 + i, tile::cast<tile::bfloat16, rounding::rtz>(v));
  if constexpr (sizeof(X) == 8)
    tile::store(to_f32 + i, tile::cast<float, rounding::rtz>(v));
}
#define CONFORMANCE_CASTS_RTZ(NAME, X)                                         \
  template <int BLOCK>                                                         \
  TILE_KERNEL void NAME(const X *x, tile::half *to_f16,                        \
                        tile::bfloat16 *to_bf16, float *to_f32) {              \
    casts_toward_zero<BLOCK>(x, to_f16, to_bf16, to_f32);                      \
  }                                                                            \
  TILE_CONFIGS(NAME, tile::config{.meta = {256}, .num_warps = 4});             \
  template <int BLOCK>                                                         \
  TILE_GRID(NAME)                                                              \
  tile::grid NAME##_grid(const X *, tile::half *, tile::bfloat16 *, float *) { \
    return {1};                                                                \
  }
CONFORMANCE_CASTS_RTZ(casts_rtz_from_f32, float)
CONFORMANCE_CASTS_RTZ(casts_rtz_from_f64, double)
#undef CONFORMANCE_CASTS_RTZ

// Case 26, inline_asm: PTX run on each element (test_inline_asm): a float
// through 32-bit integer registers (ex2.approx), integers shifted, a
// 64-bit add of a tile and a scalar, a half negated in a 16-bit register;
// emulation computes the same with the lambdas.
template <int BLOCK>
TILE_KERNEL void inline_asm(const float *x, const std::int32_t *i,
                            const std::int64_t *w, const tile::half *h,
                            float *out_x, std::int32_t *out_i,
                            std::int64_t *out_w, tile::half *out_h) {
  auto k = tile::arange<BLOCK>();
  tile::store(out_x + k,
              tile::inline_asm_elementwise<float>(
                  "ex2.approx.f32 $0, $1;", "=r,r",
                  [](float v) { return std::exp2(v); }, tile::load(x + k)));
  tile::store(out_i + k, tile::inline_asm_elementwise<std::int32_t>(
                             "shl.b32 $0, $1, 3;", "=r,r",
                             [](std::int32_t v) {
                               return std::int32_t(std::uint32_t(v) << 3);
                             },
                             tile::load(i + k)));
  tile::store(out_w + k,
              tile::inline_asm_elementwise<std::int64_t>(
                  "add.s64 $0, $1, $2;", "=l,l,l",
                  [](std::int64_t a, std::int64_t b) {
                    return std::int64_t(std::uint64_t(a) + std::uint64_t(b));
                  },
                  tile::load(w + k), std::int64_t(1) << 40));
  tile::store(out_h + k,
              tile::inline_asm_elementwise<tile::half>(
                  "neg.f16 $0, $1;", "=h,h", [](tile::half v) { return -v; },
                  tile::load(h + k)));
}
TILE_CONFIGS(inline_asm, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(inline_asm)
tile::grid inline_asm_grid(const float *, const std::int32_t *,
                           const std::int64_t *, const tile::half *, float *,
                           std::int32_t *, std::int64_t *, tile::half *) {
  return {1};
}

// Case 26 too, inline_asm_packed: pack > 1 (test_inline_asm_packed): four
// uint8 in one 32-bit register, masked and shifted; two halves added by one
// add.rn.f16x2; two floats per run, a register each. With 1024 elements a
// thread's groups are whole; with 128 (one element a thread) each group is
// one element and padding.
template <int BLOCK>
TILE_KERNEL void inline_asm_packed(const std::uint8_t *b, const tile::half *h,
                                   const tile::half *g, const float *x,
                                   std::uint8_t *out_b, tile::half *out_h,
                                   float *out_x) {
  auto k = tile::arange<BLOCK>();
  tile::store(out_b + k,
              tile::inline_asm_elementwise<std::uint8_t, 4>(
                  "and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r",
                  [](std::uint8_t v) { return std::uint8_t((v & 0x1F) << 3); },
                  tile::load(b + k)));
  tile::store(out_h + k, tile::inline_asm_elementwise<tile::half, 2>(
                             "add.rn.f16x2 $0, $1, $2;", "=r,r,r",
                             [](tile::half u, tile::half v) { return u + v; },
                             tile::load(h + k), tile::load(g + k)));
  tile::store(out_x + k, tile::inline_asm_elementwise<float, 2>(
                             "neg.f32 $0, $2; neg.f32 $1, $3;", "=f,=f,f,f",
                             [](float v) { return -v; }, tile::load(x + k)));
}
TILE_CONFIGS(inline_asm_packed, tile::config{.meta = {1024}, .num_warps = 4},
             tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(inline_asm_packed)
tile::grid inline_asm_packed_grid(const std::uint8_t *, const tile::half *,
                                  const tile::half *, const float *,
                                  std::uint8_t *, tile::half *, float *) {
  return {1};
}

// Case 20, tuples_and_calls: helpers that return tuples (and pairs, from
// a branch and from inside a loop), take nested tuples, take a lambda to
// call, or a pointer they may skip (Triton's None) under a constant;
// lambdas capturing by copy and by reference; a tuple a loop assigns.
template <class T> std::tuple<T, T> min_max(T a, T b) {
  return {tile::minimum(a, b), tile::maximum(a, b)};
}

template <class T>
std::tuple<T, std::tuple<T, T>> fold_nested(std::tuple<T, std::tuple<T, T>> t) {
  auto [a, rest] = t;
  return {a + std::get<0>(rest), std::tuple{std::get<1>(rest), a}};
}

template <class F, class T> auto apply_twice(F f, T x) { return f(f(x)); }

template <class T> std::pair<T, int> signed_part(T v, int n) {
  if (n > 0)
    return {v, 1};
  return std::make_pair(-v, -1);
}

/// v times the first s in 1..7 that takes its largest element past limit,
/// and s; v and 0 if none does.
template <class T> std::tuple<T, int> first_step_over(T v, float limit) {
  for (int s = 1; s < 8; ++s)
    if (tile::max(v) * float(s) > limit)
      return {v * float(s), s};
  return {v, 0};
}

template <bool HAS_OUT, class T> void store_if(float *out, T v) {
  if constexpr (HAS_OUT)
    tile::store(out + tile::arange<T::shape[0]>(), v);
}

template <int BLOCK>
TILE_KERNEL void tuples_and_calls(const float *x, const float *y, float *out) {
  auto i = tile::arange<BLOCK>();
  auto a = tile::load(x + i);
  auto b = tile::load(y + i);
  auto [lo, hi] = min_max(a, b);
  tile::store(out + i, lo);
  tile::store(out + BLOCK + i, hi);
  auto [sum, pair] = fold_nested(std::tuple{a, std::tuple{b, hi}});
  auto [first, second] = pair;
  tile::store(out + 2 * BLOCK + i, sum);
  tile::store(out + 3 * BLOCK + i, first);
  tile::store(out + 4 * BLOCK + i, second);
  float k = 3.0f;
  auto affine = [=](auto v) { return v * k + 1.0f; };
  k = 5.0f; // the lambda keeps its copy, 3
  tile::store(out + 5 * BLOCK + i, apply_twice(affine, a));
  tile::store(out + 6 * BLOCK + i,
              apply_twice([&](auto v) { return v - k; }, b));
  store_if<true>(out + 7 * BLOCK, lo + hi);
  store_if<false>(nullptr, lo);
  // A tuple assigned in a loop is carried by it.
  auto state = std::make_tuple(tile::zeros<float, BLOCK>(), 0);
  for (int s = 0; s < 3; ++s) {
    auto [acc, steps] = state;
    state = std::make_tuple(acc + a, steps + 2);
  }
  tile::store(out + 8 * BLOCK + i,
              std::get<0>(state) + static_cast<float>(std::get<1>(state)));
  const auto pos = signed_part(a, 1);
  auto [neg, sign] = signed_part(b, 0);
  tile::store(out + 9 * BLOCK + i, pos.first * static_cast<float>(pos.second) +
                                       neg * static_cast<float>(sign));
  auto [scaled, steps] = first_step_over(tile::abs(a) + 1.0f, 20.0f);
  tile::store(out + 10 * BLOCK + i, scaled + static_cast<float>(steps));
}
TILE_CONFIGS(tuples_and_calls, tile::config{.meta = {64}, .num_warps = 2});
template <int BLOCK>
TILE_GRID(tuples_and_calls)
tile::grid tuples_and_calls_grid(const float *, const float *, float *) {
  return {1};
}

// Case 13: Philox words from 32- and 64-bit offsets, and the uniform floats
// made of them, for one seed.
template <int BLOCK>
TILE_KERNEL void philox_streams(std::uint32_t *words, std::uint32_t *wide,
                                float *uniform, std::int64_t seed,
                                std::int64_t base, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto [a, b, c, d] = tile::randint4x(seed, offs);
  tile::store(words + offs, a, mask);
  tile::store(words + n + offs, b, mask);
  tile::store(words + 2 * n + offs, c, mask);
  tile::store(words + 3 * n + offs, d, mask);
  auto far = base + tile::cast<std::int64_t>(offs);
  auto [e, f, g, h] = tile::randint4x(seed, far);
  tile::store(wide + offs, e, mask);
  tile::store(wide + n + offs, f, mask);
  tile::store(wide + 2 * n + offs, g, mask);
  tile::store(wide + 3 * n + offs, h, mask);
  tile::store(uniform + offs, tile::rand(seed, offs), mask);
  tile::store(uniform + n + offs, tile::rand(seed, far), mask);
}
TILE_CONFIGS(philox_streams, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(philox_streams)
tile::grid philox_streams_grid(std::uint32_t *, std::uint32_t *, float *,
                               std::int64_t, std::int64_t, int n) {
  return {tile::cdiv(n, BLOCK)};
}
