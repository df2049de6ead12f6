# The sanitizer build, one configuration for two scripts (sourced by scripts/test.sh --sanitize
# and scripts/fuzz.sh): clang-14 with AddressSanitizer and UndefinedBehaviorSanitizer, every
# object also instrumented for libFuzzer's coverage, so the suite under the sanitizers and the
# fuzz targets share one build. -O1 -g1: half the compile time of -O2 -g. No mutants: the
# release suite runs them (tests/checker/CMakeLists.txt). A unity build, as in scripts/test.sh.
# Linked by LLVM's lld (lld-14): an instrumented test executable links in about 40% of the CPU
# time GNU ld takes (docs/performance.md Sec. 12).
# shellcheck shell=bash
sanitize_build_dir=build-sanitize
sanitize_flags=(-DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DADLANG_SANITIZE=ON -DADLANG_FUZZ=ON
  -DADLANG_BUILD_TESTS=ON -DADLANG_BUILD_MUTANTS=OFF -DCMAKE_UNITY_BUILD=ON
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld)
