#!/bin/sh
# SPDX-License-Identifier: MIT
# After a failed write nothing more goes out on the stream: the requests
# behind it and those made later get its error, and the peer receives
# only the start of what was written, never a byte stream with a hole
# (test/faults/write_error_work.c, on the drop-in; real libuv goes on with
# the next request).
set -u
: "${CC:=cc}" "${DIFF_DROPIN_DIR:?run by make check}"
src=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/write_error.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
$CC -g -Wall ${DIFF_REF_CFLAGS:-} -o "$work/write_error" "$src/test/faults/write_error_work.c" "$src/test/faults/inject.c" \
  ${DIFF_REF_LIBS:--luv} -ldl || { echo "FAIL: write_error_work.c does not build"; exit 1; }
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
PHASELOOP_FAULTS_CALLS=write,writev LD_LIBRARY_PATH=$DIFF_DROPIN_DIR timeout -s KILL 30 "$work/write_error" \
  > "$work/out" 2> "$work/err"
st=$?
printf '%s\n' "A: ENOMEM" "B: ENOMEM" "C: ENOMEM" "try_write after: ENOMEM" \
  "server: EOF after some bytes; a start of A: yes" > "$work/want"
if [ $st -ne 0 ] || ! cmp -s "$work/want" "$work/out"; then
  echo "FAIL: exit $st; printed:"
  cat "$work/out" "$work/err"
  echo "wanted:"
  cat "$work/want"
  exit 1
fi
echo "ok: $(tr '\n' ' ' < "$work/out")"
