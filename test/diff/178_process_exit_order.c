// SPDX-License-Identifier: MIT
/* Children that exited while the loop was not running are reported by
 * the next poll, in the poll phase, in spawn order (one reaping pass
 * takes every exited child), after the other I/O callbacks of that poll. */
#include "diff.h"
#include "diff_net.h"
#include "diff_proc.h"

static uv_loop_t loop;
static uv_process_t procs[4];
static uv_pipe_t reader;
static const char *const names[] = {"first (exit 30)", "second (exit 10)", "third (exit 20)", "fourth (SIGTERM)"};
static const char *const scripts[] = {"exit 30", "exit 10", "exit 20", "kill $$"};

static void on_exit_cb(uv_process_t *p, int64_t status, int sig) {
  say("  exit %s: status %d signal %d", (const char *) p->data, (int) status, sig);
  uv_close((uv_handle_t *) p, NULL);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  (void) b;
  say("  read %d", (int) n);
  uv_close((uv_handle_t *) s, NULL);
}

int main(void) {
  int fds[2], i;
  CHECK(uv_loop_init(&loop) == 0);
  net_markers(&loop);

  for (i = 0; i < 4; i++) {
    uv_process_options_t o = proc_sh(scripts[i], on_exit_cb, NULL, 0);
    procs[i].data = (void *) names[i];
    CHECK(uv_spawn(&loop, &procs[i], &o) == 0);
  }
  /* The last one ends first. */
  for (i = 3; i >= 0; i--) proc_wait_exited(procs[i].pid);

  CHECK(uv_socketpair(SOCK_STREAM, 0, fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &reader, 0) == 0);
  CHECK(uv_pipe_open(&reader, fds[0]) == 0);
  CHECK(uv_read_start((uv_stream_t *) &reader, net_alloc, on_read) == 0);
  CHECK(write(fds[1], "abc", 3) == 3);

  say("run NOWAIT");
  run_say(&loop, UV_RUN_NOWAIT);
  run_say(&loop, UV_RUN_DEFAULT);
  close(fds[1]);
  finish(&loop);
  return 0;
}
