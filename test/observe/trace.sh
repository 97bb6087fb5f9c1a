#!/bin/sh
# SPDX-License-Identifier: MIT
# PHASELOOP_TRACE=FILE writes a Chrome Trace Event file that
# test/observe/trace_check accepts (JSON, every slice closed and nested,
# timestamps in order) with the phases and callback kinds the program made:
# for a program built against phaseloop's libuv API, for a program built
# against Debian's libuv on the drop-in, with a limit (events dropped and
# counted), and for a program ended by SIGTERM while it waits in poll.
#
# Environment (from make check): CC, DIFF_PL_CFLAGS, DIFF_PL_LIBS,
# DIFF_REF_CFLAGS, DIFF_REF_LIBS, DIFF_DROPIN_DIR, abs_top_builddir.
set -u
check=${abs_top_builddir:?}/test/observe/trace_check
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/prog.c" <<'C'
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>
static int fired;
static uv_fs_t stat_req;
static uv_work_t work;
static void on_timer(uv_timer_t* t) { if (++fired == 3) uv_timer_stop(t); }
static void on_stat(uv_fs_t* r) { uv_fs_req_cleanup(r); }
static void do_work(uv_work_t* w) { (void)w; }
static void after_work(uv_work_t* w, int status) { (void)w; (void)status; }
static int forever;
static void on_idle(uv_idle_t* h) {
  uv_idle_stop(h);
  if (forever) printf("ready\n"), fflush(stdout);
}
static void on_check(uv_check_t* h) { uv_check_stop(h); }
static void on_close(uv_handle_t* h) { (void)h; }
/* An async handle: sent once from another thread, then once from its own
   callback on the loop's thread; closed by the second callback. */
static uv_async_t wake;
static int woken;
static void on_wake(uv_async_t* a) {
  if (++woken == 1) uv_async_send(a);
  else uv_close((uv_handle_t*)a, on_close);
}
static void sender(void* arg) { uv_async_send(arg); }
/* A write that completes at once: its callback runs in the pending phase. */
static uv_pipe_t pipe_end;
static uv_write_t write_req;
static int peer_fd = -1, written;
static void on_write(uv_write_t* r, int status) {
  (void)r;
  written = status == 0;
  uv_close((uv_handle_t*)&pipe_end, on_close);
  close(peer_fd);
}
int main(int argc, char** argv) {
  uv_loop_t* loop = uv_default_loop();
  uv_thread_t thread;
  uv_timer_t t;
  uv_idle_t i;
  uv_check_t c;
  uv_timer_init(loop, &t);
  /* "forever": a timer that keeps the loop waiting in poll until a signal */
  forever = argc > 1;
  if (forever) uv_timer_start(&t, on_timer, 100000, 0);
  else uv_timer_start(&t, on_timer, 1, 1);
  uv_idle_init(loop, &i);
  uv_idle_start(&i, on_idle);
  uv_check_init(loop, &c);
  uv_check_start(&c, on_check);
  uv_fs_stat(loop, &stat_req, argv[0], on_stat);
  uv_queue_work(loop, &work, do_work, after_work);
  uv_async_init(loop, &wake, on_wake);
  uv_thread_create(&thread, sender, &wake);
  {
    int fds[2];
    uv_buf_t b = uv_buf_init("x", 1);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 2;
    peer_fd = fds[1];
    uv_pipe_init(loop, &pipe_end, 0);
    uv_pipe_open(&pipe_end, fds[0]);
    uv_write(&write_req, (uv_stream_t*)&pipe_end, &b, 1, on_write);
  }
  uv_run(loop, UV_RUN_DEFAULT);
  uv_thread_join(&thread);
  uv_close((uv_handle_t*)&t, on_close);
  uv_close((uv_handle_t*)&i, on_close);
  uv_close((uv_handle_t*)&c, on_close);
  uv_run(loop, UV_RUN_DEFAULT);
  return uv_loop_close(loop) == 0 && fired == 3 && woken == 2 && written ? 0 : 1;
}
C
status=0
phases=timers,pending,idle,prepare,poll,check,closing
kinds=timer,idle,check,fs,"work done",async,close

