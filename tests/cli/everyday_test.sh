#!/usr/bin/env bash
# Everyday use: results never replaced, paths that work from anywhere, a streaming translator
# with n-best and unknown-word counts, honest progress, a manifest that says how a run was made.
# Usage: everyday_test.sh S2S_BINARY WORK_DIR
set -euo pipefail
s2s=$(realpath "$1") work=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/project/configs" "$work/project/data" "$work/elsewhere"
fail() { echo "FAIL: $*"; exit 1; }

# A project of its own: data beside the config, paths relative to the config file.
for ext in en fr; do
  head -n 300 "$repo/data/en-fr/train.$ext" > "$work/project/data/train.$ext"
  head -n 60 "$repo/data/en-fr/valid.$ext" > "$work/project/data/valid.$ext"
  head -n 30 "$repo/data/en-fr/test.$ext" > "$work/project/data/test.$ext"
done
cat > "$work/project/configs/tiny.json" <<'JSON'
{
  // paths relative to this file
  "data": {"train": "../data/train", "valid": "../data/valid", "test": "../data/test",
           "src_ext": "en", "tgt_ext": "fr"},
  "model": {"emb_size": 16, "hidden_size": 16},
  "training": {"batch_size": 16, "max_steps": 38, "validate_every": 19, "num_samples": 0,
               "threads": 1, "log_every": 10},
  "evaluation": {"beam_size": 3, "heatmaps": 1}
}
JSON
"$s2s" config --check "$work/project/configs/tiny.json" | grep -q ": ok$" || fail "config --check"

# Train from another working directory; the run directory is relative to it.
(cd "$work/elsewhere" && "$s2s" train -c ../project/configs/tiny.json --set run_dir=run) \
  > "$work/train.out" 2>&1 || { cat "$work/train.out"; fail "train"; }
run=$work/elsewhere/run
grep -Eq "\[train\] step 1/38 epoch 1 loss .* left$" "$work/train.out" || fail "no early step line with total and ETA"
grep -q "\[valid\] step 19 epoch 1:" "$work/train.out" || fail "epochs are not 1-based in validation lines"
grep -q "summary: 38 steps" "$work/train.out" || fail "no summary"
grep -q "next: s2s translate --run $run" "$work/train.out" || fail "no next command"
grep -q "\"train\": \"$work/project/data/train\"" "$run/config.json" || fail "config.json paths are not absolute"

# The manifest says how the run was made.
python3 - "$run/manifest.json" "$work/project/data/train.en" <<'PY' || fail "manifest provenance"
import hashlib, json, sys
m = json.load(open(sys.argv[1]))
p = m["provenance"]
for key in ("program", "libtorch", "blas", "blas_kernels", "cpu", "threads", "precision", "seed",
            "data"):
    assert key in p, key
# Under OpenBLAS the kernels are named: its own choice, or the CPU's (platform/openblas.h).
assert ("openblas" in p["blas"]) == p["blas_kernels"].startswith("OpenBLAS "), p
d = p["data"][sys.argv[2]]
assert d["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert "checkpoints/best.pt" in m["files"]
PY

# A user's OPENBLAS_CORETYPE wins over the program's choice of kernels.
if grep -q '"blas": ".*openblas' "$run/manifest.json"; then
  OPENBLAS_CORETYPE=Haswell "$s2s" bench -c "$work/project/configs/tiny.json" --steps 1 --warmup 0 \
    --decode-sentences 0 --beam 1 --json 2> /dev/null |
    grep -q '"blas_kernels":"OpenBLAS Haswell kernels (OPENBLAS_CORETYPE)"' ||
    fail "OPENBLAS_CORETYPE set by the user is not what runs"
fi

# Evaluations never replace the training-time results; they are named after their settings.
sum_hyp=$(md5sum < "$run/test.hyp"); sum_scores=$(md5sum < "$run/test.scores.json")
(cd / && "$s2s" evaluate --run "$run" --beam 1 > /dev/null 2>&1) || fail "evaluate from /"
[ "$(md5sum < "$run/test.hyp")" = "$sum_hyp" ] || fail "evaluate rewrote test.hyp"
[ "$(md5sum < "$run/test.scores.json")" = "$sum_scores" ] || fail "evaluate rewrote test.scores.json"
[ -s "$run/evaluations/test.best.greedy.hyp" ] || fail "no evaluations/test.best.greedy.hyp"
grep -q '"decode": "greedy"' "$run/evaluations/test.best.greedy.scores.json" || fail "scores file"
"$s2s" evaluate --run "$run" --out "$work/mine" > /dev/null 2>&1 || fail "evaluate --out"
[ -s "$work/mine.hyp" ] && [ -s "$work/mine.scores.json" ] || fail "--out prefix"

# A data file that changed since training is named.
echo "Une ligne de plus." >> "$work/project/data/test.fr"; echo "One more line." >> "$work/project/data/test.en"
"$s2s" evaluate --run "$run" > "$work/changed.out" 2>&1 || fail "evaluate after a change"
grep -q "test.en has changed since the run was trained" "$work/changed.out" || { cat "$work/changed.out"; fail "no warning for a changed file"; }

# Streaming: a line is answered while stdin stays open.
coproc TRANSLATE { "$s2s" translate --run "$run" 2> "$work/stream.err"; }
echo "The cat sleeps." >&"${TRANSLATE[1]}"
read -r -t 60 answer <&"${TRANSLATE[0]}" || fail "no answer while stdin was open"
echo "zzzqqq xxyyww" >&"${TRANSLATE[1]}"
read -r -t 60 answer2 <&"${TRANSLATE[0]}" || fail "no second answer"
exec {TRANSLATE[1]}>&-
wait "$TRANSLATE_PID" || fail "translate exited with an error"
grep -q "unknown to the model: " "$work/stream.err" || { cat "$work/stream.err"; fail "no unknown-word summary"; }
grep -q "zzzqqq (1)" "$work/stream.err" || fail "the unknown word is not named"

# n-best: K tab-separated lines per input line, ranks 1..K, scores descending.
printf 'The cat sleeps.\nMarc will come.\n' | "$s2s" translate --run "$run" --n-best 3 > "$work/nbest.out" 2>/dev/null
[ "$(wc -l < "$work/nbest.out")" = 6 ] || fail "--n-best 3 should print 6 lines"
awk -F'\t' 'NF != 4 || $2 < 1 || $2 > 3 { exit 1 }' "$work/nbest.out" || fail "n-best format"
[ "$(cut -f1 "$work/nbest.out" | uniq | tr '\n' ' ')" = "1 2 " ] || fail "n-best line numbers"
printf 'x\n' | "$s2s" translate --run "$run" --n-best 3 --beam 1 > /dev/null 2> "$work/nb.err" && fail "--n-best 3 with beam 1 accepted"
grep -q "error: --n-best 3 needs a beam of at least 3" "$work/nb.err" || fail "n-best error"
# results_table.py names a problem in one line.
python3 "$repo/scripts/results_table.py" "$work/nowhere" 2> "$work/rt.err" && fail "results_table accepted a missing run"
[ "$(cat "$work/rt.err")" = "error: $work/nowhere: no such run directory" ] || fail "results_table message"
echo "everyday use tests passed"
