#!/usr/bin/env bash
# Gets Multi30k (task 1, raw text: train, val, test2016 in de/en/fr) into data/multi30k/.
#   scripts/fetch_multi30k.sh              download from the multi30k/dataset repository
#   scripts/fetch_multi30k.sh --from DIR   copy a local copy (files named train.de, val.en,
#                                          test2016.fr, ... as in DIR)
# Multi30k's terms allow research and educational use only; it is not redistributed here.
set -euo pipefail
cd "$(dirname "$0")/.."
out=data/multi30k
mkdir -p "$out"
splits=(train val test2016)
langs=(de en fr)

if [ "${1:-}" = "--from" ]; then
  src=${2:?usage: fetch_multi30k.sh --from DIR}
  for s in "${splits[@]}"; do
    for l in "${langs[@]}"; do
      [ -f "$src/$s.$l" ] || { echo "fetch_multi30k: $src/$s.$l not found" >&2; exit 2; }
      cp "$src/$s.$l" "$out/$s.$l"
    done
  done
else
  base=https://raw.githubusercontent.com/multi30k/dataset/master/data/task1/raw
  fetch() { if command -v curl >/dev/null; then curl -fsSL "$1"; else wget -qO- "$1"; fi; }
  for l in "${langs[@]}"; do
    fetch "$base/train.$l.gz" | gunzip > "$out/train.$l"
    fetch "$base/val.$l.gz" | gunzip > "$out/val.$l"
    fetch "$base/test_2016_flickr.$l.gz" | gunzip > "$out/test2016.$l"
  done
fi
for s in "${splits[@]}"; do
  n_de=$(wc -l < "$out/$s.de"); n_en=$(wc -l < "$out/$s.en")
  [ "$n_de" = "$n_en" ] || { echo "fetch_multi30k: $s.de has $n_de lines, $s.en $n_en" >&2; exit 1; }
  echo "[fetch] $out/$s.{de,en,fr}: $n_de sentences"
done
