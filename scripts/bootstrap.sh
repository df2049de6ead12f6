#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build adlang (Release), and run the
# main job, the paper's gradient-descent training program (examples/gradient_descent.ad).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DADLANG_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)" --target adlang
echo
echo "$ build/cli/adlang run examples/gradient_descent.ad --env x=4"
build/cli/adlang run examples/gradient_descent.ad --env x=4
