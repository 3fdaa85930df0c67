// RUN: rm -rf %t && %tilecc %s -o %t && %FileCheck %s < %t/stream.cu
// RUN: %if nvcc %{ %nvcc-sm90a %t/stream.cu -o %t/sm90a.o %}
// RUN: %if nvcc %{ %nvcc-sm80 %t/stream.cu -o %t/sm80.o %}
// RUN: %if nvcc %{ %nvcc-ptx-sm80 %t/stream.cu -o %t/stream.ptx %}
// RUN: %if nvcc %{ %FileCheck --check-prefix=PTX %s < %t/stream.ptx %}
// RUN: %tilecc %s -o %t.hip --target gfx90a
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/stream.hip -o %t.hip/stream.o %}
// RUN: %tilecc %s --emit=ir | %FileCheck --check-prefix=IR %s
//
// Triton's cache_modifier, eviction_policy and volatile are template
// arguments of load and store: the cache operators become ld.global.cg,
// st.global.cs, ...; an eviction policy an L2 access policy (the
// cache_hint form); volatile ld.volatile / st.volatile, one word at a time
// for wider accesses. Plain accesses are unchanged.
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void stream(const float *x, const float *w, float *y, int *flag,
                        int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto mask = offs < n;
  auto a = tile::load<tile::cache::cg>(x + offs, mask);
  auto b = tile::load<tile::cache::normal, tile::evict::last>(w + offs, mask);
  auto c = tile::load(x + offs, mask);
  tile::store<tile::cache::cs>(y + offs, a * b + c, mask);
  const int seen = tile::load<tile::cache::volatile_>(flag);
  tile::store<tile::cache::volatile_>(flag + 1, seen + 1);
  tile::store<tile::cache::normal, tile::evict::first>(y + n + offs, a, mask);
}
TILE_CONFIGS(stream, tile::config{.meta = {1024}, .num_warps = 4});
template <int BLOCK>
TILE_GRID(stream)
tile::grid stream_grid(const float *, const float *, float *, int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// CHECK-LABEL: stream_c0_aligned16(
// CHECK: rt::ld_global_v4<rt::cache::cg, rt::evict::normal>(&a[e],
// CHECK: rt::ld_global_v4<rt::cache::normal, rt::evict::last>(&b[e],
// CHECK: rt::ld_global_v4(&c[e],
// CHECK: rt::st_global_v4<rt::cache::cs, rt::evict::normal>(
// CHECK: rt::ld_global_v1<rt::cache::volatile_, rt::evict::normal>(&seen, flag, true,
// CHECK: rt::st_global_v1<rt::cache::volatile_, rt::evict::normal>(
// CHECK: rt::st_global_v4<rt::cache::normal, rt::evict::first>(

// PTX-LABEL: stream_c0_aligned16
// PTX-DAG: ld.global.cg.v4.u32
// PTX-DAG: ld.global.L2::cache_hint.v4.u32
// PTX-DAG: st.global.cs.v4.u32
// PTX-DAG: ld.volatile.global.u32
// PTX-DAG: st.volatile.global.u32
// PTX-DAG: st.global.L2::cache_hint.v4.u32
// PTX-DAG: createpolicy.fractional.L2::evict_last.b64
// PTX-DAG: createpolicy.fractional.L2::evict_first.b64

// IR: load {cache = cg, evict = normal}
// IR: load {cache = normal, evict = evict_last}
// IR: load %{{[0-9]+}}, %{{[0-9]+}}.mask : tensor<f32, [1024]>
// IR: store {cache = cs, evict = normal}
// IR: load {cache = volatile, evict = normal} %{{[0-9]+}}.flag : i32
// IR: store {cache = volatile, evict = normal}
// IR: store {cache = normal, evict = evict_first}
