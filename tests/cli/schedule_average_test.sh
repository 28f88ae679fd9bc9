#!/usr/bin/env bash
# The learning-rate warm-up, inverse square root and cosine schedules as training applies them
# (the rates metrics.jsonl logs), `s2s average` on the step checkpoints of a real run (the
# average is written and decoded with --checkpoint), training.average_last, evaluate's
# --length-penalty, and bad
# requests are one line that write nothing.
# Usage: schedule_average_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
run=$work/run
logged_rates() {  # logged_rates RUN_DIR: "STEP LR" for each training line of metrics.jsonl
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "train": print(e["step"], "%.6f" % e["lr"])' "$1/metrics.jsonl"
}

"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$run" --set training.learning_rate=0.004 \
  --set training.lr_schedule=inverse_sqrt --set training.warmup_steps=2 --set training.log_every=1 \
  --set training.max_steps=8 --set training.validate_every=2 --set training.keep_step_checkpoints=true \
  --skip-test > "$work/train.log" 2>&1 || { tail -5 "$work/train.log"; fail "train"; }
# lr of update n (1-based): 0.004 * n / 2 while n < 2, then 0.004 * sqrt(2 / n).
rates=$(logged_rates "$run")
expected=$'1 0.002000\n2 0.004000\n3 0.003266\n4 0.002828\n5 0.002530\n6 0.002309\n7 0.002138\n8 0.002000'
[ "$rates" = "$expected" ] || fail "learning rates: got"$'\n'"$rates"

# Cosine over the 4 planned updates, no warm-up, down to min_lr 0:
# 0.004 * (1 + cos(pi * n / 4)) / 2 for n = 1..4.
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/cosine" --set training.learning_rate=0.004 \
  --set training.lr_schedule=cosine --set training.min_lr=0 --set training.log_every=1 \
  --set training.max_steps=4 --skip-test > "$work/cosine.log" 2>&1 || { tail -5 "$work/cosine.log"; fail "train cosine"; }
rates=$(logged_rates "$work/cosine")
expected=$'1 0.003414\n2 0.002000\n3 0.000586\n4 0.000000'
[ "$rates" = "$expected" ] || fail "cosine learning rates: got"$'\n'"$rates"

"$s2s" average --run "$run" --last 3 > "$work/avg.out" 2>&1 || { cat "$work/avg.out"; fail "average"; }
grep -q "averaged step_4, step_6, step_8 into $run/checkpoints/average.pt" "$work/avg.out" ||
  { cat "$work/avg.out"; fail "average: what it says"; }
grep -q '"checkpoints/average.pt"' "$run/manifest.json" || fail "the average is not in the manifest"
"$s2s" evaluate --run "$run" --checkpoint average > "$work/eval.out" 2>&1 || { cat "$work/eval.out"; fail "evaluate the average"; }
[ -s "$run/evaluations/test.average.greedy.hyp" ] || fail "no hypotheses of the average"
# Another length penalty than the run's is its own evaluation, and its scores say which.
"$s2s" evaluate --run "$run" --beam 2 --length-penalty 1.5 > "$work/lp.out" 2>&1 || { cat "$work/lp.out"; fail "evaluate --length-penalty"; }
grep -q '"length_penalty": 1.5' "$run/evaluations/test.best.beam2.lp1.5.scores.json" || fail "no beam2.lp1.5 scores"
# So are another beam rule and pruning; the run's own rule is not named.
"$s2s" evaluate --run "$run" --beam 2 --beam-rule full --beam-prune 2.5 > "$work/rule.out" 2>&1 || { cat "$work/rule.out"; fail "evaluate --beam-rule --beam-prune"; }
scores=$run/evaluations/test.best.beam2.full.prune2.5.scores.json
grep -q '"beam_rule": "full"' "$scores" && grep -q '"beam_prune": 2.5' "$scores" || fail "no beam2.full.prune2.5 scores"
"$s2s" evaluate --run "$run" --beam 2 --beam-rule shrink > /dev/null 2>&1 || fail "evaluate --beam-rule shrink"
[ -s "$run/evaluations/test.best.beam2.scores.json" ] || fail "the run's own rule named in the file name"
if "$s2s" evaluate --run "$run" --beam 2 --beam-rule wide > "$work/bad.out" 2>&1; then fail "--beam-rule wide accepted"; fi
grep -q "beam-rule" "$work/bad.out" || { cat "$work/bad.out"; fail "--beam-rule wide: the error names no option"; }
if "$s2s" evaluate --run "$run" --beam 2 --beam-prune -1 > "$work/bad.out" 2>&1; then fail "--beam-prune -1 accepted"; fi
grep -q "beam-prune must be a number >= 0" "$work/bad.out" || { cat "$work/bad.out"; fail "--beam-prune -1: the error names no option"; }
"$s2s" average --run "$run" --checkpoints step_2,step_8 --out ends > /dev/null 2>&1 || fail "average --checkpoints"
[ -s "$run/checkpoints/ends.pt" ] || fail "no checkpoints/ends.pt"

