#!/bin/sh
# SPDX-License-Identifier: MIT
# `phaseloop trace -- COMMAND`: a program built against Debian's libuv,
# unmodified, runs on the drop-in with tracing on. Checked: its exit status
# comes back; the timeline passes test/observe/trace_check with the phases
# and callbacks it made; a second libuv process started by the command
# (through a shell) writes FILE.<pid>; the summary names the files and
# prints each loop's statistics; --html writes the pages; --profile reaches
# the program (uv_version_string()); bad usage and a program that loads no
# libuv.so.1 get clear messages.
#
# Environment (from make check): CC, DIFF_REF_CFLAGS, DIFF_REF_LIBS,
# PHASELOOP_BIN, abs_top_builddir.
set -u
phaseloop=${PHASELOOP_BIN:?}
check=${abs_top_builddir:?}/test/observe/trace_check
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace-cmd.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

cat > "$tmp/prog.c" <<'C'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>
static int fired;
static int term;
static uv_work_t work;
static void on_close(uv_handle_t* h) { (void)h; }
static void on_timer(uv_timer_t* t) {
  if (++fired == 3) {
    if (term) raise(SIGTERM);
    uv_close((uv_handle_t*)t, on_close);
  }
}
static void do_work(uv_work_t* w) { (void)w; }
static void after_work(uv_work_t* w, int status) { (void)w; (void)status; }
int main(int argc, char** argv) {
  uv_loop_t* loop = uv_default_loop();
  uv_timer_t t;
  term = argc > 1 && strcmp(argv[1], "term") == 0;
  printf("version %s\n", uv_version_string());
  fflush(stdout);
  uv_timer_init(loop, &t);
  uv_timer_start(&t, on_timer, 1, 1);
  uv_queue_work(loop, &work, do_work, after_work);
  uv_run(loop, UV_RUN_DEFAULT);
  return argc > 1 ? atoi(argv[1]) : 0;
}
C
# shellcheck disable=SC2086
${CC:-cc} $DIFF_REF_CFLAGS -o "$tmp/prog" "$tmp/prog.c" $DIFF_REF_LIBS || { echo "FAIL: build"; exit 1; }

# The exit status comes back; the file passes the checks.
(cd "$tmp" && "$phaseloop" trace -o run1.json -- ./prog 3 > out1 2> err1)
rc=$?
[ $rc = 3 ] || fail "exit status: $rc, wanted the program's 3"
if "$check" "$tmp/run1.json" --phases timers,poll,closing --kinds timer,"work done",close > "$tmp/log"; then
  echo "ok: trace -- ./prog: $(cat "$tmp/log")"
else
  fail "the timeline:"; cat "$tmp/log"
fi
grep -q "timeline $tmp/run1.json" "$tmp/err1" || fail "the summary does not name the file"
grep -q "phaseloop stats: pid" "$tmp/err1" || fail "the summary has no statistics table"
grep -q "exited with status 3" "$tmp/err1" || fail "the summary does not give the exit status"
grep -q "version 1\.[0-9]*\.[0-9]*-phaseloop" "$tmp/out1" || fail "the program did not run on the drop-in: $(cat "$tmp/out1")"

# A program ended by SIGTERM (at its default action) still reports its
# statistics and writes its timeline.
(cd "$tmp" && "$phaseloop" trace -o term.json -- ./prog term > out9 2> err9)
rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit status $rc, wanted 143"
grep -q "was killed by signal 15" "$tmp/err9" || fail "SIGTERM: the summary does not say so: $(cat "$tmp/err9")"
grep -q "phaseloop stats: pid" "$tmp/err9" || fail "SIGTERM: no statistics table: $(cat "$tmp/err9")"
"$check" "$tmp/term.json" --phases timers > "$tmp/log" || { fail "SIGTERM: the timeline:"; cat "$tmp/log"; }
[ "$status" = 0 ] && echo "ok: trace -- ./prog term: killed by SIGTERM, statistics and timeline kept"

# A child that opens loops too writes FILE.<pid>; --html writes the pages;
# --profile reaches the program.
(cd "$tmp" && "$phaseloop" trace -o two.json --html --profile 1.50.0 -- sh -c './prog && ./prog' > out2 2> err2)
rc=$?
[ $rc = 0 ] || fail "two programs: exit status $rc"
n=$(grep -c "version 1\.50\.0-phaseloop" "$tmp/out2")
[ "$n" = 2 ] || fail "--profile 1.50.0: the programs said $(cat "$tmp/out2")"
children=$(ls "$tmp"/two.json.[0-9]* 2> /dev/null | grep -v '\.html$' | wc -l)
[ -f "$tmp/two.json" ] && [ "$children" = 1 ] || fail "two programs: files $(ls "$tmp")"
for f in "$tmp/two.json" "$tmp"/two.json.[0-9]*; do
  case $f in *.html) continue ;; esac
  "$check" "$f" --phases timers,poll > "$tmp/log" || { fail "$f:"; cat "$tmp/log"; }
  [ -s "${f%.json}.html" ] || [ -s "$f.html" ] || fail "--html wrote no page for $f"
