// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/k.cu -o %t/k.o %}
// RUN: %not %tilecc %s -o %t.bad -DBAD 2>&1 | %check-errors %s --check-prefix=BAD
//
// Helpers returning a std::pair or std::tuple from a branch or from inside
// a loop: each element is a value of its own, an `if` yields all of them
// (a tile among them), and a loop carries one result variable per element
// beside its `returned` flag (conformance case tuples_and_calls runs these
// helpers on the GPU).
#include <cmath>
#include <tile/tile.hpp>
#include <tuple>
#include <utility>

template <int B>
std::pair<int, float> first_above(const float *x, int n, float t) {
  for (int i = 0; i < n; i += B) {
    auto v = tile::load(x + i + tile::arange<B>(), i + tile::arange<B>() < n,
                        -INFINITY);
    if (tile::max(v) > t)
      return {i + tile::argmax(v), tile::max(v)};
  }
  return {-1, 0.0f};
}

template <int B>
std::tuple<tile::tensor<float, B>, int> clipped(const float *x, int n) {
  auto v = tile::load(x + tile::arange<B>(), tile::arange<B>() < n, 0.0f);
  if (n > B)
    return {v, B};
  return std::make_tuple(v * 2.0f, n);
}

template <int B>
TILE_KERNEL void k(const float *x, float *out, int *idx, int n, float t) {
  const auto hit = first_above<B>(x, n, t);
  tile::store(out, hit.second);
  tile::store(idx, hit.first);
  auto [v, c] = clipped<B>(x, n);
  tile::store(out + 1 + tile::arange<B>(), v);
  tile::store(idx + 1, c);
  // A pair's element that is a tuple, read whole.
  const std::pair<std::tuple<int, int>, int> nested{{c, 2}, 3};
  auto [c0, c1] = nested.first;
  tile::store(idx + 2, c0 + c1 + nested.second);
#ifdef BAD
  auto q = std::make_pair(1, 2);
  // BAD: tuple_returns.tile.cpp:[[@LINE+1]]:{{[0-9]+}}: error: a std::pair's elements cannot be assigned one by one in a tile kernel; assign the whole pair
  q.first = 5;
#endif
}
TILE_CONFIGS(k, tile::config{.meta = {128}});
template <int B>
TILE_GRID(k)
tile::grid k_grid(const float *, float *, int *, int, float) { return {1}; }

// CHECK-LABEL: k_c0_generic(
// CHECK: bool returned = false;
// CHECK-NEXT: int result_0 = 0;
// CHECK-NEXT: float result_1 = 0.0f;
// CHECK: while (true) {
// CHECK: if ([[HIT:t[0-9]+]]) {
// CHECK: returned_1 = true;
// CHECK-NEXT: result_0_1 = [[I:t[0-9]+]];
// CHECK-NEXT: result_1_1 = [[M:t[0-9]+]];
// CHECK: const bool [[REST:t[0-9]+]] = (!returned);
// CHECK: if ([[REST]]) {
// CHECK-NEXT: [[IDX:t[0-9]+]] = -1;
// CHECK-NEXT: [[OUT:t[0-9]+]] = 0.0f;
// CHECK-NEXT: } else {
// CHECK-NEXT: [[IDX]] = result_0;
// CHECK-NEXT: [[OUT]] = result_1;
// CHECK: *out = [[OUT]];
// CHECK: *idx = [[IDX]];
// The tuple's tile and int come out of one `if`.
// CHECK: = (n > 128);
// CHECK: float [[V:v_[0-9]+]][1];
// CHECK-NEXT: int c;
// CHECK: c = 128;
// CHECK: } else {
// CHECK: [[V]]{{\[e\]}} = (v_1[e] * 2.0f);
// CHECK: c = n;
// CHECK: [[SUM:t[0-9]+]] = (c + 2);
// CHECK-NEXT: [[ALL:t[0-9]+]] = ([[SUM]] + 3);
