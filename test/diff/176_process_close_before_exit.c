// SPDX-License-Identifier: MIT
/* Closing a process handle before its child exits: no exit callback, the
 * loop does not wait for the child, the loop closes cleanly; the child
 * runs on (uv_kill still reaches it).  Closing it from another process's
 * exit callback in the same reaping pass drops its exit callback too.
 * (Not the very next one's: libuv 1.44 has already stepped to it and
 * calls it on the closing handle; phaseloop does not.  Not shown.) */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static uv_process_t a, b, c;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  if (p == &a) {
    say("  closing c from a's exit callback");
    uv_close((uv_handle_t *) &c, NULL);
  }
  uv_close((uv_handle_t *) p, NULL);
}

static void on_close(uv_handle_t *h) { say("close cb %s", (const char *) h->data); }

int main(void) {
  uv_process_options_t o;
  int pid;
  CHECK(uv_loop_init(&loop) == 0);

  o = proc_sh("exec sleep 10", on_exit_cb, NULL, 0);
  a.data = (void *) "sleeper";
  CHECK(uv_spawn(&loop, &a, &o) == 0);
  pid = a.pid;
  uv_close((uv_handle_t *) &a, on_close);
  say("closing: active %d alive %d", uv_is_active((uv_handle_t *) &a), uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  say("child still there: %s", rc_name(uv_kill(pid, 0)));
  CHECK(uv_kill(pid, SIGKILL) == 0);
  proc_wait_exited(pid);

  /* a, b and c exit before the loop looks; a's callback closes c. */
  o = proc_sh("exit 1", on_exit_cb, NULL, 0);
  a.data = (void *) "a";
  CHECK(uv_spawn(&loop, &a, &o) == 0);
  o = proc_sh("exit 2", on_exit_cb, NULL, 0);
  b.data = (void *) "b";
  CHECK(uv_spawn(&loop, &b, &o) == 0);
  o = proc_sh("exit 3", on_exit_cb, NULL, 0);
  c.data = (void *) "c";
  CHECK(uv_spawn(&loop, &c, &o) == 0);
  proc_wait_exited(a.pid);
  proc_wait_exited(b.pid);
  proc_wait_exited(c.pid);
  run_say(&loop, UV_RUN_DEFAULT);

  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
