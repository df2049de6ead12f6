#!/usr/bin/env bash
# Start-up (docs/performance.md, "Start-up"; cli/full_build.hpp): the lean adlang links none of
# the libraries that adlang-full has for a few commands (CPython, OpenMPI, Graphviz, libedit,
# xeus and its ZeroMQ, cpp-httplib with OpenSSL, zlib and brotli), and adlang-full links them all.
# Usage: startup_libraries_test.sh ADLANG ADLANG_FULL
set -euo pipefail
lean=$1 full=$2
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
echo "lean adlang: $(needed "$lean" | wc -l) libraries; adlang-full: $(needed "$full" | wc -l)"
exit $status
