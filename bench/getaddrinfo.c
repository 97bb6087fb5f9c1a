// SPDX-License-Identifier: MIT
/* phaseloop benchmark: uv_getaddrinfo lookups, in the shape of libuv's own
 * getaddrinfo benchmark: TOTAL lookups of one name with null hints (the C
 * library's defaults, AI_V4MAPPED | AI_ADDRCONFIG), CONCURRENT of them in
 * flight; each callback starts the next lookup on its request.
 *
 *   getaddrinfo   the name "localhost", answered from /etc/hosts
 *
 * Run it with both cores busy too (bench/run.sh --load): the lookups then
 * compete with other processes for the CPU, as on a busy server.
 *
 * usage: getaddrinfo [total [concurrent [name]]]  (defaults 10000, 10, localhost)
 * output: RESULT getaddrinfo <lookups/s> lookups/s
 */
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#define CHECK(expr)                                                        \
  do {                                                                     \
    if (!(expr)) {                                                         \
      fprintf(stderr, "getaddrinfo: check failed at line %d: %s\n",       \
              __LINE__, #expr);                                            \
      exit(2);                                                             \
    }                                                                      \
  } while (0)

#define MAX_CONCURRENT 64

static const char* name = "localhost";
static unsigned long total, started, completed;
static uv_getaddrinfo_t reqs[MAX_CONCURRENT];

static void start_one(uv_loop_t* loop, uv_getaddrinfo_t* req);

static void on_resolved(uv_getaddrinfo_t* req, int status, struct addrinfo* res) {
  CHECK(status == 0);
  CHECK(res != NULL);
  uv_freeaddrinfo(res);
  completed++;
  if (started < total) start_one(req->loop, req);
}

static void start_one(uv_loop_t* loop, uv_getaddrinfo_t* req) {
  started++;
  CHECK(uv_getaddrinfo(loop, req, on_resolved, name, NULL, NULL) == 0);
}

int main(int argc, char** argv) {
  unsigned long concurrent = 10, i;
  uint64_t t0, t1;
  uv_loop_t* loop = uv_default_loop();

  total = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
  if (argc > 2) concurrent = strtoul(argv[2], NULL, 10);
  if (argc > 3) name = argv[3];
  CHECK(total > 0 && concurrent > 0 && concurrent <= MAX_CONCURRENT);
  if (concurrent > total) concurrent = total;

  t0 = uv_hrtime();
  for (i = 0; i < concurrent; i++) start_one(loop, &reqs[i]);
  CHECK(uv_run(loop, UV_RUN_DEFAULT) == 0);
  t1 = uv_hrtime();
  CHECK(completed == total);
  printf("RESULT getaddrinfo %.0f lookups/s\n", (double) total / ((double) (t1 - t0) / 1e9));
  return 0;
}
