// SPDX-License-Identifier: MIT
/* Socket options on loopback: broadcast, TTLs, multicast loop and
 * interface, group membership (join/leave, source-specific), before and
 * after binding; joining binds an unbound handle implicitly. Results are
 * whatever the kernel says, identically for libuv and phaseloop. */
#include "diff.h"
#include "diff_udp.h"

static uv_loop_t loop;

static void options(const char *what, uv_udp_t *h) {
  say("%s: broadcast on=%s off=%s", what, rc_name(uv_udp_set_broadcast(h, 1)), rc_name(uv_udp_set_broadcast(h, 0)));
  say("%s: ttl 1=%s 255=%s", what, rc_name(uv_udp_set_ttl(h, 1)), rc_name(uv_udp_set_ttl(h, 255)));
  say("%s: multicast_ttl 0=%s 255=%s", what, rc_name(uv_udp_set_multicast_ttl(h, 0)),
      rc_name(uv_udp_set_multicast_ttl(h, 255)));
  say("%s: multicast_loop 0=%s 1=%s", what, rc_name(uv_udp_set_multicast_loop(h, 0)),
      rc_name(uv_udp_set_multicast_loop(h, 1)));
  say("%s: multicast_interface NULL=%s", what, rc_name(uv_udp_set_multicast_interface(h, NULL)));
}

int main(void) {
  uv_udp_t a, b, c, d;
  struct sockaddr_storage addr;
  int len, r;
  CHECK(uv_loop_init(&loop) == 0);

  CHECK(uv_udp_init_ex(&loop, &a, AF_INET) == 0);
  options("inet unbound", &a);
  udp_bind_loopback(&a, AF_INET, &addr);
  options("inet bound", &a);
  say("multicast_interface 127.0.0.1 = %s", rc_name(uv_udp_set_multicast_interface(&a, "127.0.0.1")));
  say("multicast_interface ::1 on v4 = %s", rc_name(uv_udp_set_multicast_interface(&a, "::1")));

  CHECK(uv_udp_init(&loop, &b) == 0);
  r = uv_udp_set_membership(&b, "239.255.0.1", "127.0.0.1", UV_JOIN_GROUP);
  say("join on unbound = %s", rc_name(r));
  len = sizeof addr;
  r = uv_udp_getsockname(&b, (struct sockaddr *) &addr, &len);
  say("bound implicitly = %s family=%s", rc_name(r), family_name(addr.ss_family));
  if (r == 0) {
    say("join again = %s", rc_name(uv_udp_set_membership(&b, "239.255.0.1", "127.0.0.1", UV_JOIN_GROUP)));
    say("leave = %s", rc_name(uv_udp_set_membership(&b, "239.255.0.1", "127.0.0.1", UV_LEAVE_GROUP)));
    say("leave again = %s", rc_name(uv_udp_set_membership(&b, "239.255.0.1", "127.0.0.1", UV_LEAVE_GROUP)));
    say("join non-multicast = %s", rc_name(uv_udp_set_membership(&b, "127.0.0.1", NULL, UV_JOIN_GROUP)));
    say("join v6 group on v4 socket = %s", rc_name(uv_udp_set_membership(&b, "ff02::1", NULL, UV_JOIN_GROUP)));
    say("source join = %s",
        rc_name(uv_udp_set_source_membership(&b, "232.1.1.1", "127.0.0.1", "127.0.0.1", UV_JOIN_GROUP)));
    say("source leave = %s",
        rc_name(uv_udp_set_source_membership(&b, "232.1.1.1", "127.0.0.1", "127.0.0.1", UV_LEAVE_GROUP)));
    say("source bad action = %s",
        rc_name(uv_udp_set_source_membership(&b, "232.1.1.1", NULL, "127.0.0.1", (uv_membership) 5)));
  }

  CHECK(uv_udp_init(&loop, &c) == 0);
  udp_bind_loopback(&c, AF_INET6, &addr);
  options("inet6 bound", &c);
  say("multicast_interface ::1 = %s", rc_name(uv_udp_set_multicast_interface(&c, "::1")));
  say("multicast_interface ::1%%lo = %s", rc_name(uv_udp_set_multicast_interface(&c, "::1%lo")));
  say("v6 join ff02::1 on lo = %s", rc_name(uv_udp_set_membership(&c, "ff02::1", "::1%lo", UV_JOIN_GROUP)));
  say("v6 leave = %s", rc_name(uv_udp_set_membership(&c, "ff02::1", "::1%lo", UV_LEAVE_GROUP)));
  say("v6 source join = %s",
      rc_name(uv_udp_set_source_membership(&c, "ff3e::1234", "::1%lo", "::1", UV_JOIN_GROUP)));
  say("v6 source junk = %s", rc_name(uv_udp_set_source_membership(&c, "ff3e::1234", NULL, "nope", UV_JOIN_GROUP)));

  CHECK(uv_udp_init(&loop, &d) == 0);
  r = uv_udp_set_membership(&d, "ff02::1", NULL, UV_JOIN_GROUP);
  say("v6 join on unbound = %s", rc_name(r));
  len = sizeof addr;
  say("bound implicitly = %s family=%s", rc_name(uv_udp_getsockname(&d, (struct sockaddr *) &addr, &len)),
      family_name(addr.ss_family));
  finish(&loop);
  return 0;
}
