// SPDX-License-Identifier: MIT
/* Sends made by another thread while a callback of the async pass runs,
 * and waited for by that callback (the thread is joined): the pass visits
 * the handles in their queue order, so a handle still ahead of the one
 * being called runs in this pass, one behind it in the next; and the
 * sender's write, made after the pass read the eventfd, wakes the next
 * poll at once, so the loop goes round once more before it waits for the
 * timer. The threadpool's completions are an async handle too, the
 * first of the queue: a handle sent from a thread in a work request's
 * callback runs in the same pass. (Found by the generated programs of
 * test/gen, seed 29.) */
#include "diff.h"

static uv_loop_t loop;
static uv_async_t as[3];
static uv_timer_t timer;
static uv_check_t check;
static uv_work_t work;
static int checks;

typedef struct {
  uv_async_t *targets[2];
  int n;
} sends_t;

static void send_from_thread(void *arg) {
  sends_t *s = arg;
  int i;
  for (i = 0; i < s->n; i++) uv_async_send(s->targets[i]);
}

static void send_joined(uv_async_t *a, uv_async_t *b) {
  sends_t s;
  uv_thread_t t;
  s.targets[0] = a;
  s.targets[1] = b;
  s.n = b != NULL ? 2 : 1;
  CHECK(uv_thread_create(&t, send_from_thread, &s) == 0);
  CHECK(uv_thread_join(&t) == 0);
}

static void on_work(uv_work_t *w) { (void) w; }

static void after_work(uv_work_t *w, int status) {
  (void) w;
  say("  after work, status %d: a thread sends 1, joined", status);
  send_joined(&as[1], NULL);
}

static void on_async(uv_async_t *h) {
  static int calls[3];
  int i = (int) (h - as);
  calls[i]++;
  say("  async %d (#%d)", i, calls[i]);
  if (i == 1 && calls[i] == 1) {
    send_joined(&as[0], &as[2]);
    say("  a thread sent 0 and 2, joined");
  }
  if (i == 1 && calls[i] == 2) {
    CHECK(uv_queue_work(&loop, &work, on_work, after_work) == 0);
    say("  work queued");
  }
}

static void on_check(uv_check_t *h) {
  (void) h;
  say("check %d", ++checks);
}

static void close_all(uv_handle_t *h, void *arg) {
  (void) arg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

static void on_timer(uv_timer_t *t) {
  (void) t;
  say("timer");
  uv_walk(&loop, close_all, NULL);
}

int main(void) {
  int i;
  setenv("UV_THREADPOOL_SIZE", "1", 1);
  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < 3; i++) CHECK(uv_async_init(&loop, &as[i], on_async) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 300, 0) == 0);
  CHECK(uv_async_send(&as[1]) == 0);
  say("sent 1");
  run_say(&loop, UV_RUN_ONCE);
  run_say(&loop, UV_RUN_ONCE);
  say("sent 1 again");
  CHECK(uv_async_send(&as[1]) == 0);
  run_say(&loop, UV_RUN_ONCE);
  /* The work's callback, and what it sent. */
  while (run_say(&loop, UV_RUN_ONCE) != 0 && checks < 12) {
  }
  run_say(&loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&loop) == 0);
  return 0;
}
