#!/usr/bin/env bash
# Bounded work for unbounded inputs: overlong sources are cut at decoding with a warning naming
# the line (while translate reads it), the beam and every size have a cap, an overlong validation
# line does not stall training, an overlong corpus line is refused, and batches and searches that
# cannot fit in memory are refused at start-up. Where a small input is cheap, the hostile one is
# measured against it: peak RSS and time.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run

# A config nested 100,000 deep: refused at once, in the memory of a small config's check.
python3 -c "print('{\"a\":' * 100000 + '1' + '}' * 100000)" > "$work/deep.json"
measure "$work/small.m" "$s2s" config --check "$work/tiny.json"
measure "$work/deep.m" "$s2s" config --check "$work/deep.json"
[ "$(exit_of "$work/small.m")" = 0 ] || { cat "$work/measure.out"; fail "config --check of tiny.json"; }
[ "$(exit_of "$work/deep.m")" = 2 ] || { cat "$work/measure.out"; fail "a 100,000-deep config: exit $(exit_of "$work/deep.m")"; }
grep -q "deep.json:1: objects and arrays nested deeper than 64 levels" "$work/measure.out" ||
  { cat "$work/measure.out"; fail "the depth error does not name the file and line"; }
no_costlier "$work/small.m" "$work/deep.m" 51200 2 "a 100,000-deep config"
train --set evaluation.beam_size=2

# One line of 20,000 words: answered at once, cut to evaluation.max_src_len.
python3 -c "print(' '.join(['cat'] * 20000)); print('The cat sleeps.')" > "$work/long.txt"
start=$(date +%s)
"$s2s" translate --run "$run" < "$work/long.txt" > "$work/long.out" 2> "$work/long.err" ||
  { cat "$work/long.err"; fail "translate of a long line"; }
[ $(( $(date +%s) - start )) -lt 60 ] || fail "translate of a long line took a minute"
[ "$(wc -l < "$work/long.out")" = 2 ] || fail "translate should print 2 lines"
grep -q "stdin:1: a line of 20000 words (79999 bytes) cut to its first 250 tokens (evaluation.max_src_len)" "$work/long.err" ||
  { cat "$work/long.err"; fail "no warning naming the cut line"; }

# A 20 MB line is cut while it is read: translating it costs what a short line costs.
python3 -c "import sys; sys.stdout.write('cat ' * 5000000 + '\nThe cat sleeps.\n')" > "$work/huge.txt"
echo "The cat sleeps." > "$work/short.txt"
translate_file() { exec "$1" translate --run "$2" < "$3"; }
export -f translate_file
measure "$work/short.m" bash -c 'translate_file "$@"' _ "$s2s" "$run" "$work/short.txt"
measure "$work/huge.m" bash -c 'translate_file "$@"' _ "$s2s" "$run" "$work/huge.txt"
[ "$(exit_of "$work/short.m")" = 0 ] && [ "$(exit_of "$work/huge.m")" = 0 ] ||
  { cat "$work/measure.out"; fail "translate of a 20 MB line"; }
grep -q "stdin:1: a line of 5000000 words (20000000 bytes) cut to its first 250 tokens" "$work/measure.out" ||
  { cat "$work/measure.out"; fail "no warning naming the 20 MB line"; }
no_costlier "$work/short.m" "$work/huge.m" 51200 10 "translating a 20 MB line"

# Every size has a bound, named with its key or flag before any work.
expect 2 "training.threads must be in \[0, 1024\]" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/t" --set training.threads=100000
expect 2 "evaluation.max_len_ratio must be in \(0, 100\]" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/t" --set evaluation.max_len_ratio=1e9
expect 2 "^error: --dims: must be in \[1, 65536\], got 100000000" \
  "$s2s" study scaling --dims 100000000
expect 2 "^error: --depth: must be in \[1, 10000\], got 1000000" \
  "$s2s" study init --depth 1000000 --skip-training
expect 2 "^error: --samples x --keys x --dims" "$s2s" study scaling --dims 65536 --samples 1000000
# More threads than the machine has: one per hardware thread, and the log says so.
train --set run_dir="$work/many_threads" --set training.threads=1024 --set training.max_steps=2 --skip-test
grep -q "the threads key asked for 1024; this machine has" "$work/train.out" ||
  { cat "$work/train.out"; fail "threads above the machine's were not capped with a word"; }

# The beam has a cap, in the config and on the command line.
expect 2 "^error: --beam must be an integer in \[1, 100\], got '100000'" \
  "$s2s" translate --run "$run" --beam 100000
