#!/usr/bin/env bash
# Usage: scripts/ab-kit.sh DIR TAG=TILECC [TAG=TILECC ...] -- SAMPLE [SAMPLE ...]
#
# On a machine with LLVM and nvcc: builds, for each TAG, the GPU test and
# the benchmark of each SAMPLE (samples/SAMPLE) from the code the TILECC
# binary generates, into DIR/bin/TAG_SAMPLE_gpu and DIR/bin/TAG_SAMPLE_bench,
# compiled as the CMake build compiles them (sm_90a, the sample's SHARDS,
# the static CUDA runtime), and stripped. DIR then holds what the GPU
# machine needs to compare the tags side by side (scripts/ab-run.sh and
# what it calls are copied there): for a change to the translator, TILECC
# of the change and of its base, e.g. build/translator/tilecc copied aside
# before and after the change is built.
#
# Generation is skipped where DIR/gen/TAG/SAMPLE exists, so that generated
# code edited by hand (an experiment before the translator does it) is
# built as it is: run once with --generate-only, edit, run again.
set -euo pipefail

usage() {
  echo "usage: $0 [--generate-only] DIR TAG=TILECC [TAG=TILECC ...] -- SAMPLE [SAMPLE ...]" >&2
  exit 2
}
generate_only=0
if [[ ${1:-} == --generate-only ]]; then
  generate_only=1
  shift
fi
(($# >= 4)) || usage
dir=$1
shift
declare -A tilecc=()
tags=()
while (($# > 0)) && [[ $1 != -- ]]; do
  # The tag is the binaries' prefix, up to their first underscore.
  [[ $1 =~ ^[A-Za-z0-9-]+= ]] || usage
  tags+=("${1%%=*}")
  tilecc[${1%%=*}]=$(realpath "${1#*=}")
  shift
done
[[ ${1:-} == -- ]] || usage
shift
samples=("$@")
((${#tags[@]} > 0 && ${#samples[@]} > 0)) || usage

repo=$(cd "$(dirname "$0")/.." && pwd)
nvcc=/usr/local/cuda/bin/nvcc
cuda_lib=/usr/local/cuda/lib64
mkdir -p "$dir/bin"
dir=$(realpath "$dir")

# The SHARDS of tilecc_add_sample(NAME SHARDS N), 4 if not given.
shards_of() {
  local n
  n=$(sed -n 's/.*tilecc_add_sample([a-z_0-9]* SHARDS \([0-9]*\)).*/\1/p' \
    "$repo/samples/$1/CMakeLists.txt")
  echo "${n:-4}"
}

for tag in "${tags[@]}"; do
  for s in "${samples[@]}"; do
    [[ -f $repo/samples/$s/$s.tile.cpp ]] || {
      echo "ab-kit: no sample $s" >&2
      exit 1
    }
    gen=$dir/gen/$tag/$s
    if [[ ! -d $gen ]]; then
      "${tilecc[$tag]}" "$repo/samples/$s/$s.tile.cpp" -o "$gen" \
        --target sm_90a --shards "$(shards_of "$s")"
    fi
    ((generate_only)) && continue
    obj=$(mktemp -d)
    # Two at a time: one shard's nvcc takes up to a few GB.
    printf '%s\n' "$gen/$s".tile.shard*.cu | xargs -P 2 -I{} sh -c \
      'src=$1 obj=$2; shift 2; "$@" -x cu -c "$src" -o "$obj/${src##*/}.o"' \
      sh {} "$obj" "$nvcc" -I"$gen" -I"$repo/runtime-headers" -O3 -DNDEBUG \
      "--generate-code=arch=compute_90a,code=[sm_90a]" -std=c++20 \
      -Xcompiler=-fPIC
    c++ -I"$gen" -I"$repo/runtime-headers" -isystem /usr/local/cuda/include \
      -O3 -DNDEBUG -fPIC -std=c++20 -x c++ -c "$gen/$s.tile.launch.cpp" \
      -o "$obj/launch.o"
    for kind in gpu bench; do
      c++ -I"$repo/samples/common" -I"$gen" -I"$repo/runtime-headers" \
        -isystem /usr/local/cuda/include -O3 -DNDEBUG -std=c++20 \
        -c "$repo/samples/$s/${s}_$kind.cpp" -o "$obj/$kind.o"
      c++ -O3 "$obj/$kind.o" "$obj"/*.cu.o "$obj/launch.o" \
        -o "$dir/bin/${tag}_${s}_$kind" "$cuda_lib/libcudart_static.a" \
        -ldl -lrt -lpthread
      strip "$dir/bin/${tag}_${s}_$kind"
    done
    rm -rf "$obj"
    echo "ab-kit: $tag $s"
  done
done
((generate_only)) && exit 0
cp "$repo/scripts/ab-run.sh" "$repo/scripts/ab_compare.py" \
  "$repo/scripts/bench_peers.py" "$dir/"
{
  echo "built from $(git -C "$repo" rev-parse HEAD)"
  for tag in "${tags[@]}"; do
    echo "$tag: ${tilecc[$tag]}"
  done
} >"$dir/manifest.txt"
echo "ab-kit: $(du -sh "$dir/bin" | cut -f1) of binaries in $dir/bin"
