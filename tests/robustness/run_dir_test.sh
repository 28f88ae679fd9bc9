#!/usr/bin/env bash
# A run directory is never lost or mixed up: nothing is deleted that the user did not ask for,
# inputs are checked before the directory is touched, --resume takes only changes it can apply,
# and two trainings never share a directory.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run

# A directory that holds someone else's files is refused, also as run_dir ".".
mkdir -p "$work/mine" && echo keep > "$work/mine/notes.txt"
expect 2 "run_dir $work/mine is not empty and holds no run of this program" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/mine"
(cd "$work/mine" && expect 2 "run_dir $work/mine: is the working directory" "$s2s" train -c "$work/tiny.json" --set run_dir=. --overwrite)
[ "$(cat "$work/mine/notes.txt")" = keep ] || fail "notes.txt was touched"
[ "$(ls "$work/mine")" = notes.txt ] || fail "files were written into a foreign directory"

# Never a directory that holds more than the run: /, the home directory, the working directory
# or an ancestor of it, a directory holding the config or the data.
(cd "$work/mine" && expect 2 "run_dir $work: is an ancestor of the working directory" \
  "$s2s" train -c "$work/tiny.json" --set run_dir=.. --overwrite)
expect 2 "run_dir /: is the root directory" "$s2s" train -c "$work/tiny.json" --set run_dir=/ --overwrite
mkdir -p "$work/home"
HOME=$work/home expect 2 "run_dir $work/home: is the home directory" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/home" --overwrite
expect 2 "run_dir $work: holds $work/data/train.en, which the training reads" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work" --overwrite
mkdir -p "$work/with_config" && cp "$work/tiny.json" "$work/with_config/my.json"
expect 2 "run_dir $work/with_config: holds .*my.json, which the training reads" \
  "$s2s" train -c "$work/with_config/my.json" --set run_dir="$work/with_config" --overwrite
[ "$(ls "$work/with_config")" = my.json ] || fail "files were written beside the config"

# A directory of another tool with a config.json and a checkpoints/ is not a run of this
# program: --overwrite refuses to train where the run would write over its files, and trains
# beside files it would not touch.
other=$work/other
mkdir -p "$other/checkpoints" "$other/heatmaps"
for f in config.json checkpoints/model.pt heatmaps/a.csv out.hyp out.scores.json train.log; do
  echo "another tool's $f" > "$other/$f"
done
(cd "$other" && find . -type f | sort | xargs md5sum) > "$work/other.sums"
expect 2 "run_dir $other is not empty and holds no run of this program" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$other"
expect 2 "run_dir $other holds config.json, train.log, checkpoints, heatmaps of another program" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$other" --overwrite --skip-test
(cd "$other" && md5sum -c --quiet "$work/other.sums") || fail "--overwrite changed another tool's files"
[ "$(find "$other" -type f | wc -l)" = 6 ] || fail "files were written beside another tool's"
rm -r "$other/config.json" "$other/train.log" "$other/checkpoints" "$other/heatmaps"
(cd "$other" && find . -type f | sort | xargs md5sum) > "$work/other.sums"
expect 0 "" "$s2s" train -c "$work/tiny.json" --set run_dir="$other" --overwrite --skip-test
expect 0 "" "$s2s" train -c "$work/tiny.json" --set run_dir="$other" --overwrite --skip-test
(cd "$other" && md5sum -c --quiet "$work/other.sums") || fail "--overwrite changed another tool's files"

# A regular file where the run directory should be.
touch "$work/afile"
expect 2 "run_dir $work/afile: exists and is not a directory" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/afile"

# A trained run is kept unless --resume or --overwrite says otherwise.
train
grep -q '"checkpoints/last.pt"' "$run/manifest.json" || fail "manifest.json does not list last.pt"
expect 2 "already holds a trained run; use --resume" "$s2s" train -c "$work/tiny.json"
expect 2 "--resume and --overwrite exclude each other" \
  "$s2s" train -c "$work/tiny.json" --resume --overwrite

# --overwrite with a bad corpus fails before deleting anything.
best_sum=$(md5sum < "$run/checkpoints/best.pt")
cp "$work/data/train.fr" "$work/good.fr"
head -n 10 "$work/good.fr" > "$work/data/train.fr"
expect 2 "parallel files differ in length" "$s2s" train -c "$work/tiny.json" --overwrite
[ "$(md5sum < "$run/checkpoints/best.pt")" = "$best_sum" ] || fail "--overwrite lost best.pt"
cp "$work/good.fr" "$work/data/train.fr"

