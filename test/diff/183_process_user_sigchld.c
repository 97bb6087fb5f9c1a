// SPDX-License-Identifier: MIT
/* A user's SIGCHLD handle and the loop's own child watcher side by side:
 * both are called for a child's exit (the user's handle before the exit
 * callback: it is ordered by address, and the loop's watcher lives in the
 * loop, after this program's static handle); a failed spawn's child also
 * raises SIGCHLD.  Stopping the user's handle leaves exit callbacks
 * working, and closing the last process handle leaves the user's handle
 * working. */
#include "diff.h"
#include "diff_proc.h"

static uv_signal_t user;
static uv_loop_t *loop;
static int user_calls;

static void on_sigchld(uv_signal_t *s, int signum) {
  (void) s;
  CHECK(signum == SIGCHLD);
  if (user_calls++ == 0) say("  user SIGCHLD handle");
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("  exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
}

static void spawn(const char *name, const char *file, const char *script) {
  uv_process_t proc;
  uv_process_options_t o = proc_sh(script, on_exit_cb, NULL, 0);
  int r;
  o.file = file;
  proc.data = (void *) name;
  user_calls = 0;
  r = uv_spawn(loop, &proc, &o);
  say("%s: %s", name, rc_name(r));
  /* A failed child was reaped inside uv_spawn; its SIGCHLD is noted all
   * the same, and read by the run below (its poll does not block while
   * the handle closes). */
  if (r != 0) uv_close((uv_handle_t *) &proc, NULL);
  uv_run(loop, UV_RUN_DEFAULT);
  say("  user handle called: %d", user_calls > 0);
}

int main(void) {
  /* The default loop lives in the library, after this program's data. */
  loop = uv_default_loop();
  CHECK(uv_signal_init(loop, &user) == 0);
  CHECK(uv_signal_start(&user, on_sigchld, SIGCHLD) == 0);
  uv_unref((uv_handle_t *) &user);
  spawn("exit 3", "/bin/sh", "exit 3");
  spawn("missing program", "/nonexistent", "");
  CHECK(uv_signal_stop(&user) == 0);
  spawn("user handle stopped", "/bin/sh", "exit 4");
  CHECK(uv_signal_start(&user, on_sigchld, SIGCHLD) == 0);
  user_calls = 0;
  uv_ref((uv_handle_t *) &user);
  CHECK(uv_kill(uv_os_getpid(), SIGCHLD) == 0);
  uv_run(loop, UV_RUN_ONCE);
  say("user handle after every process closed: %d", user_calls > 0);
  finish(loop);
  return 0;
}
