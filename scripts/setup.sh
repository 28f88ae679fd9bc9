#!/usr/bin/env bash
# Installs what the project needs from Debian's archive, and nothing else.
# Idempotent: packages already present are skipped. Works as root or through sudo.
set -euo pipefail

packages=(
  g++ cmake make
  libtorch-dev          # LibTorch C++ frontend (CPU build)
  libcli11-dev          # command line
  libspdlog-dev         # logging
  nlohmann-json3-dev    # config, metrics
  libgtest-dev          # unit tests
  libopenblas0-openmp   # fast BLAS for LibTorch; the reference BLAS is ~20x slower
  python3               # scripts/make_corpus.py (standard library only)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "[setup] all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "[setup] need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi

echo "[setup] installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
