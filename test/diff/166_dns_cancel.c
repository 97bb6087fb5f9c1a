// SPDX-License-Identifier: MIT
/* uv_cancel of DNS requests still queued: the only pool thread is kept
 * busy, so the lookups cannot have started.  Canceling succeeds and the
 * callback gets UV_EAI_CANCELED (getaddrinfo: no list; getnameinfo: NULL
 * names), queued at uv_cancel time, before the blocker's completion.
 * Canceling again before the callback also succeeds and moves the request
 * to the back of the completion queue.  A request whose callback is
 * running can no longer be canceled (EBUSY). */
#include "diff.h"

static uv_loop_t loop;
static uv_work_t blocker;
static uv_sem_t started, release;
static uv_getaddrinfo_t gai1, gai2, done_gai;
static uv_getnameinfo_t gni;

static void block_work(uv_work_t *req) {
  (void) req;
  uv_sem_post(&started);
  uv_sem_wait(&release);
}

static void after_block(uv_work_t *req, int status) {
  (void) req;
  say("blocker after_work: %s", rc_name(status));
}

static void on_gai(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  say("getaddrinfo %s: %s list=%s alive=%d", (const char *) req->data, rc_name(status), res ? "set" : "NULL",
      uv_loop_alive(&loop));
  uv_freeaddrinfo(res);
  if (req == &done_gai) say("  cancel inside its own callback = %s", rc_name(uv_cancel((uv_req_t *) req)));
}

static void on_gni(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  (void) req;
  say("getnameinfo: %s host=%s service=%s", rc_name(status), host ? host : "(null)",
      service ? service : "(null)");
}

int main(void) {
  struct sockaddr_in v4;

  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_sem_init(&started, 0) == 0);
  CHECK(uv_sem_init(&release, 0) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_ip4_addr("127.0.0.1", 80, &v4) == 0);

  CHECK(uv_queue_work(&loop, &blocker, block_work, after_block) == 0);
  uv_sem_wait(&started);

  gai1.data = "localhost";
  gai2.data = "127.0.0.1";
  CHECK(uv_getaddrinfo(&loop, &gai1, on_gai, "localhost", "http", NULL) == 0);
  CHECK(uv_getnameinfo(&loop, &gni, on_gni, (struct sockaddr *) &v4, NI_NUMERICHOST) == 0);
  CHECK(uv_getaddrinfo(&loop, &gai2, on_gai, "127.0.0.1", NULL, NULL) == 0);
  say("cancel getaddrinfo localhost = %s", rc_name(uv_cancel((uv_req_t *) &gai1)));
  say("cancel getnameinfo = %s", rc_name(uv_cancel((uv_req_t *) &gni)));
  say("cancel getaddrinfo localhost again = %s", rc_name(uv_cancel((uv_req_t *) &gai1)));
  say("alive=%d", uv_loop_alive(&loop));
  say("loop close while queued = %s", rc_name(uv_loop_close(&loop)));
  uv_sem_post(&release);
  run_say(&loop, UV_RUN_DEFAULT);

  say("-- a request that was not canceled");
  done_gai.data = "127.0.0.1 (not canceled)";
  CHECK(uv_getaddrinfo(&loop, &done_gai, on_gai, "127.0.0.1", "80", NULL) == 0);
  run_say(&loop, UV_RUN_DEFAULT);

  uv_sem_destroy(&started);
  uv_sem_destroy(&release);
  finish(&loop);
  return 0;
}
