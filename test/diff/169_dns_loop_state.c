// SPDX-License-Identifier: MIT
/* A DNS request and its loop: while in flight it is an active request
 * (the loop is alive, uv_loop_close is EBUSY, uv_backend_timeout is -1
 * with no timer, once the loop has polled) but no handle (uv_walk sees
 * nothing, active_handles 0); inside its callback the loop no longer
 * counts it.  The request keeps `data`, and shows its type and loop. */
#include "diff.h"

static uv_loop_t loop;
static uv_getaddrinfo_t gai;
static uv_getnameinfo_t gni;
static int walked;

static void count(uv_handle_t *h, void *arg) {
  (void) h;
  (void) arg;
  walked++;
}

static void state(const char *when) {
  walked = 0;
  uv_walk(&loop, count, NULL);
  say("%s: alive=%d handles walked=%d active_handles=%u backend_timeout=%d", when, uv_loop_alive(&loop), walked,
      loop.active_handles, uv_backend_timeout(&loop));
}

static void on_addr(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  say("getaddrinfo cb: %s data=%s type=%s loop=%d", rc_name(status), (const char *) req->data,
      uv_req_type_name(uv_req_get_type((uv_req_t *) req)), req->loop == &loop);
  uv_freeaddrinfo(res);
  state("  inside the callback");
}

static void on_name(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  say("getnameinfo cb: %s %s %s data=%s type=%s", rc_name(status), host, service, (const char *) req->data,
      uv_req_type_name(req->type));
  state("  inside the callback");
}

int main(void) {
  struct sockaddr_in v4;

  CHECK(uv_loop_init(&loop) == 0);
  say("sizes: getaddrinfo %d getnameinfo %d", (int) uv_req_size(UV_GETADDRINFO), (int) uv_req_size(UV_GETNAMEINFO));
  /* Until the first poll registers the loop's own descriptors,
   * uv_backend_timeout is 0. */

  gai.data = "mine";
  CHECK(uv_getaddrinfo(&loop, &gai, on_addr, "127.0.0.1", "80", NULL) == 0);
  state("getaddrinfo in flight");
  say("uv_loop_close = %s", rc_name(uv_loop_close(&loop)));
  run_say(&loop, UV_RUN_DEFAULT);
  state("after");

  gni.data = "also mine";
  CHECK(uv_ip4_addr("127.0.0.1", 80, &v4) == 0);
  CHECK(uv_getnameinfo(&loop, &gni, on_name, (struct sockaddr *) &v4, NI_NUMERICSERV) == 0);
  state("getnameinfo in flight");
  say("uv_loop_close = %s", rc_name(uv_loop_close(&loop)));
  run_say(&loop, UV_RUN_DEFAULT);

  say("uv_loop_close = %s", rc_name(uv_loop_close(&loop)));
  return 0;
}
