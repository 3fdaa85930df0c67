// The precompiled tile/tile.hpp (tilecc --write-pch, which tilecc's build
// runs) saves parsing time and changes nothing else: the files written, the
// depfile and every diagnostic are those of a translation without it.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %tilecc-bin --write-pch=%t/tile.pch
// RUN: %tilecc %s -o %t/with --tile-pch=%t/tile.pch --depfile %t/with.d \
// RUN:   --explain-pch 2>&1 | %FileCheck %s --check-prefix=LOADS
// RUN: %tilecc %s -o %t/without --tile-pch= --depfile %t/without.d
// RUN: diff -r %t/with %t/without
// RUN: tail -n +2 %t/with.d > %t/with.deps
// RUN: tail -n +2 %t/without.d > %t/without.deps
// RUN: diff %t/with.deps %t/without.deps
// RUN: %FileCheck %s --check-prefix=DEPS < %t/with.d
// LOADS: tilecc: loading {{.*}}tile.pch
// DEPS-DAG: {{.*}}/cmath
// DEPS-DAG: {{.*}}/tile/tile.hpp
//
// tilecc's build writes two beside it, which are the default: one built
// after <algorithm>, loaded where the file includes it too (here), and one
// without.
// RUN: %tilecc %s -o %t/default --explain-pch 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=DEFAULT
// RUN: diff -r %t/default %t/without
// DEFAULT: tilecc: loading {{.*}}tile-algorithm.pch
// RUN: %tilecc-bin --write-pch=%t/with-algorithm.pch --pch-with=algorithm
// RUN: %tilecc %samples/vector_add/vector_add.tile.cpp -o %t/no-algorithm \
// RUN:   --tile-pch=%t/with-algorithm.pch --explain-pch 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=NO-ALGORITHM
// NO-ALGORITHM: not loading a precompiled tile/tile.hpp: {{.*}}with-algorithm.pch: the file does not include <algorithm>
//
// Loaded, the header would place Clang's diagnostics elsewhere (its
// #include on line 1): a translation with something to report runs again
// without it, and reports what it reports without it.
// RUN: %not %tilecc %S/errors/mask_type.tile.cpp -o %t/e \
// RUN:   --tile-pch=%t/tile.pch 2> %t/with.err
// RUN: %not %tilecc %S/errors/mask_type.tile.cpp -o %t/e --tile-pch= \
// RUN:   2> %t/without.err
// RUN: diff %t/with.err %t/without.err
// RUN: %not %tilecc %S/errors/mask_type.tile.cpp -o %t/e \
// RUN:   --tile-pch=%t/tile.pch --explain-pch 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=AGAIN
// AGAIN: tilecc: loading {{.*}}tile.pch
// AGAIN-NEXT: tilecc: translating again without {{.*}}tile.pch
// AGAIN-NEXT: {{.*}}mask_type.tile.cpp:8:33: error: load and store masks
//
// Not loaded where it may not give the same translation unit: with
// arguments for Clang, after a macro, once a header it was built from (or
// the header itself) changed.
// RUN: %tilecc %s -o %t/args --tile-pch=%t/tile.pch --explain-pch \
// RUN:   -DUNUSED 2>&1 | %FileCheck %s --check-prefix=ARGS
// ARGS: not loading a precompiled tile/tile.hpp: the translation has -I, -D or clang arguments
// RUN: %tilecc %S/Inputs/define_first.tile.cpp -o %t/define \
// RUN:   --tile-pch=%t/tile.pch --explain-pch 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=MACRO
// MACRO: not loading a precompiled tile/tile.hpp: the file has more than comments and standard headers before #include <tile/tile.hpp>
// RUN: touch %t/tile.pch
// RUN: %tilecc %s -o %t/stale --tile-pch=%t/tile.pch --explain-pch 2>&1 \
// RUN:   | %FileCheck %s --check-prefix=STALE
// RUN: diff -r %t/stale %t/without
// STALE: not loading a precompiled tile/tile.hpp: {{.*}}tile.pch: changed since its manifest was written

/* Standard headers may come first. */
#include <cmath>
#include <tile/tile.hpp> // the tile language
#include <algorithm>

template <int BLOCK>
TILE_KERNEL void scaled(const float *x, float *out, float scale, int n) {
  auto offs = tile::program_id(0) * BLOCK + tile::arange<BLOCK>();
  auto x_tile = tile::load(x + offs, offs < n, 0.0f);
  tile::store(out + offs, x_tile * std::max(scale, 0.0f), offs < n);
}
TILE_CONFIGS(scaled, tile::config{.meta = {256}});

template <int BLOCK>
TILE_GRID(scaled)
tile::grid scaled_grid(const float *, float *, float, int n) {
  return {tile::cdiv(n, BLOCK)};
}
