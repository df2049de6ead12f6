#!/usr/bin/env bash
# Coverage-guided fuzzing of adlang's front ends with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET SECONDS   fuzz one target (fuzz_front, fuzz_run, fuzz_symbolic,
#                                    fuzz_den, fuzz_fmt, fuzz_pyrewrite) for SECONDS
#   scripts/fuzz.sh --smoke SECONDS  every target for SECONDS each, as many at once as there
#                                    are cores (what CI runs)
#   scripts/fuzz.sh --build          only build the targets (build-sanitize/, clang-14)
#
# The targets are built with clang-14 (-fsanitize=fuzzer-no-link,address,undefined) in
# build-sanitize/, the build of scripts/test.sh --sanitize (scripts/sanitize_build.sh). A run starts from fuzz/corpus/TARGET, fuzz/regressions/TARGET and the seeds
# (examples/ and tests/cli/budget/, or examples/python/ for fuzz_pyrewrite), grows a working
# corpus in build-fuzz/corpus/TARGET (not the repository's), and writes a crashing input to
# build-fuzz/findings/TARGET/; copy it to fuzz/regressions/TARGET/ once fixed. Exit status 1
# when a target found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(fuzz_front fuzz_run fuzz_symbolic fuzz_den fuzz_fmt fuzz_pyrewrite)
jobs=${FUZZ_BUILD_JOBS:-2}

usage() {
  sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

source scripts/sanitize_build.sh
source scripts/configure_build.sh
build_dir=$sanitize_build_dir

build() {
  ./scripts/install-deps.sh --kernel
  configure_build "$build_dir" "${sanitize_flags[@]}" >/dev/null
  cmake --build "$build_dir" -j"$jobs" --target "$@"
}

run() {
  local target=$1 seconds=$2
  local dict=fuzz/adlang.dict seeds=(examples tests/cli/budget)
  if [ "$target" = fuzz_pyrewrite ]; then
    dict=fuzz/python.dict
    seeds=(examples/python)
  fi
  mkdir -p "build-fuzz/corpus/$target" "build-fuzz/findings/$target"
  # CPython keeps its interpreter until exit: no leak checking for the Python target.
  local leaks=1
  [ "$target" = fuzz_pyrewrite ] && leaks=0
  echo "== $target for ${seconds}s"
  ASAN_OPTIONS="detect_leaks=$leaks:abort_on_error=1:detect_stack_use_after_return=0" \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build_dir/fuzz/$target" "build-fuzz/corpus/$target" "fuzz/corpus/$target" \
    "fuzz/regressions/$target" "${seeds[@]}" -dict="$dict" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/findings/$target/" 2>&1 |
    grep -E "^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|.*ERROR)" ||
    true
  # A finding leaves an input in findings/.
  if compgen -G "build-fuzz/findings/$target/*" >/dev/null; then
    echo "$target: findings in build-fuzz/findings/$target/" >&2
    return 1
  fi
}

case "${1:-}" in
  --build)
    build "${targets[@]}"
    ;;
  --smoke)
    seconds=${2:-15}
    build "${targets[@]}"
    # The targets run side by side, as many at once as there are cores (each still for SECONDS);
    # each one's output is printed whole, in the targets' order, when it ends.
    logs=$(mktemp -d)
    status=0
    pids=()
    for t in "${targets[@]}"; do
      while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
      (run "$t" "$seconds" >"$logs/$t" 2>&1) &
      pids+=($!)
    done
    for i in "${!targets[@]}"; do
      wait "${pids[$i]}" || status=1
      cat "$logs/${targets[$i]}"
    done
    rm -rf "$logs"
    exit $status
    ;;
  fuzz_*)
    [ $# -eq 2 ] || usage
    printf '%s\n' "${targets[@]}" | grep -qx "$1" || usage
    build "$1"
    run "$1" "$2"
    ;;
  *)
    usage
    ;;
esac
