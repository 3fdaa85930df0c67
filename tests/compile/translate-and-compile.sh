#!/usr/bin/env bash
# Translates every sample for one target and compiles each generated file
# with that target's compiler, warnings as errors, as many at once as there
# are cores (the sm_80 pass is the longest test of the suite). The kernels
# are compiled in shards (tilecc --shards), so that a sample of many large
# kernels is not one long compile at the end. Kernels the target cannot
# run (8-bit floats on gfx90a) are left out, with tilecc's warning.
#   [SKIP_SAMPLES="a b"] translate-and-compile.sh TILECC SAMPLES_DIR OUT_DIR
#       TARGET COMPILER...
set -euo pipefail
tilecc=$1 samples=$2 out=$3 target=$4
shift 4
files=()
for src in "$samples"/*/*.tile.cpp; do
  name=$(basename "$src" .tile.cpp)
  case " ${SKIP_SAMPLES:-} " in *" $name "*) continue ;; esac
  dir="$out/$name"
  "$tilecc" "$src" -o "$dir" --target "$target" --skip-unsupported --shards 8
  # What add_tile_kernel compiles: the umbrella launch file and the shards.
  for file in "$dir"/*.tile.launch.cpp "$dir"/*.tile.shard*.cu "$dir"/*.tile.shard*.hip; do
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
