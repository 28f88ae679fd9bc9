#!/usr/bin/env bash
# Sets up, builds and runs every test (unit, cli, integration). `scripts/test.sh -L unit` passes
# its arguments to ctest, e.g. to run only the fast unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --preset release -j 2 "$@"
