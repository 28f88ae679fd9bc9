#!/usr/bin/env bash
# A write error while saving (here: a file-size limit, as a full disk fails a write) is one
# line naming the file and the OS error, exit 1; the previous checkpoints stay intact and no
# temporary file is left behind. Stale temporary files of killed processes are cleaned up.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run

train --skip-test
last_sum=$(md5sum < "$run/checkpoints/last.pt")
best_sum=$(md5sum < "$run/checkpoints/best.pt")
size_kb=$(( $(stat -c %s "$run/checkpoints/last.pt") / 1024 ))

# A leftover of a process that no longer runs (PID 999999 does not exist).
touch "$run/checkpoints/last.pt.tmp.999999"

# Files may grow to half a checkpoint: config.json and the logs fit, a checkpoint does not.
set +e
output=$(ulimit -f $((size_kb / 2)); trap '' XFSZ
         "$s2s" train -c "$work/tiny.json" --resume --set training.max_steps=12 --skip-test 2>&1)
code=$?
set -e
[ "$code" = 1 ] || fail "expected exit 1 on a write error, got $code:"$'\n'"$output"
grep -Eq "^error: $run/checkpoints/(last|best|pending)\.pt: cannot write \(File too large\)$" <<<"$output" ||
  fail "write error message:"$'\n'"$output"
[ "$(grep -c '^error' <<<"$output")" = 1 ] || fail "more than one error line"
[ "$(md5sum < "$run/checkpoints/last.pt")" = "$last_sum" ] || fail "last.pt was damaged"
[ "$(md5sum < "$run/checkpoints/best.pt")" = "$best_sum" ] || fail "best.pt was damaged"
leftovers=$(ls "$run"/checkpoints/*.tmp.* "$run"/*.tmp.* 2>/dev/null || true)
[ -z "$leftovers" ] || fail "temporary files left behind: $leftovers"

# The run still evaluates.
"$s2s" evaluate --run "$run" > /dev/null 2>&1 || fail "the run no longer evaluates"

# Output paths: a directory the system refuses to create is a write failure (exit 1, like every
# other); the wrong kind of path is the user's mistake (exit 2, naming the flag), found before
# any decoding.
expect 1 "^error: /proc/s2s-nowhere/att: cannot create directory" \
  "$s2s" attention --run "$run" --out /proc/s2s-nowhere/att
expect 1 "^error: /proc/s2s-nowhere: cannot create directory" \
  "$s2s" evaluate --run "$run" --out /proc/s2s-nowhere/test
expect 2 "^error: --out $work: is a directory; name the file to write \(e.g. $work/report.html\)" \
  "$s2s" report --run "$run" --out "$work"
expect 2 "^error: --out $run/config.json: is a file; name a directory" \
  "$s2s" attention --run "$run" --out "$run/config.json"
echo "write error robustness tests passed"
