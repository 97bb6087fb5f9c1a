// SPDX-License-Identifier: MIT
/* A program that defines getaddrinfo, freeaddrinfo and getnameinfo itself
 * (as test suites do, to mock a resolver: raft's does): libuv calls
 * getaddrinfo once per request, with the caller's node (after IDNA),
 * service and hints -- a NULL hints pointer stays NULL -- and frees each
 * list with freeaddrinfo; getnameinfo once per request with the caller's
 * flags.  Numeric addresses and a NULL node go through the program's
 * function too: nothing is answered without it.  The program's functions
 * run on a pool thread; each request starts from the previous one's
 * callback, so the calls come in a known order. */
#include "diff.h"
#include "diff_dns.h"

#include <netdb.h>
#include <stdlib.h>

static char seen[1024];  /* what the last call was given, printed by the callback */
static int gai_calls, gni_calls, free_calls;

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res) {
  struct addrinfo *ai;
  struct sockaddr_in *sin;
  gai_calls++;
  snprintf(seen, sizeof seen, "getaddrinfo(%s, %s, %s flags=%d family=%d socktype=%d)", node ? node : "NULL",
           service ? service : "NULL", hints ? "hints" : "NULL", hints ? hints->ai_flags : -1,
           hints ? hints->ai_family : -1, hints ? hints->ai_socktype : -1);
  if (node != NULL && strcmp(node, "missing-host") == 0) return EAI_NONAME;
  ai = calloc(1, sizeof *ai + sizeof *sin);
  if (ai == NULL) return EAI_MEMORY;
  sin = (struct sockaddr_in *)(ai + 1);
  sin->sin_family = AF_INET;
  sin->sin_port = htons((unsigned short)(service ? atoi(service) : 0));
  sin->sin_addr.s_addr = htonl(0x0a010203); /* 10.1.2.3 */
  ai->ai_family = AF_INET;
  ai->ai_socktype = SOCK_STREAM;
  ai->ai_protocol = IPPROTO_TCP;
  ai->ai_addrlen = sizeof *sin;
  ai->ai_addr = (struct sockaddr *)sin;
  *res = ai;
  return 0;
}

void freeaddrinfo(struct addrinfo *ai) {
  free_calls++;
  free(ai);
}

int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen, char *serv,
                socklen_t servlen, int flags) {
  (void)sa;
  gni_calls++;
  snprintf(seen, sizeof seen, "getnameinfo(len=%u, hostlen=%u, servlen=%u, flags=%d)", (unsigned)salen,
           (unsigned)hostlen, (unsigned)servlen, flags);
  snprintf(host, hostlen, "mock-host");
  snprintf(serv, servlen, "mock-service");
  return 0;
}

static uv_loop_t loop;
static uv_getaddrinfo_t greq;
static uv_getnameinfo_t nreq;
static struct addrinfo hints;
static int step;

static void next(void);

static void on_addrinfo(uv_getaddrinfo_t *req, int status, struct addrinfo *res) {
  say("  %s", seen);
  say("  callback: %s", rc_name(status));
  dns_print(res);
  uv_freeaddrinfo(res);
  (void)req;
  next();
}

static void on_nameinfo(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  say("  %s", seen);
  say("  callback: %s host=%s service=%s", rc_name(status), host ? host : "NULL", service ? service : "NULL");
  (void)req;
  next();
}

static void next(void) {
  struct sockaddr_in addr;
  int rc = 0;
  seen[0] = '\0';
  switch (step++) {
    case 0:
      say("a name, NULL hints");
      rc = uv_getaddrinfo(&loop, &greq, on_addrinfo, "any-host", "80", NULL);
      break;
    case 1:
      say("a numeric address, hints for TCP");
      memset(&hints, 0, sizeof hints);
      hints.ai_socktype = SOCK_STREAM;
      rc = uv_getaddrinfo(&loop, &greq, on_addrinfo, "127.0.0.1", "8080", &hints);
      break;
    case 2:
      say("a NULL node, AI_PASSIVE");
      memset(&hints, 0, sizeof hints);
      hints.ai_flags = AI_PASSIVE;
      hints.ai_family = AF_INET;
      rc = uv_getaddrinfo(&loop, &greq, on_addrinfo, NULL, "22", &hints);
      break;
    case 3:
      say("a name the program's resolver does not know");
      rc = uv_getaddrinfo(&loop, &greq, on_addrinfo, "missing-host", NULL, NULL);
      break;
    case 4:
      say("a name to convert (IDNA)");
      rc = uv_getaddrinfo(&loop, &greq, on_addrinfo, "b\xc3\xbc" "cher.example", "443", NULL);
      break;
    case 5:
      say("getnameinfo, flags 0");
      CHECK(uv_ip4_addr("127.0.0.1", 80, &addr) == 0);
      rc = uv_getnameinfo(&loop, &nreq, on_nameinfo, (const struct sockaddr *)&addr, 0);
      break;
    case 6:
      say("getnameinfo, NI_NUMERICHOST | NI_NUMERICSERV");
      CHECK(uv_ip4_addr("127.0.0.1", 80, &addr) == 0);
      rc = uv_getnameinfo(&loop, &nreq, on_nameinfo, (const struct sockaddr *)&addr, NI_NUMERICHOST | NI_NUMERICSERV);
      break;
    default:
      return;
  }
  if (rc != 0) say("  start: %s", rc_name(rc));
}

int main(void) {
  uv_getaddrinfo_t sreq;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  next();
  CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);

  say("synchronous, a name, NULL hints");
  seen[0] = '\0';
  rc = uv_getaddrinfo(&loop, &sreq, NULL, "sync-host", "53", NULL);
  say("  %s", seen);
  say("  returned: %s", rc_name(rc));
  dns_print(sreq.addrinfo);
  uv_freeaddrinfo(sreq.addrinfo);
  uv_freeaddrinfo(NULL);

  say("calls: getaddrinfo %d, freeaddrinfo %d, getnameinfo %d", gai_calls, free_calls, gni_calls);
  CHECK(uv_loop_close(&loop) == 0);
  return 0;
}
