// SPDX-License-Identifier: MIT
/* Pipes to a child's stdin, stdout and stderr: what the parent writes
 * comes back through cat, the write and shutdown callbacks come before
 * the exit callback, and every output pipe reads end of file before the
 * exit callback runs (the child closes its descriptors before the kernel
 * sends SIGCHLD; the signal is handled after the other I/O of a poll).
 * Large transfers (300 kB each way) go through whole; their end of file
 * is looked at after the run: with more output than a pipe holds, the
 * exit can be noticed while output is still to be read (real libuv 1.53
 * showed it once in CI). */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static struct proc_sink in, out, err;
static uv_write_t wr;
static uv_shutdown_t sd;
static char big[300000];
static int large; /* the child's output is more than a pipe holds */

static void say_output(void) {
  say("  stdout eof %d: %lu bytes \"%.*s\"", out.eof, (unsigned long) out.len,
      out.len > 40 ? 0 : (int) out.len, out.buf);
  say("  stderr eof %d: \"%.*s\"", err.eof, (int) err.len, err.buf);
  if (out.len == sizeof big) {
    size_t i;
    for (i = 0; i < out.len && out.buf[i] == big[i]; i++) {
    }
    say("  stdout equals what was written: %d", i == out.len);
  }
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  if (!large) say_output();
  uv_close((uv_handle_t *) p, NULL);
}

static void on_write(uv_write_t *r, int status) {
  (void) r;
  say("write cb %s", rc_name(status));
}

static void on_shutdown(uv_shutdown_t *r, int status) {
  say("shutdown cb %s", rc_name(status));
  uv_close((uv_handle_t *) r->handle, NULL);
}

static void run_child(const char *name, const char *script, uv_buf_t *bufs, unsigned nbufs) {
  uv_process_t proc;
  uv_stdio_container_t stdio[3];
  uv_process_options_t o;
  proc_sink_init(&loop, &in, "stdin");
  proc_sink_init(&loop, &out, "stdout");
  proc_sink_init(&loop, &err, "stderr");
  out.quiet = err.quiet = 1;
  stdio[0] = proc_pipe(&in, 1);
  stdio[1] = proc_pipe(&out, 0);
  stdio[2] = proc_pipe(&err, 0);
  o = proc_sh(script, on_exit_cb, stdio, 3);
  proc.data = (void *) name;
  CHECK(uv_spawn(&loop, &proc, &o) == 0);
  say("%s: stdin r%d w%d, stdout r%d w%d", name, uv_is_readable((uv_stream_t *) &in.pipe),
      uv_is_writable((uv_stream_t *) &in.pipe), uv_is_readable((uv_stream_t *) &out.pipe),
      uv_is_writable((uv_stream_t *) &out.pipe));
  say("  read_start on stdin: %s", rc_name(uv_read_start((uv_stream_t *) &in.pipe, proc_sink_alloc, proc_sink_read)));
  proc_sink_start(&out);
  proc_sink_start(&err);
  if (nbufs > 0)
    CHECK(uv_write(&wr, (uv_stream_t *) &in.pipe, bufs, nbufs, on_write) == 0);
  CHECK(uv_shutdown(&sd, (uv_stream_t *) &in.pipe, on_shutdown) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  if (large) say_output();
  CHECK(out.eof && err.eof);
}

int main(void) {
  uv_buf_t bufs[3];
  size_t i;
  CHECK(uv_loop_init(&loop) == 0);
  for (i = 0; i < sizeof big; i++) big[i] = (char) ('a' + i % 23);
  bufs[0] = uv_buf_init((char *) "hello ", 6);
  bufs[1] = uv_buf_init((char *) "world", 5);
  bufs[2] = uv_buf_init((char *) "\n", 1);
  run_child("cat", "cat; echo done >&2; exit 4", bufs, 3);
  run_child("nothing to read", "cat; echo -n end >&2", NULL, 0);
  bufs[0] = uv_buf_init(big, sizeof big);
  large = 1;
  run_child("300 kB through cat", "cat", bufs, 1);
  run_child("300 kB from head", "head -c 300000 /dev/zero | tr '\\0' x; echo -n ok >&2", NULL, 0);
  finish(&loop);
  return 0;
}
