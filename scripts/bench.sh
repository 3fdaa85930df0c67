#!/usr/bin/env bash
# Usage: scripts/bench.sh DIR [GROUP...]
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
#
# With GROUPs (memory, matmul, attention, attention_backward, autotune,
# extension), only those groups' binaries and peers run, each group's
# samples beside its peers, and their lines go to DIR/bench-GROUP.jsonl:
# for a machine whose calls are time-limited, one call a group. The page
# then comes from all of them (bench_report.py DIR/bench-*.jsonl), each
# group's table naming its own card, date and commit.
#
# SAMPLES="rope cross_entropy" (with GROUPs) narrows a group to those
# samples: their *_bench binaries, and the memory-bound and autotuning peers
# of their workloads only (bench_peers.py --workloads rope,cross_entropy);
# the lines go to DIR/bench-GROUP-rope-cross_entropy.jsonl. For a call too
# short for a whole group, or a change to one sample.
# Exit 0 when every binary ran and every result was right.
set -euo pipefail

usage() {
  echo "usage: $0 DIR [memory|matmul|attention|attention_backward|autotune|extension ...]" >&2
  exit 2
}
(($# >= 1)) || usage
dir=$1
shift
groups=("$@")
for g in "${groups[@]}"; do
  case $g in
  memory | matmul | attention | attention_backward | autotune | extension) ;;
  *) usage ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
read -r -a samples <<<"${SAMPLES:-}"
if ((${#samples[@]} != 0 && ${#groups[@]} == 0)); then
  echo "bench: SAMPLES needs the GROUPs they belong to" >&2
  usage
fi
if ((${#groups[@]} == 0)); then
  results=$dir/bench.jsonl
else
  results=$dir/bench-$(
    IFS=-
    echo "${groups[*]}${samples[*]:+-${samples[*]}}"
  ).jsonl
fi
# bench_peers.py's --workloads for the samples (empty: every workload).
peer_args=()
if ((${#samples[@]} != 0)); then
  peer_args=(--workloads "$(
    IFS=,
    echo "${samples[*]}"
  )")
fi
# The card, date and commit of the binaries (gpu-check.sh --prepare's
# manifest), as the run's first line, for the page to say where each
# group's figures come from.
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
commit=unknown
for manifest in "$dir/manifest.txt" "$dir/../manifest.txt"; do
  if [[ -f $manifest ]]; then
    commit=$(sed -n 's/^built from //p' "$manifest" | head -n1)
    break
  fi
done
python3 - "$card" "$(date -u +%F)" "$commit" "${groups[@]}" >"$results" <<'PY'
import json, sys
card, date, commit, *groups = sys.argv[1:]
print(json.dumps({"meta": True, "card": card, "date": date, "commit": commit,
                  "groups": groups or ["memory", "matmul", "attention", "attention_backward"]}))
PY
status=0

wanted() {
  ((${#groups[@]} == 0)) && return 0
  local g
  for g in "${groups[@]}"; do [[ $g == "$1" ]] && return 0; done
  return 1
}

# The group of a sample's benchmark binary: its peers are bench_peers.py's
# --only of the same name.
group_of() {
  case $(basename "$1") in
  matmul_bench | grouped_gemm_bench) echo matmul ;;
  attention_bench) echo attention ;;
  attention_backward_bench) echo attention_backward ;;
  autotune_bench) echo autotune ;;
  *) echo memory ;;
  esac
}

shopt -s nullglob
bins=("$dir"/*_bench)
if ((${#bins[@]} == 0)); then
  echo "bench: no *_bench binaries in $dir" >&2
  exit 1
fi
# Whether the binary is one of SAMPLES' (every one without SAMPLES).
of_samples() {
  ((${#samples[@]} == 0)) && return 0
  local s
  for s in "${samples[@]}"; do [[ $(basename "$1") == "${s}_bench" ]] && return 0; done
  return 1
}
for bin in "${bins[@]}"; do
  wanted "$(group_of "$bin")" && of_samples "$bin" || continue
  echo "== $(basename "$bin")"
  rc=0
  "$bin" | tee -a "$results" || rc=$?
  if ((rc != 0)); then
    echo "bench: $(basename "$bin") exited with $rc" >&2
    status=1
  fi
done

echo "== Triton and PyTorch"
if ((${#groups[@]} == 0)); then
  python3 "$here/bench_peers.py" | tee -a "$results" || status=1
else
  for g in memory matmul attention attention_backward autotune; do
    wanted $g || continue
    python3 "$here/bench_peers.py" --only $g "${peer_args[@]}" | tee -a "$results" || status=1
  done
fi

echo
echo "GPU: $card"
python3 "$here/bench_peers.py" --table "$results" || status=1
# The benchmark page's tables and charts (BENCHMARKS.md's summary section),
# from a whole run: DIR/summary.md and DIR/charts/*.svg.
if ((${#groups[@]} == 0)); then
  python3 "$here/bench_report.py" "$results" --charts "$dir/charts" >"$dir/summary.md" || status=1
fi
# Autotuning against the exhaustive search and Triton's own (autotune_bench,
# bench_peers.py's autotune peers): DIR/autotune.md.
if wanted autotune; then
  echo
  python3 "$here/autotune_report.py" "$results" | tee "$dir/autotune.md" || status=1
fi
# The same kernels called from PyTorch (samples/torch_extension), where
# torch is installed and gpu-check.sh --prepare left the extension's inputs
# beside DIR: DIR/torch_extension.md, with the C++ wrappers' times above
# (in a group run, those of DIR/bench-*.jsonl).
if wanted extension && [[ -f $dir/../build/samples/torch_extension/extension.json ]] &&
  python3 -c "import torch" 2>/dev/null; then
  echo
  wrappers=$results
  if ((${#groups[@]} != 0)); then
    wrappers=$dir/wrappers.jsonl
    cat "$dir"/bench-*.jsonl >"$wrappers"
  fi
  python3 "$here/../samples/torch_extension/bench_tilecc_torch.py" "$dir/../build" "$wrappers" |
    tee "$dir/torch_extension.md" || status=1
fi
exit $status
