// SPDX-License-Identifier: MIT
/* LIFO start order for prepare and check handles, interleaved starts. */
#include "diff.h"

static uv_prepare_t preps[3];
static uv_check_t checks[3];

static void on_prepare(uv_prepare_t *h) { say("  prepare %d", (int) (h - preps)); }
static void on_check(uv_check_t *h) { say("  check %d", (int) (h - checks)); }

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++) {
    CHECK(uv_prepare_init(&loop, &preps[i]) == 0);
    CHECK(uv_check_init(&loop, &checks[i]) == 0);
  }
  /* check 2, prepare 0, check 0, prepare 2, check 1, prepare 1 */
  CHECK(uv_check_start(&checks[2], on_check) == 0);
  CHECK(uv_prepare_start(&preps[0], on_prepare) == 0);
  CHECK(uv_check_start(&checks[0], on_check) == 0);
  CHECK(uv_prepare_start(&preps[2], on_prepare) == 0);
  CHECK(uv_check_start(&checks[1], on_check) == 0);
  CHECK(uv_prepare_start(&preps[1], on_prepare) == 0);

  run_say(&loop, UV_RUN_NOWAIT);

  CHECK(uv_prepare_stop(&preps[2]) == 0);
  CHECK(uv_prepare_start(&preps[2], on_prepare) == 0);
  CHECK(uv_check_stop(&checks[2]) == 0);
  CHECK(uv_check_start(&checks[2], on_check) == 0);
  say("restarted prepare 2 and check 2");
  run_say(&loop, UV_RUN_NOWAIT);

  for (i = 0; i < 3; i++) {
    CHECK(uv_prepare_stop(&preps[i]) == 0);
    CHECK(uv_check_stop(&checks[i]) == 0);
  }
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  return 0;
}
