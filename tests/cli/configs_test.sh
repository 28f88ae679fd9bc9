#!/usr/bin/env bash
# Every ready config in configs/ trains a few steps and validates without error (shapes, keys,
# values): the bundled ones (SET=bundled), or the Multi30k ones (SET=multi30k), which need
# data/multi30k (scripts/fetch_multi30k.sh) and without it exit 77, which ctest reports as
# skipped (SKIP_RETURN_CODE in CMakeLists.txt).
# Usage: configs_test.sh S2S_BINARY WORK_DIR SET   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2 set=$3
[[ $set == bundled || $set == multi30k ]] || { echo "FAIL: unknown set '$set'"; exit 1; }
configs=()
for config in configs/*.json; do
  kind=bundled
  if [[ $(basename "$config") == multi30k* ]]; then kind=multi30k; fi
  if [[ $kind == "$set" ]]; then configs+=("$config"); fi
done
[[ ${#configs[@]} -gt 0 ]] || { echo "FAIL: no $set config in configs/"; exit 1; }
if [[ $set == multi30k && ! -f data/multi30k/train.de ]]; then
  echo "SKIP: data/multi30k is absent (scripts/fetch_multi30k.sh): ${configs[*]} not checked"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
for config in "${configs[@]}"; do
  name=$(basename "$config" .json)
  "$s2s" config --check "$config" > /dev/null
  if ! "$s2s" train -c "$config" --set run_dir="$work/$name" --set training.max_steps=3 \
      --set training.validate_every=3 --set training.threads=1 --set training.num_samples=0 \
      --skip-test > "$work/$name.log" 2>&1; then
    tail -5 "$work/$name.log"
    echo "FAIL: $config"
    exit 1
  fi
  metrics=$work/$name/metrics.jsonl  # an ensemble's (training.members): its first member's
  [[ -f $metrics ]] || metrics=$work/$name/member1/metrics.jsonl
  grep -q '"step":3' "$metrics" || { echo "FAIL: $config did not validate"; exit 1; }
  echo "ok $name"
done
