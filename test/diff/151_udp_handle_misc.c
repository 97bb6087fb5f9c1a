// SPDX-License-Identifier: MIT
/* UDP as a handle: sizes, type names, walk, active state through
 * recv_start/stop and sends, ref/unref (an unreferenced receiving handle
 * does not keep the loop alive, its pending send does through the request),
 * uv_loop_close busy while a UDP handle exists. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t u;
static uv_udp_send_t req;

static void walk_cb(uv_handle_t *h, void *arg) {
  (void) arg;
  say("walk: %s active=%d ref=%d", uv_handle_type_name(h->type), uv_is_active(h), uv_has_ref(h));
}

static void on_send(uv_udp_send_t *r, int status) {
  say("send_cb status=%s req type=%s active=%d alive=%d", rc_name(status), uv_req_type_name(r->type),
      uv_is_active((uv_handle_t *) &u), uv_loop_alive(&loop));
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) h; (void) buf; (void) flags;
  say("recv nread=%zd addr=%s", nread, addr ? "set" : "NULL");
}

int main(void) {
  struct sockaddr_storage self;
  uv_buf_t b = uv_buf_init("me", 2);
  CHECK(uv_loop_init(&loop) == 0);
  say("uv_handle_size(UDP)=%zu uv_req_size(UDP_SEND)=%zu", uv_handle_size(UV_UDP), uv_req_size(UV_UDP_SEND));
  say("names: %s %s", uv_handle_type_name(UV_UDP), uv_req_type_name(UV_UDP_SEND));
  CHECK(uv_udp_init(&loop, &u) == 0);
  say("type=%d active=%d alive=%d", (int) uv_handle_get_type((uv_handle_t *) &u), uv_is_active((uv_handle_t *) &u),
      uv_loop_alive(&loop));
  say("loop_close = %s", rc_name(uv_loop_close(&loop)));
  udp_bind_loopback(&u, AF_INET, &self);
  CHECK(uv_udp_recv_start(&u, udp_alloc_static, on_recv) == 0);
  say("receiving: active=%d alive=%d", uv_is_active((uv_handle_t *) &u), uv_loop_alive(&loop));
  uv_unref((uv_handle_t *) &u);
  say("unref: active=%d alive=%d", uv_is_active((uv_handle_t *) &u), uv_loop_alive(&loop));
  uv_walk(&loop, walk_cb, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
  /* A datagram to itself: the request keeps the loop alive. */
  say("send = %s", rc_name(uv_udp_send(&req, &u, &b, 1, (const struct sockaddr *) &self, on_send)));
  say("sending: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_NOWAIT);
  say("after: alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_NOWAIT);
  uv_ref((uv_handle_t *) &u);
  CHECK(uv_udp_recv_stop(&u) == 0);
  say("stopped: active=%d alive=%d", uv_is_active((uv_handle_t *) &u), uv_loop_alive(&loop));
  uv_walk(&loop, walk_cb, NULL);
  finish(&loop);
  return 0;
}
