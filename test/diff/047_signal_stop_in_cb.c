// SPDX-License-Identifier: MIT
/* Stopping signal handles from inside a signal callback: the other handle
 * on the same signal (a pending delivery) is skipped once stopped. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sigs[3];
static int calls[3];

static void on_signal(uv_signal_t *h, int signum) {
  int idx = (int) (h - sigs);
  (void) signum;
  calls[idx]++;
  say("  handle %d (call %d)", idx, calls[idx]);
  if (idx == 0 && calls[0] == 1) {
    CHECK(uv_signal_stop(&sigs[1]) == 0);
    say("  handle 0 stopped handle 1");
  }
  if (idx == 2) {
    CHECK(uv_signal_stop(h) == 0);
    say("  handle 2 stopped itself");
  }
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++) {
    CHECK(uv_signal_init(&loop, &sigs[i]) == 0);
    CHECK(uv_signal_start(&sigs[i], on_signal, SIGUSR1) == 0);
  }
  say("kill SIGUSR1");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR1) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("active: %d %d %d", uv_is_active((uv_handle_t *) &sigs[0]),
      uv_is_active((uv_handle_t *) &sigs[1]), uv_is_active((uv_handle_t *) &sigs[2]));

  say("kill SIGUSR1 again");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR1) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("calls: %d %d %d", calls[0], calls[1], calls[2]);
  CHECK(uv_signal_stop(&sigs[0]) == 0);
  finish(&loop);
  return 0;
}
