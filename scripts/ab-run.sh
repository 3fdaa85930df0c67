#!/usr/bin/env bash
# Usage: bash DIR/ab-run.sh [ROUNDS]   (DIR made by scripts/ab-kit.sh)
#
# On the GPU machine: runs each tag's GPU tests once (SANITIZE="memcheck
# racecheck" adds compute-sanitizer runs of them, TESTS=0 skips them),
# then ROUNDS (default 2) rounds of every benchmark binary, the tags
# alternating within a round so that a GPU that heats or a neighbour's load
# falls on all of them alike, and prints ab_compare.py's table: per
# workload, each tag's best configuration and the configurations whose
# times differ most. ARGS_<sample>="..." passes arguments to that sample's
# benchmark (ARGS_matmul="fp16 8192x512x4096"); PEERS="group:workloads"
# (PEERS="memory:rope" or "matmul:grouped_gemm") also runs
# bench_peers.py --only group --workloads workloads, whose lines join the
# table. The runs and logs go to DIR/out; where $OUT is set (the GPU
# machine's folder that comes back) the table and one archive of them,
# ab-run.tar.gz, go there too, after the tests and after every round, so
# that a call cut short still returns what it measured (that machine
# returns only a few files). Exit 0 when every test passed and every result
# was right.
set -uo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-2}
out=$kit/out
mkdir -p "$out/runs" "$out/logs"
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw \
  --format=csv,noheader
status=0
summary=()
start=$(date +%s)
note() {
  summary+=("$1")
  echo "[$(($(date +%s) - start)) s] $1"
}
tags=$(sed -n 's/^\([A-Za-z0-9-]*\): .*/\1/p' "$kit/manifest.txt" | paste -sd,)
# The table of the runs so far, DIR/out/compare.txt, and where $OUT comes
# back, the table and the archive there too; fails where a result was wrong.
publish() {
  python3 "$kit/ab_compare.py" "$out/runs" --tags "$tags" >"$out/compare.txt" 2>&1
  local rc=$?
  if [[ -n ${OUT:-} ]]; then
    cp "$out/compare.txt" "$OUT/"
    tar czf "$OUT/ab-run.tar.gz" -C "$out" runs logs
  fi
  return $rc
}

shopt -s nullglob
if [[ ${TESTS:-1} != 0 ]]; then
  for bin in "$kit"/bin/*_gpu; do
    name=$(basename "$bin")
    for tool in plain ${SANITIZE:-}; do
      cmd=("$bin")
      [[ $tool != plain ]] && cmd=(compute-sanitizer --tool "$tool"
        --error-exitcode 9 --print-limit 5 "$bin")
      timeout "${TEST_TIMEOUT:-300}" "${cmd[@]}" >"$out/logs/$name.$tool.log" 2>&1
      rc=$?
      # 77: no GPU (a skip); anything but 0 here is a failure.
      ((rc != 0)) && status=1
      note "$name $tool: $([[ $rc == 0 ]] && echo pass || echo "FAIL ($rc)")"
    done
  done
  publish
fi

benches=("$kit"/bin/*_bench)
for ((r = 1; r <= rounds; ++r)); do
  for bin in "${benches[@]}"; do
    name=$(basename "$bin" _bench)
    tag=${name%%_*}
    sample=${name#*_}
    args_var=ARGS_$sample
    read -r -a args <<<"${!args_var:-}"
    if ! "$bin" "${args[@]}" >"$out/runs/${tag}__${sample}__r$r.jsonl" \
      2>"$out/logs/${name}_bench.r$r.log"; then
      status=1
      note "$name bench round $r: FAIL"
    fi
  done
  note "round $r done"
  publish
done

if [[ -n ${PEERS:-} ]]; then
  python3 "$kit/bench_peers.py" --only "${PEERS%%:*}" --workloads "${PEERS#*:}" \
    >"$out/runs/peers__${PEERS#*:}__r1.jsonl" 2>"$out/logs/peers.log" || status=1
  note "peers ${PEERS}: done"
fi

publish || status=1
cat "$out/compare.txt"
printf '%s\n' "${summary[@]}"
exit $status
