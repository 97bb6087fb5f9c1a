// SPDX-License-Identifier: MIT
/*
 * 187: uv_random, synchronous and on the threadpool.
 *
 * Argument errors (E2BIG above INT32_MAX bytes, EINVAL for flags) come
 * before anything is queued.  Without a callback the bytes are there on
 * return.  With one, the request shares the threadpool's FIFO queue with
 * uv_queue_work (UV_THREADPOOL_SIZE=1), keeps the loop alive until its
 * callback, and the callback gets the buffer back; it can
 * be canceled while queued (ECANCELED, reported ahead of work finishing
 * later) and not once done (EBUSY).
 */
#include "diff.h"

static uv_loop_t loop;
static uv_sem_t hold;
static unsigned char bufs[4][64];

static int all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != 0)
      return 0;
  return 1;
}

static void on_random(uv_random_t *req, int status, void *buf, size_t buflen) {
  int id = (int) (intptr_t) req->data;
  say("random %d: %s buflen=%zu own buffer=%d type ok=%d loop ok=%d filled=%d alive=%d",
      id, rc_name(status), buflen, buf == bufs[id], req->type == UV_RANDOM,
      req->loop == &loop, buflen == 0 || status != 0 || !all_zero(buf, buflen),
      uv_loop_alive(&loop));
}

static void work_cb(uv_work_t *w) {
  if (w->data != NULL)
    uv_sem_wait(&hold);
}

static void after_work(uv_work_t *w, int status) {
  say("work %s: %s", w->data != NULL ? "held" : "plain", rc_name(status));
}

int main(void) {
  unsigned char sync_buf[600];
  uv_random_t req[4];
  uv_work_t work[2];
  int r;

  setenv("UV_THREADPOOL_SIZE", "1", 1);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_sem_init(&hold, 0) == 0);

  say("E2BIG: %s", rc_name(uv_random(NULL, NULL, sync_buf, 0x80000000u, 0, NULL)));
  say("E2BIG async: %s",
      rc_name(uv_random(&loop, &req[0], sync_buf, 0x80000000u, 0, on_random)));
  say("flags: %s", rc_name(uv_random(NULL, NULL, sync_buf, 16, 1, NULL)));
  say("flags async: %s", rc_name(uv_random(&loop, &req[0], sync_buf, 16, 7, on_random)));
  say("alive after errors: %d", uv_loop_alive(&loop));

  memset(sync_buf, 0, sizeof sync_buf);
  r = uv_random(NULL, NULL, sync_buf, sizeof sync_buf, 0, NULL);
  say("sync 600: %s head filled=%d tail filled=%d", rc_name(r), !all_zero(sync_buf, 32),
      !all_zero(sync_buf + sizeof sync_buf - 32, 32));
  say("sync 0: %s", rc_name(uv_random(NULL, NULL, NULL, 0, 0, NULL)));
  say("sync 0 with a loop: %s", rc_name(uv_random(&loop, &req[0], sync_buf, 0, 0, NULL)));

  /* Three requests and a work item between them: FIFO on one thread. */
  for (int i = 0; i < 3; i++)
    req[i].data = (void *) (intptr_t) i;
  work[0].data = NULL;
  say("queue 0: %s", rc_name(uv_random(&loop, &req[0], bufs[0], 16, 0, on_random)));
  say("queue work: %s", rc_name(uv_queue_work(&loop, &work[0], work_cb, after_work)));
  say("queue 1: %s", rc_name(uv_random(&loop, &req[1], bufs[1], 0, 0, on_random)));
  say("queue 2: %s", rc_name(uv_random(&loop, &req[2], bufs[2], 64, 0, on_random)));
  say("alive: %d", uv_loop_alive(&loop));
  r = uv_run(&loop, UV_RUN_DEFAULT);
  say("uv_run = %d", r);
  say("cancel done: %s", rc_name(uv_cancel((uv_req_t *) &req[0])));

  /* The only thread held by a work item: the random request waits, and
   * is canceled (twice: the second moves it to the back again). */
  work[1].data = &hold;
  req[3].data = (void *) (intptr_t) 3;
  memset(bufs[3], 0, sizeof bufs[3]);
  say("queue held work: %s", rc_name(uv_queue_work(&loop, &work[1], work_cb, after_work)));
  say("queue 3: %s", rc_name(uv_random(&loop, &req[3], bufs[3], 8, 0, on_random)));
  say("cancel 3: %s", rc_name(uv_cancel((uv_req_t *) &req[3])));
  say("cancel 3 again: %s", rc_name(uv_cancel((uv_req_t *) &req[3])));
  uv_sem_post(&hold);
  r = uv_run(&loop, UV_RUN_DEFAULT);
  say("uv_run = %d, buffer 3 untouched=%d", r, all_zero(bufs[3], sizeof bufs[3]));

  uv_sem_destroy(&hold);
  finish(&loop);
  return 0;
}
