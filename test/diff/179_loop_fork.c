// SPDX-License-Identifier: MIT
/* uv_loop_fork: after fork() the child makes the loop its own (epoll
 * instance, async and signal wake-ups) and runs it: a timer, an async
 * send, a pipe read and a signal work there, and an fd the parent
 * registered before the fork still delivers.  The parent waits for the
 * child, then finds its own loop unharmed: its events are still its own. */
#include "diff.h"
#include "diff_net.h"
#include <sys/wait.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_timer_t timer;
static uv_async_t async_h;
static uv_signal_t sig_h;
static uv_pipe_t reader;
static int fds[2];
static const char *who = "parent";

static void on_timer(uv_timer_t *t) {
  say("%s: timer", who);
  uv_close((uv_handle_t *) t, NULL);
}

static void on_async(uv_async_t *a) {
  say("%s: async", who);
  uv_close((uv_handle_t *) a, NULL);
}

static void on_signal(uv_signal_t *s, int signum) {
  say("%s: signal %s", who, signum == SIGURG ? "SIGURG" : "?");
  uv_close((uv_handle_t *) s, NULL);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  if (n > 0) {
    say("%s: read \"%.*s\"", who, (int) n, b->base);
    return;
  }
  if (n < 0) {
    say("%s: read %s", who, uv_err_name((int) n));
    uv_close((uv_handle_t *) s, NULL);
  }
}

/* Everything the scenario watches, made before the fork. */
static void setup(void) {
  CHECK(uv_socketpair(SOCK_STREAM, 0, fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &reader, 0) == 0);
  CHECK(uv_pipe_open(&reader, fds[0]) == 0);
  CHECK(uv_read_start((uv_stream_t *) &reader, net_alloc, on_read) == 0);
  CHECK(uv_async_init(&loop, &async_h, on_async) == 0);
  CHECK(uv_signal_init(&loop, &sig_h) == 0);
  CHECK(uv_signal_start(&sig_h, on_signal, SIGURG) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  /* One iteration registers the fds with the parent's epoll instance. */
  CHECK(uv_run(&loop, UV_RUN_NOWAIT) == 1);
}

static void exercise(void) {
  /* Due at once: it runs in the first timers phase, whatever the load. */
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  CHECK(uv_async_send(&async_h) == 0);
  CHECK(uv_kill(uv_os_getpid(), SIGURG) == 0);
  CHECK(write(fds[1], who, strlen(who)) == (ssize_t) strlen(who));
  /* One piece of news per iteration, so that the order is fixed. */
  while (uv_run(&loop, UV_RUN_ONCE) != 0 && (uv_is_active((uv_handle_t *) &async_h) ||
                                             uv_is_active((uv_handle_t *) &sig_h) ||
                                             uv_is_active((uv_handle_t *) &timer))) {
  }
  shutdown(fds[1], SHUT_WR);
  uv_run(&loop, UV_RUN_DEFAULT);
}

int main(void) {
  pid_t pid;
  int status;
  CHECK(uv_loop_init(&loop) == 0);
  setup();
  fflush(stdout);
  pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    who = "child";
    say("child: uv_loop_fork %s", rc_name(uv_loop_fork(&loop)));
    exercise();
    CHECK(uv_loop_close(&loop) == 0);
    say("child: loop closed");
    _exit(0);
  }
  CHECK(waitpid(pid, &status, 0) == pid);
  say("parent: child exited %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  /* The child shut the socket's write side down: a new pair for the parent. */
  close(fds[1]);
  uv_close((uv_handle_t *) &reader, NULL);
  uv_run(&loop, UV_RUN_NOWAIT);
  CHECK(uv_socketpair(SOCK_STREAM, 0, fds, 0, 0) == 0);
  CHECK(uv_pipe_init(&loop, &reader, 0) == 0);
  CHECK(uv_pipe_open(&reader, fds[0]) == 0);
  CHECK(uv_read_start((uv_stream_t *) &reader, net_alloc, on_read) == 0);
  exercise();
  close(fds[1]);
  finish(&loop);
  return 0;
}
