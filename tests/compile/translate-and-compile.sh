#!/usr/bin/env bash
# Translates every sample for one target and compiles each generated file
# with that target's compiler, warnings as errors, as many at once as there
# are cores. The kernels are compiled as add_tile_kernel compiles them: in
# SHARDS pieces (tilecc --shards; default 8), so that a sample of many
# large kernels is not one long compile at the end, or with SHARDS=1 as
# one translation unit per sample (hipcc's fixed cost per file is the
# larger part of small shards). Kernels the target cannot run (8-bit
# floats on gfx90a) are left out, with tilecc's warning. ONLY_<sample>
# names the kernels of that sample to translate (all by default).
#   [SKIP_SAMPLES="a b"] [ONLY_<sample>="k1 k2"] [SHARDS=n]
#       translate-and-compile.sh TILECC SAMPLES_DIR OUT_DIR TARGET COMPILER...
set -euo pipefail
tilecc=$1 samples=$2 out=$3 target=$4
shift 4
shards=${SHARDS:-8}
if ((shards == 1)); then
  shard_args=() kernels='*.tile'
else
  shard_args=(--shards "$shards") kernels='*.tile.shard*'
fi
files=()
for src in "$samples"/*/*.tile.cpp; do
  name=$(basename "$src" .tile.cpp)
  case " ${SKIP_SAMPLES:-} " in *" $name "*) continue ;; esac
  dir="$out/$name"
  only="ONLY_$name" kernel_args=()
  for kernel in ${!only:-}; do kernel_args+=(--kernel "$kernel"); done
  "$tilecc" "$src" -o "$dir" --target "$target" --skip-unsupported --verify-format \
    "${shard_args[@]}" "${kernel_args[@]}"
  # The umbrella launch file and the kernels' pieces.
  for file in "$dir"/*.tile.launch.cpp "$dir"/$kernels.cu "$dir"/$kernels.hip; do
    [ -e "$file" ] || continue
    # An empty shard has nothing to compile.
    grep -q '^#include' "$file" || continue
    files+=("$file")
  done
done
# xargs exits 123 when a compile failed; each says which.
printf '%s\0' "${files[@]}" |
  xargs -0 -P "$(nproc)" -I{} bash -c \
    'if "${@:2}" "$1" -o "$1.o"; then echo "compiled $1"; else echo "FAILED: $1"; exit 1; fi' \
    _ {} "$@"
