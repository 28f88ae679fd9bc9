#!/usr/bin/env bash
# Learning per step, side by side with the PyTorch peer (../shared/bench/peer_pytorch.py,
# --fused-output) at the reference settings (bench/reference.json, ../shared/bench/README.md):
# Multi30k de->en, pre-tokenized, embedding 128, hidden 256, dropout 0.5, Adam 1e-3, clip 1,
# batch 64, greedy decoding. Both sides train for each step count and translate test2016; both
# hypothesis files are scored by `s2s bleu --tokenize none --chrf`, and the table compares them.
# A second table gives each side's teacher-forced test loss per target token at each count
# (`s2s evaluate`'s "loss"; the peer's from bench/peer_curve.py): it moves far less with the
# seed than one checkpoint's greedy BLEU, so it shows whether the two learn alike per step.
#
#   bench/learning_parity.sh [--steps 1000,2000,3000] [--out DIR] [--name NAME]
#                            [--set key=value]... [--side both|peer|s2s] [--threads 2] [--table]
#                            [--resume] [--seed 1]
#
# Each side trains once to the last step count: the project keeps a checkpoint at each count
# (training.keep_step_checkpoints) and translates with each; the peer translates at each count
# during its training (bench/peer_curve.py: its files equal `peer_pytorch.py --steps N`'s).
# Results accumulate in DIR/results.tsv, one row per side, variant and step count, so that
# ablations (--name NAME --set ...) join the same table run after run; the peer's rows are
# reused once computed. --table prints the table; --side runs one side only. --resume continues
# stopped trainings (the peer from its state saved every 100 steps, the project with
# `s2s train --resume`), so that a long curve can be measured in several sittings.
# --seed N trains both sides from seed N (rows named VARIANT.seedN; seed 1 keeps the plain
# names): one seed's BLEU after a few thousand steps moves by about a point with the seed on
# either side, so the table also gives each variant's mean over the seeds that both sides have.
#
# Only the steps matter here, not the time, so the sides may run side by side (one thread
# each). The peer needs Debian's python3-torch, a measuring tool only (never a dependency).
set -euo pipefail
cd "$(dirname "$0")/.."

steps=1000,2000,3000 out=bench/out/learning_parity name=default kit=../shared/bench s2s=build/s2s
side=both threads=2 seed=1 table_only=no resume=no sets=()

