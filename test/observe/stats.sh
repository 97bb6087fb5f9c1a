#!/bin/sh
# SPDX-License-Identifier: MIT
# PHASELOOP_STATS=1 prints each loop's statistics table to stderr at exit,
# for a program built against phaseloop's libuv API and for a program built
# against Debian's libuv running unmodified on the drop-in libuv.so.1.
# Unset, the same programs print nothing of the kind.
#
# Environment (from make check): CC, DIFF_PL_CFLAGS, DIFF_PL_LIBS,
# DIFF_REF_CFLAGS, DIFF_REF_LIBS, DIFF_DROPIN_DIR.
set -u
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stats.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/prog.c" <<'C'
#include <uv.h>
static int fired;
static void on_timer(uv_timer_t* t) { if (++fired == 3) uv_timer_stop(t); }
int main(void) {
  uv_timer_t t;
  uv_timer_init(uv_default_loop(), &t);
  uv_timer_start(&t, on_timer, 1, 1);
  uv_run(uv_default_loop(), UV_RUN_DEFAULT);
  uv_close((uv_handle_t*)&t, NULL);
  uv_run(uv_default_loop(), UV_RUN_DEFAULT);
  return fired == 3 ? 0 : 1;
}
C
status=0

# check NAME COMMAND...: with PHASELOOP_STATS=1 the command succeeds and
# its stderr holds the table; with it unset, nothing of the table.
check() {
  name=$1
  shift
  if ! env PHASELOOP_STATS=1 "$@" 2> "$tmp/err"; then
    echo "FAIL $name: the program failed"; cat "$tmp/err"; status=1; return
  fi
  for want in "phaseloop stats: pid " "  timers " "  poll " "  closing " \
      "timer lag (ms, 3 timers): p50 "; do
    if ! grep -q "$want" "$tmp/err"; then
      echo "FAIL $name: no \"$want\" in stderr:"; cat "$tmp/err"; status=1; return
    fi
  done
  if ! env -u PHASELOOP_STATS "$@" 2> "$tmp/err"; then
    echo "FAIL $name: the program failed without PHASELOOP_STATS"; status=1; return
  fi
  if grep -q "phaseloop stats" "$tmp/err"; then
    echo "FAIL $name: a table without PHASELOOP_STATS"; status=1; return
  fi
  echo "ok: $name"
}

# shellcheck disable=SC2086
if ${CC:-cc} $DIFF_PL_CFLAGS -o "$tmp/pl" "$tmp/prog.c" $DIFF_PL_LIBS; then
  check "libphaseloop" "$tmp/pl"
else
  echo "FAIL: the program does not build against include/phaseloop/uv/uv.h"; status=1
fi

if pkg-config --exists libuv 2> /dev/null; then
  # shellcheck disable=SC2086
  if ${CC:-cc} $DIFF_REF_CFLAGS -o "$tmp/ref" "$tmp/prog.c" $DIFF_REF_LIBS; then
    check "Debian's libuv program on the drop-in" \
      env "LD_LIBRARY_PATH=${DIFF_DROPIN_DIR:?}" "$tmp/ref"
  else
    echo "FAIL: the program does not build against Debian's libuv"; status=1
  fi
else
  echo "note: no libuv for pkg-config; the drop-in half did not run"
fi
exit $status
