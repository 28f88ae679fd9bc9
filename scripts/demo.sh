#!/usr/bin/env bash
# The main job on the bundled English->French corpus: installs what is missing, builds the
# program (not the tests), trains an attention model (configs/default.json) into runs/default,
# prints its test BLEU and writes attention heatmaps. A previous demo run in runs/default is
# replaced (only the files s2s wrote there). Extra arguments go to `s2s train`, e.g.
# --set model.attention.scorer=dot --set run_dir=runs/dot
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh s2s
run_dir=runs/default
for arg in "$@"; do
  case $arg in run_dir=*) run_dir=${arg#run_dir=} ;; esac
done
if [ -e "$run_dir/manifest.json" ]; then
  echo "[demo] training into $run_dir, replacing the previous run there (--overwrite)"
else
  echo "[demo] training into $run_dir"
fi
build/s2s train -c configs/default.json --overwrite "$@"
echo
echo "Test set scores:   $run_dir/test.scores.json"
echo "Hypotheses:        $run_dir/test.hyp"
echo "Heatmaps (CSV):    $run_dir/heatmaps/ (index.jsonl lists them)"
echo "Report (HTML):     $run_dir/report.html (scores, curves and heatmaps; open it in a browser)"
