#!/usr/bin/env bash
# Installs what the project needs from Debian's archive (and, for the browser test, npm), and
# nothing else. Idempotent: packages already present are skipped. Works as root or via sudo.
#   scripts/setup.sh            build and run s2s
#   scripts/setup.sh --extras   also python3-matplotlib (PNG plots: scripts/plot_*.py)
#   scripts/setup.sh --test     the extras, Debian's chromium and the browser test's npm
#                               package (tests/browser), for scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake make
  libtorch-dev          # LibTorch C++ frontend (CPU build)
  libgloo-dev           # c10d's Gloo process group headers (several processes)
  libsentencepiece-dev  # subword tokenization (data.tokenizer = "sentencepiece")
  libcli11-dev          # command line
  libcpp-httplib-dev    # `s2s serve`: an HTTP server library (a header and a small shared library)
  pkg-config            # finds cpp-httplib's build flags
  libspdlog-dev         # logging
  nlohmann-json3-dev    # config, metrics
  libgtest-dev          # unit tests
  libopenblas0-openmp   # fast BLAS for LibTorch; the reference BLAS is ~20x slower
  libtcmalloc-minimal4  # malloc for s2s: glibc's cost the main job 8% of its time (docs/performance.md)
  python3               # scripts/make_corpus.py (standard library only)
)
extras=(python3-matplotlib)
test_packages=(chromium nodejs npm)
case "${1:-}" in
  --extras) packages+=("${extras[@]}") ;;
  --test) packages+=("${extras[@]}" "${test_packages[@]}") ;;
  "") ;;
  *) echo "usage: scripts/setup.sh [--extras | --test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from elsewhere than Debian's packages: a working node and npm will do.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs/}"); missing=("${missing[@]/npm/}")
fi
read -r -a missing <<<"${missing[*]}"

sudo=""
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "[setup] need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "[setup] all packages present"
fi
if [ "${1:-}" = --test ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "[setup] installing the browser test's npm package (tests/browser)"
  npm ci --prefix tests/browser --no-audit --no-fund --silent
fi