# run NAME OUT COMMAND...: the command succeeds with PHASELOOP_TRACE=OUT and
# OUT passes trace_check with every phase and callback kind, a flow from
# the stat's and the work's start to their callbacks through their jobs on
# threadpool workers (two job slices), a flow from each of the two async
# sends (one from another thread's track, one from the loop's own) to its
# callback, a flow from a write to its callback in the pending phase, and
# the loop's close as an instant.
run() {
  name=$1 out=$2
  shift 2
  if ! env PHASELOOP_TRACE="$out" "$@" > "$tmp/log" 2>&1; then
    echo "FAIL $name: the program failed"; cat "$tmp/log"; status=1; return
  fi
  if "$check" "$out" --phases "$phases" --kinds "$kinds" --flows 5 --jobs 2 --sends 2 > "$tmp/log" &&
      grep -q '"name":"write"' "$out" &&
      grep -q '"name":"loop closed"' "$out" && grep -q '"threadpool":' "$out" &&
      grep -q '"name":"threadpool worker [0-9]*"' "$out" && grep -q '"name":"thread [0-9]*"' "$out"; then
    echo "ok: $name: $(cat "$tmp/log")"
  else
    echo "FAIL $name:"; cat "$tmp/log"; status=1
  fi
}

# shellcheck disable=SC2086
${CC:-cc} $DIFF_PL_CFLAGS -o "$tmp/pl" "$tmp/prog.c" $DIFF_PL_LIBS || { echo "FAIL: build"; exit 1; }
run "libphaseloop" "$tmp/pl.json" "$tmp/pl"

# A limit of 40 events: the file is still well formed and says how many
# events it dropped.
if PHASELOOP_TRACE="$tmp/limit.json" PHASELOOP_TRACE_LIMIT=40 "$tmp/pl" &&
    "$check" "$tmp/limit.json" --phases timers > "$tmp/log" &&
    grep -q '"dropped_events":[1-9]' "$tmp/limit.json" && grep -q '"events dropped"' "$tmp/limit.json"; then
  echo "ok: limit: $(cat "$tmp/log")"
else
  echo "FAIL limit: no well-formed trace that counts its dropped events"; cat "$tmp/log"; status=1
fi

# SIGTERM while the loop waits in poll: the file is written, its open
# slices closed as unfinished.
PHASELOOP_TRACE="$tmp/term.json" "$tmp/pl" forever > "$tmp/ready" &
pid=$!
n=0
while [ $n -lt 100 ] && ! grep -q ready "$tmp/ready"; do n=$((n + 1)); sleep 0.1; done
sleep 0.3  # into the poll phase's wait
kill -TERM $pid
wait $pid
if [ -e "$tmp/term.json" ] && "$check" "$tmp/term.json" --phases timers,poll > "$tmp/log" &&
    grep -q '"unfinished":true' "$tmp/term.json"; then
  echo "ok: SIGTERM: $(cat "$tmp/log")"
else
  echo "FAIL SIGTERM: no well-formed trace with the poll left unfinished"; cat "$tmp/log"; status=1
fi

if pkg-config --exists libuv 2> /dev/null; then
  # shellcheck disable=SC2086
  ${CC:-cc} $DIFF_REF_CFLAGS -o "$tmp/ref" "$tmp/prog.c" $DIFF_REF_LIBS || { echo "FAIL: build (libuv)"; exit 1; }
  run "Debian's libuv program on the drop-in" "$tmp/ref.json" env "LD_LIBRARY_PATH=${DIFF_DROPIN_DIR:?}" "$tmp/ref"
else
  echo "note: no libuv for pkg-config; the drop-in half did not run"
fi
exit $status
