#!/usr/bin/env bash
# The build's layer rule (cmake/Layers.cmake), from the table the configure step wrote
# (build/layers/layers.txt: "NAME | USES... | SEES..." a line, bottom up):
#  1. each layer's include root resolves `#include "<folder>/<a header>"` if and only if the
#     table says the layer sees the folder (what compiles is what the table says);
#  2. no include in src/ has ".." in its path (`#include "../train/adam_kernel.h"` from src/eval/
#     would compile, past the include roots);
#  3. every `#include "<layer>/..."` (or <<layer>/...>) in a file of src/NAME/ names NAME itself or a layer that
#     NAME's USES lists: seeing a layer through another one is not using it;
#  4. every layer that USES lists is included by some file of src/NAME/ (no edge kept for
#     visibility only);
#  5. every folder of src/ is a layer of the table.
# Usage: layers_test.sh CXX LAYER_ROOTS SRC_DIR LAYER_TABLE
set -euo pipefail
cxx=$1 roots=$2 src=$3 table=$4

[[ -f $table ]] || { echo "FAIL: no layer table $table (configure the build first)"; exit 1; }
declare -A uses=() sees=()
order=()
while IFS='|' read -r name used seen; do
  name=$(echo $name)  # trims
  [[ -z $name || $name == \#* ]] && continue
  uses[$name]=$(echo $used) sees[$name]=$(echo $seen)
  order+=("$name")
done < "$table"
[[ ${#order[@]} -gt 0 ]] || { echo "FAIL: $table lists no layer"; exit 1; }

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
is_layer() { [[ -n ${uses[$1]+set} ]]; }
in_list() { [[ " $2 " == *" $1 "* ]]; }

# 1. The include roots agree with the table.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for layer in "${order[@]}"; do
  [[ -d $roots/$layer ]] || { fail "no include root $roots/$layer for layer $layer"; continue; }
  for folder in "${order[@]}"; do
    header=$(cd "$src/$folder" && ls ./*.h 2> /dev/null | head -n 1) || true
    header=${header#./}
    [[ -n $header ]] || continue  # a layer of sources only: nothing to include
    echo "#include \"$folder/$header\"" > "$work/probe.cpp"
    if in_list "$folder" "${sees[$layer]}"; then
      # A visible folder resolves (its headers may need LibTorch, so only the file is checked).
      [[ -f $roots/$layer/$folder/$header ]] || fail "$layer cannot see $folder/$header"
    elif "$cxx" -E -I "$roots/$layer" "$work/probe.cpp" -o /dev/null 2> "$work/err"; then
      fail "$layer includes $folder/$header, which the table does not let it see"
    elif ! grep -q "No such file" "$work/err"; then
      fail "$layer including $folder/$header failed for another reason: $(cat "$work/err")"
    fi
  done
done

# 2. No ".." in an include path, anywhere in src/.
while IFS= read -r hit; do
  fail "${hit#"$src"/}: an include path with \"..\" reaches past the layer's include root"
done < <(grep -rnE --include='*.h' --include='*.cpp' \
           '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*\.\.' "$src" || true)

# 3-5. Each file's includes against its layer's USES, and each USES edge against the files.
declare -A used_by_files=()
for dir in "$src"/*/; do
  layer=$(basename "$dir")
  is_layer "$layer" || { fail "src/$layer is no layer of $table (s2s_layer in CMakeLists.txt)"; continue; }
  while IFS=: read -r file line folder; do
    is_layer "$folder" || continue  # <torch/...>-like includes of other libraries
    [[ $folder == "$layer" ]] && continue
    used_by_files[$layer]+=" $folder"
    in_list "$folder" "${uses[$layer]}" || \
      fail "${file#"$src"/}:$line includes $folder/, which the USES list of $layer does not name"
  done < <(grep -rnoE --include='*.h' --include='*.cpp' \
             '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^"<>/]+/' "$dir" |
           sed -E 's/^([^:]*):([0-9]+):.*["<]([^"<>/]+)\/$/\1:\2:\3/')
done
for layer in "${order[@]}"; do
  for dep in ${uses[$layer]}; do
    in_list "$dep" "${used_by_files[$layer]:-}" || \
      fail "$layer USES $dep, but no file of src/$layer includes a $dep/ header"
  done
done

echo "checked ${#order[@]} layers (include roots, \"..\" includes, USES edges both ways)," \
     "$failures failures"
[[ $failures -eq 0 ]]
