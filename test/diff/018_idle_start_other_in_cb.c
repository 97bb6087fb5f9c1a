// SPDX-License-Identifier: MIT
/* Handles started from a callback during a phase pass do not run in that
 * pass; they run (first, being at the front) in the next iteration. */
#include "diff.h"

static uv_idle_t a, b, c, d;
static uv_prepare_t p;
static uv_check_t k1, k2;
static int a_calls, p_calls, k1_calls;

static void on_named_idle(uv_idle_t *h) {
  say("  idle %s", (const char *) uv_handle_get_data((uv_handle_t *) h));
}

static void on_k2(uv_check_t *h) { (void) h; say("  check k2"); }

static void on_a(uv_idle_t *h) {
  (void) h;
  a_calls++;
  say("  idle a");
  if (a_calls == 1) {
    CHECK(uv_idle_start(&b, on_named_idle) == 0);
    CHECK(uv_idle_start(&c, on_named_idle) == 0);
    say("  a started b, c");
  }
}

static void on_p(uv_prepare_t *h) {
  (void) h;
  p_calls++;
  say("  prepare");
  if (p_calls == 1) {
    CHECK(uv_idle_start(&d, on_named_idle) == 0);
    say("  prepare started idle d");
  }
}

static void on_k1(uv_check_t *h) {
  (void) h;
  k1_calls++;
  say("  check k1");
  if (k1_calls == 1) {
    CHECK(uv_check_start(&k2, on_k2) == 0);
    say("  k1 started k2");
  }
}

int main(void) {
  uv_loop_t loop;
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_idle_init(&loop, &a) == 0);
  CHECK(uv_idle_init(&loop, &b) == 0);
  CHECK(uv_idle_init(&loop, &c) == 0);
  CHECK(uv_idle_init(&loop, &d) == 0);
  CHECK(uv_prepare_init(&loop, &p) == 0);
  CHECK(uv_check_init(&loop, &k1) == 0);
  CHECK(uv_check_init(&loop, &k2) == 0);
  uv_handle_set_data((uv_handle_t *) &b, "b");
  uv_handle_set_data((uv_handle_t *) &c, "c");
  uv_handle_set_data((uv_handle_t *) &d, "d");

  CHECK(uv_idle_start(&a, on_a) == 0);
  CHECK(uv_prepare_start(&p, on_p) == 0);
  CHECK(uv_check_start(&k1, on_k1) == 0);

  for (i = 1; i <= 3; i++) {
    say("iteration %d", i);
    run_say(&loop, UV_RUN_ONCE);
  }
  finish(&loop);
  return 0;
}
