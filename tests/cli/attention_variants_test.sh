#!/usr/bin/env bash
# The attention variants beyond the scorer, end to end on the tiny config: a sparse normalizer
# with coverage and the coverage loss trains, decodes the test split with beam search, exports
# heatmaps in the weights' format, and evaluates again from its checkpoint; sparse hard
# attention with local-p trains with REINFORCE without a non-finite loss; guided alignment
# trains from the gold of the training pairs (one head of two, squared error, decaying); the
# keys' refusals are one line.
# Usage: attention_variants_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
tiny=tests/cli/fixtures/tiny.json

run=$work/entmax_coverage
"$s2s" train -c $tiny --set run_dir="$run" --set model.attention.scorer=additive \
  --set model.attention.normalizer=entmax15 --set model.attention.coverage=true \
  --set training.coverage_loss=1.0 --set evaluation.beam_size=3 > "$work/train.log" 2>&1 ||
  { tail -5 "$work/train.log"; fail "train with entmax15 and coverage"; }
grep -q "test (beam 3): *BLEU" "$work/train.log" || fail "no test line in the training log"
# Weights: "0" (exact), six decimals, or scientific notation below 5e-7 (the unit tests hold
# which is which; a model of 6 updates has few exact zeros).
csv=$(ls "$run"/heatmaps/*_head0.csv | head -1)
bad=$(tail -n +2 "$csv" | cut -d, -f2- | tr ',' '\n' | grep -Ev '^(0|[01]\.[0-9]{6}|[1-9]\.[0-9]e-[0-9]+)$' || true)
[ -z "$bad" ] || fail "weights in $csv not written as 0, 0.dddddd or d.de-N: $(head -3 <<<"$bad")"
"$s2s" evaluate --run "$run" --split test --beam 2 > "$work/eval.log" 2>&1 ||
  { cat "$work/eval.log"; fail "evaluate"; }
grep -q "BLEU" "$work/eval.log" || fail "evaluate printed no BLEU"

"$s2s" train -c $tiny --set run_dir="$work/sparse_hard" --set model.attention.normalizer=sparsemax \
  --set model.attention.hard=sample --set model.attention.local=local_p \
  --set model.attention.window=2 --skip-test > "$work/hard.log" 2>&1 ||
  { tail -5 "$work/hard.log"; fail "sparse hard attention (a non-finite loss stops training)"; }

# The tiny config trains on data/en-fr/valid, whose gold alignment is valid.align.
"$s2s" train -c $tiny --set run_dir="$work/guided" --set model.attention.heads=2 \
  --set data.train_alignments=data/en-fr/valid.align --set training.guided_alignment.weight=1 \
  --set training.guided_alignment.loss=mse --set training.guided_alignment.heads=first \
  --set training.guided_alignment.decay_steps=4 --skip-test > "$work/guided.log" 2>&1 ||
  { tail -5 "$work/guided.log"; fail "train with guided alignment"; }
grep -q "guided alignment: 1000 gold alignments from" "$work/guided.log" ||
  fail "the log does not say where the gold alignments come from"

expect() { "$here/expect.sh" "$@" || fail "${*:3}"; }
expect 2 "^error: training.guided_alignment.weight needs data.train_alignments" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set training.guided_alignment.weight=1
expect 2 "^error: training.guided_alignment.loss: unknown value 'kl' \(valid: ce, mse\)" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set training.guided_alignment.loss=kl
expect 2 "^error: data.train_alignments: file not found: " \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set data.train_alignments=no.align
printf '0-0\n1-1\n' > "$work/short.align"
expect 2 "^error: $work/short.align: 2 alignment lines for 1000 sentence pairs of " \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set data.train_alignments="$work/short.align" \
  --set training.guided_alignment.weight=0.5
expect 2 "^error: model.attention.coverage needs an attention scorer" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set model.attention.scorer=none \
  --set model.attention.coverage=true
expect 2 "^error: training.coverage_loss must be >= 0" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set training.coverage_loss=-1
expect 2 "^error: model.attention.window must be in \[1, 100000\], got 0" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set model.attention.local=local_m \
  --set model.attention.window=0
expect 2 "^error: model.attention.local: unknown value 'local_x' \(valid: none, local_m, local_p\)" \
  "$s2s" train -c $tiny --set run_dir="$work/refused" --set model.attention.local=local_x
[ ! -e "$work/refused" ] || fail "a refused command wrote its run directory"
echo "attention variants: OK"
