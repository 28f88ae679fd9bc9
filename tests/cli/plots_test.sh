#!/usr/bin/env bash
# The PNG scripts on a tiny run's outputs: one PNG per heatmap CSV, and the curves.
# Usage: plots_test.sh S2S_BINARY WORK_DIR   (run from the repository root)
set -euo pipefail
s2s=$1 work=$2
# The first interpreter that has matplotlib: the user's python3, else Debian's (which apt fills).
py=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c "import matplotlib" 2>/dev/null; then py=$candidate; break; fi
done
[ -n "$py" ] || { echo "FAIL: python3-matplotlib is missing (scripts/setup.sh --test)"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
"$s2s" train -c tests/cli/fixtures/tiny.json --set run_dir="$work/run" > "$work/train.log" 2>&1 ||
  { tail -5 "$work/train.log"; echo "FAIL: train"; exit 1; }
"$py" scripts/plot_attention.py "$work/run/heatmaps" --out "$work/png" > /dev/null
csvs=$(ls "$work"/run/heatmaps/*.csv | wc -l)
pngs=$(ls "$work"/png/*.png | wc -l)
[ "$csvs" = "$pngs" ] || { echo "FAIL: $csvs CSVs but $pngs PNGs"; exit 1; }
for f in "$work"/png/*.png; do [ -s "$f" ] || { echo "FAIL: empty $f"; exit 1; }; done
"$py" scripts/plot_attention.py "$work/run/heatmaps/0001_head0.csv" --out "$work/one" > /dev/null
[ -s "$work/one/0001_head0.png" ] || { echo "FAIL: single CSV"; exit 1; }
"$py" scripts/plot_curves.py "$work/run" --out "$work/curves.png" > /dev/null
[ -s "$work/curves.png" ] || { echo "FAIL: curves"; exit 1; }
if "$py" scripts/plot_curves.py "$work/nowhere" 2> "$work/err"; then echo "FAIL: missing run accepted"; exit 1; fi
grep -q "^error: .*nowhere/metrics.jsonl: not found" "$work/err" || { cat "$work/err"; echo "FAIL: message"; exit 1; }
echo "plot scripts: $pngs heatmap PNGs and the curves"
