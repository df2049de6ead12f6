#!/usr/bin/env bash
# Builds and runs every benchmark of bench/, printing the tables of docs/performance.md (each
# benchmark prints its own ratios, measured side by side in one run).
#
#   scripts/bench.sh                       install what bench/ needs, build, run them all
#   scripts/bench.sh --build-only [DIR]    only build them, in DIR (default build-bench): CI
#                                          builds them in its release build, build-test
#
# The runs take about 20 min on the 2-core machine; the machine should be otherwise idle
# (docs/performance.md says what each figure measures). Set OLD_ADLANG to another build's
# adlang to add it to the start-up and interpreter comparisons.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
build_dir=build-bench
if [ "${1:-}" = --build-only ]; then
  build_only=true
  build_dir=${2:-build-bench}
elif [ $# -gt 0 ]; then
  sed -n '4,7p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
./scripts/install-deps.sh --bench
if [ -f "$build_dir/CMakeCache.txt" ]; then
  # An existing build keeps its configuration (e.g. build-test's tests and unity build).
  cmake -S . -B "$build_dir" -DADLANG_BUILD_BENCH=ON > /dev/null
else
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DADLANG_BUILD_BENCH=ON \
    -DADLANG_BUILD_TESTS=OFF > /dev/null
fi
cmake --build "$build_dir" -j"$(nproc)" --target benchmarks
$build_only && exit 0

b=$build_dir/bench
section() { printf '\n==== %s\n' "$1"; }
section "Start-up (adlang run of 1 + 2 against lua5.4 -e '')"
"$b/startup_bench" ${OLD_ADLANG:+--old "$OLD_ADLANG"}
section "1. Ordinary evaluation against CPython"
"$b/eval_bench"
section "1. The interpreter against Lua 5.4 and LuaJIT's interpreter (whole processes)"
"$b/interp_bench" ${OLD_ADLANG:+--old "$OLD_ADLANG"}
section "2-4. R on a let chain, the linear R, nested derivatives"
"$b/rd_bench"
section "5. Gradients against ADOL-C and Sacado"
"$b/ad_bench"
section "7. The checker"
"$b/checker/checker_bench"
section "8. The Python rewriter"
"$b/pyrewrite/adlang_pyrewrite_bench"
section "9. The tagged graph"
"$b/graph_bench" 5
section "10. The partitioned graph"
bench/partitioned/partitioned_bench.sh "$build_dir/cli/adlang"
section "11. Reverse mode in the graph"
"$b/graph_ad_bench" 5
section "14. The conformance checker (PyTorch and plain Python)"
"$b/conform_bench"
