#!/usr/bin/env bash
# Side-by-side speed of the project and the PyTorch peer (../shared/bench/peer_pytorch.py) on
# the reference settings (../shared/bench/README.md), measured in one run and alternated
# A B C D A B C D ... so that drift of a shared machine hits all alike:
#   A  build/s2s bench -c bench/reference.json --json, training.precision fp32
#   B  the same in bf16 mixed precision (training.precision and evaluation.precision bf16)
#   C  the peer, --fused-output (one output projection over all steps; toolkit style)
#   D  the peer, --fused-output --bf16 (under torch.autocast("cpu", bfloat16))
# Prints the medians over the rounds and the ratios project / peer for training target tokens
# per second, greedy decoding sentences and target tokens per second and peak memory, the
# project's beam-5 decoding in both precisions and its ratio to greedy, and the project's
# fraction of the matching matrix-product probe (fp32 or bf16). Raw per-round output goes to
# bench/out/<time>/.
#
# Decoding with trained weights (a model after 30 steps says little about decoding: its
# hypotheses run to the length limit): --weights CKPT decodes the project's sides with a
# checkpoint of bench/reference.json, --peer-state FILE the peer's with the weights
# bench/peer_curve.py saved (bench/peer_decode.py, fp32 and bf16, after each round's peer
# training). Train both for the same steps, e.g. 1,000:
#   build/s2s train -c bench/reference.json --set training.max_steps=1000
#   /usr/bin/python3 bench/peer_curve.py --steps 1000 --out bench/out/peer1000 --fused-output
#
# Like for like: both sides train the same steps timed from the first one (--warmup 0: the peer
# has no warm-up), the project's batches are plain shuffled (reference.json sets
# bucket_batches 0), both decode the whole validation file greedily, and both report the mean
# hypothesis length, on which decoding time depends. The project also decodes with beam 5.
#
# The peer needs Debian's python3-torch, a measuring tool only (never a project dependency):
#   sudo apt-get install python3-torch
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3 steps=30 warmup=0 kit=../shared/bench s2s=build/s2s out=bench/out weights= peer_state=
readonly expected_params=8665098  # the reference model for this vocabulary (kit README)

