// SPDX-License-Identifier: MIT
/* Two signal handles (and one on another signal) watching the same signal
 * on one loop: each receives it.  Handles live in one array and are
 * started in array order. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sigs[3];
static int calls;

static void on_signal(uv_signal_t *h, int signum) {
  calls++;
  say("  handle %d got %s", (int) (h - sigs),
      signum == SIGUSR2 ? "SIGUSR2" : signum == SIGHUP ? "SIGHUP" : "other");
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++)
    CHECK(uv_signal_init(&loop, &sigs[i]) == 0);
  CHECK(uv_signal_start(&sigs[0], on_signal, SIGUSR2) == 0);
  CHECK(uv_signal_start(&sigs[1], on_signal, SIGUSR2) == 0);
  CHECK(uv_signal_start(&sigs[2], on_signal, SIGHUP) == 0);

  say("kill SIGUSR2");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("kill SIGHUP then SIGUSR2");
  CHECK(uv_kill(uv_os_getpid(), SIGHUP) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("kill SIGUSR2 twice");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("calls=%d", calls);
  for (i = 0; i < 3; i++)
    CHECK(uv_signal_stop(&sigs[i]) == 0);
  finish(&loop);
  return 0;
}
