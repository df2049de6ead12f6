#!/usr/bin/env bash
# Rebuilds conform/suite, the curated conformance suite (docs/conform.md), with
# `adlang check FILE --env ... --emit-suite`: the paper's examples, the relu and `if x = 0`
# families, recursion through rd, and nesting with perturbation-confusion traps.
# Usage: scripts/conform-suite.sh [path/to/adlang]   (default: build/cli/adlang)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
adlang="${1:-$root/build/cli/adlang}"
out="$root/conform/suite"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"

# emit NAME SOURCE --env ...: the case NAME, the program SOURCE at the given inputs.
emit() {
  local name="$1" source="$2"
  shift 2
  cp "$root/$source" "$tmp/$name.ad"
  "$adlang" check "$tmp/$name.ad" "$@" --emit-suite "$out" > /dev/null
}

emit relu-at-0 examples/relu.ad --env x=0
emit relu-at-1 examples/relu.ad --env x=1
emit relu-at-minus-1 examples/relu.ad --env x=-1
emit if-x-eq-0-at-0 examples/identity_eq.ad --env x=0
emit if-x-eq-0-at-1 examples/identity_eq.ad --env x=1
emit sqrt-at-0 conform/suite-sources/sqrt.ad --env x=0
emit sqrt-at-4 conform/suite-sources/sqrt.ad --env x=4
emit nested-rd examples/nested_rd.ad
emit nested-rd-letrec examples/nested_rd_letrec.ad
emit forward-mode examples/forward_mode.ad
emit perturbation-confusion conform/suite-sources/perturbation_confusion.ad --env a=1
emit nested-perturbation conform/suite-sources/nested_perturbation.ad --env a=0.5
emit recursion-through-rd examples/own_derivative.ad --env x=0.5 --env n=2
emit fib examples/fib.ad --env n=10
emit mutual-recursion examples/mutual_recursion.ad --env n=5
echo "wrote $(ls "$out" | wc -l) cases to $out"
