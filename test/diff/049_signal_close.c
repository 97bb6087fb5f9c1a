// SPDX-License-Identifier: MIT
/* Closing signal handles: a handle closed while a caught signal is still
 * queued gets no signal callback, only its close callback; a closed handle
 * no longer receives signals while another handle still does. */
#include "diff.h"
#include <signal.h>

static uv_signal_t a, b;
static int a_calls, b_calls;

static void on_a(uv_signal_t *h, int signum) { (void) h; (void) signum; a_calls++; say("  a signal cb"); }
static void on_b(uv_signal_t *h, int signum) { (void) h; (void) signum; b_calls++; say("  b signal cb"); }

static void on_close(uv_handle_t *h) {
  say("  close cb %s active=%d closing=%d", (const char *) uv_handle_get_data(h),
      uv_is_active(h), uv_is_closing(h));
}

int main(void) {
  uv_loop_t loop;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &a) == 0);
  CHECK(uv_signal_init(&loop, &b) == 0);
  uv_handle_set_data((uv_handle_t *) &a, "a");
  uv_handle_set_data((uv_handle_t *) &b, "b");
  CHECK(uv_signal_start(&a, on_a, SIGHUP) == 0);
  CHECK(uv_signal_start(&b, on_b, SIGHUP) == 0);

  say("kill SIGHUP, then close a before running");
  CHECK(uv_kill(uv_os_getpid(), SIGHUP) == 0);
  uv_close((uv_handle_t *) &a, on_close);
  say("a active=%d closing=%d", uv_is_active((uv_handle_t *) &a),
      uv_is_closing((uv_handle_t *) &a));
  run_say(&loop, UV_RUN_ONCE);
  say("a_calls=%d b_calls=%d", a_calls, b_calls);

  say("kill SIGHUP again");
  CHECK(uv_kill(uv_os_getpid(), SIGHUP) == 0);
  run_say(&loop, UV_RUN_ONCE);
  say("a_calls=%d b_calls=%d", a_calls, b_calls);

  uv_close((uv_handle_t *) &b, on_close);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&loop) == 0);
  say("loop closed");
  return 0;
}
