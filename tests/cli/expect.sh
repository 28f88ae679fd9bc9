#!/usr/bin/env bash
# Usage: expect.sh EXIT_CODE REGEX COMMAND [ARGS...]
# Runs COMMAND, then checks its exit code and that its output (stdout + stderr) matches the
# extended regular expression REGEX. Errors must be a single line: no backtraces.
set -u
want_code=$1 pattern=$2
shift 2
output=$("$@" 2>&1)
code=$?
if [ "$code" != "$want_code" ]; then
  printf 'expected exit code %s, got %s; output:\n%s\n' "$want_code" "$code" "$output"
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  printf 'output does not match /%s/:\n%s\n' "$pattern" "$output"
  exit 1
fi
if [ "$want_code" = 2 ] && [ "$(grep -c '^error' <<<"$output")" != 1 ]; then
  printf 'expected exactly one error line:\n%s\n' "$output"
  exit 1
fi
exit 0
