// SPDX-License-Identifier: MIT
/* uv_signal_t's public signal_cb field holds the callback given to
 * uv_signal_start, and signum the signal, as C programs may read them. */
#include <uv.h>
#include <stdio.h>
#include <signal.h>
static void cb(uv_signal_t* h, int s) { (void)h; (void)s; }
int main(void) {
  uv_loop_t* l = uv_default_loop();
  uv_signal_t s;
  uv_signal_init(l, &s);
  uv_signal_start(&s, cb, SIGUSR1);
  printf("signal_cb field == cb: %d, signum=%d\n", s.signal_cb == cb, s.signum);
  uv_close((uv_handle_t*)&s, NULL);
  uv_run(l, UV_RUN_DEFAULT);
  printf("close=%d\n", uv_loop_close(l));
  return 0;
}
