#!/usr/bin/env bash
# Installs the Debian packages adlang builds on, if they are missing (Debian 12).
# Uses sudo when not run as root. Safe to run repeatedly.
set -euo pipefail

packages=(
  # Ninja for the builds of scripts/test.sh and scripts/fuzz.sh (scripts/configure_build.sh),
  # and lld for the sanitizer build's links (scripts/sanitize_build.sh).
  build-essential cmake ninja-build pkg-config
  libboost-dev libeigen3-dev librapidcheck-dev libgtest-dev libcli11-dev
  libmpfr-dev libgmp-dev python3 python3-dev
  clang-14 lld-14 libfuzzer-14-dev openmpi-bin libopenmpi-dev
  procps bc
  graphviz libgraphviz-dev
  nlohmann-json3-dev
  # The HTTP server of `adlang serve` (docs/playground.md): cpp-httplib 0.11, a shared library
  # with OpenSSL, zlib and brotli (its -dev package brings theirs); only adlang-full links it.
  libcpp-httplib-dev
)
# The teaching views: the REPL's line editing (libedit-dev), trace pictures (graphviz), plots
# (gnuplot-nox), and compiling LaTeX derivations (pdflatex with mathpartir: texlive-latex-base
# and texlive-science, ~75 MB installed, about 3 minutes on a fresh machine). Installed
# without recommended packages, which would pull in several hundred MB of TeX.
teaching=(libedit-dev graphviz gnuplot-nox texlive-latex-base texlive-science)
# `adlang conform --system torch` and its tests (docs/conform.md): Debian's PyTorch for
# /usr/bin/python3 (torch 1.13), without recommended packages.
conform=(python3-torch)
# --kernel: the Jupyter kernel (`adlang kernel`, docs/kernel.md) and its tests: xeus with its
# ZeroMQ server (it brings cppzmq-dev, nlohmann-json3-dev, uuid-dev and libssl-dev), and
# jupyter_client, nbclient and nbformat, which the tests drive the kernel and the notebook with.
# A build with tests needs them (scripts/test.sh and scripts/fuzz.sh pass --kernel).
kernel=(xeus-dev python3-jupyter-client python3-nbclient python3-nbformat)
# --web: the browser playground (docs/playground.md) and its test: Debian's emscripten (3.1.6,
# with clang-14), node-acorn for emscripten's JavaScript optimiser, chromium for the headless
# browser test (without recommended packages), and web/test's npm packages (playwright-core
# drives chromium; @viz-js/viz is the Graphviz the page draws with, codemirror@5 its editor) by
# `npm ci` from the committed package-lock.json.
web=(emscripten node-acorn chromium)
# --bench: what bench/ needs (scripts/bench.sh; docs/performance.md): Google Benchmark, the AD
# tools the gradients are compared with (ADOL-C, and Trilinos' Sacado, whose headers include
# Kokkos'), Lua 5.4 for the start-up comparison, and LuaJIT (its interpreter) with Lua 5.4 for
# the interpreter comparison. Without recommended packages (Trilinos recommends MPI and solver
# packages bench/ does not use).
bench=(libbenchmark-dev libadolc-dev libtrilinos-sacado-dev libtrilinos-kokkos-dev lua5.4 luajit)
command -v npm > /dev/null || web+=(npm)
# Installed without recommended packages: the teaching views' and the playground's.
lean=("${teaching[@]}" "${conform[@]}")
with_web=false
for arg in "$@"; do
  if [ "$arg" = --kernel ]; then packages+=("${kernel[@]}"); fi
  if [ "$arg" = --bench ]; then lean+=("${bench[@]}"); fi
  if [ "$arg" = --web ]; then
    lean+=("${web[@]}")
    with_web=true
  fi
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
missing_lean=()
for p in "${lean[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing_lean+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_lean[@]} -gt 0 ]; then
  echo "installing: ${missing[*]} ${missing_lean[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
  fi
  if [ ${#missing_lean[@]} -gt 0 ]; then
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing_lean[@]}"
  fi
fi
if $with_web; then
  web_test="$(dirname "$0")/../web/test"
  if [ ! -f "$web_test/node_modules/.package-lock.json" ] ||
    [ "$web_test/package-lock.json" -nt "$web_test/node_modules/.package-lock.json" ]; then
    (cd "$web_test" && npm ci --no-audit --no-fund)
  fi
fi
