// SPDX-License-Identifier: MIT
/*
 * diff_proc.h -- helpers for the process scenarios (include after diff.h).
 *
 * Children are /bin/sh one-liners.  Nothing printed may depend on pids,
 * timing, or how a child's output is cut into reads: output is collected
 * and printed whole at end of file.  A scenario that needs several
 * children to have exited before the loop looks waits with
 * proc_wait_exited(), which leaves the child for the loop to reap.
 */
#ifndef PHASELOOP_TEST_DIFF_PROC_H
#define PHASELOOP_TEST_DIFF_PROC_H

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Options for `/bin/sh -c script` with `count` stdio entries. */
static char *proc_argv[4];
static uv_process_options_t proc_sh(const char *script, uv_exit_cb cb,
                                    uv_stdio_container_t *stdio, int count) DIFF_UNUSED;
static uv_process_options_t proc_sh(const char *script, uv_exit_cb cb,
                                    uv_stdio_container_t *stdio, int count) {
  uv_process_options_t o;
  memset(&o, 0, sizeof o);
  proc_argv[0] = (char *) "sh";
  proc_argv[1] = (char *) "-c";
  proc_argv[2] = (char *) script;
  proc_argv[3] = NULL;
  o.file = "/bin/sh";
  o.args = proc_argv;
  o.exit_cb = cb;
  o.stdio = stdio;
  o.stdio_count = count;
  return o;
}

/* Prints what the exit callback gets; the handle's `data` names it. */
static void proc_on_exit(uv_process_t *p, int64_t status, int sig) DIFF_UNUSED;
static void proc_on_exit(uv_process_t *p, int64_t status, int sig) {
  say("exit %s: status %d signal %d active %d", (const char *) p->data,
      (int) status, sig, uv_is_active((uv_handle_t *) p));
}

/* Blocks until `pid` has exited, without reaping it. */
static void proc_wait_exited(int pid) DIFF_UNUSED;
static void proc_wait_exited(int pid) {
  siginfo_t info;
  int r;
  do
    r = waitid(P_PID, (id_t) pid, &info, WEXITED | WNOWAIT);
  while (r == -1 && errno == EINTR);
  CHECK(r == 0);
}

/* A readable pipe whose bytes are collected, then printed at EOF. */
struct proc_sink {
  uv_pipe_t pipe;
  const char *name;
  char buf[1 << 19];
  size_t len;
  int eof;    /* end of file was read */
  int quiet;  /* do not print at end of file */
};

static void proc_sink_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b) DIFF_UNUSED;
static void proc_sink_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b) {
  struct proc_sink *s = (struct proc_sink *) h;
  (void) suggested;
  b->base = s->buf + s->len;
  b->len = sizeof s->buf - s->len;
}

static void proc_sink_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b) DIFF_UNUSED;
static void proc_sink_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b) {
  struct proc_sink *s = (struct proc_sink *) st;
  (void) b;
  if (n > 0) {
    s->len += (size_t) n;
    return;
  }
  if (n == 0) return;
  if (n == UV_EOF) {
    s->eof = 1;
    if (!s->quiet) {
    /* Small outputs are printed, large ones summed up. */
      if (s->len <= 200)
        say("%s eof: \"%.*s\"", s->name, (int) s->len, s->buf);
      else
        say("%s eof: %lu bytes", s->name, (unsigned long) s->len);
    }
  } else {
    say("%s read error %s", s->name, uv_err_name((int) n));
  }
  uv_close((uv_handle_t *) st, NULL);
}

static void proc_sink_init(uv_loop_t *loop, struct proc_sink *s, const char *name) DIFF_UNUSED;
static void proc_sink_init(uv_loop_t *loop, struct proc_sink *s, const char *name) {
  CHECK(uv_pipe_init(loop, &s->pipe, 0) == 0);
  s->name = name;
  s->len = 0;
  s->eof = 0;
  s->quiet = 0;
}

/* A stdio entry: a pipe to `s` ("r": the child reads it, "w": writes). */
static uv_stdio_container_t proc_pipe(struct proc_sink *s, int child_reads) DIFF_UNUSED;
static uv_stdio_container_t proc_pipe(struct proc_sink *s, int child_reads) {
  uv_stdio_container_t c;
  c.flags = (uv_stdio_flags) (UV_CREATE_PIPE | (child_reads ? UV_READABLE_PIPE : UV_WRITABLE_PIPE));
  c.data.stream = (uv_stream_t *) &s->pipe;
  return c;
}

static void proc_sink_start(struct proc_sink *s) DIFF_UNUSED;
static void proc_sink_start(struct proc_sink *s) {
  CHECK(uv_read_start((uv_stream_t *) &s->pipe, proc_sink_alloc, proc_sink_read) == 0);
}

#endif /* PHASELOOP_TEST_DIFF_PROC_H */