# --overwrite removes what this program wrote (old heatmaps too), never the user's files.
echo mine > "$run/notes.txt"
ls "$run/heatmaps/0002_head0.csv" > /dev/null
train --overwrite --set evaluation.heatmaps=1
[ -f "$run/notes.txt" ] || fail "--overwrite removed a file this program did not write"
[ ! -e "$run/heatmaps/0002_head0.csv" ] || fail "an old heatmap survived --overwrite"
[ -f "$run/heatmaps/0001_head0.csv" ] || fail "no new heatmap"

# --overwrite sweeps the temporaries of its own files that a killed process left, never a
# user's file that looks like one.
echo mine > "$run/notes.tmp.999999"
echo stale > "$run/checkpoints/last.pt.tmp.999999"
train --overwrite
[ -f "$run/notes.tmp.999999" ] || fail "--overwrite removed a user's notes.tmp.999999"
[ ! -e "$run/checkpoints/last.pt.tmp.999999" ] || fail "a stale temporary of last.pt survived"

# A --resume that cannot apply (model size) is refused before anything is rewritten.
config_sum=$(md5sum < "$run/config.json")
expect 2 "--resume: .*model.hidden_size 16 -> 32" \
  "$s2s" train -c "$work/tiny.json" --resume --set model.hidden_size=32
[ "$(md5sum < "$run/config.json")" = "$config_sum" ] || fail "a failed --resume rewrote config.json"

# A --resume that can apply (learning rate, steps) is applied and logged.
train --resume --set training.learning_rate=0.5 --set training.max_steps=8 --skip-test
grep -q -- "--resume applies training.learning_rate: 0.001 -> 0.5" "$work/train.out" ||
  { cat "$work/train.out"; fail "the new learning rate was not applied"; }
grep -q '"lr":0.5' "$run/metrics.jsonl" || fail "metrics.jsonl does not show lr 0.5"
grep -q '"learning_rate": 0.5' "$run/config.json" || fail "config.json does not record 0.5"

# The report says which lines of metrics.jsonl and heatmaps/index.jsonl it skips.
cp -r "$run" "$work/garbled"
printf 'not json\n[1, 2]\n' >> "$work/garbled/metrics.jsonl"
printf '{"broken\n' >> "$work/garbled/heatmaps/index.jsonl"
lines=$(wc -l < "$work/garbled/metrics.jsonl")
expect 0 "metrics.jsonl:$((lines - 1)): skipped 2 lines that are not a JSON object" \
  "$s2s" report --run "$work/garbled" --out "$work/garbled.html"
expect 0 "index.jsonl:[0-9]+: skipped 1 line that is not a JSON object" \
  "$s2s" report --run "$work/garbled" --out "$work/garbled2.html"

# A copied run directory resumes where it is now; the original is left as it was.
cp -r "$run" "$work/moved"
last_sum=$(md5sum < "$run/checkpoints/last.pt")
train --resume --set run_dir="$work/moved" --set training.max_steps=10 --skip-test
grep -q -- "--resume applies run_dir" "$work/train.out" || { cat "$work/train.out"; fail "run_dir change not logged"; }
grep -q '"step":10' "$work/moved/metrics.jsonl" || fail "the moved run did not reach step 10"
[ "$(md5sum < "$run/checkpoints/last.pt")" = "$last_sum" ] || fail "resuming a copy changed the original"

# Two trainings on one run directory: the second is refused, naming the first one's PID.
"$s2s" train -c "$work/tiny.json" --set run_dir="$work/busy" --set training.max_steps=100000 --set training.epochs=100000 \
  --set training.validate_every=100000 > "$work/busy.out" 2>&1 &
first=$!
for _ in $(seq 100); do grep -q "step 1/" "$work/busy.out" 2>/dev/null && break; sleep 0.2; done
expect 2 "run_dir $work/busy is in use by process $first" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/busy" --overwrite
kill -KILL $first; wait $first || true

# --overwrite keeps the lock it holds: a --resume beside it is refused while it runs.
"$s2s" train -c "$work/tiny.json" --set run_dir="$work/busy" --overwrite --set training.max_steps=100000 \
  --set training.epochs=100000 --set training.validate_every=100000 > "$work/busy.out" 2>&1 &
first=$!
for _ in $(seq 100); do grep -q "step 1/" "$work/busy.out" 2>/dev/null && break; sleep 0.2; done
[ -f "$work/busy/train.lock" ] || fail "--overwrite removed the train.lock it holds"
expect 2 "run_dir $work/busy is in use by process $first" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/busy" --resume
kill -KILL $first; wait $first || true
echo "run directory robustness tests passed"
