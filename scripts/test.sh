#!/usr/bin/env bash
# Sets up, builds and runs every test (unit, cli, integration, robustness). Arguments go to
# ctest, e.g. `scripts/test.sh -L unit` for the fast unit tests only.
# `scripts/test.sh --asan` builds with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ and runs the unit, robustness and serve suites there (CI runs both).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
if [ "${1:-}" = "--asan" ]; then
  shift
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "${JOBS:-2}"
  exec ctest --preset asan -j 2 "$@"
fi
scripts/build.sh
ctest --preset release -j 2 "$@"
