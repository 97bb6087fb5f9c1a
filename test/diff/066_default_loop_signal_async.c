// SPDX-License-Identifier: MIT
/* Signals and async handles on the default loop together with a private
 * loop: each loop only sees its own handles. */
#include "diff.h"
#include <signal.h>

static uv_signal_t dsig;
static uv_async_t dasync, pasync;
static int dsig_n, dasync_n, pasync_n;

static void on_dsig(uv_signal_t *h, int signum) {
  (void) signum;
  dsig_n++;
  say("default loop: signal SIGUSR1");
  uv_close((uv_handle_t *) h, NULL);
}

static void on_dasync(uv_async_t *h) {
  dasync_n++;
  say("default loop: async");
  uv_close((uv_handle_t *) h, NULL);
}

static void on_pasync(uv_async_t *h) {
  pasync_n++;
  say("private loop: async");
  uv_close((uv_handle_t *) h, NULL);
}

int main(void) {
  uv_loop_t *def = uv_default_loop();
  uv_loop_t priv;

  CHECK(def != NULL);
  CHECK(uv_loop_init(&priv) == 0);
  CHECK(uv_signal_init(def, &dsig) == 0);
  CHECK(uv_async_init(def, &dasync, on_dasync) == 0);
  CHECK(uv_async_init(&priv, &pasync, on_pasync) == 0);
  CHECK(uv_signal_start(&dsig, on_dsig, SIGUSR1) == 0);

  CHECK(uv_async_send(&pasync) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGUSR1) == 0);
  say("running the private loop once");
  run_say(&priv, UV_RUN_NOWAIT);
  say("counts: dsig=%d dasync=%d pasync=%d", dsig_n, dasync_n, pasync_n);

  CHECK(uv_async_send(&dasync) == 0);
  say("running the default loop");
  run_say(def, UV_RUN_DEFAULT);
  say("counts: dsig=%d dasync=%d pasync=%d", dsig_n, dasync_n, pasync_n);

  finish(&priv);
  finish(def);
  return 0;
}