die() { echo "learning_parity: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --steps | --out | --name | --kit | --s2s | --side | --threads | --seed)
      [ $# -ge 2 ] || die "$1 needs a value"
      printf -v "${1#--}" '%s' "$2"
      shift 2
      ;;
    --set) [ $# -ge 2 ] || die "--set needs key=value"; sets+=(--set "$2"); shift 2 ;;
    --table) table_only=yes; shift ;;
    --resume) resume=yes; shift ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[[ $steps =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--steps must be a list like 1000,2000,3000"
[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || die "--name may hold letters, digits, '.', '_' and '-'"
[[ $side =~ ^(both|peer|s2s)$ ]] || die "--side must be both, peer or s2s"
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "--threads must be an integer >= 1"
[[ $seed =~ ^[1-9][0-9]*$ ]] || die "--seed must be an integer >= 1"
# Seed 1 keeps the names the table has always had; other seeds get their own rows and files.
suffix="" peer_out=$out
[ "$seed" = 1 ] || { suffix=.seed$seed; peer_out=$out/peer_seed$seed; }
IFS=, read -r -a counts <<<"$steps"
last=${counts[-1]}
data=$kit/multi30k-tok
ref=$data/test2016.en
mkdir -p "$out" "$peer_out"
results=$out/results.tsv
[ -f "$results" ] || printf 'side\tvariant\tsteps\tbleu\tchrf\tbp\tsettings\ttest_loss\n' > "$results"

# score SIDE VARIANT STEPS HYP SETTINGS TEST_LOSS: one row of results.tsv (replacing an older
# one). TEST_LOSS is the teacher-forced test cross-entropy per target token ("" if unknown).
score() {
  local json
  json=$("$s2s" bleu --hyp "$4" --ref "$ref" --tokenize none --chrf --json)
  # Sides running at once update the table in turn.
  flock "$results.lock" python3 - "$results" "$1" "$2" "$3" "$5" "$6" "$json" <<'PY'
import json, sys
path, side, variant, steps, settings, test_loss, raw = sys.argv[1:]
j = json.loads(raw)
head = 'side\tvariant\tsteps\tbleu\tchrf\tbp\tsettings\ttest_loss'
rows = [l for l in open(path).read().splitlines()[1:] if l.split('\t')[:3] != [side, variant, steps]]
rows.append('\t'.join([side, variant, steps, f"{j['score']:.2f}", f"{j['chrf']['score']:.2f}",
                       f"{j['bp']:.3f}", settings, test_loss]))
open(path, 'w').write(head + '\n' + '\n'.join(rows) + '\n')
PY
}

peer_test_loss() {  # peer_test_loss PEER_JSONL STEPS: the last line for that step count
  python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(next((f"{l['test_loss']:.4f}" for l in reversed(lines)
            if l['steps'] == int(sys.argv[2]) and 'test_loss' in l), ''))
PY
}

print_table() {
  python3 - "$results" <<'PY'
import re
import sys
from statistics import mean

rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()[1:]]
if not rows:
    sys.exit(f'no results yet in {sys.argv[1]}')


def split(variant):  # 'defaults.seed3' -> ('defaults', 3); 'defaults' -> ('defaults', 1)
    m = re.fullmatch(r'(.*)\.seed([0-9]+)', variant)
    return (m.group(1), int(m.group(2))) if m else (variant, 1)


steps = sorted({int(r[2]) for r in rows})
keys = sorted({(r[0], r[1]) for r in rows}, key=lambda k: (k[0] != 'peer', split(k[1])))
metrics = {'BLEU': (3, '{:.2f}'), 'test loss': (7, '{:.3f}')}


def values(column):  # (side, base variant, seed, steps) -> value, where the row has one
    return {(r[0], *split(r[1]), int(r[2])): float(r[column]) for r in rows
            if len(r) > column and r[column] not in ('', '–')}


def cell(fmt, value, base):
    return fmt.format(value) + (f' ({value - base:+{fmt[2:-1]}})' if base is not None else '')


def table(name, column, fmt):
    v = values(column)
    if not v:
        return
    peer = {(seed, n): x for (side, _, seed, n), x in v.items() if side == 'peer'}
    print('| side | variant | ' + ' | '.join(f'{name} @{s}' for s in steps) +
          (' | chrF @' + str(steps[-1]) + ' | settings |' if column == 3 else ' |'))
    print('| --- | --- | ' + ' | '.join('---:' for _ in steps) + (' | ---: | --- |' if column == 3 else ' |'))
    for side, variant in keys:
        base, seed = split(variant)
        cells = [cell(fmt, v[(side, base, seed, s)],
                      peer.get((seed, s)) if side != 'peer' else None)
                 if (side, base, seed, s) in v else '–' for s in steps]
        if all(c == '–' for c in cells):
            continue
        extra = ''
        if column == 3:
            mine = {int(r[2]): r for r in rows if (r[0], r[1]) == (side, variant)}
            final = mine.get(steps[-1])
            extra = f" | {final[4] if final else '–'} | {next(iter(mine.values()))[6]}"
        print(f'| {side} | {variant} | ' + ' | '.join(cells) + extra + ' |')
    print()
    # Means over the seeds that both sides have at each step count (where some variant has
    # more than one): the comparison that one seed's luck does not decide.
    groups = {}
    for (side, base, seed, n), x in v.items():
        if side != 'peer' and (seed, n) in peer:
            groups.setdefault(base, {}).setdefault(n, {})[seed] = x
    multi = {b: per for b, per in groups.items() if max(len(x) for x in per.values()) > 1}
    if not multi:
        return
    print('| side | variant | ' + ' | '.join(f'{name} @{s}' for s in steps) + ' | seeds |')
    print('| --- | --- | ' + ' | '.join('---:' for _ in steps) + ' | --- |')
    for base, per in sorted(multi.items()):
        seeds = {s: sorted(per.get(s, {})) for s in steps}
        peer_mean = {s: mean(peer[(seed, s)] for seed in seeds[s]) for s in steps if seeds[s]}
        mine = {s: mean(per[s].values()) for s in steps if seeds[s]}
        names = sorted({','.join(map(str, x)) for x in seeds.values()})
        names = names[0] if len(names) == 1 else ' / '.join(','.join(map(str, seeds[s])) or '–' for s in steps)
        print('| peer | fused-output, mean | ' + ' | '.join(fmt.format(peer_mean[s]) if s in mine else '–' for s in steps) + f' | {names} |')
        print(f'| s2s | {base}, mean | ' + ' | '.join(cell(fmt, mine[s], peer_mean[s]) if s in mine else '–' for s in steps) + f' | {names} |')
    print()


for name, (column, fmt) in metrics.items():
    table(name, column, fmt)
PY
}

[ "$table_only" = yes ] && { print_table; exit 0; }
[ -x "$s2s" ] || die "$s2s not found: build first (scripts/build.sh)"
[ -d "$data" ] || die "$data not found: the benchmark kit lives in ../shared/bench"

if [ "$side" != s2s ]; then
  python=/usr/bin/python3
  "$python" -c 'import torch' 2>/dev/null ||
    die "python3-torch is missing: 'sudo apt-get install python3-torch' (a measuring tool only)"
  echo "[parity] peer, $steps steps, seed $seed" >&2
  if [ "$resume" = yes ]; then
    "$python" bench/peer_curve.py --kit "$kit" --steps "$steps" --out "$peer_out" --fused-output \
      --threads "$threads" --seed "$seed" --resume >> "$peer_out/peer.jsonl"
  else
    "$python" bench/peer_curve.py --kit "$kit" --steps "$steps" --out "$peer_out" --fused-output \
      --threads "$threads" --seed "$seed" > "$peer_out/peer.jsonl"
  fi
  for n in "${counts[@]}"; do
    score peer "fused-output$suffix" "$n" "$peer_out/peer_$n.hyp" \
      "peer_pytorch.py --fused-output --seed $seed" "$(peer_test_loss "$peer_out/peer.jsonl" "$n")"
  done
  [ "$side" = peer ] && { print_table; exit 0; }
fi

name=$name$suffix
run=$out/s2s_$name
echo "[parity] s2s '$name', ${last} steps, seed $seed ${sets[*]:-}" >&2
fresh=--overwrite
[ "$resume" = yes ] && [ -f "$run/checkpoints/last.pt" ] && fresh=--resume
[ "$fresh" = --overwrite ] && : > "$out/s2s_$name.log"
"$s2s" train -c bench/reference.json --set run_dir="$run" "$fresh" --skip-test \
  --set training.max_steps="$last" --set training.epochs=1000 --set training.validate_every="${counts[0]}" \
  --set training.keep_step_checkpoints=true --set training.log_every=100 \
  --set training.threads="$threads" --set seed="$seed" "${sets[@]}" \
  >> "$out/s2s_$name.log" 2>&1 || { tail -5 "$out/s2s_$name.log"; exit 1; }
settings=$(printf '%s ' "${sets[@]}" | sed 's/--set //g; s/ $//')
for n in "${counts[@]}"; do
  [ -f "$run/checkpoints/step_$n.pt" ] ||
    die "no checkpoint at step $n: the step counts must be multiples of the first"
  "$s2s" evaluate --run "$run" --checkpoint "step_$n" --split test > /dev/null 2>&1
  cp "$run/evaluations/test.step_$n.greedy.hyp" "$out/s2s_${name}_$n.hyp"
  score s2s "$name" "$n" "$out/s2s_${name}_$n.hyp" "${settings:-reference.json}" \
    "$(python3 -c 'import json, sys; print("%.4f" % json.load(open(sys.argv[1]))["loss"])' \
      "$run/evaluations/test.step_$n.greedy.scores.json")"
done
print_table
