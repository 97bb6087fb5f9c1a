// SPDX-License-Identifier: MIT
/* uv_tcp_connect to an IPv6 link-local address (fe80::/64) given without
 * a scope id. Such an address names no route without an interface: libuv
 * 1.44 passes it on as it is and connect() refuses it (EINVAL); from
 * 1.47 (PR #4107) libuv gives it the scope id of the first link-local
 * address of the machine's interfaces, and the connection is made. The
 * target is this machine's own first link-local address, served by a
 * listener on [::]; a machine without one prints that and nothing else. */
#include "diff.h"
#include "diff_net.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>

static uv_loop_t loop;
static uv_tcp_t server, client, conn;
static uv_connect_t creq;
/* Which of the two callbacks runs first is the kernel's order: each
 * keeps its line for the end. */
static char connection_line[64], connect_line[64];

static void on_connection(uv_stream_t *s, int status) {
  int rc;
  CHECK(uv_tcp_init(&loop, &conn) == 0);
  rc = uv_accept(s, (uv_stream_t *) &conn);
  snprintf(connection_line, sizeof connection_line, "connection cb: %s, accept = %s", rc_name(status), rc_name(rc));
  uv_close((uv_handle_t *) &conn, NULL);
  uv_close((uv_handle_t *) s, NULL);
}

static void on_connect(uv_connect_t *r, int status) {
  snprintf(connect_line, sizeof connect_line, "connect cb: %s", rc_name(status));
  uv_close((uv_handle_t *) r->handle, NULL);
}

/* The first link-local IPv6 address of the interfaces, or 0. */
static int first_link_local(struct sockaddr_in6 *out) {
  uv_interface_address_t *addrs;
  int n, i, found = 0;
  CHECK(uv_interface_addresses(&addrs, &n) == 0);
  for (i = 0; i < n && !found; i++) {
    const struct sockaddr_in6 *a = &addrs[i].address.address6;
    if (a->sin6_family == AF_INET6 && a->sin6_addr.s6_addr[0] == 0xfe && a->sin6_addr.s6_addr[1] == 0x80) {
      *out = *a;
      found = 1;
    }
  }
  uv_free_interface_addresses(addrs, n);
  return found;
}

int main(void) {
  struct sockaddr_in6 any, to;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  if (!first_link_local(&to)) {
    say("no link-local address");
    finish(&loop);
    return 0;
  }
  CHECK(uv_ip6_addr("::", 0, &any) == 0);
  CHECK(uv_tcp_init(&loop, &server) == 0);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr *) &any, 0) == 0);
  CHECK(uv_listen((uv_stream_t *) &server, 4, on_connection) == 0);
  to.sin6_port = htons((unsigned short) net_port(&server));
  to.sin6_scope_id = 0;
  CHECK(uv_tcp_init(&loop, &client) == 0);
  rc = uv_tcp_connect(&creq, &client, (const struct sockaddr *) &to, on_connect);
  say("connect to a link-local address without a scope id = %s", rc_name(rc));
  if (rc != 0) {
    uv_close((uv_handle_t *) &client, NULL);
    uv_close((uv_handle_t *) &server, NULL);
  }
  run_say(&loop, UV_RUN_DEFAULT);
  if (connection_line[0]) say("%s", connection_line);
  if (connect_line[0]) say("%s", connect_line);
  finish(&loop);
  return 0;
}
