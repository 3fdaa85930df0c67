#!/usr/bin/env bash
# Installs what building and testing tilecc needs on Debian 12 (bookworm),
# run as root: LLVM/Clang 19 (the translator's front end), FileCheck and lit
# (golden tests), nlohmann-json and doctest, hipcc with ROCm's device
# libraries (HIP compile checks), CMake, Ninja and ccache (its test). CUDA
# is not installed here: nvcc is expected at /usr/local/cuda/bin (the
# machine image's).
#
# Idempotent: apt is not touched when every package is already installed.
set -euo pipefail

packages=(
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  nlohmann-json3-dev doctest-dev
  hipcc libamdhip64-dev rocm-device-libs
  cmake ninja-build python3 ccache
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages already installed"
else
  if ((EUID != 0)); then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run this script as root to install them" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

if [[ -x /usr/local/cuda/bin/nvcc ]]; then
  if ! command -v nvcc >/dev/null; then
    # The build scripts pass nvcc's full path to CMake; this is for using
    # nvcc by hand.
    echo "setup: nvcc is at /usr/local/cuda/bin/nvcc, not on PATH; to use it by hand:"
    echo "         export PATH=/usr/local/cuda/bin:\$PATH"
  fi
else
  echo "setup: no /usr/local/cuda/bin/nvcc: CUDA samples, GPU tests and CUDA"
  echo "       compile checks will not be built (translator, emulation and golden"
  echo "       tests still are)"
fi
