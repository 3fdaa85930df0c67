// RUN: rm -rf %t && %tilecc %s -o %t --tuning-table %S/Inputs/autotune_table.json
// RUN: %FileCheck %s --check-prefix=SCALE < %t/scale.launch.cpp
// RUN: %FileCheck %s --check-prefix=ACCUMULATE < %t/accumulate.launch.cpp
// RUN: %FileCheck %s --check-prefix=SPLIT < %t/split_sum.launch.cpp
// RUN: %FileCheck %s --check-prefix=HEADER < %t/split_sum.launch.h
// RUN: %FileCheck %s --check-prefix=SEED < %t/fill.launch.cpp
// RUN: %tilecc %s -o %t.hip --target gfx90a --tuning-table %S/Inputs/autotune_table.json
//
// The launch wrappers compile warning-free, tuner included.
// RUN: %if nvcc %{ %host-cxx %t/split_sum.launch.cpp -o %t/split.o %}
// RUN: %if nvcc %{ %host-cxx %t/scale.launch.cpp -o %t/scale.o %}
// RUN: %if nvcc %{ %host-cxx %t/accumulate.launch.cpp -o %t/accumulate.o %}
// RUN: %if nvcc %{ %host-cxx %t/fill.launch.cpp -o %t/fill.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/split_sum.launch.cpp -o %t.hip/split.o %}
// RUN: %if hipcc %{ %hipcc-gfx90a %t.hip/accumulate.launch.cpp -o %t.hip/accumulate.o %}
//
// Autotuning in the launch wrappers: a kernel without a TILE_TUNE rule is
// keyed on its integer arguments (and never picks a configuration marked
// autotune = false); one that updates an argument in place
// without a rule saying how to reset it is not measured (and says so); a
// rule's key and buffers are printed into the wrapper, and the tuning
// table's rows for the kernel become a table of configuration indices.
#include <cstdint>
#include <tile/tile.hpp>

template <int BLOCK>
TILE_KERNEL void scale(const float *x, float *y, float a, int n, long stride) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::store(y + offs * stride, tile::load(x + offs, offs < n) * a, offs < n);
}
TILE_CONFIGS(scale, tile::config{.meta = {256}},
             tile::config{.meta = {1024}, .num_warps = 8, .num_stages = 2},
             tile::config{.meta = {512}, .autotune = false});
template <int BLOCK>
TILE_GRID(scale)
tile::grid scale_grid(const float *, float *, float, int n, long) {
  return {tile::cdiv(n, BLOCK)};
}

// SCALE: static tile::tuning tuning_of(int n, long stride) {
// SCALE-NEXT: tile::tuning tuning;
// SCALE-NEXT: tuning.key = {n, stride};
// SCALE: static const char *const config_names[] = {
// SCALE-NEXT: ("BLOCK=256 num_warps=4 num_stages=1"),
// SCALE-NEXT: ("BLOCK=1024 num_warps=8 num_stages=2"),
// SCALE-NEXT: ("BLOCK=512 num_warps=4 num_stages=1 autotune=false"),
// SCALE-NEXT: };
// SCALE-NEXT: static const bool config_tuned[] = {
// SCALE-NEXT: true,
// SCALE-NEXT: true,
// SCALE-NEXT: false,
// SCALE: instance({"scale", "{{[0-9a-f]+}}", 3, config_names, config_tuned},
// SCALE-NEXT: nullptr, 0);
// SCALE: if (config == tile::autotuned || (config == -1 && tile::autotune_enabled())) {
// SCALE-NEXT: const cudaError_t tilecc_status = tilecc_gen::scale::tuner().launch_tuned(
// SCALE-NEXT: tilecc_gen::scale::tuning_of(n, stride), stream, tilecc_launch,
// SCALE-NOT: launch_from_table
// SCALE: config = 0;

// An unsigned 64-bit argument goes into the key as its bits: a long long
// (a plain conversion in the braces would narrow).
template <int BLOCK>
TILE_KERNEL void fill(float *y, int n, std::uint64_t seed) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::store(y + offs, tile::rand(seed, offs), offs < n);
}
TILE_CONFIGS(fill, tile::config{.meta = {256}});
template <int BLOCK>
TILE_GRID(fill)
tile::grid fill_grid(float *, int n, std::uint64_t) {
  return {tile::cdiv(n, BLOCK)};
}

