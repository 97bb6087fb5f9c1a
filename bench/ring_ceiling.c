// SPDX-License-Identifier: MIT
/* ring_ceiling.c -- the stat tests of fs_io.c made through io_uring alone,
 * with no event loop, for bench/fs-io.sh: how fast the kernel's ring
 * answers them on this machine, the most any loop that uses a ring can get.
 *
 *   ring_ceiling [--spin] TEST PATH
 *
 * TEST is stat_1 or stat_16: statx(PATH) with 1 or 16 in flight, each
 * completion followed by the next submission, as fs_io.c's callbacks do.
 * The requests are those libuv and phaseloop make (AT_FDCWD, the basic
 * fields and the birth time); the ring is a plain one (no SQPOLL), and the
 * program waits for completions in epoll_wait on the ring's descriptor, as
 * a loop's poll phase does. It checks every result. With --spin it
 * waits by spinning on the completion queue instead (a pause instruction
 * at a time, the CPU yielded every 64), as a loop that spins for the
 * ring's completions would.
 *
 * Prints "TEST: N ops in S s (R ops/s) cpu C s (P ops/cpu-s)" as fs_io
 * does (C: the process's user and system time, the kernel's io_uring
 * workers included) and exits 0 when every request succeeded.
 */
#define _GNU_SOURCE /* statx */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <time.h>

#include "cpu_seconds.h"

#define MAX_INFLIGHT 16

static struct io_uring ring;
static struct statx results[MAX_INFLIGHT];
static const char* path;

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

/* Queues the statx of slot `i` (its buffer, its index as user data). */
static void queue_stat(uintptr_t i) {
  struct io_uring_sqe* sqe = io_uring_get_sqe(&ring);
  if (sqe == NULL) abort(); /* never more than MAX_INFLIGHT queued */
  io_uring_prep_statx(sqe, AT_FDCWD, path, AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS | STATX_BTIME, &results[i]);
  io_uring_sqe_set_data(sqe, (void*) i);
}

int main(int argc, char** argv) {
  long total = 0, issued = 0, done = 0, failed = 0;
  int inflight, ep, r, spin = 0;
  unsigned spins = 0;
  struct epoll_event ev;
  double t0, secs, cpu0, cpu;

  if (argc == 4 && strcmp(argv[1], "--spin") == 0) {
    spin = 1;
    argv++;
    argc--;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: ring_ceiling [--spin] stat_1|stat_16 PATH\n");
    return 2;
  }
  path = argv[2];
  if (strcmp(argv[1], "stat_1") == 0) inflight = 1, total = 100000;
  else if (strcmp(argv[1], "stat_16") == 0) inflight = 16, total = 200000;
  else {
    fprintf(stderr, "ring_ceiling: no test named %s\n", argv[1]);
    return 2;
  }
  r = io_uring_queue_init(64, &ring, 0);
  if (r < 0) {
    fprintf(stderr, "ring_ceiling: io_uring_queue_init: %s\n", strerror(-r));
    return 1;
  }
  ep = epoll_create1(EPOLL_CLOEXEC);
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN;
  if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, ring.ring_fd, &ev) != 0) {
    perror("ring_ceiling: epoll");
    return 1;
  }

  cpu0 = cpu_seconds();
  t0 = now_seconds();
  for (; issued < inflight; issued++) queue_stat((uintptr_t) issued);
  if (io_uring_submit(&ring) < 0) abort();
  while (done < total) {
    struct io_uring_cqe* cqe;
    unsigned head, seen = 0;
    if (io_uring_cq_ready(&ring) == 0 && spin) {
      if ((++spins & 63) == 0) sched_yield();
      else __builtin_ia32_pause();
      continue;
    }
    if (io_uring_cq_ready(&ring) == 0) {
      /* EINTR: the kernel had work to run on this thread first (posting a
       * completion can be that work): look again. */
      if (epoll_wait(ep, &ev, 1, -1) < 0 && errno != EINTR) {
        perror("ring_ceiling: epoll_wait");
        return 1;
      }
      continue;
    }
    io_uring_for_each_cqe(&ring, head, cqe) {
      seen++;
      done++;
      if (cqe->res != 0) failed++;
      if (issued < total) {
        issued++;
        queue_stat((uintptr_t) io_uring_cqe_get_data(cqe));
      }
    }
    io_uring_cq_advance(&ring, seen);
    if (io_uring_sq_ready(&ring) > 0 && io_uring_submit(&ring) < 0) abort();
  }
  secs = now_seconds() - t0;
  cpu = cpu_seconds() - cpu0;
  printf("%s: %ld ops in %.3f s (%.0f ops/s) cpu %.3f s (%.0f ops/cpu-s)\n", argv[1], done, secs, (double) done / secs,
         cpu, cpu > 0 ? (double) done / cpu : 0.0);
  io_uring_queue_exit(&ring);
  if (failed != 0) {
    fprintf(stderr, "ring_ceiling: %ld requests failed\n", failed);
    return 1;
  }
  return 0;
}
