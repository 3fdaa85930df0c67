#!/usr/bin/env bash
# GPU checks, in two halves, because the GPU machine has nvcc but no LLVM:
#
#   scripts/gpu-check.sh --prepare DIR   on a machine with LLVM and nvcc:
#       builds everything (scripts/build.sh) and copies every GPU test
#       (*_gpu, gpu_*) and benchmark (*_bench) binary of the samples and
#       tests into DIR/bin. They hold sm_90a code (matmul's sm80 check:
#       compute_80 PTX) and the static CUDA runtime, so a driver is all
#       they need. DIR is what travels to the GPU machine. With them, under
#       DIR/build as under the build folder, what the PyTorch extension
#       (samples/torch_extension) is compiled from there: the kernel
#       libraries and generated headers its extension.json lists.
#
#   scripts/gpu-check.sh --run DIR       on the GPU machine:
#       runs each GPU test plainly, under compute-sanitizer memcheck and
#       under racecheck, and each benchmark once; where python3 has torch,
#       builds the PyTorch extension and runs its test; prints one table;
#       logs go to DIR/logs. Exit 0 when nothing failed.
#
# Test binaries exit 0 on pass, 77 when they skip, anything else on failure.
# GPU_CHECK_TIMEOUT (seconds, default 300) bounds each run.
set -euo pipefail

usage() {
  echo "usage: $0 --prepare DIR | --run DIR" >&2
  exit 2
}
if (($# != 2)) || [[ -z $2 ]]; then usage; fi
mode=$1
dir=$2
repo=$(cd "$(dirname "$0")/.." && pwd)

prepare() {
  local build=build
  (cd "$repo" && bash scripts/build.sh "$build")
  mkdir -p "$dir"
  rm -rf "${dir:?}/bin" "${dir:?}/logs"
  mkdir -p "$dir/bin"
  mapfile -t bins < <(find "$repo/$build/samples" "$repo/$build/tests" -type f \
    -perm -u+x \( -name '*_gpu' -o -name 'gpu_*' -o -name '*_bench' \) | sort)
  if ((${#bins[@]} == 0)); then
    echo "gpu-check: no GPU test or benchmark binaries under $build/ (was nvcc found?)" >&2
    exit 1
  fi
  for bin in "${bins[@]}"; do
    # A shared CUDA runtime would have to match the GPU machine's toolkit.
    if ldd "$bin" | grep -q libcudart; then
      echo "gpu-check: $bin links the shared CUDA runtime" >&2
      exit 1
    fi
    cp "$bin" "$dir/bin/"
  done
  rm -rf "${dir:?}/build"
  python3 - "$repo/$build" "$dir/build" <<'PY'
import json, os, shutil, sys
build, dest = sys.argv[1], sys.argv[2]
manifest = os.path.join(build, "samples", "torch_extension", "extension.json")
with open(manifest) as f:
    m = json.load(f)
for path in [manifest] + m["libraries"] + m["include_dirs"]:
    if os.path.commonpath([path, build]) != build:
        continue  # a source folder or the toolkit's: the GPU machine has those
    target = os.path.join(dest, os.path.relpath(path, build))
    if os.path.isdir(path):
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(path):
            if name.endswith(".h"):
                shutil.copy(os.path.join(path, name), target)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(path, target)
PY
  local commit changes=""
  commit=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo "an unknown commit")
  git -C "$repo" diff --quiet HEAD 2>/dev/null || changes=" + local changes"
  {
    echo "built from $commit$changes"
    echo "on $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(/usr/local/cuda/bin/nvcc --version | tail -n1)"
  } >"$dir/manifest.txt"
  echo "gpu-check: ${#bins[@]} binaries in $dir/bin ($(du -sh "$dir" | cut -f1)):"
  ls "$dir/bin"
}

# Prints the status of one run: PASS, SKIP, TIMEOUT, or FAIL(exit code);
# UNSUPPORTED when compute-sanitizer cannot use the device.
status_of() {
  local rc=$1 log=$2
  case $rc in
  0) echo PASS ;;
  77) echo SKIP ;;
  124) echo TIMEOUT ;;
  *)
    if grep -q "Device not supported" "$log"; then
      echo UNSUPPORTED
    else
      echo "FAIL($rc)"
    fi
    ;;
  esac
}

