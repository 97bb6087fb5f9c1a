#!/bin/sh
# SPDX-License-Identifier: MIT
# run-ref.sh -- every diff scenario against one of the other real libuv
# versions tools/install-libuv-refs installs, phaseloop behaving as that
# version (PHASELOOP_PROFILE=libuv-VERSION).
#
# Usage: test/diff/run-ref.sh VERSION [run-all.sh options...]
#   VERSION   1.44.2, 1.50.0 or 1.53.0 (the directory .oracle/libuv-MAJOR.MINOR)
# Environment: PHASELOOP_BUILD (default <repo>/build), PHASELOOP_ORACLE_DIR
# (default <repo>/.oracle). A reference with a shared libuv.so.1 (1.50) is
# also replaced by the drop-in, as test/diff does with Debian's 1.44.
# Prints run-all.sh's "N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }
version=$1
shift
ref=${PHASELOOP_ORACLE_DIR:-$top/.oracle}/libuv-$(echo "$version" | cut -d. -f1,2)
build=${PHASELOOP_BUILD:-$top/build}
build=$(cd "$build" && pwd) || exit 1
if [ ! -f "$ref/cflags" ]; then
  echo "run-ref.sh: no libuv $version in $ref (run tools/install-libuv-refs)" >&2
  exit 1
fi
DIFF_REF_CFLAGS=$(cat "$ref/cflags")
DIFF_REF_LIBS=$(cat "$ref/libs")
DIFF_PL_CFLAGS="-I$top/include/phaseloop/uv -DPHASELOOP_UV_VERSION_MINOR=$(echo "$version" | cut -d. -f2)"
DIFF_PL_CFLAGS="$DIFF_PL_CFLAGS -DPHASELOOP_UV_VERSION_PATCH=$(echo "$version" | cut -d. -f3)"
DIFF_PL_LIBS="-L$build/.libs -lphaseloop-uv -lpthread -Wl,-rpath,$build/.libs"
DIFF_EXTRA_ENV="PHASELOOP_PROFILE=libuv-$version"
export DIFF_REF_CFLAGS DIFF_REF_LIBS DIFF_PL_CFLAGS DIFF_PL_LIBS DIFF_EXTRA_ENV
unset DIFF_DROPIN_DIR
if ls "$ref"/lib/libuv.so.1 > /dev/null 2>&1; then
  DIFF_DROPIN_DIR=$build/dropin/.libs
  export DIFF_DROPIN_DIR
fi
TMPDIR=${TMPDIR:-$build/test-tmp}
mkdir -p "$TMPDIR"
export TMPDIR
exec "$top/test/diff/run-all.sh" "$@"
