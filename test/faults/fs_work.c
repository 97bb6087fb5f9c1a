// SPDX-License-Identifier: MIT
/* fs_work: a file workload for the fault suite (test/faults/run.sh).
 * In a fresh directory under DIR: writes 48 chunks of 16 KiB of a seeded
 * pseudo-random stream with uv_fs_write (four in flight, each at its own
 * offset), fsyncs, closes, reopens, reads the file back with uv_fs_read in
 * chunks and compares every byte, stats it, renames, scans the directory,
 * unlinks and removes the directory. A short write or read is continued,
 * as a program must.
 *
 *   fs_work DIR
 * Exit status: 0 all done and equal; 1 an error was reported by a request
 * (printed); 2 the data read back differs from what was written, or a
 * request was lost (the loop ended with no error and the work undone). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

enum { chunk = 16384, chunks = 48, in_flight = 4 };

static uv_loop_t* loop;
static char dir[4096];
static char path[4200];
static char moved[4200];
static uv_file file = -1;
static unsigned char* data;
static unsigned char back[chunk];
static int next_chunk, done_chunks, status;

typedef struct {
  uv_fs_t req;
  int chunk;
  size_t done;
} part;
static part parts[in_flight];

static void fail(const char* what, ssize_t err) {
  fprintf(stderr, "fs_work: %s: %s\n", what, uv_strerror((int)err));
  if (status == 0) status = 1;
}

static void cleanup(void) {
  uv_fs_t r;
  if (file >= 0) uv_fs_close(NULL, &r, file, NULL), uv_fs_req_cleanup(&r);
  uv_fs_unlink(NULL, &r, path, NULL), uv_fs_req_cleanup(&r);
  uv_fs_unlink(NULL, &r, moved, NULL), uv_fs_req_cleanup(&r);
  uv_fs_rmdir(NULL, &r, dir, NULL), uv_fs_req_cleanup(&r);
}

static void write_part(part* p);
static void start_reading(void);

static void on_write(uv_fs_t* req) {
  part* p = (part*)req;
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r < 0) return fail("write", r);
  p->done += (size_t)r;
  if (p->done < chunk) return write_part(p);  // short: the rest
  done_chunks++;
  if (next_chunk < chunks) {
    p->chunk = next_chunk++;
    p->done = 0;
    write_part(p);
  } else if (done_chunks == chunks) {
    start_reading();
  }
}

static void write_part(part* p) {
  uv_buf_t b = uv_buf_init((char*)data + (size_t)p->chunk * chunk + p->done, (unsigned)(chunk - p->done));
  int r = uv_fs_write(loop, &p->req, file, &b, 1, (int64_t)((size_t)p->chunk * chunk + p->done), on_write);
  if (r < 0) fail("uv_fs_write", r);
}

static uv_fs_t rreq;
static int64_t roff;

static void read_more(void);

static void on_read(uv_fs_t* req) {
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r < 0) return fail("read", r);
  if (r == 0) {
    if (roff != (int64_t)chunk * chunks) {
      fprintf(stderr, "fs_work: the file ends at %lld of %d bytes\n", (long long)roff, chunk * chunks);
      status = 2;
    }
    return;
  }
  if (roff + r > (int64_t)chunk * chunks || memcmp(back, data + roff, (size_t)r) != 0) {
    fprintf(stderr, "fs_work: bytes at %lld differ from those written\n", (long long)roff);
    status = 2;
    return;
  }
  roff += r;
  read_more();
}

static void read_more(void) {
  uv_buf_t b = uv_buf_init((char*)back, chunk);
  int r = uv_fs_read(loop, &rreq, file, &b, 1, roff, on_read);
  if (r < 0) fail("uv_fs_read", r);
}

static void on_reopen(uv_fs_t* req) {
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r < 0) return fail("open for reading", r);
  file = (uv_file)r;
  read_more();
}

static void on_close(uv_fs_t* req) {
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  file = -1;
  if (r < 0) return fail("close", r);
  static uv_fs_t open_req;
  int e = uv_fs_open(loop, &open_req, path, UV_FS_O_RDONLY, 0, on_reopen);
  if (e < 0) fail("uv_fs_open", e);
}

static void on_fsync(uv_fs_t* req) {
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r < 0) return fail("fsync", r);
  static uv_fs_t close_req;
  int e = uv_fs_close(loop, &close_req, file, on_close);
  if (e < 0) fail("uv_fs_close", e);
}

static void start_reading(void) {
  static uv_fs_t sync_req;
  int e = uv_fs_fsync(loop, &sync_req, file, on_fsync);
  if (e < 0) fail("uv_fs_fsync", e);
}

static void on_open(uv_fs_t* req) {
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r < 0) return fail("open", r);
  file = (uv_file)r;
  for (int i = 0; i < in_flight; i++) {
    parts[i].chunk = next_chunk++;
    write_part(&parts[i]);
  }
}

static void on_mkdtemp(uv_fs_t* req) {
  if (req->result < 0) {
    fail("mkdtemp", req->result);
    uv_fs_req_cleanup(req);
    return;
  }
  snprintf(dir, sizeof dir, "%s", req->path);
  uv_fs_req_cleanup(req);
  snprintf(path, sizeof path, "%s/data", dir);
  snprintf(moved, sizeof moved, "%s/moved", dir);
  static uv_fs_t open_req;
  int e = uv_fs_open(loop, &open_req, path, UV_FS_O_CREAT | UV_FS_O_RDWR | UV_FS_O_TRUNC, 0600, on_open);
  if (e < 0) fail("uv_fs_open", e);
}

/* After the loop: the synchronous requests of the end (stat, rename,
 * scandir), each checked. */
