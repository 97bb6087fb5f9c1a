#!/bin/sh
# SPDX-License-Identifier: MIT
# Every macro name libuv's headers leave defined is defined by include/phaseloop/uv/uv.h.
#
# The names are those of the system libuv's headers (Debian's libuv1-dev):
# the macros the preprocessor still knows after `#include <uv.h>` whose
# `#define` is in one of the uv headers that include pulled in (so the
# macros uv.h undefines at its end, and those of other platforms' headers,
# are not asked for).  Checked in the compiler's default mode and with
# _GNU_SOURCE.
#
# Environment: CC (default cc), UV_SYSTEM_CFLAGS (default: pkg-config).
# Exit: 0 PASS, 1 FAIL, 77 no system libuv header (automake SKIP).
set -u
CC=${CC:-cc}
here=$(cd "$(dirname "$0")" && pwd)
compat=$(cd "$here/../../include/phaseloop/uv" && pwd)
if [ -z "${UV_SYSTEM_CFLAGS+set}" ]; then
  UV_SYSTEM_CFLAGS=$(pkg-config --cflags libuv 2>/dev/null || true)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-macros.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
printf '#include <uv.h>\n' > "$tmp/m.c"

names() {  # names FLAGS... -> sorted macro names defined after <uv.h>
  # shellcheck disable=SC2086
  $CC -std=gnu11 "$@" -dM -E "$tmp/m.c" | awk '{ sub(/\(.*/, "", $2); print $2 }' | sort -u
}

status=0
for mode in default gnu; do
  case $mode in default) modeflags= ;; gnu) modeflags=-D_GNU_SOURCE ;; esac
  # shellcheck disable=SC2086
  if ! $CC -std=gnu11 $modeflags $UV_SYSTEM_CFLAGS -M "$tmp/m.c" > "$tmp/deps" 2>/dev/null; then
    echo "SKIP: no system libuv header (install libuv1-dev) to compare with"
    exit 77
  fi
  tr ' \\' '\n\n' < "$tmp/deps" | grep '/uv\(/.*\)\{0,1\}\.h$' | grep -v "^$compat/" > "$tmp/files"
  # shellcheck disable=SC2046
  sed -n 's/^[[:space:]]*#[[:space:]]*define[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
    $(cat "$tmp/files") | sort -u > "$tmp/declared"
  # shellcheck disable=SC2086
  names $modeflags $UV_SYSTEM_CFLAGS > "$tmp/sys"
  comm -12 "$tmp/sys" "$tmp/declared" > "$tmp/want"
  # shellcheck disable=SC2086
  names $modeflags -I"$compat" ${UV_COMPAT_CFLAGS:-} > "$tmp/ours"
  comm -23 "$tmp/want" "$tmp/ours" > "$tmp/missing"
  if [ -s "$tmp/missing" ]; then
    echo "macros ($mode mode): $(wc -l < "$tmp/missing") of libuv's $(wc -l < "$tmp/want") are missing from include/phaseloop/uv/uv.h:"
    sed 's/^/  /' "$tmp/missing"
    status=1
  else
    echo "macros ($mode mode): all $(wc -l < "$tmp/want") of libuv's macro names defined"
  fi
done
[ $status -eq 0 ] && echo PASS || echo FAIL
exit $status
