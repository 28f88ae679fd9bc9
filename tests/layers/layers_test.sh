#!/usr/bin/env bash
# The build's layer rule: a folder's sources see only the folders below it (cmake/Layers.cmake).
# For every layer and every folder, `#include "<folder>/<a header>"` must preprocess under the
# layer's include root if and only if the folder is the layer itself or below it.
# Usage: layers_test.sh CXX LAYER_ROOTS SRC_DIR
set -euo pipefail
cxx=$1 roots=$2 src=$3

# What each layer may use, as the picture in cmake/Layers.cmake draws it.
declare -A below=(
  [util]=""
  [config]="util"
  [data]="config util"
  [metrics]="config util"
  [model]="data metrics config util"
  [run]="model data metrics config util"
  [eval]="run model data metrics config util"
  [train]="eval run model data metrics config util"
  [experiments]="train eval run model data metrics config util"
  [cli]="experiments train eval run model data metrics config util"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for layer in "${!below[@]}"; do
  for folder in "${!below[@]}"; do
    header=$(cd "$src/$folder" && ls *.h | head -n 1)
    echo "#include \"$folder/$header\"" > "$work/probe.cpp"
    allowed=no
    [[ $folder == "$layer" || " ${below[$layer]} " == *" $folder "* ]] && allowed=yes
    if [[ $allowed == yes ]]; then
      # A permitted folder resolves (its headers may need LibTorch, so only the file is checked).
      [[ -f "$roots/$layer/$folder/$header" ]] || {
        echo "FAIL: $layer cannot see $folder/$header"; failures=$((failures + 1)); }
    elif "$cxx" -E -I "$roots/$layer" "$work/probe.cpp" -o /dev/null 2> "$work/err"; then
      echo "FAIL: $layer includes $folder/$header (a layer above it)"; failures=$((failures + 1))
    elif ! grep -q "No such file" "$work/err"; then
      echo "FAIL: $layer including $folder/$header failed for another reason:"; cat "$work/err"
      failures=$((failures + 1))
    fi
  done
done
[[ -d "$roots/eval" ]] || { echo "FAIL: no layer roots in $roots"; exit 1; }
echo "checked ${#below[@]} layers x ${#below[@]} folders, $failures failures"
[[ $failures -eq 0 ]]
