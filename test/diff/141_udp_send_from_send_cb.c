// SPDX-License-Identifier: MIT
/* A send started inside a send callback is not written at once: it waits
 * for the poll phase to find the socket writable; written there, it
 * completes in the pending passes that follow the poll, and so does every
 * send chained from those callbacks, up to the loop's 8 extra pending
 * passes; the rest waits for the next iteration. A send
 * made before uv_run completes in the first pending phase. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;
static uv_udp_t server, client;
static uv_prepare_t prep;
static uv_check_t chk;
static uv_udp_send_t reqs[12];
static struct sockaddr_storage server_addr;
static int sent;

static void on_close(uv_handle_t *h) { (void) h; }

static void on_send(uv_udp_send_t *r, int status) {
  int i = (int) (r - reqs);
  uv_buf_t b = uv_buf_init("x", 1);
  say("send_cb #%d status=%s count=%zu", i, rc_name(status), uv_udp_get_send_queue_count(&client));
  if (++sent < 12) {
    int r = uv_udp_send(&reqs[sent], &client, &b, 1, (const struct sockaddr *) &server_addr, on_send);
    say("  send #%d = %s count=%zu", sent, rc_name(r), uv_udp_get_send_queue_count(&client));
  } else {
    uv_close((uv_handle_t *) &server, on_close);
    uv_close((uv_handle_t *) &client, on_close);
    uv_close((uv_handle_t *) &prep, on_close);
    uv_close((uv_handle_t *) &chk, on_close);
  }
}

int main(void) {
  uv_buf_t b = uv_buf_init("x", 1);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_udp_init(&loop, &server) == 0);
  CHECK(uv_udp_init(&loop, &client) == 0);
  udp_bind_loopback(&server, AF_INET, &server_addr);
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_prepare_start(&prep, udp_phase_prepare) == 0);
  CHECK(uv_check_init(&loop, &chk) == 0);
  CHECK(uv_check_start(&chk, udp_phase_check) == 0);
  say("send #0 = %s", rc_name(uv_udp_send(&reqs[0], &client, &b, 1, (const struct sockaddr *) &server_addr, on_send)));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
