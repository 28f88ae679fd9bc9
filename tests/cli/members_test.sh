#!/usr/bin/env bash
# training.members = N: one `s2s train` trains N models into run_dir/member<k> (seed + k - 1,
# the first member's tokenizers and vocabularies), tests each, then decodes the test split with
# their ensemble, as `s2s evaluate --ensemble` does; --resume trains the members an interrupt
# left unbegun; a run_dir holding one model's run and a bad count are refused.
# Usage: members_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
tiny=(-c tests/cli/fixtures/tiny.json --set data.tokenizer=sentencepiece
      --set data.sentencepiece.vocab_size=400 --set training.max_steps=4
      --set training.validate_every=2 --set training.keep_step_checkpoints=true
      --set training.average_last=2 --set evaluation.beam_size=2)
ens=$work/ens

"$s2s" train "${tiny[@]}" --set run_dir="$ens" --set training.members=2 > "$work/ens.log" 2>&1 ||
  { tail -20 "$work/ens.log"; fail "train with training.members = 2"; }
for k in 1 2; do
  [ -s "$ens/member$k/checkpoints/average_last.pt" ] || fail "member $k has no average_last.pt"
  [ -s "$ens/member$k/test.hyp" ] || fail "member $k was not tested alone"
  grep -q "member $k test (beam 2): BLEU" "$work/ens.log" || fail "no test line of member $k"
done
python3 - "$ens" <<'PY' || fail "member configs"
import json, sys
for k, seed in ((1, 7), (2, 8)):
    c = json.load(open(f"{sys.argv[1]}/member{k}/config.json"))
    assert c["seed"] == seed and c["training"]["members"] == 1, (k, c["seed"])
    assert c["run_dir"].endswith(f"/member{k}"), c["run_dir"]
PY
# One tokenizer for all: trained once, kept by each member; the weights differ.
[ "$(grep -c "sentencepiece: trained" "$work/ens.log")" = 1 ] || fail "SentencePiece was trained more than once"
for f in sentencepiece.model src_vocab.txt tgt_vocab.txt; do
  cmp -s "$ens/member1/$f" "$ens/member2/$f" || fail "the members' $f differ"
done
if cmp -s "$ens/member1/checkpoints/best.pt" "$ens/member2/checkpoints/best.pt"; then
  fail "the members have the same weights"
fi
# The ensemble's test: written beside member 1's evaluations, the same as evaluate --ensemble.
hyp=$(ls "$ens"/member1/evaluations/test.ensemble2-*.average_last.*.hyp)
grep -q "ensemble of 2 test (beam 2): BLEU .*$hyp" "$work/ens.log" || fail "no ensemble test line"
grep -q "next: s2s translate --ensemble $ens/member1,$ens/member2 --checkpoint average_last" \
  "$work/ens.log" || fail "no next command"
"$s2s" evaluate --ensemble "$ens/member1,$ens/member2" --checkpoint average_last \
  --out "$work/again" > "$work/again.log" 2>&1 || { cat "$work/again.log"; fail "evaluate --ensemble"; }
cmp -s "$hyp" "$work/again.hyp" || fail "the training's ensemble test differs from evaluate --ensemble"

# An interrupt before member 2 began: --resume finishes member 1 (already done) and trains
# member 2 as the first command did.
cp "$ens/member2/test.hyp" "$work/member2.hyp"
rm -r "$ens/member2"
"$s2s" train "${tiny[@]}" --set run_dir="$ens" --set training.members=2 --resume \
  > "$work/resume.log" 2>&1 || { tail -20 "$work/resume.log"; fail "--resume"; }
grep -q "member1: resumed from step 4" "$work/resume.log" || fail "member 1 was not resumed"
grep -q -- "--resume: $ens/member2 has no checkpoint yet; its training starts now" "$work/resume.log" ||
  fail "member 2 was not started"
grep -q "sentencepiece: trained" "$work/resume.log" && fail "the resumed ensemble trained SentencePiece again"
cmp -s "$work/member2.hyp" "$ens/member2/test.hyp" || fail "member 2 trained again differs"

# Refusals: one line, exit 2, nothing written (expect.sh: the code, the line, no backtrace).
expect_error() {  # expect_error ERE ARGS...
  local pattern=$1; shift
  "$(dirname "$0")/expect.sh" 2 "^error: $pattern" "$s2s" "$@" || fail "refusal of: $*"
}
expect_error "run_dir $ens/member1 already holds a trained run; use --resume" train "${tiny[@]}" \
  --set run_dir="$ens" --set training.members=2
