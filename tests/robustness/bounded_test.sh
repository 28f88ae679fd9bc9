#!/usr/bin/env bash
# Bounded work for unbounded inputs: overlong sources are cut at decoding with a warning naming
# the line, the beam has a cap, and an overlong validation line does not stall training.
source "$(dirname "$0")/lib.sh"
make_corpus
run=$work/run

# A config nested 100,000 deep: refused at once, in the memory of a small config's check.
python3 -c "print('{\"a\":' * 100000 + '1' + '}' * 100000)" > "$work/deep.json"
measure "$work/small.m" "$s2s" config --check "$work/tiny.json"
measure "$work/deep.m" "$s2s" config --check "$work/deep.json"
read -r small_code small_rss small_s < "$work/small.m"
read -r deep_code deep_rss deep_s < "$work/deep.m"
[ "$small_code" = 0 ] || { cat "$work/measure.out"; fail "config --check of tiny.json"; }
[ "$deep_code" = 2 ] || { cat "$work/measure.out"; fail "a 100,000-deep config: exit $deep_code"; }
grep -q "deep.json:1: objects and arrays nested deeper than 64 levels" "$work/measure.out" ||
  { cat "$work/measure.out"; fail "the depth error does not name the file and line"; }
[ $(( deep_rss - small_rss )) -lt 51200 ] ||
  fail "a 100,000-deep config took $deep_rss KB, a small one $small_rss KB"
python3 -c "import sys; sys.exit(0 if $deep_s <= $small_s + 2 else 1)" ||
  fail "a 100,000-deep config took $deep_s s, a small one $small_s s"
train --set evaluation.beam_size=2

# One line of 20,000 words: answered at once, cut to evaluation.max_src_len.
python3 -c "print(' '.join(['cat'] * 20000)); print('The cat sleeps.')" > "$work/long.txt"
start=$(date +%s)
"$s2s" translate --run "$run" < "$work/long.txt" > "$work/long.out" 2> "$work/long.err" ||
  { cat "$work/long.err"; fail "translate of a long line"; }
[ $(( $(date +%s) - start )) -lt 60 ] || fail "translate of a long line took a minute"
[ "$(wc -l < "$work/long.out")" = 2 ] || fail "translate should print 2 lines"
grep -q "stdin:1: source of 20000 tokens cut to its first 250 (evaluation.max_src_len)" "$work/long.err" ||
  { cat "$work/long.err"; fail "no warning naming the cut line"; }

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
echo "bounded input robustness tests passed"
