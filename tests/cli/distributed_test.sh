#!/usr/bin/env bash
# Several processes on loopback (c10d with Gloo): a two-process training runs and its ranks stay
# identical; a worker killed makes `--nproc 2` fail fast; ranks started with different configs
# are refused; a port in use is one clear line.
# Usage: distributed_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
rm -rf "$work" && mkdir -p "$work/data"
fail() { echo "FAIL: $*"; exit 1; }
for ext in en fr; do
  head -n 400 "data/en-fr/train.$ext" > "$work/data/train.$ext"
  head -n 40 "data/en-fr/valid.$ext" > "$work/data/valid.$ext"
done
cat > "$work/tiny.json" <<JSON
{
  "run_dir": "$work/run", "seed": 5,
  "data": {"train": "data/train", "valid": "data/valid", "src_ext": "en", "tgt_ext": "fr"},
  "model": {"emb_size": 16, "hidden_size": 16},
  "training": {"batch_size": 16, "max_steps": 8, "validate_every": 4, "num_samples": 0,
               "threads": 1, "precision": "fp32", "dist_timeout_s": 60}
}
JSON

# Two processes: every line prefixed by its rank, rank 0 alone writes, the weight checksums of
# the ranks agree at every validation (the run would stop otherwise).
"$s2s" train -c "$work/tiny.json" --nproc 2 > "$work/two.out" 2>&1 || { cat "$work/two.out"; fail "--nproc 2"; }
grep -q "^\[rank 0\] .*\[dist\] 2 ranks, effective batch 2 x 16 sentences" "$work/two.out" || { cat "$work/two.out"; fail "no rank-0 summary of the ranks"; }
grep -q "^\[rank 1\]" "$work/two.out" && grep "^\[rank 1\]" "$work/two.out" | grep -qv "warn\|error" && fail "rank 1 logged more than warnings"
[ -f "$work/run/checkpoints/last.pt" ] || fail "no checkpoint"
grep -q '"step":8' "$work/run/metrics.jsonl" || fail "metrics.jsonl lacks step 8"
# Resumed by one process: the changed effective batch is said.
"$s2s" train -c "$work/tiny.json" --resume --set training.max_steps=10 --skip-test > "$work/one.out" 2>&1 ||
  { cat "$work/one.out"; fail "resume of a 2-process run with one process"; }
grep -q "the run trained with 2 processes and goes on with 1: the effective batch changes from 2 x 16 to 1 x 16 sentences" "$work/one.out" ||
  { cat "$work/one.out"; fail "no word about the changed effective batch"; }

# A worker that dies: the launcher stops the other and exits non-zero, within the timeout.
"$s2s" train -c "$work/tiny.json" --nproc 2 --set run_dir="$work/killed" \
  --set training.max_steps=100000 --set training.epochs=100000 --set training.validate_every=100000 \
  --set training.log_every=1 > "$work/killed.out" 2>&1 &
launcher=$!
for _ in $(seq 150); do grep -q "step 2/" "$work/killed.out" 2>/dev/null && break; sleep 0.2; done
worker=$(pgrep -P "$launcher" | tail -n 1)
[ -n "$worker" ] || fail "no worker process found"
start=$(date +%s)
kill -KILL "$worker"
set +e; wait "$launcher"; code=$?; set -e
[ "$code" != 0 ] || fail "the launcher exited 0 after a worker was killed"
[ $(( $(date +%s) - start )) -lt 60 ] || fail "the launcher took more than 60 s to stop"
grep -q "\[launch\] rank . exited with code" "$work/killed.out" || fail "no launcher message"

# Ranks with different configs are refused, on every rank, exit 2.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
for r in 0 1; do
  RANK=$r WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    "$s2s" train -c "$work/tiny.json" --set run_dir="$work/mismatch" \
    --set training.learning_rate=0.00$((r + 1)) > "$work/mismatch$r.out" 2>&1 &
done
set +e; wait %1; c0=$?; wait %2; c1=$?; set -e
[ "$c0" = 2 ] && [ "$c1" = 2 ] || { cat "$work"/mismatch*.out; fail "mismatched configs: exits $c0 $c1"; }
grep -q "^error: ranks disagree on the config, data and vocabularies" "$work/mismatch0.out" || { cat "$work/mismatch0.out"; fail "mismatch message"; }

# A port in use.
# A port of its own: the one above may still linger in TIME_WAIT.
python3 -c 'import socket,time; s=socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(60)' > "$work/held_port" &
holder=$!
for _ in $(seq 50); do [ -s "$work/held_port" ] && break; sleep 0.1; done
port=$(cat "$work/held_port")
set +e
RANK=0 WORLD_SIZE=2 MASTER_PORT=$port "$s2s" train -c "$work/tiny.json" --set run_dir="$work/port" > "$work/port.out" 2>&1
code=$?
set -e
kill $holder 2>/dev/null || true
[ "$code" = 2 ] || { cat "$work/port.out"; fail "port in use: exit $code"; }
grep -q "^error: MASTER_PORT $port is in use on 127.0.0.1" "$work/port.out" || { cat "$work/port.out"; fail "port message"; }
echo "distributed tests passed"
