#!/usr/bin/env bash
# Every ready config in configs/ trains a few steps and validates without error (shapes, keys,
# values). The Multi30k configs need data/multi30k (scripts/fetch_multi30k.sh): skipped without.
# Usage: configs_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
for config in configs/*.json; do
  name=$(basename "$config" .json)
  if [[ $name == multi30k* ]] && [ ! -f data/multi30k/train.de ]; then
    echo "SKIP $name: data/multi30k is absent"
    continue
  fi
  "$s2s" config --check "$config" > /dev/null
  if ! "$s2s" train -c "$config" --set run_dir="$work/$name" --set training.max_steps=3 \
      --set training.validate_every=3 --set training.threads=1 --set training.num_samples=0 \
      --skip-test > "$work/$name.log" 2>&1; then
    tail -5 "$work/$name.log"
    echo "FAIL: $config"
    exit 1
  fi
  grep -q '"step":3' "$work/$name/metrics.jsonl" || { echo "FAIL: $config did not validate"; exit 1; }
  echo "ok $name"
done
