#!/usr/bin/env bash
# Installs the Debian packages adlang builds on, if they are missing (Debian 12).
# Uses sudo when not run as root. Safe to run repeatedly.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libboost-dev libeigen3-dev librapidcheck-dev libgtest-dev libcli11-dev
  libmpfr-dev libgmp-dev python3 python3-dev
  graphviz libgraphviz-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
