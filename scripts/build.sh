#!/usr/bin/env bash
# Usage: scripts/build.sh [BUILD_DIR [CMAKE_ARGS...]]
#
# Installs the dependencies (setup.sh), then configures and builds tilecc,
# its tests and samples in BUILD_DIR (default: build). Shared by test.sh,
# run-samples.sh and gpu-check.sh so that all three build the same way.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:-build}
if (($# > 0)); then shift; fi

bash scripts/setup.sh

cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release)
# nvcc is not on PATH in a fresh shell; without it CMake builds no CUDA.
if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  cmake_args+=(-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
cmake "${cmake_args[@]}" "$@"
# Two jobs by default: the machines this runs on have two cores, and one
# Clang-heavy translation unit takes up to 1.4 GB. JOBS overrides.
ninja -C "$build_dir" -j"${JOBS:-2}"