expect 2 "evaluation.beam_size must be in \[1, 100\], got 1000" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/b" --set evaluation.beam_size=1000

# A 1 MB validation line: training goes on, and the log says what was cut and left out.
python3 -c "print(' '.join(['word'] * 200000))" >> "$work/data/valid.en"
python3 -c "print(' '.join(['mot'] * 200000))" >> "$work/data/valid.fr"
start=$(date +%s)
train --set run_dir="$work/longvalid" --skip-test
[ $(( $(date +%s) - start )) -lt 120 ] || fail "a long validation line stalled training"
grep -q "valid.{en,fr}:61: source of 200000 tokens cut" "$work/train.out" || { cat "$work/train.out"; fail "no cut warning"; }
grep -q "valid: 1 of 61 pairs longer than evaluation.max_src_len = 250 tokens left out" "$work/train.out" ||
  fail "no validation filter in the log"
# A training line longer than data.max_line_bytes is refused with its file and line.
for ext in en fr; do head -n 60 "$repo/data/en-fr/valid.$ext" > "$work/data/valid.$ext"; done
mkdir -p "$work/longtrain"
for ext in en fr; do cp "$work/data/train.$ext" "$work/longtrain/train.$ext"; done
python3 -c "print('word ' * 400000)" >> "$work/longtrain/train.en"
python3 -c "print('mot ' * 400000)" >> "$work/longtrain/train.fr"
expect 2 "longtrain/train.en:301: a line of 2000000 bytes, more than data.max_line_bytes = 1048576" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/lt" --set data.train="$work/longtrain/train"

# data.max_len = 0 with a 1 MB line: refused at start-up by the activation estimate, naming the
# key, in the memory and time of a small training's start.
for ext in en fr; do cp "$work/data/train.$ext" "$work/longtrain/train.$ext"; done
python3 -c "print(' '.join(['word'] * 200000))" >> "$work/longtrain/train.en"
python3 -c "print(' '.join(['mot'] * 200000))" >> "$work/longtrain/train.fr"
measure "$work/nolimit_small.m" "$s2s" train -c "$work/tiny.json" --set run_dir="$work/nl_small" \
  --set data.max_len=0 --set training.max_steps=1 --skip-test
measure "$work/nolimit.m" "$s2s" train -c "$work/tiny.json" --set run_dir="$work/nl" \
  --set data.max_len=0 --set data.train="$work/longtrain/train"
[ "$(exit_of "$work/nolimit_small.m")" = 0 ] || fail "a small training with data.max_len = 0"
[ "$(exit_of "$work/nolimit.m")" = 2 ] || { cat "$work/measure.out"; fail "max_len = 0 with a 1 MB line"; }
grep -q "^error: the largest training batch, .* of up to 20000[0-9] source and 20000[0-9] target tokens (data.max_len = 0: no limit" "$work/measure.out" ||
  { cat "$work/measure.out"; fail "the refusal does not name data.max_len"; }
no_costlier "$work/nolimit_small.m" "$work/nolimit.m" 204800 30 "the refusal of a 1 MB line"

# Searches that cannot fit: refused before decoding, naming the keys.
cp "$work/data/valid.en" "$work/data/valid.fr" "$work/longtrain/"
python3 -c "print(' '.join(['word'] * 2000))" >> "$work/longtrain/valid.en"
python3 -c "print(' '.join(['mot'] * 2000))" >> "$work/longtrain/valid.fr"
expect 2 "^error: validation needs about .* x 100 hypotheses \(evaluation.beam_size, --beam\) of up to 200110 steps" \
  "$s2s" train -c "$work/tiny.json" --set run_dir="$work/wide_valid" \
  --set data.valid="$work/longtrain/valid" --set evaluation.max_src_len=100000 \
  --set evaluation.max_len_ratio=100 --set evaluation.beam_size=100 \
  --set evaluation.replace_unk=true
train --set run_dir="$work/wide" --set evaluation.max_src_len=100000 \
  --set evaluation.max_len_ratio=100 --set training.max_steps=2 --skip-test
expect 2 "^error: translate needs about .* 64 sentences \(evaluation.batch_size\) x 100 hypotheses" \
  "$s2s" translate --run "$work/wide" --beam 100
"$s2s" evaluate --run "$work/wide" --beam 5 > /dev/null 2>&1 || fail "evaluate of short sentences was refused"
echo "bounded input robustness tests passed"
