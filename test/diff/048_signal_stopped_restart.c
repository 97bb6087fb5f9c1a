// SPDX-License-Identifier: MIT
/* A signal arriving while its handle is stopped is not reported later.
 * Restarting works; starting an active handle again with the same signal
 * only swaps the callback; starting it with another signal number moves
 * it.  SIGWINCH and SIGURG are used because their default disposition
 * (ignore) applies while no handle watches them. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sig;
static uv_timer_t guard;
static int calls;

static const char *signame(int s) {
  if (s == SIGWINCH) return "SIGWINCH";
  if (s == SIGUSR2) return "SIGUSR2";
  if (s == SIGURG) return "SIGURG";
  return "other";
}

static void on_signal(uv_signal_t *h, int signum) {
  (void) h;
  calls++;
  say("  signal cb %s", signame(signum));
}

static void on_other_cb(uv_signal_t *h, int signum) {
  (void) h;
  calls++;
  say("  second callback %s", signame(signum));
}

static void on_guard(uv_timer_t *h) {
  (void) h;
  say("  guard timer");
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  CHECK(uv_timer_init(&loop, &guard) == 0);

  CHECK(uv_signal_start(&sig, on_signal, SIGWINCH) == 0);
  CHECK(uv_signal_stop(&sig) == 0);
  say("started+stopped; kill SIGWINCH");
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  CHECK(uv_timer_start(&guard, on_guard, 20, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);

  rc = uv_signal_start(&sig, on_signal, SIGWINCH);
  say("restart = %s; kill SIGWINCH", rc_name(rc));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("calls=%d", calls);

  rc = uv_signal_start(&sig, on_other_cb, SIGWINCH);
  say("start same signum with another cb = %s; kill SIGWINCH", rc_name(rc));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  run_say(&loop, UV_RUN_ONCE);

  rc = uv_signal_start(&sig, on_signal, SIGURG);
  say("move to SIGURG = %s; kill SIGWINCH then SIGURG", rc_name(rc));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGURG) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("calls=%d", calls);
  CHECK(uv_signal_stop(&sig) == 0);
  finish(&loop);
  return 0;
}
