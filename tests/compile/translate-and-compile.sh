#!/usr/bin/env bash
# Translates every sample for one target and compiles each generated file
# with that target's compiler, warnings as errors, as many at once as there
# are cores (the sm_80 pass is the longest test of the suite). Kernels the
# target cannot run (8-bit floats on gfx90a) are left out, with tilecc's
# warning.
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
  "$tilecc" "$src" -o "$dir" --target "$target" --skip-unsupported
  for file in "$dir"/*.launch.cpp "$dir"/*.cu "$dir"/*.hip; do
    [ -e "$file" ] || continue
    case "$file" in *.tile.*) continue ;; esac # umbrellas include these
    files+=("$file")
  done
done
# xargs exits 123 when a compile failed; each says which.
printf '%s\0' "${files[@]}" |
  xargs -0 -P "$(nproc)" -I{} bash -c \
    'if "${@:2}" "$1" -o "$1.o"; then echo "compiled $1"; else echo "FAILED: $1"; exit 1; fi' \
    _ {} "$@"
