#!/bin/sh
# SPDX-License-Identifier: MIT
# against-ref.sh -- include/phaseloop/uv/uv.h built for another libuv
# version (-DPHASELOOP_UV_VERSION_MINOR/PATCH) against that version's real
# headers (tools/install-libuv-refs): the same sizes, offsets and constants
# (check.sh), every macro name (check_macros.sh), the same functions,
# typedefs and public members (check_sigs.sh).
#
# Usage: test/layout/against-ref.sh VERSION     (1.44.2, 1.50.0 or 1.53.0)
# Prints "N passed, M failed" over the three checks.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 1 ] || { sed -n '2,9p' "$0"; exit 2; }
ref=${PHASELOOP_ORACLE_DIR:-$top/.oracle}/libuv-$(echo "$1" | cut -d. -f1,2)
[ -d "$ref/include" ] || { echo "against-ref.sh: no $ref/include (run tools/install-libuv-refs)"; echo "0 passed, 1 failed"; exit 1; }
UV_SYSTEM_CFLAGS="-I$ref/include"
UV_COMPAT_CFLAGS="-DPHASELOOP_UV_VERSION_MINOR=$(echo "$1" | cut -d. -f2) -DPHASELOOP_UV_VERSION_PATCH=$(echo "$1" | cut -d. -f3)"
srcdir=$top
export UV_SYSTEM_CFLAGS UV_COMPAT_CFLAGS srcdir
pass=0
fail=0
for t in check.sh check_macros.sh check_sigs.sh; do
  if sh "$top/test/layout/$t" > "${TMPDIR:-/tmp}/against-ref-$t.log" 2>&1; then
    pass=$((pass + 1))
    echo "PASS: $t against libuv $1"
  else
    fail=$((fail + 1))
    echo "FAIL: $t against libuv $1:"
    tail -20 "${TMPDIR:-/tmp}/against-ref-$t.log"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
