// RUN: rm -rf %t && mkdir -p %t/build
// RUN: printf '[{"directory": "%S", "file": "%s", "arguments": ["c++", "-std=c++20", "-IInputs/compile_database", "-D", "SCALE=2.5f", "-DUNUSED", "-Wall", "-c", "%s", "-o", "x.o"]}]' > %t/build/compile_commands.json
// RUN: %tilecc %s -o %t/out -p %t/build
// RUN: %FileCheck %s < %t/out/scaled.cu
// RUN: mkdir -p %t/other && printf '[{"directory": "%S", "file": "%S/neighbour.cpp", "arguments": ["c++", "-IInputs/compile_database", "-DSCALE=2.5f", "-c", "%S/neighbour.cpp"]}]' > %t/other/compile_commands.json
// RUN: %tilecc %s -o %t/out4 -p %t/other
// RUN: %FileCheck %s < %t/out4/scaled.cu
// RUN: %not %tilecc %s -o %t/out2 2>&1 | %FileCheck %s --check-prefix=NO-DATABASE
// RUN: %not %tilecc %s -o %t/out3 -p %t/nowhere 2>&1 | %FileCheck %s --check-prefix=MISSING
//
// tilecc -p build-dir reads the source's include paths and macros from the
// build's compile_commands.json, as clang tools do (add_tile_kernel gives
// every .tile.cpp an entry: its emulation compile); relative paths resolve
// against the command's directory, and a file without a command of its own
// takes a neighbour's.
#include "scale.h"
#include <tile/tile.hpp>

TILE_KERNEL void scaled(const float *x, float *y) {
  auto i = tile::arange<128>();
  tile::store(y + i, tile::load(x + i) * kernel_scale);
}
TILE_CONFIGS(scaled, tile::config{.num_warps = 4});
TILE_GRID(scaled) tile::grid scaled_grid(const float *, float *) { return {1}; }

// CHECK: 2.5f
// NO-DATABASE: compile_database.tile.cpp:[[@LINE-11]]:10: fatal error: 'scale.h' file not found
// MISSING: tilecc: error: no compile_commands.json in {{.*}}nowhere
