// SPDX-License-Identifier: MIT
/* UV_RUN_DEFAULT blocks in the poll phase until a signal sent by another
 * thread arrives; the callback closes the handle so the loop ends. */
#include "diff.h"
#include <signal.h>

static uv_signal_t sig;
static int calls;

static void sender(void *arg) {
  (void) arg;
  uv_sleep(20);
  CHECK(uv_kill(uv_os_getpid(), SIGUSR1) == 0);
}

static void on_signal(uv_signal_t *h, int signum) {
  calls++;
  say("signal cb, SIGUSR1=%d", signum == SIGUSR1);
  uv_close((uv_handle_t *) h, NULL);
}

int main(void) {
  uv_loop_t loop;
  uv_thread_t tid;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_signal_init(&loop, &sig) == 0);
  CHECK(uv_signal_start(&sig, on_signal, SIGUSR1) == 0);
  CHECK(uv_thread_create(&tid, sender, NULL) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_thread_join(&tid) == 0);
  say("calls=%d", calls);
  finish(&loop);
  return 0;
}
