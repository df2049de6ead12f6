#!/usr/bin/env bash
# The partitioned tagged graph under real MPI processes (docs/graph-partition.md):
# `mpirun -n 2|3 adlang run FILE --engine graph --partitions N [--place ...]` against the
# compiled evaluator, for the thesis's programs, a mutual recursion split across ranks, an untaken
# branch on another rank (dead tokens through Recv), bottom on a remote rank (same message, same
# exit code on every rank), and a killed or stopped rank (a clear error within the timeout).
# Usage: partitioned_mpi_test.sh ADLANG SOURCE_DIR
set -uo pipefail
adlang=$1
src=$2
fib_by_lines=$src/tests/cli/partitioned/fib_by_lines.ad  # a line per call site
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# OpenMPI as root needs --allow-run-as-root; more ranks than cores need --oversubscribe.
export OMPI_MCA_btl=self,vader
mpirun=(mpirun --allow-run-as-root --oversubscribe)
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# same N WANT FILE ARGS...: mpirun -n N prints WANT and exits 0.
same() {
  local n=$1 want=$2
  shift 2
  local got
  got=$("${mpirun[@]}" -n "$n" "$adlang" run "$@" --engine graph --partitions "$n" 2>"$work/err")
  local code=$?
  if [ "$code" != 0 ] || [ "$got" != "$want" ]; then
    fail "mpirun -n $n adlang run $* --engine graph --partitions $n: got '$got' (exit $code), want '$want'"
    head -5 "$work/err"
  fi
}

cat >"$work/fac.ad" <<'AD'
def fac(n: real): real = if n < 0.5
  then 1
  else n * fac(n - 1);
fac(n)
AD
cat >"$work/mutual.ad" <<'AD'
def even(n: real): real = if n < 0.5 then 1 else odd(n - 1);
def odd(n: real): real = if n < 0.5 then 0 else even(n - 1);
(even(n), odd(n))
AD
cat >"$work/branch.ad" <<'AD'
def f(x: real): real = if x < 0
  then log(x * x) + f(x + 1)
  else x * 2;
f(a)
AD
cat >"$work/bottom.ad" <<'AD'
def f(x: real): real = if x < 0
  then log(x - x)
  else x * 2;
f(a) + 1
AD

# Appendix B: factorial's base case and recursive case on different tasks; the script's own
# tf.device blocks as the placement.
same 2 120 "$work/fac.ad" --env n=5 --place fac:2=1
same 2 120 "$work/fac.ad" --env n=5 --place fac=1 --place fac:2=0 --place main=0
same 2 120 "$src/examples/thesis/fac.py"
# The thesis's programs, automatic placement and split by lines, on 2 and 3 ranks.
for n in 2 3; do
  same "$n" 10946 "$fib_by_lines" --env n=20 --place fib:5=$((n - 1)) --place fib:3=1
  same "$n" 10946 "$src/examples/thesis/fib.ad" --env n=20
  same "$n" 61 "$src/examples/thesis/ack.ad" --env m=3 --env n=3 --place main=$((n - 1))
  same "$n" 7 "$src/examples/thesis/tak.ad" --env x=18 --env y=12 --env z=6 --place main=1
  same "$n" 1349 "$src/examples/thesis/primes.ad" --env n=300 --predicates total --place main=1
done
# A mutual recursion split across ranks.
same 2 "(0, 1)" "$work/mutual.ad" --env n=9 --place even=0 --place odd=1
same 3 "(1, 0)" "$work/mutual.ad" --env n=10 --place even=1 --place odd=2 --place main=0

# The untaken branch on another rank: its Recvs receive dead tokens.
stats=$("${mpirun[@]}" -n 2 "$adlang" run "$work/branch.ad" --env a=3 --engine graph \
  --partitions 2 --place f=0 --place f:2=1 --stats 2>&1 >/dev/null)
dead_from_0=$(echo "$stats" | sed -n '/^dead tokens sent:/,$p' | sed -n 's/^  0: 0 \([0-9]*\)$/\1/p')
if [ -z "$dead_from_0" ] || [ "$dead_from_0" -eq 0 ]; then
  fail "no dead tokens sent to the untaken branch's partition:"
  echo "$stats"
fi

# Bottom on a remote rank: the single-process message and exit code, from rank 0 only.
"$adlang" run "$work/bottom.ad" --env a=-1 >/dev/null 2>"$work/want"
want_code=$?
"${mpirun[@]}" -n 3 "$adlang" run "$work/bottom.ad" --env a=-1 --engine graph --partitions 3 \
  --place main=1 --place f=0 --place f:2=2 >/dev/null 2>"$work/got"
got_code=$?
if [ "$want_code" != 1 ] || [ "$got_code" != 1 ]; then
  fail "bottom on a remote rank: exit $got_code, want 1 (single process: $want_code)"
fi
# mpirun appends its own report of the non-zero exit: compare adlang's lines.
if ! diff <(grep -v -e '^---' -e 'mpirun' -e 'Primary job' -e 'non-zero' -e 'Process name' \
  -e 'Exit code' -e 'the job' -e '^$' "$work/got") "$work/want"; then
  fail "bottom on a remote rank: the message differs (< mpirun, > one process)"
fi

# A rank that dies: mpirun ends the job with a clear error at once; a rank that stops
# answering: rank 0 ends it with exit 6 after --progress-timeout seconds.
for signal in KILL STOP; do
  start=$(date +%s)
  "${mpirun[@]}" -n 2 "$adlang" run "$fib_by_lines" --env n=40 --engine graph --partitions 2 \
    --place fib=0 --place fib:5=1 --progress-timeout 4 >"$work/out" 2>&1 &
  job=$!
  # The victim is rank 1 (OpenMPI sets OMPI_COMM_WORLD_RANK in each process's environment).
  victim=""
  for _ in $(seq 50); do
    sleep 0.1
    for pid in $(pgrep -P "$job" -f "adlang run"); do
      if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
        victim=$pid
      fi
    done
    [ -n "$victim" ] && break
  done
  sleep 1
  kill -"$signal" "$victim"
  wait "$job"
  code=$?
  kill -KILL "$victim" 2>/dev/null
  elapsed=$(($(date +%s) - start))
  if [ "$code" = 0 ] || [ "$elapsed" -gt 20 ]; then
    fail "rank killed with SIG$signal: exit $code after $elapsed s"
  fi
  if [ "$signal" = KILL ] && ! grep -q "exited on signal 9" "$work/out"; then
    fail "a killed rank: no clear error"; cat "$work/out"
  fi
  if [ "$signal" = STOP ] && { [ "$code" != 6 ] || ! grep -q "partition 1 has not answered for 4 s" "$work/out"; }; then
    fail "a stopped rank: exit $code, want 6 with the progress timeout's message"; cat "$work/out"
  fi
done

if [ "$failures" != 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "all partitioned MPI cases passed"
