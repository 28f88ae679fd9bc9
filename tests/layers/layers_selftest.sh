#!/usr/bin/env bash
# The layer check (layers_test.sh) on a small fake tree: it passes a clean tree, and on a tree
# with an upward include, a ".." include and a USES edge that no file uses, it fails naming each.
# Usage: layers_selftest.sh CXX LAYERS_TEST_SH
set -euo pipefail
cxx=$1 checker=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two layers, high USES low; low's and high's include roots as cmake/Layers.cmake makes them.
mkdir -p "$work/src/low" "$work/src/high" "$work/src/mid" "$work/roots/low" "$work/roots/high"
echo 'int low();' > "$work/src/low/low.h"
echo 'int high();' > "$work/src/high/high.h"
echo 'int mid();' > "$work/src/mid/mid.h"
printf '#include "low/low.h"\nint low() { return 1; }\n' > "$work/src/low/low.cpp"
printf '#include "high/high.h"\n#include "low/low.h"\nint high() { return low(); }\n' \
  > "$work/src/high/high.cpp"
ln -s "$work/src/low" "$work/roots/low/low"
ln -s "$work/src/high" "$work/roots/high/high"
ln -s "$work/src/low" "$work/roots/high/low"
mkdir -p "$work/roots/mid" && ln -s "$work/src/mid" "$work/roots/mid/mid"
cat > "$work/layers.txt" << 'EOF'
low |  | low
mid |  | mid
high | low | high low
EOF

failed=0
check() {  # check NAME EXPECTED_STATUS PATTERN...: runs the checker, expects its status and lines
  local name=$1 expected=$2 status=0 ok=1
  shift 2
  "$checker" "$cxx" "$work/roots" "$work/src" "$work/layers.txt" > "$work/out" 2>&1 || status=$?
  if [[ $expected == pass && $status -ne 0 || $expected == fail && $status -eq 0 ]]; then
    echo "FAIL ($name): the checker exited $status, expected to $expected:"; cat "$work/out"
    ok=0
  fi
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$work/out" || {
      echo "FAIL ($name): no line with '$pattern' in:"; cat "$work/out"; ok=0; }
  done
  if [[ $ok == 1 ]]; then echo "ok $name"; sed 's/^/  | /' "$work/out"; else failed=1; fi
}

check "clean tree" pass "0 failures"

# low including high (upward), and high reaching low by "../" (past its include root).
printf '#include "high/high.h"\n' > "$work/src/low/upward.cpp"
printf '#include "../low/low.h"\n' > "$work/src/high/dotdot.cpp"
# high declares mid, which none of its files include.
sed -i 's/^high | low |/high | low mid |/; s/| high low$/| high low mid/' "$work/layers.txt"
ln -s "$work/src/mid" "$work/roots/high/mid"
check "bad tree" fail \
  'low/upward.cpp:1 includes high/, which the USES list of low does not name' \
  'high/dotdot.cpp:1:#include "../low/low.h": an include path with ".."' \
  'high USES mid, but no file of src/high includes a mid/ header' \
  '3 failures'
exit $failed
