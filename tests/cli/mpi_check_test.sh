#!/usr/bin/env bash
# `mpirun -n 2 adlang check ARGS` prints the table and the counterexamples of `adlang check ARGS`
# (docs/checker.md): the same numbers in every column but the timing one (prog/s), and the same
# first counterexample with its reproduce line.
# Usage: mpi_check_test.sh ADLANG ARGS...
set -euo pipefail
adlang=$1
shift
# OpenMPI as root needs --allow-run-as-root; two ranks on fewer cores need --oversubscribe.
mpirun=(mpirun --allow-run-as-root --oversubscribe -n 2)
# The table without its last column (programs per second, a measurement).
strip_rate() { sed -E 's/^([a-z-]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+) +[0-9]+$/\1/; s/ +prog\/s$//'; }
single=$("$adlang" check "$@" --no-progress) || single_code=$?
ranks=$(OMPI_MCA_btl=self,vader "${mpirun[@]}" "$adlang" check "$@" --no-progress) || ranks_code=$?
if [ "${single_code:-0}" != "${ranks_code:-0}" ]; then
  echo "exit codes differ: ${single_code:-0} (one process) vs ${ranks_code:-0} (2 ranks)"
  exit 1
fi
if ! diff <(echo "$single" | strip_rate) <(echo "$ranks" | strip_rate); then
  echo "the tables differ (< one process, > 2 ranks)"
  exit 1
fi
echo "$ranks"
