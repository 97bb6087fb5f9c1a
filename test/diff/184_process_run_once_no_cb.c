// SPDX-License-Identifier: MIT
/* A child's exit ends a blocking UV_RUN_ONCE; the exit callback runs in
 * the poll phase (between the prepare and check markers).  With no exit
 * callback the handle still turns inactive when the child is reaped and
 * stops keeping the loop alive. */
#include "diff.h"
#include "diff_net.h"
#include "diff_proc.h"

static uv_loop_t loop;
static uv_process_t proc;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("  exit: status %d signal %d", (int) status, sig);
  (void) p;
}

int main(void) {
  uv_process_options_t o;
  int r;
  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);

  o = proc_sh("sleep 0.05; exit 2", on_exit_cb, NULL, 0);
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  do {
    say("run ONCE");
    r = uv_run(&loop, UV_RUN_ONCE);
  } while (r != 0);
  say("loop alive %d, process active %d", uv_loop_alive(&loop), uv_is_active((uv_handle_t *) &proc));
  uv_close((uv_handle_t *) &proc, NULL);
  run_say(&loop, UV_RUN_DEFAULT);

  o = proc_sh("exit 2", NULL, NULL, 0);
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  say("no exit callback: active %d", uv_is_active((uv_handle_t *) &proc));
  net_markers_on = 0;
  run_say(&loop, UV_RUN_DEFAULT);
  say("after the run: active %d", uv_is_active((uv_handle_t *) &proc));
  finish(&loop);
  return 0;
}
