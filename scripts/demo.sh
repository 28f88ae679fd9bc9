#!/usr/bin/env bash
# The main job on the bundled English->French corpus: installs what is missing, builds, trains
# an attention model (configs/default.json), prints its test BLEU and writes attention heatmaps.
# Extra arguments go to `s2s train`, e.g. --set model.attention.scorer=dot
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
run_dir=$(python3 -c 'import json,sys; print(json.load(open("configs/default.json"))["run_dir"])')
build/s2s train -c configs/default.json --overwrite "$@"
echo
echo "Test set scores:   $run_dir/test.scores.json"
echo "Hypotheses:        $run_dir/test.hyp"
echo "Heatmaps (CSV):    $run_dir/heatmaps/ (index.jsonl lists them)"
