// SPDX-License-Identifier: MIT
/* Basic signal handle: start, receive a signal sent with uv_kill, stop,
 * close.  Delivery happens from the poll phase. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sig;
static uv_idle_t idle;
static int calls;

static void on_signal(uv_signal_t *h, int signum) {
  calls++;
  say("  signal cb: signum is SIGUSR1=%d active=%d", signum == SIGUSR1,
      uv_is_active((uv_handle_t *) h));
  CHECK(uv_signal_stop(h) == 0);
  say("  stopped in cb: active=%d", uv_is_active((uv_handle_t *) h));
}

static void on_idle(uv_idle_t *h) {
  say("  idle");
  CHECK(uv_idle_stop(h) == 0);
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  say("after init: active=%d alive=%d type=%s", uv_is_active((uv_handle_t *) &sig),
      uv_loop_alive(&loop), uv_handle_type_name(uv_handle_get_type((uv_handle_t *) &sig)));
  rc = uv_signal_start(&sig, on_signal, SIGUSR1);
  say("start = %s active=%d alive=%d", rc_name(rc),
      uv_is_active((uv_handle_t *) &sig), uv_loop_alive(&loop));

  CHECK(uv_idle_start(&idle, on_idle) == 0);
  rc = uv_kill(uv_os_getpid(), SIGUSR1);
  say("uv_kill = %s", rc_name(rc));
  say("calls before run=%d", calls);
  run_say(&loop, UV_RUN_DEFAULT);
  say("calls=%d", calls);

  rc = uv_signal_stop(&sig);
  say("stop again = %s", rc_name(rc));
  finish(&loop);
  return 0;
}
