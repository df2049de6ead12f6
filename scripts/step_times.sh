# The time of each step of CI (.ci/run), sourced by .ci/run and scripts/test.sh.
# `timed NAME COMMAND...` runs COMMAND and, when ADLANG_STEP_TIMES names a file, appends a line
# NAME<TAB>SECONDS<TAB>EXIT STATUS to it; its status is COMMAND's. `print_step_times FILE`
# prints that file as a table, with the total.
# shellcheck shell=bash
timed() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  if [ -n "${ADLANG_STEP_TIMES:-}" ]; then
    printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$status" >> "$ADLANG_STEP_TIMES"
  fi
  return "$status"
}

print_step_times() {
  awk -F'\t' 'BEGIN { printf "%-44s %8s\n", "step", "seconds" }
    { printf "%-44s %8d%s\n", $1, $2, ($3 == 0 ? "" : "  (failed, exit " $3 ")"); total += $2 }
    END { printf "%-44s %8d  (%.1f min)\n", "total", total, total / 60 }' "$1"
}
