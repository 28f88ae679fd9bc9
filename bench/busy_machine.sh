#!/usr/bin/env bash
# Training speed on a busy machine against an idle one (docs/performance.md "On a busy machine"): runs
#   build/s2s bench -c bench/reference.json --steps N --warmup 0 --decode-sentences 0 --beam 1
# alone and beside one busy process (a shell loop that holds one core), alternated idle, busy,
# idle, busy ... over the rounds so that drift hits both alike, and prints the training target
# tokens/s of each round, the medians and busy / idle. Each --variant is measured in every
# round, so variants compare in one run:
#
#   bench/busy_machine.sh [--rounds 3] [--steps 30]
#       [--variant 'NAME|ENV|ARGS']...    e.g. 'before|GOMP_SPINCOUNT=300000|--set training.threads=2'
#
# NAME labels the row, ENV is a space-separated list of VAR=value for the environment (or
# empty), ARGS are extra `s2s bench` arguments. Without --variant:
# 'default||--set training.threads=0' (the program as it chooses for itself: precision auto, one
# thread per free core; reference.json fixes 2 threads) and the same with precision fp32.
# Raw JSON goes to bench/out/busy_<time>/. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3 steps=30 s2s=build/s2s variants=()
die() { echo "busy_machine: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --rounds | --steps | --s2s)
      [ $# -ge 2 ] || die "$1 needs a value"
      printf -v "${1#--}" '%s' "$2"
      shift 2
      ;;
    --variant)
      [ $# -ge 2 ] || die "--variant needs 'NAME|ENV|ARGS'"
      [[ $2 =~ ^[A-Za-z0-9_.-]+\|[^|]*\|[^|]*$ ]] || die "--variant '$2' is not 'NAME|ENV|ARGS'"
      variants+=("$2")
      shift 2
      ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds must be an integer >= 1"
[[ $steps =~ ^[1-9][0-9]*$ ]] || die "--steps must be an integer >= 1"
[ -x "$s2s" ] || die "$s2s not found: build first (scripts/build.sh s2s)"
[ ${#variants[@]} -gt 0 ] ||
  variants=('default||--set training.threads=0'
    'fp32||--set training.threads=0 --set training.precision=fp32')

out=bench/out/busy_$(date +%Y%m%d_%H%M%S)
mkdir -p "$out"
busy_pid=
stop_busy() { [ -z "$busy_pid" ] || { kill "$busy_pid" 2>/dev/null || true; wait "$busy_pid" 2>/dev/null || true; }; busy_pid=; }
trap stop_busy EXIT

# measure VARIANT LOAD ROUND: one `s2s bench`, its JSON appended to $out/raw.jsonl with labels.
measure() {
  local name env args json
  IFS='|' read -r name env args <<<"$1"
  [ "$2" = busy ] && { bash -c 'while :; do :; done' & busy_pid=$!; sleep 1; }
  # shellcheck disable=SC2086  # ENV and ARGS are word lists by design
  json=$(env $env "$s2s" bench -c bench/reference.json --steps "$steps" --warmup 0 \
    --decode-sentences 0 --beam 1 --json $args 2>>"$out/stderr.log")
  stop_busy
  printf '%s\n' "$json" | /usr/bin/python3 -c '
import json, sys
j = json.loads(sys.stdin.readline())
j.update(variant=sys.argv[1], load=sys.argv[2], round=int(sys.argv[3]))
print(json.dumps(j))' "$name" "$2" "$3" >> "$out/raw.jsonl"
  echo "[busy] round $3 $name $2: $(tail -1 "$out/raw.jsonl" | /usr/bin/python3 -c \
    'import json,sys; j=json.load(sys.stdin); print(j["tgt_tokens_per_s"], "tgt tok/s,", j["threads"], "threads,", j["precision"])')" >&2
}

for ((r = 1; r <= rounds; r++)); do
  for v in "${variants[@]}"; do
    measure "$v" idle "$r"
    measure "$v" busy "$r"
  done
done

/usr/bin/python3 - "$out/raw.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print('| | idle | beside one busy process | busy / idle (medians) |')
print('| --- | ---: | ---: | ---: |')
for name in dict.fromkeys(r['variant'] for r in rows):
    cells, med = [], {}
    for load in ('idle', 'busy'):
        v = [r['tgt_tokens_per_s'] for r in rows if r['variant'] == name and r['load'] == load]
        med[load] = statistics.median(v)
        cells.append(', '.join(f'{x:,.0f}' for x in v) + f' ({med[load]:,.0f})')
    print(f"| {name} | {cells[0]} | {cells[1]} | {med['busy'] / med['idle']:.2f} |")
PY
echo "raw results: $out/raw.jsonl" >&2
