#!/usr/bin/env bash
# Configures and builds the project (Release) into build/: everything, or only the targets
# named (scripts/build.sh s2s). Used by demo.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset release -j "${JOBS:-2}" "${targets[@]}"
