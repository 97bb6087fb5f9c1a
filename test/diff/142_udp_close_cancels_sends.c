// SPDX-License-Identifier: MIT
/* Closing a UDP handle with sends in flight: the send that was already
 * written still reports 0, queued ones report ECANCELED; all of them in
 * the closing phase, in send order, before the close callback. A send
 * with a NULL callback is completed silently. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_udp_send_t reqs[4];
static struct sockaddr_storage server_addr;

static void on_close(uv_handle_t *h) {
  say("close_cb %s closing=%d size=%zu count=%zu", h == (uv_handle_t *) &client ? "client" : "server",
      uv_is_closing(h), uv_udp_get_send_queue_size((uv_udp_t *) h), uv_udp_get_send_queue_count((uv_udp_t *) h));
}

static void on_send(uv_udp_send_t *r, int status) {
  say("send_cb #%d status=%s count=%zu alive=%d", (int) (r - reqs), rc_name(status),
      uv_udp_get_send_queue_count(&client), uv_loop_alive(&loop));
}

static void on_idle(uv_idle_t *h) {
  say("idle");
  uv_close((uv_handle_t *) h, NULL);
}

int main(void) {
  uv_buf_t b = uv_buf_init("abc", 3);
  uv_idle_t idle;
  int i;
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  for (i = 0; i < 4; i++) {
    int r = uv_udp_send(&reqs[i], &client, &b, 1, (const struct sockaddr *) &server_addr, i == 2 ? NULL : on_send);
    say("send #%d = %s size=%zu count=%zu", i, rc_name(r), uv_udp_get_send_queue_size(&client),
        uv_udp_get_send_queue_count(&client));
  }
  CHECK(uv_idle_init(&loop, &idle) == 0);
  CHECK(uv_idle_start(&idle, on_idle) == 0);
  uv_close((uv_handle_t *) &client, on_close);
  say("closed: size=%zu count=%zu active=%d", uv_udp_get_send_queue_size(&client),
      uv_udp_get_send_queue_count(&client), uv_is_active((uv_handle_t *) &client));
  run_say(&loop, UV_RUN_DEFAULT);
  /* A second round: the close comes from a send callback of the pending phase. */
  uv_close((uv_handle_t *) &server, on_close);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
