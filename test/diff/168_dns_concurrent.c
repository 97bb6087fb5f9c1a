// SPDX-License-Identifier: MIT
/* Several DNS requests at once, with one pool thread (as libuv runs each
 * lookup on the pool, one thread makes their order deterministic): the
 * callbacks come in the order the requests were made, getaddrinfo and
 * getnameinfo alike, failures included, each in a poll phase, after a
 * timer due at once.  (How many callbacks share one poll phase depends on
 * the thread's speed: the trace only says a prepare callback or another
 * DNS callback came just before.)  Every request keeps the loop alive
 * until its own callback. */
#include "diff.h"
#include "diff_dns.h"

#define N 8

static uv_loop_t loop;
static uv_prepare_t prepare;
static uv_timer_t timer;
static uv_getaddrinfo_t gai[N];
static uv_getnameinfo_t gni[N];
static const char *last = "none";

/* In a poll phase: right after the prepare callbacks, or after another
 * completion of the same poll phase. */
static const char *phase(void) {
  return strcmp(last, "prepare") == 0 || strcmp(last, "dns") == 0 ? "poll" : last;
}
static int outstanding;

static void on_prepare(uv_prepare_t *h) {
  (void) h;
  last = "prepare";
}

static void on_timer(uv_timer_t *h) {
  (void) h;
  last = "timer";
  say("timer (outstanding %d)", outstanding);
}

static void on_addr(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  outstanding--;
  say("getaddrinfo %s: %s in %s phase, active requests left %d", (const char *) req->data, rc_name(status),
      phase(), outstanding);
  dns_print(res);
  uv_freeaddrinfo(res);
  last = "dns";
}

static void on_name(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  outstanding--;
  say("getnameinfo %s: %s %s %s in %s phase, active requests left %d", (const char *) req->data,
      rc_name(status), host ? host : "(null)", service ? service : "(null)", phase(), outstanding);
  last = "dns";
}

static void addr(int i, const char *label, const char *node, const char *service, int family, int flags) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = family;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags;
  gai[i].data = (void *) label;
  CHECK(uv_getaddrinfo(&loop, &gai[i], on_addr, node, service, &hints) == 0);
  outstanding++;
}

static void name(int i, const char *label, const char *ip, int port, int flags) {
  struct sockaddr_storage ss;
  memset(&ss, 0, sizeof ss);
  if (strchr(ip, ':'))
    CHECK(uv_ip6_addr(ip, port, (struct sockaddr_in6 *) &ss) == 0);
  else
    CHECK(uv_ip4_addr(ip, port, (struct sockaddr_in *) &ss) == 0);
  gni[i].data = (void *) label;
  CHECK(uv_getnameinfo(&loop, &gni[i], on_name, (struct sockaddr *) &ss, flags) == 0);
  outstanding++;
}

int main(void) {
  CHECK(setenv("UV_THREADPOOL_SIZE", "1", 1) == 0);
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_prepare_init(&loop, &prepare) == 0);
  CHECK(uv_prepare_start(&prepare, on_prepare) == 0);
  uv_unref((uv_handle_t *) &prepare);
  CHECK(uv_timer_init(&loop, &timer) == 0);

  addr(0, "localhost", "localhost", "http", AF_INET, AI_CANONNAME);
  name(0, "127.0.0.1:22", "127.0.0.1", 22, 0);
  addr(1, "::1", "::1", "443", AF_UNSPEC, 0);
  addr(2, "bad service", "127.0.0.1", "no-such-service", AF_UNSPEC, 0);
  name(1, "::1:80 numeric", "::1", 80, NI_NUMERICHOST);
  addr(3, "passive", NULL, "8080", AF_UNSPEC, AI_PASSIVE);
  name(2, "bad flags", "127.0.0.1", 80, 0x1000);
  addr(4, "numeric v4", "192.0.2.7", "25", AF_INET, 0);
  addr(5, "bad family", "127.0.0.1", "25", 99, 0);
  name(3, "127.0.0.1:53 dgram", "127.0.0.1", 53, NI_DGRAM);
  CHECK(uv_timer_start(&timer, on_timer, 0, 0) == 0);
  say("alive=%d outstanding=%d", uv_loop_alive(&loop), outstanding);
  run_say(&loop, UV_RUN_DEFAULT);
  finish(&loop);
  return 0;
}
