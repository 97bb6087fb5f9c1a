#!/bin/sh
# SPDX-License-Identifier: MIT
# When the kernel will not watch a descriptor (every epoll_ctl fails from
# some point on), the handle's callback gets the error once and the loop
# ends; when it will not watch the loop's own, the process ends naming the
# call (test/faults/refused_work.c, on the drop-in).
set -u
: "${CC:=cc}" "${DIFF_DROPIN_DIR:?run by make check}"
src=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/refused.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086
$CC -g -Wall ${DIFF_REF_CFLAGS:-} -o "$work/refused" "$src/test/faults/refused_work.c" "$src/test/faults/inject.c" \
  ${DIFF_REF_LIBS:--luv} -ldl || { echo "FAIL: refused_work.c does not build"; exit 1; }
# An ASan build runs inject.c's epoll_ctl ahead of ASan's own interceptors.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS
fails=0
for c in connect:connect read:read write:write udp:recv poll:poll listen:connection; do
  name=${c%%:*} says=${c#*:}
  PHASELOOP_FAULTS_CALLS=epoll_ctl LD_LIBRARY_PATH=$DIFF_DROPIN_DIR timeout -s KILL 20 "$work/refused" "$name" \
    > "$work/out" 2> "$work/err"
  st=$?
  if [ $st -ne 0 ] || ! grep -qxE "$says: E(NOMEM|NOSPC)" "$work/out"; then
    echo "FAIL: $name: exit $st, printed: $(cat "$work/out" "$work/err" | tr '\n' ' ')"
    fails=$((fails + 1))
  else
    echo "ok $name: $(cat "$work/out")"
  fi
done
# As libuv 1.44 (the loop's own descriptors registered by epoll_ctl
# system calls): under a 1.45+ profile a build whose default is 1.50 or
# newer (Debian 13) batches them through its epoll_ctl ring, which the
# injection does not reach.
PHASELOOP_PROFILE=libuv-1.44.2 PHASELOOP_FAULTS_CALLS=epoll_ctl LD_LIBRARY_PATH=$DIFF_DROPIN_DIR timeout -s KILL 20 "$work/refused" own \
  > "$work/out" 2> "$work/err"
st=$?
if [ $st -gt 128 ] && [ $st -ne 137 ] &&
   grep -qE "^phaseloop: epoll_ctl failed: .* \(E(NOMEM|NOSPC)\); the loop's own descriptor cannot be watched$" "$work/err"; then
  echo "ok own: $(head -1 "$work/err")"
else
  echo "FAIL: own: exit $st, printed: $(cat "$work/out" "$work/err" | tr '\n' ' ')"
  fails=$((fails + 1))
fi
[ $fails -eq 0 ]
