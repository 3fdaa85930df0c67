#!/usr/bin/env bash
# The test command: installs dependencies, builds everything in build/ and
# runs the whole suite (unit, golden, compile checks, emulation, installed
# package; GPU tests skip where there is no GPU). Exit code is ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/build.sh build
exec ctest --test-dir build --output-on-failure -j2
