// SPDX-License-Identifier: MIT
/* fs_io.c -- file request throughput of the libuv API it is built against
 * (libuv 1.44, libuv 1.53 or phaseloop), for bench/fs-io.sh.
 *
 *   fs_io TEST PATH
 *
 * TEST is one of
 *   stat_sync      uv_fs_stat(PATH) without a callback, one after another
 *   stat_1         uv_fs_stat(PATH) with a callback, 1 in flight
 *   stat_16        the same, 16 in flight (these three are the method of
 *                  libuv's own benchmark-fs-stat.c)
 *   read_hot_64    4 KiB reads at random 4 KiB-aligned offsets of PATH,
 *                  64 in flight; PATH is read once first, so it is in the
 *                  page cache
 *   read_cold_64   the same, after PATH was dropped from the page cache
 *                  (posix_fadvise DONTNEED) and readahead turned off
 *                  (FADV_RANDOM): every read goes to the device, as
 *                  for a file larger than the page cache can hold
 *   open_close_16  uv_fs_open(PATH) then uv_fs_close, 16 pairs in flight
 *
 * With FS_IO_RING=1 in the environment the loop is configured with
 * UV_LOOP_USE_IO_URING_SQPOLL (the script also sets UV_USE_IO_URING=1):
 * libuv >= 1.49 then does these requests through io_uring, and so does
 * phaseloop (docs/io_uring.md).
 *
 * Prints "TEST: N ops in S s (R ops/s) cpu C s (P ops/cpu-s)" and exits 0
 * when every request succeeded. C is the process's user and system time
 * over the test, its threads included: the threadpool's, and the kernel's
 * io_uring workers and polling thread, which run as threads of the
 * process.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "cpu_seconds.h"

#define MAX_SLOTS 64
#define BLOCK 4096

static uv_loop_t* loop;
static const char* path;
static long total, issued, done, failed;
static int file = -1;
static uint64_t nblocks, seed = 88172645463325252ull;
static char bufs[MAX_SLOTS][BLOCK];

typedef struct {
  uv_fs_t req;
  int index;
  uv_buf_t buf;
} slot_t;
static slot_t slots[MAX_SLOTS];

static uint64_t next_random(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

static void stat_cb(uv_fs_t* req);
static void read_cb(uv_fs_t* req);
static void open_cb(uv_fs_t* req);

static void start_stat(slot_t* s) {
  if (issued == total) return;
  issued++;
  if (uv_fs_stat(loop, &s->req, path, stat_cb) != 0) abort();
}

static void stat_cb(uv_fs_t* req) {
  if (req->result != 0) failed++;
  done++;
  uv_fs_req_cleanup(req);
  start_stat((slot_t*) req);
}

static void start_read(slot_t* s) {
  int64_t off;
  if (issued == total) return;
  issued++;
  off = (int64_t) (next_random() % nblocks) * BLOCK;
  s->buf = uv_buf_init(bufs[s->index], BLOCK);
  if (uv_fs_read(loop, &s->req, file, &s->buf, 1, off, read_cb) != 0) abort();
}

static void read_cb(uv_fs_t* req) {
  if (req->result != BLOCK) failed++;
  done++;
  uv_fs_req_cleanup(req);
  start_read((slot_t*) req);
}

static void close_cb(uv_fs_t* req) {
  if (req->result != 0) failed++;
  uv_fs_req_cleanup(req);
  done++;
  if (issued == total) return;
  issued++;
  if (uv_fs_open(loop, req, path, O_RDONLY, 0, open_cb) != 0) abort();
}

static void open_cb(uv_fs_t* req) {
  uv_file fd = (uv_file) req->result;
  uv_fs_req_cleanup(req);
  if (fd < 0) {
    failed++;
    done++;
    return;
  }
  if (uv_fs_close(loop, req, fd, close_cb) != 0) abort();
}

static int open_file(int cold) {
  struct stat st;
  file = open(path, O_RDONLY);
  if (file < 0 || fstat(file, &st) != 0 || st.st_size < BLOCK) {
    fprintf(stderr, "fs_io: cannot use %s as the file to read\n", path);
    return -1;
  }
  nblocks = (uint64_t) st.st_size / BLOCK;
  if (cold) {
    posix_fadvise(file, 0, 0, POSIX_FADV_DONTNEED);
    posix_fadvise(file, 0, 0, POSIX_FADV_RANDOM);
  } else {
    static char chunk[1 << 16];
    while (read(file, chunk, sizeof chunk) > 0) {
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  const char* test;
  int inflight = 1, i;
  uint64_t t0, t1;
  double secs, cpu0, cpu;

  if (argc != 3) {
    fprintf(stderr, "usage: fs_io stat_sync|stat_1|stat_16|read_hot_64|read_cold_64|open_close_16 PATH\n");
    return 2;
  }
  test = argv[1];
  path = argv[2];
  loop = uv_default_loop();
  if (getenv("FS_IO_RING") != NULL && atoi(getenv("FS_IO_RING")) > 0) {
#ifdef UV_LOOP_USE_IO_URING_SQPOLL
    if (uv_loop_configure(loop, UV_LOOP_USE_IO_URING_SQPOLL) != 0) {
      fprintf(stderr, "fs_io: uv_loop_configure(UV_LOOP_USE_IO_URING_SQPOLL) failed\n");
      return 2;
    }
#else
    fprintf(stderr, "fs_io: this libuv has no UV_LOOP_USE_IO_URING_SQPOLL\n");
    return 2;
#endif
  }

  if (strcmp(test, "stat_sync") == 0) {
    uv_fs_t req;
    total = 200000;
    cpu0 = cpu_seconds();
    t0 = uv_hrtime();
    for (i = 0; i < total; i++) {
      if (uv_fs_stat(NULL, &req, path, NULL) != 0) failed++;
      uv_fs_req_cleanup(&req);
    }
    t1 = uv_hrtime();
    done = total;
  } else {
    int is_stat = strncmp(test, "stat_", 5) == 0;
    int is_read = strncmp(test, "read_", 5) == 0;
    int is_open = strcmp(test, "open_close_16") == 0;
    if (strcmp(test, "stat_1") == 0) inflight = 1, total = 100000;
    else if (strcmp(test, "stat_16") == 0) inflight = 16, total = 200000;
    else if (strcmp(test, "read_hot_64") == 0) inflight = 64, total = 400000;
    else if (strcmp(test, "read_cold_64") == 0) inflight = 64, total = 20000;
    else if (is_open) inflight = 16, total = 100000;
    else {
      fprintf(stderr, "fs_io: no test named %s\n", test);
      return 2;
    }
    if (is_read && open_file(strcmp(test, "read_cold_64") == 0) != 0) return 2;
    cpu0 = cpu_seconds();
    t0 = uv_hrtime();
    for (i = 0; i < inflight; i++) {
      slots[i].index = i;
      if (is_stat) start_stat(&slots[i]);
      else if (is_read) start_read(&slots[i]);
      else if (issued < total) {
        issued++;
        if (uv_fs_open(loop, &slots[i].req, path, O_RDONLY, 0, open_cb) != 0) abort();
      }
    }
    uv_run(loop, UV_RUN_DEFAULT);
    t1 = uv_hrtime();
    if (done != total) {
      fprintf(stderr, "fs_io: %ld of %ld requests done\n", done, total);
      return 1;
    }
  }
  cpu = cpu_seconds() - cpu0;
  secs = (double) (t1 - t0) / 1e9;
  printf("%s: %ld ops in %.3f s (%.0f ops/s) cpu %.3f s (%.0f ops/cpu-s)\n", test, done, secs, (double) done / secs,
         cpu, cpu > 0 ? (double) done / cpu : 0.0);
  if (file >= 0) close(file);
  if (failed != 0) {
    fprintf(stderr, "fs_io: %ld requests failed\n", failed);
    return 1;
  }
  return 0;
}
