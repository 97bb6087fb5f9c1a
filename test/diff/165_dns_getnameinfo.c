// SPDX-License-Identifier: MIT
/* uv_getnameinfo: host and service names of 127.0.0.1 and ::1.  Without
 * NI_NUMERICHOST the host name of 127.0.0.1 comes from /etc/hosts (where
 * every system has it), so no name server is asked; ::1 is only asked for
 * numerically (it may be missing from /etc/hosts).  NI_NUMERICSERV gives
 * the port, NI_DGRAM the UDP service name, an unknown port its number.
 * The callback gets NULL names on failure; req->host and req->service are
 * the buffers passed on success.  One request at a time, each started
 * from the previous callback. */
#include "diff.h"

struct name_case {
  const char *label;
  const char *ip;
  int port;
  int flags;
};

static const struct name_case cases[] = {
  {"127.0.0.1:80", "127.0.0.1", 80, 0},
  {"127.0.0.1:80 numerichost", "127.0.0.1", 80, NI_NUMERICHOST},
  {"127.0.0.1:80 numericserv", "127.0.0.1", 80, NI_NUMERICSERV},
  {"127.0.0.1:80 both", "127.0.0.1", 80, NI_NUMERICHOST | NI_NUMERICSERV},
  {"127.0.0.1:53 dgram", "127.0.0.1", 53, NI_DGRAM | NI_NUMERICHOST},
  {"127.0.0.1:69", "127.0.0.1", 69, NI_NUMERICHOST},
  {"127.0.0.1:69 dgram", "127.0.0.1", 69, NI_NUMERICHOST | NI_DGRAM},
  {"127.0.0.1:12345", "127.0.0.1", 12345, 0},
  {"127.0.0.1:0 namereqd", "127.0.0.1", 0, NI_NAMEREQD},
  {"127.0.0.1:22 nofqdn", "127.0.0.1", 22, NI_NOFQDN},
  {"::1:443 numerichost", "::1", 443, NI_NUMERICHOST},
  {"::1:443 both", "::1", 443, NI_NUMERICHOST | NI_NUMERICSERV},
  {"::ffff:127.0.0.1:80 numerichost", "::ffff:127.0.0.1", 80, NI_NUMERICHOST},
  {"192.0.2.1:80 numerichost", "192.0.2.1", 80, NI_NUMERICHOST},
  {"numerichost + namereqd", "127.0.0.1", 80, NI_NUMERICHOST | NI_NAMEREQD},
  {"unknown flag", "127.0.0.1", 80, 0x1000},
};

static uv_loop_t loop;
static uv_getnameinfo_t req;
static int next;

static void start_next(void);

static void on_name(uv_getnameinfo_t *r, int status, const char *host, const char *service) {
  CHECK(r == &req);
  say("  %s: %s host=%s service=%s", cases[next - 1].label, rc_name(status), host ? host : "(null)",
      service ? service : "(null)");
  if (status == 0) CHECK(host == req.host && service == req.service);
  say("    alive inside the callback=%d", uv_loop_alive(&loop));
  start_next();
}

static void start_next(void) {
  struct sockaddr_storage ss;
  const struct name_case *c;
  if (next == (int) (sizeof cases / sizeof cases[0])) return;
  c = &cases[next++];
  memset(&ss, 0, sizeof ss);
  if (strchr(c->ip, ':'))
    CHECK(uv_ip6_addr(c->ip, c->port, (struct sockaddr_in6 *) &ss) == 0);
  else
    CHECK(uv_ip4_addr(c->ip, c->port, (struct sockaddr_in *) &ss) == 0);
  CHECK(uv_getnameinfo(&loop, &req, on_name, (struct sockaddr *) &ss, c->flags) == 0);
  CHECK(req.type == UV_GETNAMEINFO && req.loop == &loop);
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  say("-- getnameinfo");
  start_next();
  say("alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
