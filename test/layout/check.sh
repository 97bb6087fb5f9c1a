#!/bin/sh
# SPDX-License-Identifier: MIT
# Compare the layout of phaseloop's include/phaseloop/uv/uv.h with the system libuv header.
#
# Builds test/layout/probe.c twice -- once against the installed libuv
# <uv.h> and once against include/phaseloop/uv/uv.h -- runs both and diffs their output
# (sizes, alignments, offsets, constant values).  Does this in two feature
# modes: the compiler default and -D_GNU_SOURCE.
#
# Usage: test/layout/check.sh            (from anywhere)
# Environment: CC (default cc), srcdir (automake), UV_SYSTEM_CFLAGS (flags
# that locate the system libuv header; default: pkg-config --cflags libuv).
# Exit: 0 identical (PASS), 1 differences or build failure,
#       77 no system libuv header to compare with (automake SKIP).

set -u

CC=${CC:-cc}

# Locate the source tree: the script's own location first, then $srcdir
# (which automake sets either to the top source dir or to this directory).
here=$(cd "$(dirname "$0")" && pwd)
top=
for cand in "$here/../.." "${srcdir:-.}" "${srcdir:-.}/../.."; do
  if [ -f "$cand/include/phaseloop/uv/uv.h" ] && [ -f "$cand/test/layout/probe.c" ]; then
    top=$(cd "$cand" && pwd)
    break
  fi
done
if [ -z "$top" ]; then
  echo "check.sh: cannot find include/phaseloop/uv/uv.h and test/layout/probe.c" >&2
  exit 1
fi
probe="$top/test/layout/probe.c"
compat="$top/include/phaseloop/uv"

if [ -z "${UV_SYSTEM_CFLAGS+set}" ]; then
  UV_SYSTEM_CFLAGS=$(pkg-config --cflags libuv 2>/dev/null || true)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/phaseloop-layout.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

# The probe needs C11 _Alignof; -std comes last so it wins over CC's own.
std=-std=gnu11

# Is there a system libuv header at all?
printf '#include <uv.h>\n' > "$tmp/has_uv.c"
# shellcheck disable=SC2086
if ! $CC $std $UV_SYSTEM_CFLAGS -E "$tmp/has_uv.c" -o /dev/null 2>/dev/null; then
  echo "SKIP: no system libuv header (install libuv1-dev) to compare with"
  exit 77
fi

status=0
for mode in default gnu; do
  case $mode in
    default) modeflags= ;;
    gnu) modeflags=-D_GNU_SOURCE ;;
  esac

  # 1. The build against compat/ must see our header and nothing of libuv's.
  # shellcheck disable=SC2086
  if ! $CC $std $modeflags -I"$compat" ${UV_COMPAT_CFLAGS:-} -M "$probe" > "$tmp/deps" 2> "$tmp/err"; then
    cat "$tmp/err" >&2; echo "FAIL: cannot preprocess probe against compat/"
    exit 1
  fi
  if ! grep -q "include/phaseloop/uv/uv.h" "$tmp/deps"; then
    echo "FAIL: include/phaseloop/uv/uv.h was not used by the compat build"; exit 1
  fi
  if tr ' \\' '\n\n' < "$tmp/deps" | grep -v "^$compat/" | grep -q '/uv\(/.*\)\{0,1\}\.h$'; then
    echo "FAIL: the compat build also included a libuv header:"
    tr ' \\' '\n\n' < "$tmp/deps" | grep -v "^$compat/" | grep '/uv\(/.*\)\{0,1\}\.h$'
    exit 1
  fi
  # ... and the reference build must not pick up ours.
  # shellcheck disable=SC2086
  $CC $std $modeflags $UV_SYSTEM_CFLAGS -M "$probe" > "$tmp/deps.sys" 2>/dev/null
  if grep -q "phaseloop/uv/uv" "$tmp/deps.sys"; then
    echo "FAIL: the system build picked up include/phaseloop/uv/uv.h"; exit 1
  fi

  # 2. Build and run both probes.
  # shellcheck disable=SC2086
  if ! $CC $std $modeflags $UV_SYSTEM_CFLAGS "$probe" -o "$tmp/probe_sys" 2> "$tmp/err"; then
    cat "$tmp/err" >&2; echo "FAIL: probe does not build against the system libuv header"
    exit 1
  fi
  # shellcheck disable=SC2086
  if ! $CC $std $modeflags -I"$compat" ${UV_COMPAT_CFLAGS:-} "$probe" -o "$tmp/probe_ours" 2> "$tmp/err"; then
    cat "$tmp/err" >&2; echo "FAIL: probe does not build against include/phaseloop/uv/uv.h"
    exit 1
  fi
  "$tmp/probe_sys" > "$tmp/sys.out" || { echo "FAIL: system probe crashed"; exit 1; }
  "$tmp/probe_ours" > "$tmp/ours.out" || { echo "FAIL: compat probe crashed"; exit 1; }

  # 3. Compare.
  lines=$(wc -l < "$tmp/sys.out" | tr -d ' ')
  if diff -u "$tmp/sys.out" "$tmp/ours.out" > "$tmp/diff"; then
    echo "layout ($mode mode): $lines probe lines identical"
  else
    echo "layout ($mode mode): DIFFERENCES (--- libuv, +++ phaseloop):"
    cat "$tmp/diff"
    status=1
  fi
done

if [ $status -eq 0 ]; then
  echo PASS
else
  echo FAIL
fi
exit $status