usage() {
  cat <<EOF
Usage: bench/compare_peer.sh [--rounds N] [--steps N] [--warmup W] [--kit DIR] [--s2s PATH]
                             [--out DIR] [--weights CKPT --peer-state FILE]
  --rounds N   rounds of A B C (default $rounds; medians over them)
  --steps N    timed training steps on both sides (default $steps)
  --warmup W   untimed project steps before them (default $warmup, as the peer)
  --kit DIR    the benchmark kit: peer_pytorch.py and multi30k-tok/ (default $kit)
  --s2s PATH   the project's binary (default $s2s)
  --out DIR    raw output goes to DIR/<time>/ (default $out)
  --weights CKPT     the project decodes with this checkpoint of bench/reference.json
  --peer-state FILE  the peer decodes with these weights (bench/peer_curve.py's peer_state.pt)
EOF
}
die() { echo "compare_peer: $*" >&2; exit 2; }
fail() { echo "compare_peer: $*" >&2; exit 1; }
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be an integer >= 1, got '$2'"; }

while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --rounds | --steps | --warmup | --kit | --s2s | --out | --weights | --peer-state)
      [ $# -ge 2 ] || die "$1 needs a value (see --help)"
      name=${1#--}
      name=${name//-/_}
      printf -v "$name" '%s' "$2"
      shift 2
      ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
positive --rounds "$rounds"
positive --steps "$steps"
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup must be an integer >= 0, got '$warmup'"

python=/usr/bin/python3
[ -x "$python" ] || die "$python not found: the peer runs on Debian's python3 and python3-torch"
"$python" -c 'import torch' 2>/dev/null ||
  die "python3-torch is missing: install it with 'sudo apt-get install python3-torch' (a measuring tool for this comparison only, not a project dependency)"
[ -x "$s2s" ] || die "$s2s not found: build the project first (scripts/build.sh)"
peer=$kit/peer_pytorch.py train=$kit/multi30k-tok/train valid=$kit/multi30k-tok/val
for f in "$peer" "$train.de" "$train.en" "$valid.de" "$valid.en"; do
  [ -f "$f" ] || die "$f not found (--kit DIR names the benchmark kit)"
done
[ -z "$weights$peer_state" ] || { [ -n "$weights" ] && [ -n "$peer_state" ]; } ||
  die "--weights and --peer-state go together: both sides decode with trained weights, or neither"
[ -z "$weights" ] || [ -f "$weights" ] || die "--weights: $weights not found"
[ -z "$peer_state" ] || [ -f "$peer_state" ] || die "--peer-state: $peer_state not found"
[ "$rounds" -ge 3 ] || echo "compare_peer: fewer than 3 rounds: the medians are thin" >&2

dir=$out/$(date +%Y%m%d-%H%M%S)
mkdir -p "$dir"
sentences=$(wc -l <"$valid.de")
have_time=false
[ -x /usr/bin/time ] && have_time=true

# run_side ROUND NAME COMMAND...: stdout to NAME's .jsonl, stderr to .log, peak KiB to .rss.
run_side() {
  local round=$1 name=$2
  shift 2
  local base=$dir/round$round.$name
  echo "compare_peer: round $round/$rounds: $name" >&2
  if $have_time; then
    /usr/bin/time -f %M -o "$base.rss" "$@" >"$base.jsonl" 2>"$base.log" ||
      fail "$name failed in round $round (see $base.log)"
  elif [ "$1" = "$python" ]; then
    "$python" bench/peer_rss.py "$base.rss" "${@:2}" >"$base.jsonl" 2>"$base.log" ||
      fail "$name failed in round $round (see $base.log)"
  else  # the project reports its own peak (VmHWM) in its JSON
    "$@" >"$base.jsonl" 2>"$base.log" || fail "$name failed in round $round (see $base.log)"
  fi
}

peer_args=(--train "$train.de" "$train.en" --test "$valid.de" "$valid.en" --emb 128 --hid 256
  --batch 64 --steps "$steps" --threads 2 --fused-output)
s2s_args=(bench -c bench/reference.json --json --steps "$steps" --warmup "$warmup"
  --decode-sentences "$sentences" --beam 5
  --set "data.train=$train" --set "data.valid=$valid" --set "data.test=$valid")
[ -z "$weights" ] || s2s_args+=(--weights "$weights")
# run_peer ROUND NAME ARGS...: the peer on the OpenBLAS kernels the project runs on. Where
# s2s replaces kernels OpenBLAS chose for an older CPU (platform/openblas.h), the peer gets the
# same OPENBLAS_CORETYPE, so that the comparison is of the programs, not of their BLAS.
peer_core=
run_peer() {
  if [ -n "$peer_core" ]; then
    OPENBLAS_CORETYPE=$peer_core run_side "$1" "$2" "$python" "$peer" "${peer_args[@]}" "${@:3}"
  else
    run_side "$1" "$2" "$python" "$peer" "${peer_args[@]}" "${@:3}"
  fi
}
for round in $(seq 1 "$rounds"); do
  run_side "$round" s2s "$s2s" "${s2s_args[@]}" \
    --set training.precision=fp32 --set evaluation.precision=fp32
  peer_core=$(sed -n 's/.*"blas_kernels":"OpenBLAS \([A-Za-z0-9_]*\) kernels (set by s2s.*/\1/p' \
    "$dir/round$round.s2s.jsonl" | head -n 1)
  run_side "$round" s2s_bf16 "$s2s" "${s2s_args[@]}" \
    --set training.precision=bf16 --set evaluation.precision=bf16
  run_peer "$round" peer_fused --hyp-out "$dir/round$round.peer_fused.hyp"
  run_peer "$round" peer_fused_bf16 --bf16 --hyp-out "$dir/round$round.peer_fused_bf16.hyp"
  if [ -n "$peer_state" ]; then  # the same sides' decoding again, with trained weights
    for side in peer_fused peer_fused_bf16; do
      flag=() && [ $side = peer_fused ] || flag=(--bf16)
      decode=("$python" bench/peer_decode.py --kit "$kit" --state "$peer_state" "${flag[@]}"
        --hyp-out "$dir/round$round.$side.hyp")
      if [ -n "$peer_core" ]; then
        OPENBLAS_CORETYPE=$peer_core run_side "$round" "$side.decode" "${decode[@]}"
      else
        run_side "$round" "$side.decode" "${decode[@]}"
      fi
    done
  fi
done
[ -z "$peer_core" ] || echo "compare_peer: both sides ran OpenBLAS's $peer_core kernels" >&2

"$python" - "$dir" "$rounds" "$expected_params" <<'EOF'
"""Medians and ratios of the rounds in DIR; exits 1 if the parameter counts differ."""
import json
import os
import statistics
import sys

directory, rounds, expected = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sides = ["s2s", "s2s_bf16", "peer_fused", "peer_fused_bf16"]


def read_side(r, side):
    base = os.path.join(directory, f"round{r}.{side}")
    with open(base + ".jsonl", encoding="utf-8") as f:
        objects = [json.loads(line) for line in f if line.startswith("{")]
    rss = None
    if os.path.exists(base + ".rss"):
        with open(base + ".rss", encoding="utf-8") as f:
            rss = int(f.read().split()[-1]) / 1024.0  # KiB -> MiB; last line (GNU time)
    if side.startswith("s2s"):
        o = objects[0]
        probe = o["probe_bf16_gflop_per_s"] if o["precision"] == "bf16" else o["probe_gflop_per_s"]
        return {"params": o["params"], "train": o["tgt_tokens_per_s"],
                "decode": o["greedy_sentences_per_s"], "length": o["greedy_mean_length"],
                "beam": o["beam_sentences_per_s"],
                "tokens": o["greedy_sentences_per_s"] * o["greedy_mean_length"],
                "beam_over_greedy": o["beam_sentences_per_s"] / o["greedy_sentences_per_s"],
                "rss": rss if rss is not None else o["peak_rss_mib"],
                "fraction": o["fraction_of_peak"], "gflops": o["train_gflop_per_s"],
                "probe": probe}
    phase = {o["phase"]: o for o in objects}
    if os.path.exists(base + ".decode.jsonl"):  # trained weights (bench/peer_decode.py)
        with open(base + ".decode.jsonl", encoding="utf-8") as f:
            phase["decode"] = [json.loads(line) for line in f if line.startswith("{")][0]
    with open(base + ".hyp", encoding="utf-8") as f:
        lengths = [len(line.split()) for line in f]
    length = sum(lengths) / max(len(lengths), 1)
    decode = phase["decode"]["sentences_per_s"]
    return {"params": phase["train"]["params"], "train": phase["train"]["tgt_tokens_per_s"],
            "decode": decode, "length": length, "tokens": decode * length, "rss": rss}


runs = {s: [read_side(r, s) for r in range(1, rounds + 1)] for s in sides}
params = {s: {run["params"] for run in runs[s]} for s in sides}
if any(p != {expected} for p in params.values()):
    sys.exit(f"compare_peer: parameter counts differ (expected {expected:,}): "
             + ", ".join(f"{s} {sorted(p)}" for s, p in params.items())
             + ": the two models are not the same size, so the speeds do not compare")


def median(side, key):
    values = [run[key] for run in runs[side] if run.get(key) is not None]
    return statistics.median(values) if values else None


def cell(value, digits=1):
    return "-" if value is None else f"{value:,.{digits}f}"


rows = [("train tgt tokens/s", "train", True), ("greedy sentences/s", "decode", True),
        ("greedy tgt tokens/s", "tokens", True), ("beam-5 sentences/s", "beam", False),
        ("beam-5 / greedy", "beam_over_greedy", False), ("greedy mean length", "length", False),
        ("peak memory MiB", "rss", True)]
summary = {}
names = {"s2s": "s2s fp32", "s2s_bf16": "s2s bf16", "peer_fused": "peer fp32",
         "peer_fused_bf16": "peer bf16"}
print(f"{rounds} rounds, medians; parameters {expected:,} on every side; raw output in {directory}")
if os.path.exists(os.path.join(directory, "round1.peer_fused.decode.jsonl")):
    print("decoding with trained weights on both sides (--weights, --peer-state)")
print(f"{'':<20}" + "".join(f"{names[s]:>11}" for s in sides)
      + f"{'bf16/fp32':>10}{'fp32/peer':>10}{'bf16/peer':>10}{'bf16/peerbf16':>14}")
for label, key, ratio in rows:
    m = {s: median(s, key) for s in sides}
    def r(a, b):
        return m[a] / m[b] if m[a] and m[b] else None
    ratios = [r("s2s_bf16", "s2s")] + ([r("s2s", "peer_fused"), r("s2s_bf16", "peer_fused"),
                                        r("s2s_bf16", "peer_fused_bf16")] if ratio else [None] * 3)
    summary[key] = {"medians": m, "bf16_over_fp32": ratios[0], "fp32_over_peer": ratios[1],
                    "bf16_over_peer": ratios[2], "bf16_over_peer_bf16": ratios[3]}
    print(f"{label:<20}" + "".join(f"{cell(m[s], 2 if key == 'beam_over_greedy' else 1):>11}" for s in sides)
          + "".join(f"{cell(x, 2):>10}" for x in ratios[:3]) + f"{cell(ratios[3], 2):>14}")
for side in ("s2s", "s2s_bf16"):
    fraction, gflops, probe = (median(side, k) for k in ("fraction", "gflops", "probe"))
    summary[side + "_fraction_of_peak"] = fraction
    print(f"{names[side]} training: {gflops:.2f} GFLOP/s = {fraction:.3f} of the matching "
          f"matrix-product probe ({probe:.1f} GFLOP/s)")
with open(os.path.join(directory, "summary.json"), "w", encoding="utf-8") as f:
    json.dump(summary, f, indent=2)
EOF
