// SPDX-License-Identifier: MIT
/* Receive callbacks that stop or close: recv_stop inside the callback ends
 * the batch (the other datagrams wait, and the handle goes inactive);
 * a restart from a timer delivers them; closing the handle inside the
 * callback ends the batch too. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t reqs[4];
static uv_timer_t timer;
static struct sockaddr_storage server_addr;
static int got;

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags);

static void on_timer(uv_timer_t *t) {
  (void) t;
  say("timer: recv_start = %s", rc_name(uv_udp_recv_start(&server, udp_alloc_static, on_recv)));
}

static void on_close(uv_handle_t *h) {
  say("close_cb %s", h == (uv_handle_t *) &server ? "server" : "other");
}

static void on_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf, const struct sockaddr *addr, unsigned flags) {
  (void) flags;
  if (nread == 0 && addr == NULL) {
    say("recv nothing more");
    return;
  }
  got++;
  say("recv #%d \"%.*s\"", got, (int) nread, buf->base);
  if (got == 1) {
    int r = uv_udp_recv_stop(h);
    say("  recv_stop = %s active=%d", rc_name(r), uv_is_active((uv_handle_t *) h));
    CHECK(uv_timer_start(&timer, on_timer, 1, 0) == 0);
  } else if (got == 3) {
    uv_close((uv_handle_t *) h, on_close);
    uv_close((uv_handle_t *) &client, on_close);
    uv_close((uv_handle_t *) &timer, on_close);
    say("  closed");
  }
}

int main(void) {
  int i;
  uv_buf_t b;
  static char text[4][4] = {"d0", "d1", "d2", "d3"};
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  CHECK(uv_timer_init(&loop, &timer) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  for (i = 0; i < 4; i++) {
    b = uv_buf_init(text[i], 2);
    CHECK(uv_udp_send(&reqs[i], &client, &b, 1, (const struct sockaddr *) &server_addr, NULL) == 0);
  }
  run_say(&loop, UV_RUN_NOWAIT);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_udp_recv_start(&server, udp_alloc_static, on_recv) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("got=%d", got);
  finish(&loop);
  return 0;
}
