#!/usr/bin/env bash
# The partitioned tagged graph (docs/graph-partition.md) on 1, 2 and 3 MPI processes, side by
# side in one run: wall time, data messages, and the cost per message crossing partitions,
# against the same partitioning run in one process and the unpartitioned static graph.
# Usage: bench/partitioned/partitioned_bench.sh ADLANG [FIB_N] [TAK_X TAK_Y TAK_Z] [HEAVY_N]
#   (defaults: fib(20), tak(18,12,6), heavy fib(16); the thesis's sizes are fib(27) and
#   tak(24,16,8))
# The third program is fib with two heavy halves per activation (left and right, LETS dependent
# operations each), left on partition 0 and right on partition 1: the case where the model of
# docs/performance.md predicts a speedup.
set -euo pipefail
adlang=$1
fib_n=${2:-20}
tak=(${3:-18} ${4:-12} ${5:-6})
heavy_n=${6:-16}
lets=${LETS:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl=self,vader
mpirun=(mpirun --allow-run-as-root --oversubscribe)

# Factorial's layout from Appendix B, applied to fib and tak: the base case on one partition,
# each recursive call site on another (tests/cli/partitioned/fib_by_lines.ad: a line each).
fib_by_lines=$(dirname "$0")/../../tests/cli/partitioned/fib_by_lines.ad
cat >"$work/tak.ad" <<'AD'
def tak(p: real^3): real = let (x: real, y: real, z: real) = p in
  if y < x - 0.5
  then tak(tak(x - 1, y, z),
           tak(y - 1, z, x),
           tak(z - 1, x, y))
  else z;
tak(x, y, z)
AD

# heavy_half NAME: a function of n whose body is a chain of $lets dependent operations.
heavy_half() {
  local name=$1 i
  echo "def $name(n: real): real ="
  echo "  let a0: real = n in"
  for ((i = 1; i <= lets; i++)); do
    echo "  let a$i: real = sin(a$((i - 1))) * 0.5 + n in"
  done
  echo "  a$lets;"
}
{
  heavy_half left
  heavy_half right
  cat <<'AD'
def fib(n: real): real =
  if n < 1.5
  then 1
  else fib(n - 1) + fib(n - 2) + left(n) - right(n);
fib(n)
AD
} >"$work/heavy.ad"

seconds() { # seconds COMMAND...: wall time of one run, the command's stderr kept in $work/err
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/out" 2>"$work/err"
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
messages() { # the total of the "messages sent" matrix in $work/err
  sed -n '/^messages sent/,/^bytes sent/p' "$work/err" | grep -E '^  [0-9]+:' |
    sed 's/^  [0-9]*://' | tr ' ' '\n' | grep -v '^$' | paste -sd+ | bc
}

run_case() { # NAME FILE ENV PLACE2 PLACE3
  local name=$1 file=$2 env=$3 place2=$4 place3=$5
  local t_graph t_one t2 t3 m2 m3 t_in2 t_in3
  t_graph=$(seconds "$adlang" run "$file" $env --engine graph)
  t_one=$(seconds "$adlang" run "$file" $env --engine graph --partitions 1 --stats)
  t_in2=$(seconds "$adlang" run "$file" $env --engine graph --partitions 2 $place2 --stats)
  t2=$(seconds "${mpirun[@]}" -n 2 "$adlang" run "$file" $env --engine graph --partitions 2 \
    $place2 --stats)
  m2=$(messages)
  t_in3=$(seconds "$adlang" run "$file" $env --engine graph --partitions 3 $place3 --stats)
  t3=$(seconds "${mpirun[@]}" -n 3 "$adlang" run "$file" $env --engine graph --partitions 3 \
    $place3 --stats)
  m3=$(messages)
  printf '| %s | %.3f s | %.3f s | %.3f s | %.3f s (%d msgs, %.1f us/msg) | %.3f s | %.3f s (%d msgs, %.1f us/msg) | %.2fx | %.2fx |\n' \
    "$name" "$t_graph" "$t_one" "$t_in2" "$t2" "$m2" \
    "$(echo "($t2 - $t_one) / $m2 * 1000000" | bc -l)" "$t_in3" "$t3" "$m3" \
    "$(echo "($t3 - $t_one) / $m3 * 1000000" | bc -l)" \
    "$(echo "$t_one / $t2" | bc -l)" "$(echo "$t_one / $t3" | bc -l)"
}

echo "| program | static graph | 1 partition | 2 partitions, one process | mpirun -n 2 | 3 partitions, one process | mpirun -n 3 | speedup 2 ranks | speedup 3 ranks |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
run_case "fib($fib_n)" "$fib_by_lines" "--env n=$fib_n" \
  "--place fib=0 --place fib:5=1" "--place fib=0 --place fib:4=1 --place fib:5=2"
run_case "tak(${tak[0]},${tak[1]},${tak[2]})" "$work/tak.ad" \
  "--env x=${tak[0]} --env y=${tak[1]} --env z=${tak[2]}" \
  "--place tak=0 --place tak:4=1" "--place tak=0 --place tak:4=1 --place tak:5=2"
run_case "fib($heavy_n) with heavy halves" "$work/heavy.ad" "--env n=$heavy_n" \
  "--place fib=0 --place left=0 --place right=1" \
  "--place fib=0 --place left=1 --place right=2"
