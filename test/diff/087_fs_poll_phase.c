// SPDX-License-Identifier: MIT
/* fs callbacks run in the poll phase: after the prepare callbacks and
 * before the check callbacks of the same iteration.  The request is a read
 * from an empty pipe, so its pool thread blocks until a timer callback
 * writes a byte; with nothing else due, the poll of that iteration waits
 * for the completion.  Then again with an idle handle running (the poll
 * does not block, so the completion may come some iterations later, but
 * always between prepare and check).  Prepare and check are unreferenced:
 * only the fs request and the timer keep the loop alive. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_idle_t idle;
static uv_timer_t timer;
static uv_fs_t read_req;
static int pipefd[2];
static char byte;
static uv_buf_t buf;
static const char *last = "none";
static int prepares_since_timer, checks_since_timer, fs_done, check_after_fs;

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  last = "prepare";
  prepares_since_timer++;
}

static void on_check(uv_check_t *h) {
  (void) h;
  last = "check";
  checks_since_timer++;
  if (fs_done && !check_after_fs) {
    check_after_fs = 1;
    say("check: first check after the fs callback");
  }
}

static void on_idle(uv_idle_t *h) {
  (void) h;
  last = "idle";
}

static void on_timer(uv_timer_t *h) {
  uv_fs_t w;
  uv_buf_t one = uv_buf_init("x", 1);
  (void) h;
  last = "timer";
  prepares_since_timer = checks_since_timer = 0;
  say("timer: writing one byte into the pipe");
  CHECK(uv_fs_write(NULL, &w, pipefd[1], &one, 1, -1, NULL) == 1);
  uv_fs_req_cleanup(&w);
}

static int idling;

static void on_read(uv_fs_t *r) {
  say("fs read cb: result=%s byte=%c last phase=%s prepare since timer=%d", fs_res(r->result), byte,
      last, prepares_since_timer > 0);
  if (!idling) say("  (blocking poll: same iteration as the timer, no check since: %d)", checks_since_timer == 0);
  fs_done = 1;
  uv_fs_req_cleanup(r);
}

static void round_trip(int with_idle) {
  fs_done = check_after_fs = 0;
  idling = with_idle;
  last = "none";
  if (with_idle) CHECK(uv_idle_start(&idle, on_idle) == 0);
  buf = uv_buf_init(&byte, 1);
  CHECK(uv_fs_read(&loop, &read_req, pipefd[0], &buf, 1, -1, on_read) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 5, 0) == 0);
  if (with_idle) {
    /* The idle handle keeps the loop alive: stop it once the read is in. */
    while (!fs_done) uv_run(&loop, UV_RUN_ONCE);
    uv_idle_stop(&idle);
  }
  run_say(&loop, UV_RUN_DEFAULT);
  say("check ran after fs: %d", check_after_fs);
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(pipe(pipefd) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  uv_unref((uv_handle_t *) &prepare);
  uv_unref((uv_handle_t *) &check);
  uv_unref((uv_handle_t *) &idle);

  say("-- blocking poll");
  round_trip(0);
  say("-- with an idle handle");
  round_trip(1);

  close(pipefd[0]);
  close(pipefd[1]);
  finish(&loop);
  return 0;
}
