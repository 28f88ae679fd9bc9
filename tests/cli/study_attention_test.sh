#!/usr/bin/env bash
# `s2s study attention` end to end on the tiny config: a 2 x 2 grid trains with one seed, prints
# one row per combination with every column, writes the CSV and one report of the four runs;
# a second study into the same folder is refused unless --overwrite; unknown names, a variant
# the config cannot run and bad options are refused with one line before any training.
# Usage: study_attention_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
tiny=tests/cli/fixtures/tiny.json
study=("$s2s" study attention --config $tiny --scorers dot)

"${study[@]}" --steps 3 --normalizers softmax,sparsemax --variants none,coverage \
  --out "$work/out" --csv "$work/study.csv" > "$work/study.log" 2>&1 || { tail -20 "$work/study.log"; fail "study"; }
[ "$(head -1 "$work/study.csv")" = \
  "scorer,normalizer,variant,test_bleu,chrf,aer,entropy,zeros,parameters,tokens_per_s,minutes" ] ||
  fail "CSV header: $(head -1 "$work/study.csv")"
[ "$(tail -n +2 "$work/study.csv" | cut -d, -f1-3 | tr '\n' ' ')" = \
  "dot,softmax,none dot,softmax,coverage dot,sparsemax,none dot,sparsemax,coverage " ] ||
  fail "rows: $(cat "$work/study.csv")"
# Every number present: AER from the test split's gold, parameters > 0, tokens/s > 0.
awk -F, 'NR > 1 && !($6 >= 0 && $6 <= 1 && $9 > 0 && $10 > 0) { bad = 1 } END { exit bad }' \
  "$work/study.csv" || fail "a row lacks a number: $(cat "$work/study.csv")"
# sparsemax rows have exact zeros in their attention, softmax rows none.
awk -F, 'NR > 1 && (($2 == "softmax") != ($8 == 0)) { bad = 1 } END { exit bad }' \
  "$work/study.csv" || fail "exact zeros: $(cat "$work/study.csv")"
for run in dot-softmax-none dot-softmax-coverage dot-sparsemax-none dot-sparsemax-coverage; do
  [ -f "$work/out/$run/test.scores.json" ] || fail "no test scores in $run"
  grep -q "\"max_steps\": 3" "$work/out/$run/config.json" || fail "$run did not train 3 updates"
done
grep -c 'dot-sparsemax-coverage' "$work/out/report.html" > /dev/null || fail "report lacks a run"
grep -q "^report: $work/out/report.html" "$work/study.log" || fail "no report line"

expect() { "$here/expect.sh" "$@" || fail "${*:3}"; }
expect 2 "^error: --out: $work/out/dot-softmax-none exists \(an earlier study\)" \
  "${study[@]}" --normalizers softmax --variants none --out "$work/out"
"${study[@]}" --steps 3 --normalizers softmax --variants none --out "$work/out" --overwrite \
  > "$work/again.log" 2>&1 || { tail -5 "$work/again.log"; fail "--overwrite"; }
expect 2 "^error: --variants: unknown name 'global' \(valid: none, coverage, local_m, local_p, guided\)" \
  "${study[@]}" --variants global --out "$work/refused"
expect 2 "^error: --normalizers: unknown name 'softmin' \(valid: softmax, sparsemax, entmax15\)" \
  "${study[@]}" --normalizers softmin --out "$work/refused"
expect 2 "^error: --variants guided: $tiny names no data.train_alignments" \
  "${study[@]}" --variants none,guided --out "$work/refused"
expect 2 "^error: model.attention.coverage needs an attention scorer" \
  "$s2s" study attention --config $tiny --scorers additive,none --variants coverage --out "$work/refused"
expect 2 "^error: --steps: must be >= 0" "${study[@]}" --steps -1 --out "$work/refused"
[ ! -e "$work/refused" ] || fail "a refused study wrote its folder"
echo "study attention: OK"
