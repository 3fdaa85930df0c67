#!/usr/bin/env bash
# Usage: scripts/bench.sh DIR
#
# On the GPU machine: runs every benchmark binary DIR/*_bench (built
# elsewhere, e.g. gathered by scripts/gpu-check.sh --prepare into DIR/bin;
# they need only a driver), then scripts/bench_peers.py (Triton and PyTorch
# on the same workloads), and prints one table:
#   workload | size | tilecc GB/s (best config) | triton GB/s | torch GB/s |
#   tilecc/triton | tilecc/torch
# All JSON result lines are kept in DIR/bench.jsonl, the benchmark page's
# tables in DIR/summary.md and its charts in DIR/charts (bench_report.py),
# autotuning's table in DIR/autotune.md (autotune_report.py), and the
# PyTorch extension's in DIR/torch_extension.md.
# Exit 0 when every binary ran and every result was right.
set -euo pipefail

(($# == 1)) || {
  echo "usage: $0 DIR" >&2
  exit 2
}
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
results=$dir/bench.jsonl
: >"$results"
status=0

shopt -s nullglob
bins=("$dir"/*_bench)
if ((${#bins[@]} == 0)); then
  echo "bench: no *_bench binaries in $dir" >&2
  exit 1
fi
for bin in "${bins[@]}"; do
  echo "== $(basename "$bin")"
  rc=0
  "$bin" | tee -a "$results" || rc=$?
  if ((rc != 0)); then
    echo "bench: $(basename "$bin") exited with $rc" >&2
    status=1
  fi
done

echo "== Triton and PyTorch"
python3 "$here/bench_peers.py" | tee -a "$results" || status=1

echo
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
echo "GPU: $card"
python3 "$here/bench_peers.py" --table "$results" || status=1
# The benchmark page's tables and charts (BENCHMARKS.md's summary section):
# DIR/summary.md and DIR/charts/*.svg, named after the commit the binaries
# were built from (gpu-check.sh --prepare's manifest).
commit=unknown
if [[ -f $dir/manifest.txt ]]; then
  commit=$(sed -n 's/^built from //p' "$dir/manifest.txt" | head -n1)
elif [[ -f $dir/../manifest.txt ]]; then
  commit=$(sed -n 's/^built from //p' "$dir/../manifest.txt" | head -n1)
fi
python3 "$here/bench_report.py" "$results" --card "$card" --date "$(date -u +%F)" \
  --commit "$commit" --charts "$dir/charts" >"$dir/summary.md" || status=1
# Autotuning against the exhaustive search and Triton's own (autotune_bench,
# bench_peers.py's autotune peers): DIR/autotune.md.
echo
python3 "$here/autotune_report.py" "$results" | tee "$dir/autotune.md" || status=1
# The same kernels called from PyTorch (samples/torch_extension), where
# torch is installed and gpu-check.sh --prepare left the extension's inputs
# beside DIR: DIR/torch_extension.md, with the C++ wrappers' times above.
if [[ -f $dir/../build/samples/torch_extension/extension.json ]] &&
  python3 -c "import torch" 2>/dev/null; then
  echo
  python3 "$here/../samples/torch_extension/bench_tilecc_torch.py" "$dir/../build" "$results" |
    tee "$dir/torch_extension.md" || status=1
fi
exit $status
