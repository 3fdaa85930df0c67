// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.launch.cpp
// RUN: %FileCheck %s --check-prefix=MM < %t/mm.launch.cpp
// RUN: %FileCheck %s --check-prefix=PLANES < %t/planes.launch.cpp
// RUN: %FileCheck %s --check-prefix=STATS < %t/row_means.launch.cpp
// RUN: %FileCheck %s --check-prefix=WIDTHS < %t/widths.launch.cpp
// RUN: %FileCheck %s --check-prefix=WIDTHS-JSON < %t/widths.json
//
// Only integers whose divisibility changes an access are specialized: those
// that decide a vector's width through a pointer or a mask (n, stride). A
// value only compared (ignore_index, often -100) or stored would cost every
// access of the aligned variant its vectors for nothing; so would a matrix
// product's row count m, which only masks whole rows (M = 3000 would send
// every launch to the generic variant), or a row count whose mask only
// guards a tile of a few elements, one a thread (each row's mean). Of two
// integers that matter only together (a plane of m * n elements), one is
// kept. Each integer is asked for the least divisibility that gives its
// accesses 16-byte vectors: 8 for a row of halves (K = 1000 keeps them),
// 4 for floats, 2 for doubles, 16 for bytes.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void k(const float *x, float *y, const int64_t *target, int n,
                   int stride, int64_t ignore_index, int tag) {
  const int row = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  if (tile::load(target + row) == ignore_index)
    return;
  auto v = tile::load(x + row * stride + cols, cols < n, 0.0f);
  tile::store(y + row * stride + cols, v + float(tag), cols < n);
}
TILE_CONFIGS(k, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(k)
tile::grid k_grid(const float *, float *, const int64_t *, int, int, int64_t,
                  int) {
  return {1};
}

template <int BM, int BN, int BK>
TILE_KERNEL void mm(const tile::half *a, const tile::half *b, float *c, int m,
                    int n, int k) {
  auto rm = tile::program_id(0) * BM + tile::arange<BM>();
  auto rn = tile::program_id(1) * BN + tile::arange<BN>();
  auto rk = tile::arange<BK>();
  auto acc = tile::zeros<float, BM, BN>();
  for (int k0 = 0; k0 < k; k0 += BK) {
    auto kk = k0 + rk;
    auto x = tile::load(
        a + tile::expand_dims<1>(rm) * k + tile::expand_dims<0>(kk),
        tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(kk < k));
    auto y = tile::load(
        b + tile::expand_dims<1>(kk) * n + tile::expand_dims<0>(rn),
        tile::expand_dims<1>(kk < k) && tile::expand_dims<0>(rn < n));
    acc = tile::dot(x, y, acc);
  }
  tile::store(c + tile::expand_dims<1>(rm) * n + tile::expand_dims<0>(rn), acc,
              tile::expand_dims<1>(rm < m) && tile::expand_dims<0>(rn < n));
}
TILE_CONFIGS(mm, tile::config{.meta = {64, 64, 32}, .num_warps = 4});
template <int BM, int BN, int BK>
TILE_GRID(mm)
tile::grid mm_grid(const tile::half *, const tile::half *, float *, int m,
                   int n, int) {
  return {tile::cdiv(m, BM), tile::cdiv(n, BN)};
}

template <int BLOCK>
TILE_KERNEL void planes(const float *x, float *y, int m, int n) {
  auto cols = tile::arange<BLOCK>();
  const int plane = tile::program_id(0) * m * n;
  tile::store(y + plane + cols, tile::load(x + plane + cols));
}
TILE_CONFIGS(planes, tile::config{.meta = {128}, .num_warps = 1});
template <int BLOCK>
TILE_GRID(planes)
tile::grid planes_grid(const float *, float *, int, int) {
  return {1};
}

template <int ROWS, int BLOCK>
TILE_KERNEL void row_means(const float *x, float *mean, int stride, int n_rows,
                           int n_cols) {
  auto rows = tile::program_id(0) * ROWS + tile::arange<ROWS>();
  auto cols = tile::arange<BLOCK>();
  auto v = tile::load(x + tile::expand_dims<1>(rows) * stride +
                          tile::expand_dims<0>(cols),
                      tile::expand_dims<1>(rows < n_rows) &&
                          tile::expand_dims<0>(cols < n_cols),
                      0.0f);
  tile::store(mean + rows, tile::sum<1>(v) / n_cols, rows < n_rows);
}
TILE_CONFIGS(row_means, tile::config{.meta = {4, 1024}, .num_warps = 4});
template <int ROWS, int BLOCK>
TILE_GRID(row_means)
tile::grid row_means_grid(const float *, float *, int, int n_rows, int) {
  return {tile::cdiv(n_rows, ROWS)};
}

template <int BLOCK>
TILE_KERNEL void widths(const int8_t *b, const double *d, int8_t *b_out,
                        double *d_out, int b_stride, int d_stride) {
  const int row = tile::program_id(0);
  auto cols = tile::arange<BLOCK>();
  tile::store(b_out + row * b_stride + cols,
              tile::load(b + row * b_stride + cols));
  tile::store(d_out + row * d_stride + cols,
              tile::load(d + row * d_stride + cols));
}
TILE_CONFIGS(widths, tile::config{.meta = {2048}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(widths)
tile::grid widths_grid(const int8_t *, const double *, int8_t *, double *, int,
                       int) {
  return {1};
}

// clang-format off
// MM: const bool tilecc_aligned16 = reinterpret_cast<std::uintptr_t>(a) % 16 == 0 &&
// MM-NEXT: reinterpret_cast<std::uintptr_t>(b) % 16 == 0 &&
// MM-NEXT: reinterpret_cast<std::uintptr_t>(c) % 16 == 0 &&{{$}}
// MM-NEXT: {{^ +}}n % 8 == 0 && k % 8 == 0;
// PLANES: const bool tilecc_aligned16 = reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
// PLANES-NEXT: reinterpret_cast<std::uintptr_t>(y) % 16 == 0 &&{{$}}
// PLANES-NEXT: {{^ +}}n % 4 == 0;
// STATS: const bool tilecc_aligned16 =
// STATS-NEXT: reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
// STATS-NEXT: reinterpret_cast<std::uintptr_t>(mean) % 16 == 0 && stride % 4 == 0 &&
// STATS-NEXT: {{^ +}}n_cols % 4 == 0;
// CHECK: const bool tilecc_aligned16 =
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(y) % 16 == 0 &&{{$}}
// CHECK-NEXT: reinterpret_cast<std::uintptr_t>(target) % 16 == 0 && n % 4 == 0 &&
// CHECK-NEXT: stride % 4 == 0;
// WIDTHS: reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0 && b_stride % 16 == 0 &&
// WIDTHS-NEXT: {{^ +}}d_stride % 2 == 0;
// WIDTHS-JSON: "b_stride": "aligned16",
// WIDTHS-JSON: "d_stride": "divisible2"
// clang-format on
