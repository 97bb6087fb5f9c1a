// SPDX-License-Identifier: MIT
/* Where DNS callbacks run: in the poll phase, after the prepare callbacks
 * and before the check callbacks of the same iteration, like every
 * threadpool completion.  With nothing else to do the poll waits for the
 * answer, so the callback comes in the first iteration, after a timer due
 * at once (libuv 1.44 runs timers first).  A lookup started from a DNS
 * callback completes in the next iteration.  With an idle handle the poll
 * does not wait, so the callback may come some iterations later, but still
 * between prepare and check.  UV_RUN_ONCE waits for the answer. */
#include "diff.h"

static uv_loop_t loop;
static uv_prepare_t prepare;
static uv_check_t check;
static uv_idle_t idle;
static uv_timer_t timer;
static uv_getaddrinfo_t gai;
static uv_getnameinfo_t gni;
static const char *last = "none";
static int quiet;

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  last = "prepare";
  if (!quiet) say("  [prepare]");
}

static void on_check(uv_check_t *h) {
  (void) h;
  last = "check";
  if (!quiet) say("  [check]");
}

static void on_idle(uv_idle_t *h) {
  (void) h;
  last = "idle";
}

static void on_timer(uv_timer_t *h) {
  (void) h;
  last = "timer";
  say("  timer");
}

static void on_name(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  (void) req;
  say("  getnameinfo cb: %s %s:%s after %s", rc_name(status), host, service, last);
}

static void on_addr(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  struct sockaddr_in v4;
  say("  getaddrinfo cb: %s after %s", rc_name(status), last);
  uv_freeaddrinfo(res);
  if (req->data != NULL) {
    CHECK(uv_ip4_addr("127.0.0.1", 443, &v4) == 0);
    CHECK(uv_getnameinfo(&loop, &gni, on_name, (struct sockaddr *) &v4, NI_NUMERICHOST) == 0);
    say("  started getnameinfo");
  }
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_check_init(&loop, &check) == 0);
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  CHECK(uv_check_start(&check, on_check) == 0);
  uv_unref((uv_handle_t *) &prepare);
  uv_unref((uv_handle_t *) &check);
  uv_unref((uv_handle_t *) &idle);

  say("-- a lookup and a timer due at once");
  gai.data = NULL;
  CHECK(uv_getaddrinfo(&loop, &gai, on_addr, "127.0.0.1", "80", NULL) == 0);
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- a lookup started from a DNS callback");
  gai.data = &gai;
  CHECK(uv_getaddrinfo(&loop, &gai, on_addr, "localhost", NULL, NULL) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- UV_RUN_ONCE");
  gai.data = NULL;
  CHECK(uv_getaddrinfo(&loop, &gai, on_addr, "::1", NULL, NULL) == 0);
  run_say(&loop, UV_RUN_ONCE);

  say("-- with an idle handle");
  quiet = 1;
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  gai.data = NULL;
  last = "none";
  CHECK(uv_getaddrinfo(&loop, &gai, on_addr, "127.0.0.1", NULL, NULL) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  uv_idle_stop(&idle);

  finish(&loop);
  return 0;
}
