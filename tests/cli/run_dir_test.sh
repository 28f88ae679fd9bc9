#!/usr/bin/env bash
# The verbs on a real (tiny) run directory: train, evaluate, translate, attention, resume, and
# the errors for a checkpoint that is corrupted or does not fit the config.
# Usage: run_dir_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
expect=$(dirname "$0")/expect.sh
config=$(dirname "$0")/fixtures/tiny.json
run=$work/tiny_run
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$s2s" train -c "$config" --set run_dir="$run" > "$work/train.out" 2>&1 || { cat "$work/train.out"; fail "train"; }
for f in config.json src_vocab.txt tgt_vocab.txt checkpoints/last.pt checkpoints/best.pt \
         metrics.jsonl train.log test.hyp test.scores.json heatmaps/index.jsonl; do
  [ -s "$run/$f" ] || fail "missing $run/$f"
done
[ "$(wc -l < "$run/test.hyp")" = 1000 ] || fail "test.hyp should have 1000 lines"
grep -q '"event":"valid"' "$run/metrics.jsonl" || fail "no validation event in metrics.jsonl"
[ "$(ls "$run"/heatmaps/*.csv | wc -l)" = 2 ] || fail "expected 2 heatmap CSVs"

"$expect" 0 "signature: nrefs:1\|case:mixed\|eff:no\|tok:13a" "$s2s" evaluate --run "$run" --split valid
"$expect" 0 '"bleu"' "$s2s" evaluate --run "$run" --json --beam 3

# translate: one output line per input line, an empty line stays empty.
printf 'The cat sleeps.\n\nMarc will come.\n' | "$s2s" translate --run "$run" > "$work/translate.out"
[ "$(wc -l < "$work/translate.out")" = 3 ] || fail "translate should print 3 lines"
[ -z "$(sed -n 2p "$work/translate.out")" ] || fail "empty line should stay empty"

# resume continues from the saved step.
"$s2s" train -c "$config" --set run_dir="$run" --set training.max_steps=9 --resume --skip-test \
  > "$work/resume.out" 2>&1 || { cat "$work/resume.out"; fail "resume"; }
grep -q '"step":9' "$run/metrics.jsonl" || fail "resumed run did not reach step 9"
"$expect" 2 "already holds a trained run" "$s2s" train -c "$config" --set run_dir="$run"

# A checkpoint that does not fit the config, and a corrupted one.
cp -r "$run" "$work/misfit"
sed -i 's/"hidden_size": 16/"hidden_size": 32/' "$work/misfit/config.json"
"$expect" 2 "best.pt: checkpoint does not fit the model \\(checkpoint vs config: hidden_size 16 vs 32\\)" "$s2s" evaluate --run "$work/misfit"
cp -r "$run" "$work/corrupt"
head -c 1000 "$run/checkpoints/best.pt" > "$work/corrupt/checkpoints/best.pt"
"$expect" 2 "best.pt: not a valid checkpoint" "$s2s" evaluate --run "$work/corrupt"
rm "$work/corrupt/checkpoints/last.pt"
"$expect" 2 "last.pt: checkpoint not found" "$s2s" evaluate --run "$work/corrupt" --checkpoint last
# Encoder self-attention and hard attention: trained, and the self-attention exported.
"$s2s" train -c "$config" --set run_dir="$work/self" --set model.encoder.self_attention=true \
  --set model.encoder.self_attention_heads=2 --set model.attention.hard=sample \
  --set training.reinforce.baseline=leave_one_out --set training.log_every=2 > "$work/self.out" 2>&1 \
  || { cat "$work/self.out"; fail "train with self-attention"; }
ls "$work"/self/heatmaps/*_self_head1.csv > /dev/null || fail "no encoder self-attention CSV"
grep -q '"matrix":"encoder_self_attention"' "$work/self/heatmaps/index.jsonl" || fail "index.jsonl"
grep -q '"reinforce_variance"' "$work/self/metrics.jsonl" || fail "no REINFORCE statistics"
echo "run directory tests passed"
