#!/bin/sh
# SPDX-License-Identifier: MIT
# Prove that include/phaseloop/uv/uv.h compiles cleanly, warnings as errors, as strict and
# GNU C (c99, c11, gnu11) and as C++ (c++11, c++17, c++20).  Needs no libuv.
#
# Environment: CC (default cc), CXX (default c++), srcdir (automake).
# Exit: 0 all builds clean, 1 otherwise.

set -u

CC=${CC:-cc}
CXX=${CXX:-c++}

here=$(cd "$(dirname "$0")" && pwd)
top=
for cand in "$here/../.." "${srcdir:-.}" "${srcdir:-.}/../.."; do
  if [ -f "$cand/include/phaseloop/uv/uv.h" ] && [ -f "$cand/test/layout/use_header.c" ]; then
    top=$(cd "$cand" && pwd)
    break
  fi
done
if [ -z "$top" ]; then
  echo "compile.sh: cannot find include/phaseloop/uv/uv.h and test/layout/use_header.c" >&2
  exit 1
fi

warn="-Wall -Wextra -Werror -pedantic"
status=0

try() {
  # try <description> <command...>
  what=$1; shift
  if "$@" 2> "$tmp/err"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    cat "$tmp/err"
    status=1
  fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-compile.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

for std in c99 c11 gnu11; do
  # shellcheck disable=SC2086
  try "C   -std=$std" $CC -std=$std $warn -I"$top/include/phaseloop/uv" \
      -c "$top/test/layout/use_header.c" -o "$tmp/c_$std.o"
done
for std in c++11 c++17 c++20; do
  # shellcheck disable=SC2086
  try "C++ -std=$std" $CXX -std=$std $warn -I"$top/include/phaseloop/uv" \
      -c "$top/test/layout/use_header.cc" -o "$tmp/cxx_$std.o"
done

if [ $status -eq 0 ]; then echo PASS; else echo FAIL; fi
exit $status
