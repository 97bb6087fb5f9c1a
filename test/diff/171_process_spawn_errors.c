// SPDX-License-Identifier: MIT
/* Errors the child meets before it runs the program come back from
 * uv_spawn itself: the handle is initialised but inactive, gets no exit
 * callback and must still be closed.  A pipe given for stdout is opened
 * all the same and reads end of file. */
#include "diff.h"
#include "diff_proc.h"

static uv_loop_t loop;
static int exits;

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  (void) p;
  (void) status;
  (void) sig;
  exits++;
}

static void on_close(uv_handle_t *h) { say("closed %s", (const char *) h->data); }

static void try_spawn(const char *name, const char *file, const char *cwd) {
  uv_process_t proc;
  uv_process_options_t o;
  char *args[] = {(char *) file, NULL};
  int r, n;
  memset(&o, 0, sizeof o);
  o.file = file;
  o.args = args;
  o.cwd = cwd;
  o.exit_cb = on_exit_cb;
  proc.data = (void *) name;
  r = uv_spawn(&loop, &proc, &o);
  say("%s: %s active %d alive %d", name, rc_name(r), uv_is_active((uv_handle_t *) &proc),
      uv_loop_alive(&loop));
  uv_close((uv_handle_t *) &proc, on_close);
  n = uv_run(&loop, UV_RUN_DEFAULT);
  say("  run %d", n);
}

int main(void) {
  uv_process_t proc;
  uv_process_options_t o;
  uv_stdio_container_t stdio[3];
  struct proc_sink out;
  char *args[] = {(char *) "x", NULL};
  int r;

  CHECK(uv_loop_init(&loop) == 0);
  try_spawn("missing absolute", "/nonexistent/program", NULL);
  try_spawn("missing in PATH", "phaseloop-no-such-program", NULL);
  try_spawn("empty name", "", NULL);
  try_spawn("directory", "/", NULL);
  try_spawn("not executable", "/etc/passwd", NULL);
  try_spawn("bad cwd", "/bin/true", "/nonexistent/dir");
  try_spawn("cwd is a file", "/bin/true", "/etc/passwd");

  /* The stdout pipe of a failed spawn is open and at end of file. */
  proc_sink_init(&loop, &out, "stdout");
  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = (uv_stdio_flags) (UV_CREATE_PIPE | UV_WRITABLE_PIPE);
  stdio[1].data.stream = (uv_stream_t *) &out.pipe;
  stdio[2].flags = UV_IGNORE;
  memset(&o, 0, sizeof o);
  o.file = "/nonexistent/program";
  o.args = args;
  o.exit_cb = on_exit_cb;
  o.stdio = stdio;
  o.stdio_count = 3;
  proc.data = (void *) "with pipe";
  r = uv_spawn(&loop, &proc, &o);
  say("with pipe: %s readable %d writable %d", rc_name(r), uv_is_readable((uv_stream_t *) &out.pipe),
      uv_is_writable((uv_stream_t *) &out.pipe));
  proc_sink_start(&out);
  uv_close((uv_handle_t *) &proc, on_close);
  run_say(&loop, UV_RUN_DEFAULT);
  say("exit callbacks %d", exits);
  finish(&loop);
  return 0;
}
