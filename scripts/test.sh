#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build adlang with its tests, and
# run the whole test suite. With --sanitize the build uses AddressSanitizer and
# UndefinedBehaviorSanitizer (in build-sanitize/).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
build_dir=build-test
flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-sanitize
  # -O1 -g1: half the compile time of -O2 -g under the sanitizers (the suite stays fast).
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
    -DADLANG_SANITIZE=ON)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake -S . -B "$build_dir" "${flags[@]}" -DADLANG_BUILD_TESTS=ON
cmake --build "$build_dir" -j"$(nproc)"
ctest --test-dir "$build_dir" -j"$(nproc)" --output-on-failure --timeout 900
