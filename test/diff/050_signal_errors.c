// SPDX-License-Identifier: MIT
/* Invalid signal numbers for uv_signal_start / start_oneshot. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sig;

static void on_signal(uv_signal_t *h, int signum) {
  (void) h;
  (void) signum;
  say("unexpected signal");
}

static void try_start(int signum, const char *label) {
  int rc = uv_signal_start(&sig, on_signal, signum);
  say("start(%s) = %s active=%d", label, rc_name(rc), uv_is_active((uv_handle_t *) &sig));
  if (rc == 0)
    CHECK(uv_signal_stop(&sig) == 0);
  rc = uv_signal_start_oneshot(&sig, on_signal, signum);
  say("start_oneshot(%s) = %s active=%d", label, rc_name(rc),
      uv_is_active((uv_handle_t *) &sig));
  if (rc == 0)
    CHECK(uv_signal_stop(&sig) == 0);
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  try_start(0, "0");
  try_start(-1, "-1");
  try_start(SIGKILL, "SIGKILL");
  try_start(SIGSTOP, "SIGSTOP");
  try_start(1000, "1000");
  try_start(SIGWINCH, "SIGWINCH");
  say("alive=%d", uv_loop_alive(&loop));
  finish(&loop);
  return 0;
}
