// SPDX-License-Identifier: MIT
/* Many requests in flight at once on the default pool (4 threads): 40
 * files are each opened, written, stat'ed and closed through chains of
 * asynchronous requests; completion order varies, so the trace shows
 * counts and a sorted summary.  Every request is counted by the loop
 * until its callback runs, and all of them complete. */
#include "diff.h"
#include "diff_fs.h"

#define N 40

struct job {
  uv_fs_t req;
  int index;
  int fd;
  uv_buf_t buf;
  char name[16];
  char text[16];
  uint64_t size;
  int steps;
};

static uv_loop_t loop;
static struct job jobs[N];
static int callbacks;

static void step(uv_fs_t *r);

static void next(struct job *j) {
  uv_fs_t *r = &j->req;
  uv_fs_req_cleanup(r);
  switch (j->steps++) {
    case 0: CHECK(uv_fs_open(&loop, r, j->name, O_WRONLY | O_CREAT | O_TRUNC, 0644, step) == 0); break;
    case 1:
      j->fd = (int) r->result;
      j->buf = uv_buf_init(j->text, (unsigned) strlen(j->text));
      CHECK(uv_fs_write(&loop, r, j->fd, &j->buf, 1, -1, step) == 0);
      break;
    case 2: CHECK(uv_fs_fstat(&loop, r, j->fd, step) == 0); break;
    case 3: CHECK(uv_fs_close(&loop, r, j->fd, step) == 0); break;
    case 4: CHECK(uv_fs_unlink(&loop, r, j->name, step) == 0); break;
    default: break;
  }
}

static void step(uv_fs_t *r) {
  struct job *j = (struct job *) r;
  callbacks++;
  CHECK(r->result >= 0);
  if (r->fs_type == UV_FS_FSTAT) j->size = r->statbuf.st_size;
  next(j);
}

int main(void) {
  int i;
  unsigned long long total = 0;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  for (i = 0; i < N; i++) {
    jobs[i].index = i;
    snprintf(jobs[i].name, sizeof jobs[i].name, "f%02d", i);
    snprintf(jobs[i].text, sizeof jobs[i].text, "%.*s", i % 13 + 1, "abcdefghijklm");
    next(&jobs[i]);
  }
  say("alive with %d chains started: %d", N, uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  for (i = 0; i < N; i++) total += jobs[i].size;
  say("callbacks=%d (5 per file) total size=%llu", callbacks, total);
  for (i = 0; i < N; i += 13) say("  %s size=%llu steps=%d", jobs[i].name, (unsigned long long) jobs[i].size, jobs[i].steps);
  say("files left: %d", fs_mode("f00") != 0);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
