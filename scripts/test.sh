#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build adlang with its tests, and
# run the whole test suite. With --sanitize the build uses AddressSanitizer and
# UndefinedBehaviorSanitizer (clang-14, in build-sanitize/, shared with scripts/fuzz.sh), and
# the suite neither builds nor runs the mutation tests (tests/checker/mutants_test.cpp), which
# test the tests on copies of production sources with one change each: the release suite runs
# them, and under the sanitizers they were 45% of the suite's time. Nor does it run the
# playground's browser test (Playground.browser): the page it tests is the WebAssembly build
# of build-web/, the same unsanitized module in both suites, and the release suite runs it
# (the server it talks to, `adlang serve`, is tested under the sanitizers by serve_tests);
# it was the sanitizer suite's fourth-longest test, 49 s.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time goes to $ADLANG_STEP_TIMES when set (.ci/run prints them).
source scripts/step_times.sh
source scripts/configure_build.sh
suite=release
[ "${1:-}" = "--sanitize" ] && suite=sanitizer
timed "$suite: packages (install-deps.sh)" ./scripts/install-deps.sh --kernel --web
# The browser playground, shared by both suites (build-web/; its browser test runs
# `adlang serve` of the suite's own build on it).
timed "$suite: playground build (build-web.sh)" ./scripts/build-web.sh
build_dir=build-test
# Unity builds (CMAKE_UNITY_BUILD): each target's sources compiled in batches of 8 per
# compiler run, so the headers they share (GoogleTest, RapidCheck, Boost, Eigen, our own) are
# parsed once a batch rather than once a file (docs/performance.md, CI time).
flags=(-DCMAKE_BUILD_TYPE=Release -DADLANG_BUILD_TESTS=ON -DCMAKE_UNITY_BUILD=ON)
exclude=()
if [ "${1:-}" = "--sanitize" ]; then
  source scripts/sanitize_build.sh
  build_dir=$sanitize_build_dir
  flags=("${sanitize_flags[@]}")
  exclude=(-E '^Mutants\.|^Playground\.browser$')
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
# Every pass verifies the IR it produces (lang/verifier.hpp), in the test binaries and in every
# adlang process the suite starts (docs/design.md Sec. 10).
export ADLANG_VERIFY=1
timed "$suite: configure" configure_build "$build_dir" "${flags[@]}"
timed "$suite: build" cmake --build "$build_dir" -j"$(nproc)"
timed "$suite: suite (ctest)" ctest --test-dir "$build_dir" -j"$(nproc)" --output-on-failure \
  --timeout 900 "${exclude[@]}"
