#!/usr/bin/env bash
# Makes a large parallel corpus for the prepared-corpus benchmarks and tests, deterministically:
# a training split repeated until it holds at least PAIRS pairs (cut to exactly PAIRS), with its
# validation split copied beside it.
#   scripts/make_large_corpus.sh [--from PREFIX] [--valid PREFIX] [--src de] [--tgt en]
#                                [--pairs 20000000] --out PREFIX
# Defaults: Multi30k's train and val in data/multi30k (scripts/fetch_multi30k.sh), 20,000,000
# pairs (about 2.6 GB of text). Writes OUT.SRC, OUT.TGT, and OUT_valid.SRC, OUT_valid.TGT.
set -euo pipefail
from=data/multi30k/train valid=data/multi30k/val src=de tgt=en pairs=20000000 out=
while [ $# -gt 0 ]; do
  case $1 in
    --from) from=$2; shift 2 ;;
    --valid) valid=$2; shift 2 ;;
    --src) src=$2; shift 2 ;;
    --tgt) tgt=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "make_large_corpus: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "make_large_corpus: --out PREFIX is required" >&2; exit 2; }
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || { echo "make_large_corpus: --pairs must be a positive integer" >&2; exit 2; }
for f in "$from.$src" "$from.$tgt" "$valid.$src" "$valid.$tgt"; do
  [ -f "$f" ] || { echo "make_large_corpus: $f not found" >&2; exit 2; }
done
n=$(wc -l < "$from.$src")
[ "$n" = "$(wc -l < "$from.$tgt")" ] || { echo "make_large_corpus: $from.$src and $from.$tgt differ in length" >&2; exit 1; }
[ "$n" -gt 0 ] || { echo "make_large_corpus: $from.$src is empty" >&2; exit 1; }
full=$(( pairs / n )) rest=$(( pairs % n ))
mkdir -p "$(dirname "$out")"
for side in "$src" "$tgt"; do
  # Written beside the output first: an interrupted run never leaves a short corpus behind.
  { for _ in $(seq "$full"); do cat "$from.$side"; done; head -n "$rest" "$from.$side"; } \
    > "$out.$side.tmp.$$"
  mv "$out.$side.tmp.$$" "$out.$side"
  cp "$valid.$side" "${out}_valid.$side"
done
echo "[corpus] $out.{$src,$tgt}: $pairs pairs ($from repeated $full times and $rest lines); ${out}_valid.{$src,$tgt}: $(wc -l < "$valid.$src") pairs"