expect_error "training.members must be in \[1, 16\], got 0" train "${tiny[@]}" \
  --set run_dir="$work/none" --set training.members=0
"$s2s" train "${tiny[@]}" --set run_dir="$work/single" --skip-test > "$work/single.log" 2>&1 ||
  { tail -5 "$work/single.log"; fail "train one model"; }
expect_error "run_dir $work/single holds the run of one model; training.members = 3 trains into" \
  train "${tiny[@]}" --set run_dir="$work/single" --set training.members=3
[ ! -e "$work/single/member1" ] && [ ! -e "$work/none" ] || fail "a refused training wrote files"
expect_error "--resume: no ensemble to resume in $work/absent" train "${tiny[@]}" \
  --set run_dir="$work/absent" --set training.members=2 --resume
expect_error "--resume and --overwrite exclude each other" train "${tiny[@]}" \
  --set run_dir="$ens" --set training.members=2 --resume --overwrite
expect_error "training.members = 2 trains in one process" train "${tiny[@]}" \
  --set run_dir="$work/procs" --set training.members=2 --nproc 2
[ ! -e "$work/absent" ] && [ ! -e "$work/procs" ] || fail "a refused training wrote files"
# A resumed member whose vocabulary no longer matches the first member's: refused before training.
cp "$ens/member2/src_vocab.txt" "$work/src_vocab.txt"
sed -i '10s/.*/changed/' "$ens/member2/src_vocab.txt"
expect_error "--resume: $ens/member2 no longer decodes with $ens/member1 \\(line 10 of" \
  train "${tiny[@]}" --set run_dir="$ens" --set training.members=2 --resume
cp "$work/src_vocab.txt" "$ens/member2/src_vocab.txt"
# A member with checkpoints but no last.pt is not started over: --resume refuses, files kept.
mv "$ens/member2/checkpoints/last.pt" "$work/last.pt"
expect_error "--resume: no checkpoint to resume from at $ens/member2/checkpoints/last.pt" \
  train "${tiny[@]}" --set run_dir="$ens" --set training.members=2 --resume
[ -s "$ens/member2/checkpoints/best.pt" ] || fail "a refused --resume removed member 2's checkpoints"
mv "$work/last.pt" "$ens/member2/checkpoints/last.pt"

# --skip-test: members trained, nothing decoded, the command that would decode them given.
"$s2s" train "${tiny[@]}" --set run_dir="$work/skip" --set training.members=2 --skip-test \
  > "$work/skip.log" 2>&1 || { tail -5 "$work/skip.log"; fail "--skip-test"; }
[ ! -e "$work/skip/member1/test.hyp" ] && [ ! -e "$work/skip/member1/evaluations" ] ||
  fail "--skip-test decoded the test split"
grep -q "next: s2s translate --ensemble $work/skip/member1,$work/skip/member2" "$work/skip.log" ||
  fail "--skip-test: no next command"

# SIGINT during member 2: exit 130, member 2 saved, and the message gives the ensemble's
# command; --resume then finishes member 2 and decodes the ensemble.
long=("${tiny[@]}" --set run_dir="$work/int" --set training.members=2 --set training.max_steps=3000
      --set training.validate_every=1000 --set training.average_last=0)
"$s2s" train "${long[@]}" > "$work/int.log" 2>&1 &
pid=$!
for _ in $(seq 600); do
  grep -q "member 2 of 2" "$work/int.log" && break
  sleep 0.1
done
grep -q "member 2 of 2" "$work/int.log" || { kill $pid; fail "member 2 did not begin"; }
sleep 1
kill -INT $pid
set +e; wait $pid; code=$?; set -e
[ "$code" = 130 ] || { tail -5 "$work/int.log"; fail "SIGINT during member 2: exit $code"; }
grep -q "saved $work/int/member2/checkpoints/last.pt; resume with: s2s train -c tests/cli/fixtures/tiny.json .*--set training.members=2 .*--resume" \
  "$work/int.log" || { tail -5 "$work/int.log"; fail "the interrupt does not give the ensemble's command"; }
"$s2s" train "${long[@]}" --resume > "$work/int_resume.log" 2>&1 ||
  { tail -5 "$work/int_resume.log"; fail "--resume after SIGINT"; }
grep -q "member2: resumed from step" "$work/int_resume.log" || fail "member 2 was not resumed"
grep -q "ensemble of 2 test" "$work/int_resume.log" || fail "the resumed ensemble was not tested"
echo "members tests passed"
