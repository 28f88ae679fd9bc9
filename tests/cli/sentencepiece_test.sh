#!/usr/bin/env bash
# data.tokenizer = "sentencepiece" through the command line: train trains and keeps the model
# in the run directory; hypotheses are plain text; evaluate, translate and --resume use the
# kept model; an existing model can be named; bad settings and broken models are one line.
# Usage: sentencepiece_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
sp=(--set data.tokenizer=sentencepiece --set data.sentencepiece.vocab_size=400)

# A joint unigram model: trained, kept, its pieces are the vocabulary.
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/joint" "${sp[@]}" \
  --set training.max_steps=4 --set training.validate_every=2 > "$work/joint.log" 2>&1 ||
  { tail -5 "$work/joint.log"; fail "train (joint)"; }
[ -s "$work/joint/sentencepiece.model" ] || fail "no sentencepiece.model in the run"
grep -q "sentencepiece: trained a joint unigram model of 400 pieces" "$work/joint.log" || fail "no training line"
[ "$(wc -l < "$work/joint/src_vocab.txt")" = 401 ] || fail "vocabulary is not the 397 pieces + 4 specials"
grep -q "sentencepiece.model" "$work/joint/manifest.json" || fail "the model is not in the manifest"
if grep -q $'\u2581' "$work/joint/test.hyp"; then fail "hypotheses hold pieces, not text"; fi
[ "$(wc -l < "$work/joint/test.hyp")" = "$(wc -l < data/en-fr/test.en)" ] || fail "test.hyp line count"

# Later commands read the kept model, from any directory.
(cd / && "$s2s" evaluate --run "$work/joint" > "$work/eval.out" 2>&1) || { cat "$work/eval.out"; fail "evaluate"; }
# AER against the word-level gold: pieces merged into the words the gold links.
grep -q "AER = " "$work/eval.out" || { cat "$work/eval.out"; fail "no AER for a SentencePiece run"; }
# Heatmaps: labelled with pieces, or with words when asked.
"$s2s" attention --run "$work/joint" --out "$work/maps" --limit 3 > /dev/null 2>&1 || fail "attention"
grep -q '"units":"pieces"' "$work/maps/index.jsonl" || fail "piece heatmaps are not marked as pieces"
grep -q $'\u2581' "$work/maps/0001_head0.csv" || fail "piece heatmaps lack the pieces"
"$s2s" attention --run "$work/joint" --out "$work/words" --limit 3 --words > /dev/null 2>&1 || fail "attention --words"
grep -q '"units":"words"' "$work/words/index.jsonl" || fail "word heatmaps are not marked as words"
if grep -q $'\u2581' "$work/words/0001_head0.csv"; then fail "--words heatmaps still hold pieces"; fi
head -1 "$work/words/0001_head0.csv" | grep -q '^target\\source,Does,the,young,writer,' ||
  { head -1 "$work/words/0001_head0.csv"; fail "--words: source columns are not the words"; }
printf 'The cat sleeps.\n\nA dog.\n' | "$s2s" translate --run "$work/joint" > "$work/tr.out" 2> "$work/tr.err" ||
  { cat "$work/tr.err"; fail "translate"; }
[ "$(wc -l < "$work/tr.out")" = 3 ] || fail "translate: one line out per line in"
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/joint" "${sp[@]}" --resume \
  --set training.max_steps=6 > "$work/resume.log" 2>&1 || { tail -5 "$work/resume.log"; fail "--resume"; }
grep -q "resumed from step 4" "$work/resume.log" || fail "resume line"

# Separate BPE models, one per language; then an existing model named in the config.
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/bpe" "${sp[@]}" \
  --set data.sentencepiece.model_type=bpe --set data.sentencepiece.joint=false \
  --set training.max_steps=2 > "$work/bpe.log" 2>&1 || { tail -5 "$work/bpe.log"; fail "train (bpe)"; }
[ -s "$work/bpe/src.sentencepiece.model" ] && [ -s "$work/bpe/tgt.sentencepiece.model" ] || fail "no per-language models"
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/given" "${sp[@]}" \
  --set data.sentencepiece.model="$work/joint/sentencepiece.model" --set training.max_steps=2 \
  > "$work/given.log" 2>&1 || { tail -5 "$work/given.log"; fail "train with an existing model"; }
cmp -s "$work/given/sentencepiece.model" "$work/joint/sentencepiece.model" || fail "the named model was not kept as is"

# Bad settings and broken models: one line, exit 2, nothing written.
expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1; shift
  set +e; "$s2s" "$@" > "$work/err.out" 2>&1; local code=$?; set -e
  [ "$code" = 2 ] || { cat "$work/err.out"; fail "exit $code for: $*"; }
  grep -q "^error: $pattern" "$work/err.out" || { cat "$work/err.out"; fail "message for: $*"; }
}
expect_error "data.sentencepiece.model_type: unknown value 'wordpiece'" train -c tests/cli/fixtures/tiny.json \
  --set run_dir="$work/bad" "${sp[@]}" --set data.sentencepiece.model_type=wordpiece
expect_error "data.sentencepiece: SentencePiece cannot train" train -c tests/cli/fixtures/tiny.json \
  --set run_dir="$work/bad" "${sp[@]}" --set data.sentencepiece.vocab_size=900000
expect_error ".*missing.model: cannot open the SentencePiece model" train -c tests/cli/fixtures/tiny.json \
  --set run_dir="$work/bad" "${sp[@]}" --set data.sentencepiece.model="$work/missing.model"
[ ! -e "$work/bad" ] || fail "a refused training wrote $work/bad"
# --words on a word-level run: one line, exit 2, no output directory.
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/wordlevel" --set training.max_steps=1 \
  --skip-test > "$work/wordlevel.log" 2>&1 || { tail -5 "$work/wordlevel.log"; fail "train (word level)"; }
expect_error "--words merges SentencePiece pieces; this run's tokens are already words" attention \
  --run "$work/wordlevel" --out "$work/wordmaps" --words
[ ! -e "$work/wordmaps" ] || fail "a refused --words wrote $work/wordmaps"
head -c 100 "$work/joint/sentencepiece.model" > "$work/cut.model"
cp "$work/cut.model" "$work/joint/sentencepiece.model"
expect_error ".*/joint/sentencepiece.model: not a SentencePiece model" evaluate --run "$work/joint"
echo "sentencepiece tests passed"
