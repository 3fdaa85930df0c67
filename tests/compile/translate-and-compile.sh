#!/usr/bin/env bash
# Translates every sample for one target and compiles each generated file
# with that target's compiler, warnings as errors. Kernels the target
# cannot run (8-bit floats on gfx90a) are left out, with tilecc's warning.
#   translate-and-compile.sh TILECC SAMPLES_DIR OUT_DIR TARGET COMPILER...
set -euo pipefail
tilecc=$1 samples=$2 out=$3 target=$4
shift 4
status=0
for src in "$samples"/*/*.tile.cpp; do
  name=$(basename "$src" .tile.cpp)
  dir="$out/$name"
  "$tilecc" "$src" -o "$dir" --target "$target" --skip-unsupported
  for file in "$dir"/*.launch.cpp "$dir"/*.cu "$dir"/*.hip; do
    [ -e "$file" ] || continue
    case "$file" in *.tile.*) continue ;; esac # umbrellas include these
    if "$@" "$file" -o "$file.o"; then
      echo "compiled $file"
    else
      echo "FAILED: $file"
      status=1
    fi
  done
done
exit $status
