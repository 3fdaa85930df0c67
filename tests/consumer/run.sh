#!/usr/bin/env bash
# Usage: tests/consumer/run.sh BUILD_DIR
#
# Checks tilecc as a user gets it: installs BUILD_DIR into a temporary
# prefix, then builds this folder's project against that prefix with
# find_package(tilecc):
#   CUDA  built and run (the app exits 77 where there is no GPU; that counts
#         as a pass), then the depfile is checked: a no-op rebuild does
#         nothing, touching the kernel or a runtime header it includes
#         re-runs tilecc; the kernel's command in compile_commands.json
#         compiles and `tilecc -p` reads it;
#   HIP   the kernel library compiled for gfx90a (nothing to run it on).
# Exit: 0 pass, 1 fail, 77 when neither nvcc nor hipcc is present.
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}

work=$(mktemp -d "${TMPDIR:-/tmp}/tilecc-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
# A copy of the project: the checks touch its kernel source.
src=$work/src
mkdir -p "$src"
cp "$here/CMakeLists.txt" "$here/main.cpp" "$here/saxpy.tile.cpp" "$src/"

fail() {
  echo "consumer: FAIL: $*" >&2
  exit 1
}

# Runs a command with its output in a log, printed only if it fails.
quiet() {
  local log=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    fail "$*"
  fi
}

expect_no_work() {
  local out
  out=$(ninja -C "$1" -n)
  grep -q "no work to do" <<<"$out" || fail "$2: a rebuild with nothing changed would run: $out"
}

expect_tilecc_reruns() {
  quiet "$work/rebuild.log" cmake --build "$1"
  grep -q "tilecc saxpy.tile.cpp" "$work/rebuild.log" ||
    fail "touching $2 did not re-run tilecc: $(cat "$work/rebuild.log")"
}

# ccache as the CUDA compiler launcher, behind tilecc's own (which adds
# ptxas's report to the metadata): after a clean, the build of the same
# tree is served from the cache, and its metadata still gets the report.
check_ccache() {
  if ! command -v ccache >/dev/null; then
    echo "consumer: ccache skipped (not installed)"
    return
  fi
  export CCACHE_DIR=$work/ccache
  local c=$work/ccache-build
  quiet "$work/ccache-configure.log" cmake -S "$src" -B "$c" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache
  quiet "$work/ccache-build-1.log" cmake --build "$c" --target saxpy_kernels
  quiet "$work/ccache-clean.log" cmake --build "$c" --target clean
  quiet "$work/ccache-zero.log" ccache --zero-stats
  quiet "$work/ccache-build-2.log" cmake --build "$c" --target saxpy_kernels
  local stats hits misses
  stats=$(ccache --print-stats)
  hits=$(awk '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {n += $2} END {print n + 0}' <<<"$stats")
  misses=$(awk '$1 == "cache_miss" {print $2}' <<<"$stats")
  ((hits > 0 && misses == 0)) ||
    fail "the second build was not served from ccache ($hits hits, $misses misses)"
  grep -q '"registers"' "$c"/saxpy_kernels.tile/saxpy/*.json ||
    fail "a build served from ccache left ptxas's report out of the metadata"
  echo "consumer: ccache OK (the build after a clean: $hits hits, no misses; metadata annotated)"
  unset CCACHE_DIR
}

# The kernel source has a command in compile_commands.json (its emulation,
# for clangd), which compiles, and from which `tilecc -p` takes the flags.
check_compile_commands() {
  local b=$1
  grep -q '"file": "[^"]*saxpy.tile.cpp"' "$b/compile_commands.json" ||
    fail "compile_commands.json has no command for saxpy.tile.cpp"
  grep -q -- "-I$prefix/include" "$b/compile_commands.json" ||
    fail "saxpy.tile.cpp's command lacks tile's include directory"
  quiet "$work/sources.log" cmake --build "$b" --target saxpy_kernels_sources
  quiet "$work/tilecc-p.log" "$prefix/bin/tilecc" "$src/saxpy.tile.cpp" \
    -o "$work/from-database" -p "$b"
  echo "consumer: compile_commands.json OK (saxpy.tile.cpp compiles as C++; tilecc -p reads it)"
}

quiet "$work/install.log" cmake --install "$build_dir" --prefix "$prefix"
echo "consumer: installed $build_dir into a temporary prefix"

ran=0
if [[ -x "$nvcc" ]]; then
  b=$work/cuda
  quiet "$work/cuda-configure.log" cmake -S "$src" -B "$b" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
  check_compile_commands "$b"
  quiet "$work/cuda-build.log" cmake --build "$b"
  rc=0
  "$b/consumer" || rc=$?
  case $rc in
  0) echo "consumer: CUDA build OK, ran on the GPU: PASS" ;;
  77) echo "consumer: CUDA build OK, run skipped (no GPU)" ;;
  *) fail "the consumer app exited $rc" ;;
  esac
  expect_no_work "$b" "CUDA"
  touch "$src/saxpy.tile.cpp"
  expect_tilecc_reruns "$b" "saxpy.tile.cpp"
  # Only the depfile tells the build about the headers tilecc read.
  touch "$prefix/include/tile/tile.hpp"
  expect_tilecc_reruns "$b" "tile/tile.hpp"
  expect_no_work "$b" "CUDA, after the rebuilds"
  echo "consumer: CUDA depfile OK (no-op rebuild idle; kernel and header edits re-run tilecc)"
  check_ccache
  ran=1
else
  echo "consumer: CUDA skipped (no $nvcc)"
fi

if command -v hipcc >/dev/null; then
  b=$work/hip
  quiet "$work/hip-configure.log" cmake -S "$src" -B "$b" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DTILECC_CONSUMER_BACKEND=HIP
  quiet "$work/hip-build.log" cmake --build "$b" --target saxpy_kernels
  expect_no_work "$b" "HIP"
  echo "consumer: HIP build for gfx90a OK"
  ran=1
else
  echo "consumer: HIP skipped (no hipcc)"
fi

if ((ran == 0)); then
  exit 77
fi
echo "consumer: PASS"
