/* SPDX-License-Identifier: MIT */
/* A libuv program: one timer; prints the version it runs on (test/install/check.sh, test/debs/installed.sh). */
#include <stdio.h>
#include <uv.h>
static int fired;
static void on_timer(uv_timer_t* t) { fired++; uv_close((uv_handle_t*)t, NULL); }
int main(void) {
  uv_loop_t loop;
  uv_timer_t t;
  if (uv_loop_init(&loop) || uv_timer_init(&loop, &t) || uv_timer_start(&t, on_timer, 1, 0)) return 1;
  uv_run(&loop, UV_RUN_DEFAULT);
  printf("%s hex=%s fired=%d close=%d\n", uv_version_string(),
         uv_version() == UV_VERSION_HEX ? "same" : "different", fired, uv_loop_close(&loop));
  return 0;
}