run() {
  [[ -d "$dir/bin" ]] || {
    echo "gpu-check: no $dir/bin: run --prepare first" >&2
    exit 1
  }
  local limit=${GPU_CHECK_TIMEOUT:-300}
  local sanitizer candidate
  sanitizer=$(command -v compute-sanitizer || true)
  for candidate in /usr/local/cuda/bin/compute-sanitizer \
    /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
    if [[ -z "$sanitizer" && -x "$candidate" ]]; then
      sanitizer=$candidate
    fi
  done
  mkdir -p "$dir/logs"
  [[ -f "$dir/manifest.txt" ]] && cat "$dir/manifest.txt"
  nvidia-smi -L || echo "gpu-check: nvidia-smi failed: the tests will skip or fail"
  [[ -n "$sanitizer" ]] || echo "gpu-check: compute-sanitizer not found: sanitizer columns are n/a"

  local failed=0 name bin plain memcheck racecheck rc
  local table
  table=$(printf '%-32s %-12s %-12s %-12s\n' binary run memcheck racecheck)
  for bin in "$dir"/bin/*; do
    name=$(basename "$bin")
    rc=0
    timeout "$limit" "$bin" >"$dir/logs/$name.log" 2>&1 || rc=$?
    plain=$(status_of $rc "$dir/logs/$name.log")
    memcheck=-
    racecheck=-
    if [[ $name != *_bench ]]; then
      memcheck=n/a
      racecheck=n/a
      if [[ -n "$sanitizer" ]]; then
        rc=0
        # (A test whose point is a device-side assert leaves it out here.)
        TILECC_UNDER_SANITIZER=1 timeout "$limit" "$sanitizer" --tool memcheck --error-exitcode 86 "$bin" \
          >"$dir/logs/$name.memcheck.log" 2>&1 || rc=$?
        memcheck=$(status_of $rc "$dir/logs/$name.memcheck.log")
        rc=0
        TILECC_UNDER_SANITIZER=1 timeout "$limit" "$sanitizer" --tool racecheck --error-exitcode 86 "$bin" \
          >"$dir/logs/$name.racecheck.log" 2>&1 || rc=$?
        racecheck=$(status_of $rc "$dir/logs/$name.racecheck.log")
      fi
    fi
    for s in "$plain" "$memcheck" "$racecheck"; do
      if [[ $s == FAIL* || $s == TIMEOUT ]]; then
        failed=1
      fi
    done
    table+=$'\n'$(printf '%-32s %-12s %-12s %-12s' "$name" "$plain" "$memcheck" "$racecheck")
  done
  # The PyTorch extension, built from DIR/build, where torch is installed.
  plain="n/a (no torch)"
  if python3 -c "import torch" 2>/dev/null; then
    rc=0
    timeout "$limit" python3 "$repo/samples/torch_extension/test_tilecc_torch.py" "$dir/build" \
      >"$dir/logs/torch_extension.log" 2>&1 || rc=$?
    plain=$(status_of $rc "$dir/logs/torch_extension.log")
    [[ $plain == FAIL* || $plain == TIMEOUT ]] && failed=1
  fi
  table+=$'\n'$(printf '%-32s %-12s %-12s %-12s' torch_extension "$plain" - -)
  echo
  echo "$table"
  echo
  echo "FAIL(86) under a sanitizer means it reported errors; logs: $dir/logs/"
  return $failed
}

case $mode in
--prepare) prepare ;;
--run) run ;;
*) usage ;;
esac
