// SPDX-License-Identifier: MIT
/* Two handles on the same signal started in the reverse of their memory
 * order.  Prints which handle's callback runs first for one signal. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sigs[2];

static void on_signal(uv_signal_t *h, int signum) {
  (void) signum;
  say("  handle %d", (int) (h - sigs));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sigs[1]) == 0);
  CHECK(uv_signal_init(&loop, &sigs[0]) == 0);
  CHECK(uv_signal_start(&sigs[1], on_signal, SIGUSR1) == 0);
  CHECK(uv_signal_start(&sigs[0], on_signal, SIGUSR1) == 0);
  say("started handle 1, then handle 0; kill SIGUSR1");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR1) == 0);
  run_say(&loop, UV_RUN_ONCE);
  CHECK(uv_signal_stop(&sigs[0]) == 0);
  CHECK(uv_signal_stop(&sigs[1]) == 0);
  finish(&loop);
  return 0;
}