// SEED: static tile::tuning tuning_of(int n, std::uint64_t seed) {
// SEED-NEXT: tile::tuning tuning;
// SEED-NEXT: tuning.key = {n, static_cast<long long>(seed)};

template <int BLOCK>
TILE_KERNEL void accumulate(const float *x, float *total, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::atomic_add(total, tile::sum<0>(tile::load(x + offs, offs < n, 0.0f)));
}
TILE_CONFIGS(accumulate, tile::config{.meta = {256}});
template <int BLOCK>
TILE_GRID(accumulate)
tile::grid accumulate_grid(const float *, float *, int n) {
  return {tile::cdiv(n, BLOCK)};
}

// ACCUMULATE-NOT: tuning_of
// ACCUMULATE: tilecc_gen::accumulate::tuner().say_not_measured(
// ACCUMULATE-NEXT: "it updates total as it runs, and no TILE_TUNE rule says "
// ACCUMULATE-NOT: launch_tuned

// Split sums: out accumulates, arrivals must be zero.
template <int BLOCK>
TILE_KERNEL void split_sum(const float *x, float *out, int *arrivals, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  tile::atomic_add(out, tile::sum<0>(tile::load(x + offs, offs < n, 0.0f)));
  tile::atomic_add(arrivals, 1);
}
TILE_CONFIGS(split_sum, tile::config{.meta = {128}},
             tile::config{.meta = {256}, .num_warps = 8});
template <int BLOCK>
TILE_GRID(split_sum)
tile::grid split_sum_grid(const float *, float *, int *, int n) {
  return {tile::cdiv(n, BLOCK)};
}
TILE_TUNE(split_sum)
tile::tuning split_sum_tuning(const float *, float *out, int *arrivals,
                              int n) {
  return {.key = {n},
          .reset_to_zero = {tile::elements(arrivals, 1)},
          .restore_value = {tile::elements(out, 1)}};
}

// SPLIT: // What the tuner keys its choice on and protects, from {{.*}}autotune.tile.cpp.
// SPLIT-NEXT: static tile::tuning tuning_of(const float *, {{\[\[maybe_unused\]\]}} float *out,
// SPLIT: return {.key = {n},
// SPLIT-NEXT: .reset_to_zero = {tile::elements(arrivals, 1)},
// SPLIT-NEXT: .restore_value = {tile::elements(out, 1)}};
// SPLIT: // From the tuning table {{.*}}autotune_table.json: per device ("" for any) and
// SPLIT-NEXT: // key, the configurations measured fastest first.
// SPLIT-NEXT: static const tile::detail::autotune::table_entry tuning_table[] = {
// SPLIT-NEXT: {"NVIDIA H200", {4096}, {1, 0}},
// SPLIT-NEXT: {"", {65536}, {0}},
// SPLIT-NEXT: };
// SPLIT: {"split_sum", "{{[0-9a-f]+}}", 2, config_names, config_tuned},
// SPLIT-NEXT: tuning_table, std::size(tuning_table));
// SPLIT: tilecc_gen::split_sum::tuning_of(x, out, arrivals, n), stream,
// SPLIT: if (config == -1) {
// SPLIT-NEXT: const cudaError_t tilecc_status =
// SPLIT-NEXT: tilecc_gen::split_sum::tuner().launch_from_table(
// SPLIT: config = 0;
// SPLIT: const cudaError_t tilecc_status = tilecc_launch(config, tilecc_declined);
// SPLIT-NEXT: return tilecc_declined ? cudaErrorInvalidValue : tilecc_status;

// HEADER: #include <tile/autotune.hpp>
// HEADER: ///   tile::autotuned   the one measured fastest, tuning or not;
// HEADER: cudaError_t split_sum(const float *x, float *out, int *arrivals, int n,
// HEADER-NEXT: cudaStream_t stream = nullptr, int config = -1);
