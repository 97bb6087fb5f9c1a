// SPDX-License-Identifier: MIT
/* What an async callback's own sends and inits do to the pass it runs in.
 * A pass visits the handles that existed when it began, in their queue
 * order, each once: a handle sent before its visit runs in this pass; one
 * sent after it (the callback's own handle, an earlier one) waits for the
 * next. A handle initialised during the pass is not visited by it, and
 * takes its place in the queue right after the handle whose callback
 * initialised it -- ahead of the handles the pass had still to visit. */
#include "diff.h"

static uv_loop_t loop;
static uv_async_t as[5];
static int step;

static void on_async(uv_async_t *h) {
  int i = (int) (h - as);
  say("  async %d", i);
  if (step == 1 && i == 1) {
    step = 2;
    CHECK(uv_async_send(&as[0]) == 0);
    CHECK(uv_async_send(&as[2]) == 0);
    CHECK(uv_async_send(&as[1]) == 0);
    say("  sent 0, 2 and 1");
  } else if (step == 3 && i == 1) {
    step = 4;
    CHECK(uv_async_init(&loop, &as[3], on_async) == 0);
    CHECK(uv_async_send(&as[3]) == 0);
    CHECK(uv_async_send(&as[2]) == 0);
    say("  initialised 3, sent 3 and 2");
  } else if (step == 5 && i == 0) {
    step = 6;
    uv_close((uv_handle_t *) &as[1], NULL);
    CHECK(uv_async_init(&loop, &as[4], on_async) == 0);
    CHECK(uv_async_send(&as[4]) == 0);
    say("  closed 1, initialised 4, sent 4");
  }
}

static void send_all(void) {
  int i;
  for (i = 4; i >= 0; i--)
    if (uv_is_active((uv_handle_t *) &as[i]))
      CHECK(uv_async_send(&as[i]) == 0);
}

int main(void) {
  int i;

  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++)
    CHECK(uv_async_init(&loop, &as[i], on_async) == 0);

  say("send 1 (its callback sends 0, 2 and itself)");
  step = 1;
  CHECK(uv_async_send(&as[1]) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  say("next run");
  run_say(&loop, UV_RUN_NOWAIT);
  say("next run");
  run_say(&loop, UV_RUN_NOWAIT);

  say("send 1 (its callback initialises 3, sends 3 and 2)");
  step = 3;
  CHECK(uv_async_send(&as[1]) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  say("next run");
  run_say(&loop, UV_RUN_NOWAIT);
  say("send every handle, last first: the queue's order");
  send_all();
  run_say(&loop, UV_RUN_NOWAIT);

  say("send 0 and 2 (0's callback closes 1, initialises 4, sends 4)");
  step = 5;
  CHECK(uv_async_send(&as[2]) == 0);
  CHECK(uv_async_send(&as[0]) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  say("send every handle, last first: the queue's order");
  send_all();
  run_say(&loop, UV_RUN_NOWAIT);

  for (i = 0; i < 5; i++)
    if (i != 1)
      uv_close((uv_handle_t *) &as[i], NULL);
  finish(&loop);
  return 0;
}
