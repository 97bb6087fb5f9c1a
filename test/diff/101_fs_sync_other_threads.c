// SPDX-License-Identifier: MIT
/* Synchronous fs calls need no loop (NULL) and may run on any thread: here
 * inside a threadpool work callback and on a uv_thread, writing and
 * reading files the loop thread then checks. */
#include "diff.h"
#include "diff_fs.h"

static uv_loop_t loop;
static uv_work_t work;
static int work_rc, thread_rc;

static int write_then_stat(const char *name, const char *text) {
  uv_fs_t req;
  int fd, rc;
  uv_buf_t buf = uv_buf_init((char *) text, (unsigned) strlen(text));
  fd = uv_fs_open(NULL, &req, name, O_WRONLY | O_CREAT | O_EXCL, 0600, NULL);
  uv_fs_req_cleanup(&req);
  if (fd < 0) return fd;
  rc = uv_fs_write(NULL, &req, fd, &buf, 1, -1, NULL);
  uv_fs_req_cleanup(&req);
  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  if (rc < 0) return rc;
  rc = uv_fs_stat(NULL, &req, name, NULL);
  if (rc == 0) rc = (int) req.statbuf.st_size;
  uv_fs_req_cleanup(&req);
  return rc;
}

static void in_pool(uv_work_t *w) {
  (void) w;
  work_rc = write_then_stat("from-pool", "written on a pool thread");
}

static void after(uv_work_t *w, int status) {
  char text[64];
  (void) w;
  say("after_work status=%s: pool wrote %s bytes: [%s]", rc_name(status), fs_res(work_rc),
      fs_get("from-pool", text, sizeof text));
}

static void in_thread(void *arg) {
  (void) arg;
  thread_rc = write_then_stat("from-thread", "written on a uv_thread");
}

int main(void) {
  uv_thread_t t;
  char text[64];

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  CHECK(uv_thread_create(&t, in_thread, NULL) == 0);
  CHECK(uv_thread_join(&t) == 0);
  say("thread wrote %s bytes: [%s]", fs_res(thread_rc), fs_get("from-thread", text, sizeof text));
  CHECK(uv_queue_work(&loop, &work, in_pool, after) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("again from a thread (O_EXCL): %s", fs_res(write_then_stat("from-thread", "x")));
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
