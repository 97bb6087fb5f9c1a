// SPDX-License-Identifier: MIT
/* A process handle keeps the loop alive while its child runs, unless
 * unreferenced; the loop's SIGCHLD watcher never does.  A child that ends
 * while nobody runs the loop is reported by the next poll (here one that
 * a zero timer keeps from blocking). */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static uv_process_t proc;
static uv_timer_t timer;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("exit: status %d signal %d active %d ref %d", (int) status, sig, uv_is_active((uv_handle_t *) p),
      uv_has_ref((uv_handle_t *) p));
}

static void on_timer(uv_timer_t *t) {
  (void) t;
  say("timer");
}

int main(void) {
  uv_process_options_t o;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  say("fresh loop: alive %d", uv_loop_alive(&loop));

  o = proc_sh("read x", on_exit_cb, NULL, 0);  /* stdin is /dev/null */
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  uv_unref((uv_handle_t *) &proc);
  say("unreferenced child: alive %d active %d", uv_loop_alive(&loop), uv_is_active((uv_handle_t *) &proc));
  run_say(&loop, UV_RUN_DEFAULT);
  proc_wait_exited(proc.pid);
  say("child ended, loop not running: active %d", uv_is_active((uv_handle_t *) &proc));
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  uv_close((uv_handle_t *) &proc, NULL);
  run_say(&loop, UV_RUN_DEFAULT);

  o = proc_sh("exit 9", on_exit_cb, NULL, 0);
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  uv_unref((uv_handle_t *) &proc);
  uv_ref((uv_handle_t *) &proc);
  say("referenced again: alive %d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("after exit: alive %d", uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