static void finish(void) {
  uv_fs_t r;
  int e = uv_fs_stat(NULL, &r, path, NULL);
  if (e < 0) fail("stat", e);
  else if (r.statbuf.st_size != (uint64_t)chunk * chunks) {
    fprintf(stderr, "fs_work: stat says %llu bytes\n", (unsigned long long)r.statbuf.st_size);
    status = 2;
  }
  uv_fs_req_cleanup(&r);
  if (status != 0) return;
  if ((e = uv_fs_rename(NULL, &r, path, moved, NULL)) < 0) fail("rename", e);
  uv_fs_req_cleanup(&r);
  if (status != 0) return;
  e = uv_fs_scandir(NULL, &r, dir, 0, NULL);
  if (e < 0) {
    fail("scandir", e);
  } else {
    uv_dirent_t ent;
    int seen = 0;
    while (uv_fs_scandir_next(&r, &ent) == 0) seen += strcmp(ent.name, "moved") == 0;
    if (e != 1 || seen != 1) {
      fprintf(stderr, "fs_work: scandir found %d entries, 'moved' %d times\n", e, seen);
      status = 2;
    }
  }
  uv_fs_req_cleanup(&r);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fs_work DIR\n");
    return 64;
  }
  data = malloc((size_t)chunk * chunks);
  if (data == NULL) return 1;
  uint64_t x = 0x243F6A8885A308D3ull;
  for (size_t i = 0; i < (size_t)chunk * chunks; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    data[i] = (unsigned char)x;
  }
  loop = uv_default_loop();
  if (loop == NULL) {  /* its initialisation failed */
    fprintf(stderr, "fs_work: uv_default_loop failed\n");
    return 1;
  }
  char tmpl[4200];
  snprintf(tmpl, sizeof tmpl, "%s/fs_work.XXXXXX", argv[1]);
  static uv_fs_t mk;
  int e = uv_fs_mkdtemp(loop, &mk, tmpl, on_mkdtemp);
  if (e < 0) fail("uv_fs_mkdtemp", e);
  e = uv_run(loop, UV_RUN_DEFAULT);
  if (status == 0 && e != 0) fail("uv_run", UV_EBUSY);
  if (status == 0 && done_chunks == chunks && roff == (int64_t)chunk * chunks) finish();
  else if (status == 0) {
    // Every request made was answered by an error or went on: none may
    // be left without its callback.
    fprintf(stderr, "fs_work: the loop ended with %d of %d chunks written, %lld bytes read, no error\n", done_chunks,
            chunks, (long long)roff);
    status = 2;
  }
  cleanup();
  free(data);
  if (status == 0) printf("fs_work: %d bytes written, read back and equal\n", chunk * chunks);
  return status;
}
