#!/usr/bin/env bash
# Start-up (docs/performance.md, "Start-up"; cli/full_build.hpp): the lean adlang links none of
# the libraries that adlang-full has for a few commands (CPython, OpenMPI, Graphviz, libedit,
# xeus and its ZeroMQ, cpp-httplib with OpenSSL, zlib and brotli), and adlang-full links them all.
# With STATIC 1 (the release build: cli/CMakeLists.txt), the lean adlang is a static executable:
# no program interpreter (the dynamic loader) and no shared library at all, and its unwinder
# finds frames through .eh_frame_hdr (cli/static_unwind.cpp).
# Usage: startup_libraries_test.sh ADLANG ADLANG_FULL STATIC
set -euo pipefail
lean=$1 full=$2 static=$3
heavy='libpython|libmpi|libopen-|libgvc|libcgraph|libedit|libxeus|libzmq'
heavy+='|libcpp-httplib|libssl|libcrypto|libz\.|libbrotli'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
status=0
if needed "$lean" | grep -E "$heavy"; then
  echo "FAIL: the lean adlang links the libraries above" >&2
  status=1
fi
for lib in libpython libmpi libgvc libedit libxeus libcpp-httplib; do
  if ! needed "$full" | grep -q "^$lib"; then
    echo "FAIL: adlang-full does not link $lib" >&2
    status=1
  fi
done
if [ "$static" = 1 ]; then
  if readelf -l "$lean" | grep -q 'INTERP'; then
    echo "FAIL: the lean adlang has a program interpreter: it is not linked statically" >&2
    status=1
  fi
  if [ -n "$(needed "$lean")" ]; then
    echo "FAIL: the lean adlang needs shared libraries: it is not linked statically" >&2
    status=1
  fi
  # Exceptions: frames are found through .eh_frame_hdr, none registered (cli/static_unwind.cpp).
  if ! readelf -l "$lean" | grep -q 'GNU_EH_FRAME'; then
    echo "FAIL: the static adlang has no .eh_frame_hdr (PT_GNU_EH_FRAME)" >&2
    status=1
  fi
  if ! nm "$lean" | grep -c ' T __wrap___register_frame_info$' >/dev/null; then
    echo "FAIL: the static adlang registers its frames with the unwinder" >&2
    status=1
  fi
fi
echo "lean adlang: $(needed "$lean" | wc -l) libraries (static: $static);" \
  "adlang-full: $(needed "$full" | wc -l)"
exit $status