done
[ "$(grep -c "^phaseloop stats: pid" "$tmp/err2")" -ge 2 ] || fail "two programs: not two statistics tables"
[ "$status" = 0 ] && echo "ok: trace --html --profile -- sh -c './prog && ./prog': 2 files, 2 pages"

# -o PAGE.html: the page there, the timeline beside it; --output VALUE.
(cd "$tmp" && "$phaseloop" trace --output page.html -- ./prog > out8 2> err8)
[ -s "$tmp/page.html" ] && [ -s "$tmp/page.json" ] && [ ! -e "$tmp/page.html.html" ] ||
  fail "trace --output page.html: files $(ls "$tmp" | tr '\n' ' ')"
grep -q "page $tmp/page.html" "$tmp/err8" || fail "trace -o page.html: the page is not named: $(cat "$tmp/err8")"
grep -q "ui.perfetto.dev" "$tmp/err8" && ! grep -q "chrome://tracing" "$tmp/err8" || fail "the summary should point to Perfetto only"
"$phaseloop" trace --help > "$tmp/help" 2>&1 && grep -q "phaseloop trace \[-o FILE\]" "$tmp/help" || fail "trace --help"
"$phaseloop" trace view --help > "$tmp/help" 2>&1 && grep -q "phaseloop trace view FILE.json" "$tmp/help" || fail "trace view --help"

# Usage errors and a program without libuv.
"$phaseloop" trace > /dev/null 2>&1; [ $? = 2 ] || fail "no command: wanted status 2"
"$phaseloop" trace --profile banana -- true 2> "$tmp/err3"; rc=$?
[ $rc = 2 ] && grep -q "no libuv version" "$tmp/err3" || fail "--profile banana: status $rc, $(cat "$tmp/err3")"
(cd "$tmp" && "$phaseloop" trace -o none.json -- true 2> err4); rc=$?
[ $rc = 0 ] && grep -q "no trace was written" "$tmp/err4" || fail "a program without libuv: status $rc, $(cat "$tmp/err4")"
(cd "$tmp" && "$phaseloop" trace -- ./no-such-program 2> err5); rc=$?
[ $rc = 127 ] && grep -q "cannot run ./no-such-program" "$tmp/err5" || fail "a missing program: status $rc, $(cat "$tmp/err5")"
"$phaseloop" trace --profile 1.99 -- true 2> "$tmp/err7"; rc=$?
[ $rc = 2 ] && grep -q "1.44 to 1.53" "$tmp/err7" || fail "--profile 1.99 (no such libuv): status $rc, $(cat "$tmp/err7")"
# A program whose libuv is built in (no DT_NEEDED libuv.so.1) is named
# before it runs: /bin/true loads no libuv at all.
grep -q "does not load libuv.so.1" "$tmp/err4" || fail "true: not named as a program that loads no libuv.so.1: $(cat "$tmp/err4")"
grep -q "does not load libuv.so.1" "$tmp/err1" && fail "./prog links libuv.so.1 but was named as one that does not"
# A program that loads libuv.so.1 through a library of its own (as
# Debian's node does through libnode.so), found by its run path: not named.
printf 'int uv_version(void);\nint mid_version(void) { return (int)uv_version(); }\n' > "$tmp/mid.c"
printf 'int mid_version(void);\nint main(void) { return mid_version() > 0 ? 0 : 1; }\n' > "$tmp/viamid.c"
# shellcheck disable=SC2086,SC2016
# Both are built with the build's flags (the sanitizers' runtime must be
# the first library the program loads).
if ${CC:-cc} $DIFF_REF_CFLAGS -shared -fPIC -o "$tmp/libmid.so" "$tmp/mid.c" $DIFF_REF_LIBS &&
   ${CC:-cc} $DIFF_REF_CFLAGS -o "$tmp/viamid" "$tmp/viamid.c" -L"$tmp" -lmid -Wl,-rpath,'$ORIGIN'; then
  (cd "$tmp" && "$phaseloop" trace -o viamid.json -- ./viamid > /dev/null 2> err9); rc=$?
  [ $rc = 0 ] || fail "./viamid (libuv through libmid.so): status $rc, $(cat "$tmp/err9")"
  grep -q "does not load libuv.so.1" "$tmp/err9" &&
    fail "./viamid loads libuv.so.1 through libmid.so but was named as one that does not"
else
  fail "build of libmid.so / viamid"
fi
"$phaseloop" trace view "$tmp/prog.c" -o "$tmp/x.html" 2> "$tmp/err6"; rc=$?
[ $rc = 1 ] && grep -q "is not a trace" "$tmp/err6" || fail "trace view of a C file: status $rc, $(cat "$tmp/err6")"
[ "$status" = 0 ] && echo "ok: usage errors, no libuv, a missing program, not a trace"
exit $status
