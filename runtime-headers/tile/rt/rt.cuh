// Everything generated kernels use from tile::rt.
#pragma once

#include "tile/rt/atomic.cuh"
#include "tile/rt/debug.cuh"
#include "tile/rt/dot.cuh"
#include "tile/rt/grid_dependency.cuh"
#include "tile/rt/histogram.cuh"
#include "tile/rt/layout.cuh"
#include "tile/rt/math.cuh"
#include "tile/rt/memory.cuh"
#include "tile/rt/occupancy.cuh"
#include "tile/rt/pack.cuh"
#include "tile/rt/random.cuh"
#include "tile/rt/reduce.cuh"
#include "tile/rt/scan.cuh"
#include "tile/rt/smem.cuh"
#include "tile/rt/sync.cuh"
#include "tile/rt/types.cuh"
