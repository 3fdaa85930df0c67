// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/k.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/k.cu -o %t/k.o %}
//
// Nested tuples travel flattened, one value per element; a lambda passed to
// a helper is inlined where the helper calls it, with what it captured by
// copy as it was where the lambda was made (the conformance suite's
// tuples_and_calls runs the same on the GPU).
#include <tile/tile.hpp>
#include <tuple>

template <class T>
std::tuple<T, std::tuple<T, T>> rotate(std::tuple<T, std::tuple<T, T>> t) {
  auto [a, rest] = t;
  return {std::get<0>(rest), std::tuple{std::get<1>(rest), a}};
}

template <class F, class T> T twice(F f, T x) { return f(f(x)); }

template <int BLOCK> TILE_KERNEL void k(const float *x, float *out) {
  auto i = tile::arange<BLOCK>();
  auto a = tile::load(x + i);
  auto [p, rest] = rotate(std::tuple{a, std::tuple{a * 2.0f, a * 3.0f}});
  auto q = std::get<1>(rest);
  float scale = 4.0f;
  auto f = [=](auto v) { return v * scale; };
  scale = 5.0f;
  tile::store(out + i, twice(f, p + q));
  tile::store(out + BLOCK + i, twice([&](auto v) { return v + scale; }, a));
}
TILE_CONFIGS(k, tile::config{.meta = {128}, .num_warps = 4});
template <int BLOCK> TILE_GRID(k) tile::grid k_grid(const float *, float *) {
  return {1};
}

// CHECK-LABEL: k_c0_
// p is a * 2, q is a (the rotation); f multiplies by its copy of scale, 4.
// CHECK: p[e] = (a[e] * 2.0f);
// CHECK: (((p[e] + a[e]) * 4.0f) * 4.0f);
// The lambda written in the call sees scale by reference: 5.
// CHECK: ((a[e] + 5.0f) + 5.0f);
