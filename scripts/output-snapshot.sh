#!/usr/bin/env bash
# Translates every tracked .tile.cpp (samples, golden inputs, GPU tests,
# the conformance suite) for sm_90a, sm_80 and gfx90a into one folder, with
# each run's diagnostics and exit status, so that a change meant to keep
# tilecc's output can be checked byte for byte:
#
#   scripts/output-snapshot.sh build-before/translator/tilecc /tmp/before
#   scripts/output-snapshot.sh build/translator/tilecc /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Golden inputs that are meant to fail (tests/golden/errors) are included:
# their diagnostics are output too.
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 TILECC OUTDIR" >&2
  exit 2
fi
tilecc=$(realpath "$1")
out=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")

cd "$repo"
mapfile -t sources < <(git ls-files '*.tile.cpp' | sort)
for source in "${sources[@]}"; do
  for target in sm_90a sm_80 gfx90a; do
    dir=$out/${source//\//_}/$target
    mkdir -p "$dir"
    status=0
    "$tilecc" "$source" -o "$dir" --target "$target" --shards 4 \
      --skip-unsupported >"$dir/diagnostics" 2>&1 || status=$?
    echo "exit $status" >>"$dir/diagnostics"
  done
done
echo "output-snapshot: ${#sources[@]} sources x 3 targets in $out"
