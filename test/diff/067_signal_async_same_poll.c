// SPDX-License-Identifier: MIT
/* A signal and an async send both pending before the same poll: the order
 * of their callbacks within that poll phase, and relative to idle/check. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sig;
static uv_async_t async;
static uv_idle_t idle;
static uv_check_t chk;
static int idle_calls;

static void on_signal(uv_signal_t *h, int signum) {
  (void) h;
  (void) signum;
  say("  signal");
}

static void on_async(uv_async_t *h) { (void) h; say("  async"); }
static void on_check(uv_check_t *h) { (void) h; say("  check"); }

static void on_idle(uv_idle_t *h) {
  (void) h;
  idle_calls++;
  say("  idle");
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  CHECK(uv_async_init(&loop, &async, on_async) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_signal_start(&sig, on_signal, SIGUSR2) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  CHECK(uv_check_start(&chk, on_check) == 0);

  say("signal sent first, then async (before the first iteration):");
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  CHECK(uv_async_send(&async) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("async sent first, then signal (loop already polled once):");
  CHECK(uv_async_send(&async) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGUSR2) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("nothing pending:");
  run_say(&loop, UV_RUN_ONCE);
  CHECK(uv_signal_stop(&sig) == 0);
  finish(&loop);
  return 0;
}
