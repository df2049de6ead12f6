#!/usr/bin/env bash
# Builds the browser playground (docs/playground.md) into build-web/playground with Debian's
# emscripten: the WebAssembly module, the page, and Graphviz (wasm) from web/test/node_modules.
# scripts/install-deps.sh --web installs what it needs. `adlang serve` then serves it.
set -euo pipefail
cd "$(dirname "$0")/.."
# emscripten's JavaScript optimiser needs Debian's acorn (node-acorn).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
for tool in emcmake node; do
  command -v "$tool" > /dev/null || {
    echo "build-web: $tool is missing (scripts/install-deps.sh --web)" >&2
    exit 1
  }
done
# A unity build with Ninja, as in scripts/test.sh.
source scripts/configure_build.sh
configure_build --emcmake build-web -DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_UNITY_BUILD=ON > /dev/null
cmake --build build-web -j"$(nproc)"
