#!/bin/sh
# SPDX-License-Identifier: MIT
# `phaseloop trace view`: the HTML page of a real trace, opened in real
# headless Chromium (tools/install-browser-oracle's), loads without a
# console error, draws the number of slices and flows test/observe/
# trace_check counts in the trace, and each of its features works: the
# activity view, track titles, tooltips, legend, search and keys
# (test/observe/html_view_browser.cjs says what it checks).
# PHASELOOP_SCREENSHOTS=DIR keeps screenshots of the page there (the ones
# in docs/images/ were made so: see docs/observe.md).
#
# Environment (from make check): CC, DIFF_PL_CFLAGS, DIFF_PL_LIBS,
# PHASELOOP_BIN, abs_top_builddir, PHASELOOP_BROWSER_ORACLE_DIR.
set -u
here=$(cd "$(dirname "$0")" && pwd)
check=${abs_top_builddir:?}/test/observe/trace_check
tmp=$(mktemp -d "${TMPDIR:-/tmp}/html-view.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The page names tracks after the program: a name to look for.
program=view-demo
cat > "$tmp/prog.c" <<'C'
#include <uv.h>
static int fired;
static uv_fs_t stat_req;
static uv_work_t work[3];
static uv_timer_t late;
static void on_late(uv_timer_t* t) { uv_sleep(3); uv_close((uv_handle_t*)t, NULL); }
static void on_timer(uv_timer_t* t) {
  if (++fired < 5) return;
  uv_close((uv_handle_t*)t, NULL);
  /* After a long idle poll, 3 ms of work: what the activity view shows. */
  uv_timer_init(t->loop, &late);
  uv_timer_start(&late, on_late, 750, 0);
}
static void on_stat(uv_fs_t* r) { uv_fs_req_cleanup(r); }
static void do_work(uv_work_t* w) { (void)w; uv_sleep(2); }
static void after_work(uv_work_t* w, int status) { (void)w; (void)status; }
static void on_idle(uv_idle_t* h) { uv_close((uv_handle_t*)h, NULL); }
static uv_async_t wake;
static void on_wake(uv_async_t* a) { uv_close((uv_handle_t*)a, NULL); }
static void sender(void* arg) { uv_sleep(3); uv_async_send(arg); }
/* A loop on another thread, busier than the main loop (60 ms in one
   callback, while the main loop's callbacks take about 4 ms, 30 ms more
   when a loaded machine preempts them): its track comes first. */
static void on_busy(uv_timer_t* t) { uv_sleep(60); uv_close((uv_handle_t*)t, NULL); }
static void worker_loop(void* arg) {
  uv_loop_t loop;
  uv_timer_t t;
  (void)arg;
  uv_loop_init(&loop);
  uv_timer_init(&loop, &t);
  uv_timer_start(&t, on_busy, 30, 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
}
int main(int argc, char** argv) {
  uv_loop_t* loop = uv_default_loop();
  uv_thread_t thread, worker;
  uv_timer_t t;
  uv_idle_t i;
  int k;
  (void)argc;
  uv_timer_init(loop, &t);
  uv_timer_start(&t, on_timer, 1, 2);
  uv_idle_init(loop, &i);
  uv_idle_start(&i, on_idle);
  uv_fs_stat(loop, &stat_req, argv[0], on_stat);
  for (k = 0; k < 3; k++) uv_queue_work(loop, &work[k], do_work, after_work);
  uv_async_init(loop, &wake, on_wake);
  uv_thread_create(&thread, sender, &wake);
  uv_thread_create(&worker, worker_loop, NULL);
  uv_run(loop, UV_RUN_DEFAULT);
  uv_thread_join(&thread);
  uv_thread_join(&worker);
  return uv_loop_close(loop);
}
C
# shellcheck disable=SC2086
${CC:-cc} $DIFF_PL_CFLAGS -o "$tmp/$program" "$tmp/prog.c" $DIFF_PL_LIBS || { echo "FAIL: build"; exit 1; }
PHASELOOP_TRACE="$tmp/t.json" "$tmp/$program" || { echo "FAIL: the program failed"; exit 1; }
"$check" "$tmp/t.json" --phases timers,poll --kinds timer,fs,async --jobs 4 --sends 1 > "$tmp/log" || { echo "FAIL: the trace:"; cat "$tmp/log"; exit 1; }
slices=$(sed -n 's/.* \([0-9][0-9]*\) slices closed and nested.*/\1/p' "$tmp/log")
flows=$(sed -n 's/.* \([0-9][0-9]*\) flows .*/\1/p' "$tmp/log")
[ -n "$slices" ] && [ -n "$flows" ] || { echo "FAIL: trace_check printed no slice or flow count: $(cat "$tmp/log")"; exit 1; }
"${PHASELOOP_BIN:?}" trace view "$tmp/t.json" -o "$tmp/t.html" || { echo "FAIL: phaseloop trace view"; exit 1; }
# Self-contained: no outside script, style or image.
if grep -Eiq '<(script|link|img)[^>]+(src|href)=' "$tmp/t.html"; then
  echo "FAIL: the page loads something from outside"; exit 1
fi
# Without the browser oracle the page is checked this far: a skip (77),
# saying how to install it (tools/test installs it, and counts a skip as a
# failure).
browser_dir=${PHASELOOP_BROWSER_ORACLE_DIR:-${abs_top_srcdir:-$here/../..}/.oracle/browser}
if [ ! -x "${PHASELOOP_CHROMIUM:-/usr/bin/chromium}" ] || [ ! -f "$browser_dir/node_modules/playwright-core/package.json" ] ||
   ! node=$("${abs_top_srcdir:-$here/../..}/tools/harness-node" 2>&1); then
  echo "SKIP: the page was written and is self-contained; no Chromium, playwright-core and Node >= 20 to open it (run tools/install-oracles and tools/install-browser-oracle)"
  exit 77
fi
"$node" "$here/html_view_browser.cjs" "$tmp/t.html" "$slices" "$flows" "$program" ${PHASELOOP_SCREENSHOTS:+"$PHASELOOP_SCREENSHOTS"}
