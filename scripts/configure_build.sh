# Configures a build directory of scripts/test.sh, scripts/fuzz.sh and scripts/build-web.sh
# with Ninja, sourced by them. Ninja starts compiling a target's sources before the libraries it
# links are built (Make waits for them), so both cores stay busy through a build
# (docs/performance.md Sec. 12). A directory configured before with another generator (cmake
# refuses to change it) is configured afresh: its CMakeCache.txt and CMakeFiles/ are removed
# first.
#   configure_build [--emcmake] DIR CMAKE_ARGS...
# --emcmake: configure through emscripten's emcmake (the playground's build).
# shellcheck shell=bash
configure_build() {
  local wrapper=()
  if [ "$1" = --emcmake ]; then
    wrapper=(emcmake)
    shift
  fi
  local dir=$1
  shift
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
    echo "$dir was configured with another generator: configuring it afresh with Ninja"
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  "${wrapper[@]}" cmake -G Ninja -S . -B "$dir" "$@"
}