# training.average_last: the end of training averages the newest step checkpoints and decodes
# the test split with the average.
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/avglast" --set training.max_steps=6 \
  --set training.validate_every=2 --set training.keep_step_checkpoints=true \
  --set training.average_last=2 > "$work/avglast.log" 2>&1 || { tail -5 "$work/avglast.log"; fail "train average_last"; }
grep -q "average: .*checkpoints/average_last.pt (of step_4, step_6)" "$work/avglast.log" ||
  { tail -12 "$work/avglast.log"; fail "the summary does not name the average"; }
grep -q '"checkpoint": "average_last"' "$work/avglast/test.scores.json" ||
  fail "the test split was not decoded with the average"
grep -q '"checkpoints/average_last.pt"' "$work/avglast/manifest.json" || fail "average_last.pt is not in the manifest"

expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1; shift
  set +e; "$s2s" "$@" > "$work/err.out" 2>&1; local code=$?; set -e
  [ "$code" = 2 ] || { cat "$work/err.out"; fail "exit $code for: $*"; }
  grep -q "^error: $pattern" "$work/err.out" || { cat "$work/err.out"; fail "message for: $*"; }
  [ "$(wc -l < "$work/err.out")" = 1 ] || { cat "$work/err.out"; fail "more than one line for: $*"; }
}
before=$(ls "$run/checkpoints")
expect_error ".*/checkpoints: 4 step checkpoints, --last asks for 9" average --run "$run" --last 9 --out other
expect_error ".*/checkpoints/average.pt: exists; choose another --out or add --overwrite" average --run "$run"
expect_error "--out 'best' is a checkpoint training writes" average --run "$run" --out best
expect_error ".*step_5.pt: checkpoint not found" average --run "$run" --checkpoints step_4,step_5 --out x
expect_error "--last must be an integer >= 2, got '1'" average --run "$run" --last 1
expect_error "--length-penalty must be a number >= 0, got '-1'" evaluate --run "$run" --beam 2 --length-penalty -1
expect_error "training.warmup_steps must be >= 1 with lr_schedule \"inverse_sqrt\"" train \
  -c tests/cli/fixtures/tiny.json --set run_dir="$work/bad" --set training.lr_schedule=inverse_sqrt
expect_error "training.average_last must be 0 (off) or >= 2" train \
  -c tests/cli/fixtures/tiny.json --set run_dir="$work/bad" --set training.average_last=1
expect_error "training.average_last needs training.keep_step_checkpoints = true" train \
  -c tests/cli/fixtures/tiny.json --set run_dir="$work/bad" --set training.average_last=3
expect_error "--out 'average_last' is a checkpoint training writes" average --run "$run" --out average_last
expect_error "training.precision must be auto, fp32 or bf16 (int8 is for decoding: evaluation.precision), got int8" \
  train -c tests/cli/fixtures/tiny.json --set run_dir="$work/bad" --set training.precision=int8
# Another precision than the run's is named in the file name whatever the beam, and in the
# scores; int8 where the CPU has int8 dot products (device/precision.h), else one line why not.
if grep -qwE "avx512_vnni|avx_vnni|amx_int8" /proc/cpuinfo; then
  "$s2s" evaluate --run "$run" --precision int8 > "$work/int8.out" 2>&1 || { cat "$work/int8.out"; fail "evaluate --precision int8"; }
  grep -q '"precision": "int8"' "$run/evaluations/test.best.greedy.int8.scores.json" || fail "no greedy.int8 scores"
  echo "a b" | "$s2s" translate --run "$run" --precision int8 > "$work/int8.txt" 2> "$work/int8.err" ||
    { cat "$work/int8.err"; fail "translate --precision int8"; }
  [ "$(wc -l < "$work/int8.txt")" = 1 ] || fail "translate --precision int8: not one line out"
  # A run that validates in int8 (its weights packed again after each update), decoded in fp32.
  "$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/int8run" --set training.max_steps=4 \
    --set training.validate_every=2 --set evaluation.precision=int8 > "$work/int8run.log" 2>&1 ||
    { tail -5 "$work/int8run.log"; fail "train with evaluation.precision int8"; }
  grep -q "validation in int8" "$work/int8run.log" || fail "the log does not say validation is in int8"
  "$s2s" evaluate --run "$work/int8run" --precision fp32 > /dev/null 2>&1 || fail "evaluate an int8 run in fp32"
  grep -q '"precision": "fp32"' "$work/int8run/evaluations/test.best.greedy.fp32.scores.json" ||
    fail "no greedy.fp32 scores of the int8 run"
else
  expect_error "--precision int8 is not offered here: this CPU has none of" evaluate --run "$run" --precision int8
  expect_error "evaluation.precision int8 is not offered here: this CPU has none of" train \
    -c tests/cli/fixtures/tiny.json --set run_dir="$work/bad" --set evaluation.precision=int8
fi
expect_error "--precision int4 not in {auto,fp32,bf16,int8}" evaluate --run "$run" --precision int4
[ "$(ls "$run/checkpoints")" = "$before" ] || fail "a refused average changed the checkpoints"
[ ! -e "$work/bad" ] || fail "a refused training wrote $work/bad"
echo "schedule and average tests passed"
