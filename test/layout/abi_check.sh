#!/bin/sh
# SPDX-License-Identifier: MIT
# Build abi_smoke.c against include/phaseloop/uv/uv.h, link it with a libuv-ABI library
# and run it.  By default the library is the system libuv (pkg-config
# libuv), which proves that include/phaseloop/uv/uv.h's layouts are libuv's; set UV_LIBS
# to link against phaseloop instead.
#
# Environment: CC (default cc), UV_LIBS (link flags), UV_COMPAT_CFLAGS (the
# version uv.h is built for; default: the system libuv's), srcdir (automake).
# Exit: 0 PASS, 1 FAIL, 77 no library to link with (automake SKIP).

set -u

CC=${CC:-cc}

here=$(cd "$(dirname "$0")" && pwd)
top=
for cand in "$here/../.." "${srcdir:-.}" "${srcdir:-.}/../.."; do
  if [ -f "$cand/include/phaseloop/uv/uv.h" ] && [ -f "$cand/test/layout/abi_smoke.c" ]; then
    top=$(cd "$cand" && pwd)
    break
  fi
done
if [ -z "$top" ]; then
  echo "abi_check.sh: cannot find include/phaseloop/uv/uv.h and test/layout/abi_smoke.c" >&2
  exit 1
fi

if [ -z "${UV_LIBS+set}" ]; then
  UV_LIBS=$(pkg-config --libs libuv 2>/dev/null || echo -luv)
fi
# uv.h is built for the version of the library it is linked with: make
# check's UV_COMPAT_CFLAGS (the reference's), else the system libuv's.
if [ -z "${UV_COMPAT_CFLAGS+set}" ]; then
  v=$(pkg-config --modversion libuv 2>/dev/null)
  case $v in
    1.*.*) minor=${v#1.}; patch=${minor#*.}; minor=${minor%%.*}
           UV_COMPAT_CFLAGS="-DPHASELOOP_UV_VERSION_MINOR=$minor -DPHASELOOP_UV_VERSION_PATCH=$patch" ;;
    *) UV_COMPAT_CFLAGS= ;;
  esac
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-abi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# shellcheck disable=SC2086
if ! $CC -std=gnu11 -Wall -Wextra $UV_COMPAT_CFLAGS -I"$top/include/phaseloop/uv" -c "$top/test/layout/abi_smoke.c" \
     -o "$tmp/abi_smoke.o" 2> "$tmp/err"; then
  cat "$tmp/err"; echo "FAIL: abi_smoke.c does not compile against include/phaseloop/uv/uv.h"
  exit 1
fi
# shellcheck disable=SC2086
if ! $CC "$tmp/abi_smoke.o" -o "$tmp/abi_smoke" $UV_LIBS 2> "$tmp/err"; then
  cat "$tmp/err"; echo "SKIP: cannot link with: $UV_LIBS"
  exit 77
fi
"$tmp/abi_smoke"
