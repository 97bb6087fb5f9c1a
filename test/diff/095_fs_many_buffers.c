// SPDX-License-Identifier: MIT
/* Reads and writes with many buffers: more than the four a request holds
 * inline, and more than IOV_MAX (1024).  A write goes on until every
 * buffer is written (1100 one-byte buffers: 1100); a read makes one
 * readv/preadv, so it fills at most IOV_MAX buffers.  Zero-length buffers
 * are skipped.  An offset read or write leaves the file position alone.
 * The caller's buffer array may be reused as soon as the call returns
 * (the request keeps a copy).  Synchronous and asynchronous. */
#include "diff.h"
#include "diff_fs.h"

#define MANY 1100

static uv_loop_t loop;
static uv_buf_t bufs[MANY];
static char src[MANY + 1], dst[MANY + 1];
static int fd;

static void on_done(uv_fs_t *r) {
  say("  async %s result=%s", fs_type_name(r->fs_type), fs_res(r->result));
  uv_fs_req_cleanup(r);
}

static void split(char *mem, unsigned n, unsigned each) {
  unsigned i;
  for (i = 0; i < n; i++) bufs[i] = uv_buf_init(mem + i * each, each);
}

static long position(void) { return (long) lseek(fd, 0, SEEK_CUR); }

int main(void) {
  uv_fs_t req;
  int i, rc;

  CHECK(uv_loop_init(&loop) == 0);
  fs_enter_tmpdir();
  for (i = 0; i < MANY; i++) src[i] = (char) ('A' + i % 26);
  fd = uv_fs_open(NULL, &req, "f", O_RDWR | O_CREAT | O_TRUNC, 0644, NULL);
  uv_fs_req_cleanup(&req);

  split(src, MANY, 1);
  rc = uv_fs_write(NULL, &req, fd, bufs, MANY, -1, NULL);
  uv_fs_req_cleanup(&req);
  say("write %d one-byte bufs at position: %s, position=%ld", MANY, fs_res(rc), position());
  split(src, MANY, 1);
  CHECK(uv_fs_write(&loop, &req, fd, bufs, MANY, MANY, on_done) == 0);
  memset(bufs, 0, sizeof bufs); /* the request has its own copy */
  uv_run(&loop, UV_RUN_DEFAULT);
  say("  position after the offset write=%ld", position());

  split(dst, MANY, 1);
  memset(dst, 0, sizeof dst);
  rc = uv_fs_read(NULL, &req, fd, bufs, MANY, 0, NULL);
  uv_fs_req_cleanup(&req);
  say("read into %d one-byte bufs at 0: %s, same bytes=%d, position=%ld", MANY, fs_res(rc),
      rc > 0 && memcmp(src, dst, (size_t) rc) == 0, position());

  memset(dst, 0, sizeof dst);
  split(dst, 6, 5);
  bufs[2].len = 0;
  CHECK(uv_fs_read(&loop, &req, fd, bufs, 6, 3, on_done) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  say("  6 bufs of 5 (third empty) at 3: [%.5s|%.5s|%.5s|%.5s|%.5s]", dst, dst + 5, dst + 10, dst + 15, dst + 20);

  CHECK(lseek(fd, 2190, SEEK_SET) == 2190);
  memset(dst, 0, sizeof dst);
  split(dst, 8, 4);
  rc = uv_fs_read(NULL, &req, fd, bufs, 8, -1, NULL);
  uv_fs_req_cleanup(&req);
  say("read 8x4 at position 2190: %s [%.12s] position=%ld", fs_res(rc), dst, position());

  split(src, 5, 3);
  bufs[1].len = 0;
  bufs[4].len = 0;
  rc = uv_fs_write(NULL, &req, fd, bufs, 5, 0, NULL);
  uv_fs_req_cleanup(&req);
  say("write 5 bufs, two empty, at 0: %s", fs_res(rc));
  CHECK(uv_fs_write(&loop, &req, fd, bufs, 5, -1, on_done) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  say("  position=%ld", position());
  fs_get("f", dst, 16);
  say("  head=[%s]", dst);

  uv_fs_close(NULL, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  fs_leave_tmpdir();
  finish(&loop);
  return 0;
}
