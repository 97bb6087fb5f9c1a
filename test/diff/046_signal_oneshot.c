// SPDX-License-Identifier: MIT
/* uv_signal_start_oneshot: the callback runs once, the handle becomes
 * inactive after the callback returns.  SIGWINCH is used because its
 * default action is to ignore the signal. */
#include "diff.h"
#include <signal.h>

static uv_signal_t once, normal;
static uv_timer_t guard;
static int once_calls, normal_calls;

static void on_once(uv_signal_t *h, int signum) {
  once_calls++;
  say("  oneshot cb #%d SIGWINCH=%d active=%d", once_calls, signum == SIGWINCH,
      uv_is_active((uv_handle_t *) h));
}

static void on_normal(uv_signal_t *h, int signum) {
  (void) signum;
  normal_calls++;
  say("  normal cb #%d active=%d", normal_calls, uv_is_active((uv_handle_t *) h));
}

static void on_guard(uv_timer_t *h) {
  (void) h;
  say("  guard timer");
}

int main(void) {
  uv_loop_t loop;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &once) == 0);
  CHECK(uv_signal_init(&loop, &normal) == 0);
  CHECK(uv_timer_init(&loop, &guard) == 0);

  rc = uv_signal_start_oneshot(&once, on_once, SIGWINCH);
  say("start_oneshot = %s active=%d", rc_name(rc), uv_is_active((uv_handle_t *) &once));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  say("sent SIGWINCH twice");
  run_say(&loop, UV_RUN_DEFAULT);
  say("once_calls=%d active=%d alive=%d", once_calls,
      uv_is_active((uv_handle_t *) &once), uv_loop_alive(&loop));

  /* Re-arm the one-shot and add a normal handle on the same signal. */
  rc = uv_signal_start_oneshot(&once, on_once, SIGWINCH);
  say("re-arm oneshot = %s", rc_name(rc));
  rc = uv_signal_start(&normal, on_normal, SIGWINCH);
  say("start normal = %s", rc_name(rc));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("once active=%d normal active=%d", uv_is_active((uv_handle_t *) &once),
      uv_is_active((uv_handle_t *) &normal));
  CHECK(uv_kill(uv_os_getpid(), SIGWINCH) == 0);
  CHECK(uv_timer_start(&guard, on_guard, 5000, 0) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("once_calls=%d normal_calls=%d", once_calls, normal_calls);
  CHECK(uv_signal_stop(&normal) == 0);
  finish(&loop);
  return 0;
}
