// SPDX-License-Identifier: MIT
/* Options libuv rejects without starting anything: a CREATE_PIPE stream
 * that is not a pipe, an INHERIT_FD of -1, an INHERIT_STREAM without a
 * descriptor.  The handle is initialised (uv_walk sees it), inactive, and
 * closed like any other.  The Windows-only flags are accepted. */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
}

static void count_handles(uv_handle_t *h, void *arg) {
  if (h->type == UV_PROCESS) ++*(int *) arg;
}

static void try_spawn(const char *name, uv_stdio_container_t *stdio, int n, unsigned flags) {
  uv_process_t proc;
  uv_process_options_t o = proc_sh("exit 5", on_exit_cb, stdio, n);
  int r, seen = 0;
  o.flags = flags;
  proc.data = (void *) name;
  r = uv_spawn(&loop, &proc, &o);
  uv_walk(&loop, count_handles, &seen);
  say("%s: %s active %d walk %d", name, rc_name(r), uv_is_active((uv_handle_t *) &proc), seen);
  if (r != 0) uv_close((uv_handle_t *) &proc, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  uv_stdio_container_t stdio[3];
  uv_tcp_t tcp;
  uv_pipe_t unopened;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_tcp_init(&loop, &tcp) == 0);
  CHECK(uv_pipe_init(&loop, &unopened, 0) == 0);

  memset(stdio, 0, sizeof stdio);
  stdio[1].flags = UV_CREATE_PIPE;
  stdio[1].data.stream = (uv_stream_t *) &tcp;
  try_spawn("create pipe on tcp", stdio, 3, 0);

  memset(stdio, 0, sizeof stdio);
  stdio[2].flags = UV_INHERIT_FD;
  stdio[2].data.fd = -1;
  try_spawn("inherit fd -1", stdio, 3, 0);

  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_INHERIT_STREAM;
  stdio[0].data.stream = (uv_stream_t *) &unopened;
  try_spawn("inherit unopened stream", stdio, 3, 0);

  try_spawn("no stdio", NULL, 0, 0);
  try_spawn("windows flags", NULL, 0,
            UV_PROCESS_WINDOWS_HIDE | UV_PROCESS_WINDOWS_HIDE_CONSOLE | UV_PROCESS_WINDOWS_HIDE_GUI |
                UV_PROCESS_WINDOWS_VERBATIM_ARGUMENTS);
  memset(stdio, 0, sizeof stdio);
  try_spawn("all ignored", stdio, 3, 0);
  finish(&loop);
  return 0;
}
