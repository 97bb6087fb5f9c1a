// SPDX-License-Identifier: MIT
/* Synchronous lookups: with a NULL callback uv_getaddrinfo and
 * uv_getnameinfo do the work on the calling thread and return the result;
 * req->addrinfo (caller's, freed with uv_freeaddrinfo) and req->host /
 * req->service hold the answer.  Nothing stays queued: the loop is not
 * alive afterwards and closes at once.  Errors come back as the return
 * value. */
#include "diff.h"
#include "diff_dns.h"

int main(void) {
  uv_loop_t loop;
  uv_getaddrinfo_t req;
  uv_getnameinfo_t nreq;
  struct addrinfo hints;
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  memset(&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;

  req.data = &hints;
  rc = uv_getaddrinfo(&loop, &req, NULL, "127.0.0.1", "80", &hints);
  say("numeric: %s type=%s data kept=%d loop=%d", rc_name(rc), uv_req_type_name(req.type), req.data == &hints,
      req.loop == &loop);
  dns_print(req.addrinfo);
  uv_freeaddrinfo(req.addrinfo);

  hints.ai_flags = AI_CANONNAME;
  hints.ai_family = AF_INET;
  rc = uv_getaddrinfo(&loop, &req, NULL, "localhost", "http", &hints);
  say("localhost: %s", rc_name(rc));
  dns_print(req.addrinfo);
  uv_freeaddrinfo(req.addrinfo);

  rc = uv_getaddrinfo(&loop, &req, NULL, NULL, "ssh", NULL);
  say("null node: %s", rc_name(rc));
  dns_print(req.addrinfo);
  uv_freeaddrinfo(req.addrinfo);

  hints.ai_flags = 0;
  rc = uv_getaddrinfo(&loop, &req, NULL, "127.0.0.1", "no-such-service", &hints);
  say("bad service: %s addrinfo=%s", rc_name(rc), req.addrinfo ? "set" : "NULL");
  hints.ai_flags = AI_NUMERICHOST;
  rc = uv_getaddrinfo(&loop, &req, NULL, "localhost", NULL, &hints);
  say("numerichost name: %s addrinfo=%s", rc_name(rc), req.addrinfo ? "set" : "NULL");
  uv_freeaddrinfo(NULL);

  CHECK(uv_ip4_addr("127.0.0.1", 80, &v4) == 0);
  rc = uv_getnameinfo(&loop, &nreq, NULL, (struct sockaddr *) &v4, 0);
  say("getnameinfo 127.0.0.1:80: %s host=%s service=%s", rc_name(rc), nreq.host, nreq.service);
  rc = uv_getnameinfo(&loop, &nreq, NULL, (struct sockaddr *) &v4, NI_NUMERICHOST | NI_NUMERICSERV);
  say("getnameinfo numeric: %s host=%s service=%s", rc_name(rc), nreq.host, nreq.service);
  CHECK(uv_ip6_addr("::1", 53, &v6) == 0);
  rc = uv_getnameinfo(&loop, &nreq, NULL, (struct sockaddr *) &v6, NI_NUMERICHOST | NI_DGRAM);
  say("getnameinfo ::1 dgram: %s host=%s service=%s", rc_name(rc), nreq.host, nreq.service);
  rc = uv_getnameinfo(&loop, &nreq, NULL, (struct sockaddr *) &v4, 0x1000);
  say("getnameinfo bad flags: %s", rc_name(rc));

  say("alive=%d", uv_loop_alive(&loop));
  run_say(&loop, UV_RUN_NOWAIT);
  finish(&loop);
  return 0;
}
