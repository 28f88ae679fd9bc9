# Helpers of the robustness tests: a small corpus and config in a work folder, and checks of
# exit codes and messages. Sourced by each *_test.sh with: S2S_BINARY WORK_DIR.
set -euo pipefail
s2s=$1 work=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

# expect CODE REGEX COMMAND...: the exit code, an output line matching REGEX, and for usage
# errors (2) exactly one line starting with "error:" and no backtrace.
expect() {
  local want=$1 pattern=$2 output code
  shift 2
  set +e
  output=$("$@" 2>&1)
  code=$?
  set -e
  [ "$code" = "$want" ] || fail "expected exit $want, got $code from: $*"$'\n'"$output"
  grep -Eq -- "$pattern" <<<"$output" || fail "output of '$*' does not match /$pattern/:"$'\n'"$output"
  if [ "$want" = 2 ] && [ "$(grep -c '^error' <<<"$output")" != 1 ]; then
    fail "expected exactly one error line from: $*"$'\n'"$output"
  fi
  if grep -q "Exception raised from\|frame #" <<<"$output"; then
    fail "a LibTorch backtrace reached the user: $*"$'\n'"$output"
  fi
}

# A 300-pair corpus and a config that trains in seconds: $work/data/{train,valid,test}.{en,fr},
# $work/tiny.json.
make_corpus() {
  mkdir -p "$work/data"
  for ext in en fr; do
    head -n 300 "$repo/data/en-fr/train.$ext" > "$work/data/train.$ext"
    head -n 60 "$repo/data/en-fr/valid.$ext" > "$work/data/valid.$ext"
    head -n 40 "$repo/data/en-fr/test.$ext" > "$work/data/test.$ext"
  done
  head -n 40 "$repo/data/en-fr/test.align" > "$work/data/test.align"
  cat > "$work/tiny.json" <<JSON
{
  "name": "robustness",
  "run_dir": "$work/run",
  "seed": 3,
  "data": {"train": "$work/data/train", "valid": "$work/data/valid", "test": "$work/data/test",
           "src_ext": "en", "tgt_ext": "fr", "test_alignments": "$work/data/test.align"},
  "model": {"emb_size": 16, "hidden_size": 16},
  "training": {"batch_size": 16, "max_steps": 6, "validate_every": 3, "num_samples": 0,
               "threads": 1, "log_every": 1},
  "evaluation": {"heatmaps": 2}
}
JSON
}

# train ARGS...: a tiny training that must succeed.
train() {
  "$s2s" train -c "$work/tiny.json" "$@" > "$work/train.out" 2>&1 ||
    { cat "$work/train.out"; fail "train $*"; }
}

# The steps logged in a metrics.jsonl, one per line.
steps_of() { grep -o '"step":[0-9]*' "$1" | cut -d: -f2; }

# measure OUT COMMAND...: runs COMMAND (its output to $work/measure.out) and writes
# "EXIT_CODE PEAK_RSS_KB SECONDS" to OUT: the peak resident memory, since an address-space cap
# does not work under ASan and LibTorch maps about 1.5 GB of address space at start-up.
measure() {
  local out=$1
  shift
  python3 - "$out" "$work/measure.out" "$@" <<'PY'
import resource, subprocess, sys, time
out, log, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.monotonic()
with open(log, "w") as f:
    code = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
seconds = time.monotonic() - start
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(out, "w").write(f"{code} {rss} {seconds:.2f}\n")
PY
}

# exit_of M: the exit code a `measure` wrote to M.
exit_of() { cut -d' ' -f1 "$1"; }

# AddressSanitizer keeps up to 256 MB of freed memory resident in its quarantine before reusing
# it, whatever the input: a sanitized binary's peak RSS gets that much slack (the hostile inputs
# these tests guard against cost far more: 755 MB for a 20 MB line, 8 GB for a deep config).
# ldd's output is read whole: piped into `grep -q` under pipefail, ldd could die of SIGPIPE when
# grep quits at the first match, and the slack would be lost by chance.
asan_slack_kb=0
if [[ $(ldd "$s2s" 2>/dev/null) == *libasan* ]]; then asan_slack_kb=262144; fi

# no_costlier SMALL BIG KB SECONDS WHAT: the command measured into BIG took at most KB more peak
# memory and SECONDS more time than the one measured into SMALL.
no_costlier() {
  local small_code small_rss small_s big_code big_rss big_s
  read -r small_code small_rss small_s < "$1"
  read -r big_code big_rss big_s < "$2"
  [ $(( big_rss - small_rss )) -lt $(( $3 + asan_slack_kb )) ] ||
    fail "$5 took $big_rss KB, the small input $small_rss KB"
  python3 -c "import sys; sys.exit(0 if $big_s <= $small_s + $4 else 1)" ||
    fail "$5 took $big_s s, the small input $small_s s"
}
