// SPDX-License-Identifier: MIT
/*
 * 195: what changed for pipes, UDP and the threadpool between libuv 1.44
 * and 1.50, each in the form the version built for can show:
 *   - uv_pipe_connect() with an empty name: 1.44 tries to connect (an
 *     all-zero abstract address: refused); from 1.48 it fails with EINVAL,
 *     still in the connect callback;
 *   - getsockname with a size of 0: ENOBUFS asking for the size before
 *     1.50, EINVAL from 1.50 (which also refuses a null buffer);
 *   - an abstract name (bind2, 1.46+) in exactly its length: ENOBUFS before
 *     1.49, the name from 1.49;
 *   - uv_udp_bind() with SO_REUSEPORT (flag 64): EINVAL before 1.49, then
 *     accepted;
 *   - the threadpool's worker threads are named "libuv-worker" from 1.50;
 *   - the loop metrics (1.45+): the loop count is 0 in the first
 *     iteration's prepare callback (counted when poll starts), and each
 *     threadpool request completed is an event.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_getname_np */
#endif
#include "diff.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_pipe_t server, client;
static uv_connect_t creq;

static void on_connect(uv_connect_t* req, int status) {
  say("connect to an empty name: %s", rc_name(status));
  uv_close((uv_handle_t*) req->handle, NULL);
}

static void pipe_names(void) {
  char path[64], buf[128];
  size_t len;
  int r;
  snprintf(path, sizeof path, "/tmp/phaseloop-195-%ld.sock", (long) getpid());
  unlink(path);
  CHECK(uv_pipe_init(&loop, &server, 0) == 0);
  CHECK(uv_pipe_bind(&server, path) == 0);
  len = strlen(path);
  r = uv_pipe_getsockname(&server, buf, &len);
  say("getsockname in its length: %s, asks for %d more", rc_name(r), (int) (len - strlen(path)));
  len = 0;
  r = uv_pipe_getsockname(&server, buf, &len);
  say("getsockname in 0 bytes: %s, asks for %d more", rc_name(r), len == 0 ? -1 : (int) (len - strlen(path)));
#if UV_VERSION_HEX >= 0x013200
  len = sizeof buf;
  say("getsockname into NULL: %s", rc_name(uv_pipe_getsockname(&server, NULL, &len)));
  say("getsockname with no size: %s", rc_name(uv_pipe_getsockname(&server, buf, NULL)));
#endif
  uv_close((uv_handle_t*) &server, NULL);

  CHECK(uv_pipe_init(&loop, &client, 0) == 0);
  uv_pipe_connect(&creq, &client, "", on_connect);
  run_say(&loop, UV_RUN_DEFAULT);

#if UV_VERSION_HEX >= 0x012e00
  {
    char name[48];
    size_t n;
    name[0] = '\0';
    n = 1 + (size_t) snprintf(name + 1, sizeof name - 1, "phaseloop-195-%ld", (long) getpid());
    CHECK(uv_pipe_init(&loop, &server, 0) == 0);
    say("bind2 abstract: %s", rc_name(uv_pipe_bind2(&server, name, n, 0)));
    len = n;
    r = uv_pipe_getsockname(&server, buf, &len);
    say("abstract name in its length: %s", rc_name(r));
    say("  asks for %d more, same name %d", (int) (len - n), r == 0 && len == n && memcmp(buf, name, n) == 0);
    len = n + 1;
    r = uv_pipe_getsockname(&server, buf, &len);
    say("abstract name with a byte more: %s same name %d", rc_name(r), r == 0 && len == n && memcmp(buf, name, n) == 0);
    uv_close((uv_handle_t*) &server, NULL);
    run_say(&loop, UV_RUN_DEFAULT);
  }
#endif
}

static void udp_reuseport(void) {
  uv_udp_t a, b;
  struct sockaddr_in addr;
  int ra, rb;
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_udp_init(&loop, &a) == 0);
  CHECK(uv_udp_init(&loop, &b) == 0);
  ra = uv_udp_bind(&a, (const struct sockaddr*) &addr, 64 /* UV_UDP_REUSEPORT */);
  say("udp bind with SO_REUSEPORT: %s", rc_name(ra));
  if (ra == 0) {
    struct sockaddr_storage bound;
    int blen = sizeof bound;
    CHECK(uv_udp_getsockname(&a, (struct sockaddr*) &bound, &blen) == 0);
    rb = uv_udp_bind(&b, (const struct sockaddr*) &bound, 64);
    say("  a second socket on the same port: %s", rc_name(rb));
  }
  uv_close((uv_handle_t*) &a, NULL);
  uv_close((uv_handle_t*) &b, NULL);
  run_say(&loop, UV_RUN_DEFAULT);
}

static int named_workers;
static int works_done;

static void work(uv_work_t* req) {
  char name[32] = "";
  (void) req;
  pthread_getname_np(pthread_self(), name, sizeof name);
  if (strcmp(name, "libuv-worker") == 0) named_workers++; /* (one at a time: see below) */
}

static void after_work(uv_work_t* req, int status) {
  (void) req;
  CHECK(status == 0);
  works_done++;
}

#if UV_VERSION_HEX >= 0x012d00
static uv_metrics_t before;

static void on_prepare(uv_prepare_t* p) {
  uv_metrics_t m;
  CHECK(uv_metrics_info(p->loop, &m) == 0);
  say("metrics in the run's first prepare: loops %d, events %d", (int) (m.loop_count - before.loop_count),
      (int) (m.events - before.events));
  uv_prepare_stop(p);
  uv_close((uv_handle_t*) p, NULL);
}
#endif

static void pool(void) {
  uv_work_t w[3];
  int i;
#if UV_VERSION_HEX >= 0x012d00
  uv_prepare_t prep;
  uv_metrics_t m;
  CHECK(uv_prepare_init(&loop, &prep) == 0);
  CHECK(uv_prepare_start(&prep, on_prepare) == 0);
  CHECK(uv_metrics_info(&loop, &before) == 0);
#endif
  /* One request at a time, so that whichever worker runs it, the count is
   * the same and completions do not share a wake-up. */
  for (i = 0; i < 3; i++) {
    CHECK(uv_queue_work(&loop, &w[i], work, after_work) == 0);
    run_say(&loop, UV_RUN_DEFAULT);
  }
  say("work done %d, on workers named libuv-worker %d", works_done, named_workers);
#if UV_VERSION_HEX >= 0x012d00
  CHECK(uv_metrics_info(&loop, &m) == 0);
  say("metrics after: events %d (one per completion)", (int) (m.events - before.events));
#endif
}

int main(void) {
  CHECK(uv_loop_init(&loop) == 0);
  pipe_names();
  udp_reuseport();
  pool();
  finish(&loop);
  return 0;
}
