// SPDX-License-Identifier: MIT
/* Exit status and terminating signal reach the exit callback; the handle
 * is active until then.  Children run one after the other: each is
 * spawned from the previous one's exit callback. uv_walk shows the
 * process handle, never the loop's internal SIGCHLD watcher. */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static uv_process_t proc;
static int step;

static const char *const scripts[] = {
    "exit 0", "exit 3", "exit 255", "kill -TERM $$", "kill -KILL $$", "true", NULL};

static void count_handles(uv_handle_t *h, void *arg) {
  (void) h;
  ++*(int *) arg;
}

static void start_next(void);

static void on_close(uv_handle_t *h) {
  (void) h;
  start_next();
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  int n = 0;
  say("exit %d (%s): status %d signal %d active %d alive %d", step, scripts[step],
      (int) status, sig, uv_is_active((uv_handle_t *) p), uv_loop_alive(&loop));
  uv_walk(&loop, count_handles, &n);
  say("  walk sees %d handle(s)", n);
  step++;
  uv_close((uv_handle_t *) p, on_close);
}

static void start_next(void) {
  uv_process_options_t o;
  int n = 0;
  if (scripts[step] == NULL) return;
  o = proc_sh(scripts[step], on_exit_cb, NULL, 0);
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  CHECK(proc.pid > 0);
  CHECK(uv_process_get_pid(&proc) == proc.pid);
  uv_walk(&loop, count_handles, &n);
  say("spawned %d: active %d ref %d walk %d type %s", step, uv_is_active((uv_handle_t *) &proc),
      uv_has_ref((uv_handle_t *) &proc), n, uv_handle_type_name(proc.type));
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  start_next();
  run_say(&loop, UV_RUN_DEFAULT);
  say("steps %d", step);
  finish(&loop);
  return 0;
}
