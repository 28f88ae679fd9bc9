#!/usr/bin/env bash
# Scoring any test set: `evaluate --src FILE [--ref FILE]...` decodes a file outside the config
# as the splits are decoded and scores it with sacreBLEU's multi-reference rules, without
# replacing any earlier result; `bleu` takes several references; `translate --input/--output`.
# Usage: test_sets_test.sh S2S_BINARY WORK_DIR
set -euo pipefail
s2s=$(realpath "$1") work=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/data"
fail() { echo "FAIL: $*"; exit 1; }
# expect CODE REGEX COMMAND...: exit code, a matching line, one error line (expect.sh).
expect() { "$repo/tests/cli/expect.sh" "$@" || fail "${*:3}"; }

for ext in en fr; do
  head -n 300 "$repo/data/en-fr/train.$ext" > "$work/data/train.$ext"
  head -n 60 "$repo/data/en-fr/valid.$ext" > "$work/data/valid.$ext"
  head -n 30 "$repo/data/en-fr/test.$ext" > "$work/data/test.$ext"
done
cat > "$work/tiny.json" <<JSON
{"data": {"train": "data/train", "valid": "data/valid", "test": "data/test",
          "src_ext": "en", "tgt_ext": "fr"},
 "model": {"emb_size": 16, "hidden_size": 16},
 "training": {"batch_size": 16, "max_steps": 20, "validate_every": 10, "num_samples": 0,
              "threads": 1, "log_every": 10},
 "evaluation": {"beam_size": 2}}
JSON
run=$work/run
"$s2s" train -c "$work/tiny.json" --set run_dir="$run" --skip-test > "$work/train.out" 2>&1 ||
  { cat "$work/train.out"; fail "train"; }

# The test split given as files: the same hypotheses and scores as --split test.
"$s2s" evaluate --run "$run" --split test --json > "$work/split.json" 2> /dev/null || fail "evaluate --split"
"$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/data/test.fr" --json \
  > "$work/file.json" 2> "$work/file.err" || { cat "$work/file.err"; fail "evaluate --src"; }
first=$run/evaluations/test.en.best.beam2
[ -f "$first.hyp" ] && [ -f "$first.scores.json" ] || fail "no $first.hyp/.scores.json"
cmp -s "$first.hyp" "$run/evaluations/test.best.beam2.hyp" || fail "--src decodes otherwise than --split"
python3 - "$work/split.json" "$work/file.json" <<'PY' || fail "--src scores differ from --split's"
import json, sys
split, file = (json.load(open(p)) for p in sys.argv[1:3])
assert split["bleu"] == file["bleu"], (split["bleu"], file["bleu"])
assert split["chrf"] == file["chrf"], (split["chrf"], file["chrf"])
assert file["sentences"] == 30 and len(file["references"]) == 1, file
PY

# Again: a new name, the first result untouched.
sum=$(md5sum "$first.hyp" "$first.scores.json")
"$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/data/test.fr" > /dev/null 2>&1 ||
  fail "second evaluate --src"
[ -f "$first.2.hyp" ] && [ -f "$first.2.scores.json" ] || fail "the second evaluation is not $first.2.*"
[ "$(md5sum "$first.hyp" "$first.scores.json")" = "$sum" ] || fail "the first evaluation was replaced"

# Two references (the second a copy): the same BLEU, signed nrefs:2.
cp "$work/data/test.fr" "$work/test.fr.copy"
"$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/data/test.fr" \
  --ref "$work/test.fr.copy" --json > "$work/two.json" 2> /dev/null || fail "two references"
python3 - "$work/file.json" "$work/two.json" <<'PY' || fail "a copied reference changed the score"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
assert one["bleu"]["score"] == two["bleu"]["score"]
assert two["bleu"]["signature"].startswith("nrefs:2|"), two["bleu"]["signature"]
PY
# Without references: hypotheses only.
"$s2s" evaluate --run "$run" --src "$work/data/valid.en" > /dev/null 2>&1 || fail "--src without --ref"
[ -f "$run/evaluations/valid.en.best.beam2.hyp" ] && [ ! -e "$run/evaluations/valid.en.best.beam2.scores.json" ] ||
  fail "--src without --ref: a .hyp and no scores"

# Bad inputs: one line each, exit 2.
expect 2 "'$work/data/test.fr' is given twice as a reference" \
  "$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/data/test.fr" --ref "$work/data/test.fr"
expect 2 "'$work/data/test.en' has 30 lines but '$work/data/valid.fr' has 60" \
  "$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/data/valid.fr"
expect 2 "cannot open '$work/absent.en'" "$s2s" evaluate --run "$run" --src "$work/absent.en"
expect 2 "cannot open '$work/absent.fr'" \
  "$s2s" evaluate --run "$run" --src "$work/data/test.en" --ref "$work/absent.fr"
expect 2 "--ref requires --src" "$s2s" evaluate --run "$run" --ref "$work/data/test.fr"
expect 2 "(--src excludes --split|--split excludes --src)" "$s2s" evaluate --run "$run" --split valid --src "$work/data/test.en"

# bleu with several references.
"$s2s" bleu --hyp "$first.hyp" --ref "$work/data/test.fr" --ref "$work/test.fr.copy" > "$work/bleu.out" ||
  fail "bleu with two references"
grep -q "^signature: nrefs:2|" "$work/bleu.out" || { cat "$work/bleu.out"; fail "bleu: no nrefs:2"; }
expect 2 "given twice as a reference" \
  "$s2s" bleu --hyp "$first.hyp" --ref "$work/data/test.fr" --ref "$work/data/test.fr"

# translate --input/--output writes what stdin/stdout gives; warnings name the file's lines.
"$s2s" translate --run "$run" < "$work/data/test.en" > "$work/stdout.txt" 2> /dev/null || fail "translate"
python3 -c "print(' '.join(['cat'] * 2000))" >> "$work/input.en"
cat "$work/data/test.en" >> "$work/input.en"
"$s2s" translate --run "$run" --input "$work/input.en" --output "$work/output.fr" 2> "$work/io.err" ||
  { cat "$work/io.err"; fail "translate --input --output"; }
[ "$(tail -n 30 "$work/output.fr")" = "$(cat "$work/stdout.txt")" ] || fail "--output differs from stdout"
[ "$(wc -l < "$work/output.fr")" = 31 ] || fail "--output: a line for each input line"
grep -q "$work/input.en:1: a line of 2000 words" "$work/io.err" || { cat "$work/io.err"; fail "no FILE:LINE"; }
expect 2 "--output $work/input.en is the --input file" \
  "$s2s" translate --run "$run" --input "$work/input.en" --output "$work/input.en"
expect 2 "--input $work/absent.en: cannot open" "$s2s" translate --run "$run" --input "$work/absent.en"
echo "test set tests passed"
