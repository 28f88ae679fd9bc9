#!/usr/bin/env bash
# Interrupts and kills lose minutes, not the run: SIGINT and SIGTERM finish the step, save
# last.pt and say how to resume (exit 130 / 143); periodic checkpoints bound what a SIGKILL
# loses; a resumed run appends to train.log and repeats no step in metrics.jsonl.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run
long=(--set training.max_steps=100000 --set training.validate_every=100000)

# start_training NAME ARGS...: a training in the background, once it has made 4 steps.
start_training() {
  local name=$1
  shift
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/$name" "$@" > "$work/$name.out" 2>&1 &
  pid=$!
  for _ in $(seq 150); do grep -q "step 4/" "$work/$name.out" 2>/dev/null && return; sleep 0.2; done
  cat "$work/$name.out"
  fail "$name did not start"
}

# SIGINT: exit 130, one line with the step and the resume command, last.pt at that step.
start_training int "${long[@]}"
kill -INT $pid
set +e; wait $pid; code=$?; set -e
[ "$code" = 130 ] || { cat "$work/int.out"; fail "SIGINT: exit $code, expected 130"; }
grep -Eq "^interrupted by SIGINT at step [0-9]+ \(epoch [0-9]+\): saved .*last.pt; resume with: s2s train -c $work/int/config.json --resume$" "$work/int.out" ||
  { cat "$work/int.out"; fail "SIGINT message"; }
stopped=$(grep -o "SIGINT at step [0-9]*" "$work/int.out" | grep -o "[0-9]*$")
ls "$work"/int/checkpoints/*.tmp.* 2>/dev/null && fail "temporary files left behind"

# The resume command works, continues from that step, and leaves no duplicated step.
lines_before=$(wc -l < "$work/int/train.log")
"$s2s" train -c "$work/int/config.json" --resume --set training.max_steps=$((stopped + 3)) \
  --skip-test > "$work/resume.out" 2>&1 || { cat "$work/resume.out"; fail "resume"; }
grep -q "resumed from step $stopped " "$work/resume.out" || { cat "$work/resume.out"; fail "resume step"; }
[ "$(wc -l < "$work/int/train.log")" -gt "$lines_before" ] || fail "train.log was not appended to"
grep -q "interrupted\|step $stopped" "$work/int/train.log" || fail "train.log lost the first run"
dups=$(steps_of "$work/int/metrics.jsonl" | sort | uniq -d)
# validation and train events may share a step; a step twice in train events is a duplicate
train_dups=$(grep '"event":"train"' "$work/int/metrics.jsonl" | grep -o '"step":[0-9]*' | sort | uniq -d)
[ -z "$train_dups" ] || fail "metrics.jsonl repeats steps after the resume: $train_dups"

# SIGTERM: exit 143.
start_training term "${long[@]}"
kill -TERM $pid
set +e; wait $pid; code=$?; set -e
[ "$code" = 143 ] || { cat "$work/term.out"; fail "SIGTERM: exit $code, expected 143"; }
grep -q "^interrupted by SIGTERM at step" "$work/term.out" || fail "SIGTERM message"

# SIGKILL after periodic checkpoints: the resumed run starts from a recent step, not step 0.
start_training kill "${long[@]}" --set training.checkpoint_every=2
for _ in $(seq 150); do grep -q "step 9/" "$work/kill.out" && break; sleep 0.2; done
kill -KILL $pid
wait $pid || true
"$s2s" train -c "$work/kill/config.json" --resume --set training.max_steps=12 --skip-test \
  > "$work/kill_resume.out" 2>&1 || { cat "$work/kill_resume.out"; fail "resume after SIGKILL"; }
from=$(grep -o "resumed from step [0-9]*" "$work/kill_resume.out" | grep -o "[0-9]*$")
[ "$from" -ge 4 ] || fail "after SIGKILL the run resumed from step $from; expected a periodic checkpoint >= 4"
[ ! -e "$work/kill/checkpoints/pending.pt" ] || fail "pending.pt survived the resume"
# SIGINT during the final test decoding: exit 130, what is saved and the command that finishes.
mkdir -p "$work/bigtest"
for ext in en fr; do
  for _ in $(seq 25); do cat "$work/data/test.$ext"; done > "$work/bigtest/test.$ext"
done
"$s2s" train -c "$work/tiny.json" --set run_dir="$work/intest" --set data.test="$work/bigtest/test" \
  --set data.test_alignments= --set evaluation.batch_size=1 > "$work/intest.out" 2>&1 &
pid=$!
# The test split is read twice: checked at start-up, then for the decoding after training (up to
# 5 minutes: an ASan build trains slowly).
for _ in $(seq 3000); do
  [ "$(grep -c "test: 1000 sentences" "$work/intest.out" 2>/dev/null)" -ge 2 ] && break
  sleep 0.1
done
kill -INT $pid
set +e; wait $pid; code=$?; set -e
[ "$code" = 130 ] || { cat "$work/intest.out"; fail "SIGINT in test decoding: exit $code, expected 130"; }
finish="s2s evaluate --run $work/intest --checkpoint best --out $work/intest/test"
grep -Eq "^interrupted by SIGINT while decoding test: the training is complete and saved \(.*best.pt, step 6\); the test results are not written; finish with: $finish$" "$work/intest.out" ||
  { cat "$work/intest.out"; fail "SIGINT in test decoding: message"; }
[ ! -e "$work/intest/test.hyp" ] || fail "a test.hyp was written after SIGINT"
"$s2s" evaluate --run "$work/intest" --checkpoint best --out "$work/intest/test" > /dev/null 2>&1 ||
  fail "the finishing command failed"
[ "$(wc -l < "$work/intest/test.hyp")" = 1000 ] || fail "the finishing command wrote no test.hyp"
echo "interrupt robustness tests passed"
