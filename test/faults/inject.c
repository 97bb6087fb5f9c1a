// SPDX-License-Identifier: MIT
/* inject.so: fails the system calls libfiu's POSIX preload does not wrap
 * and an event loop depends on -- accept/accept4, epoll_create1, epoll_ctl,
 * epoll_wait/epoll_pwait, eventfd, pipe/pipe2, socketpair -- at random,
 * with an errno the kernel itself may return for that call, so that the
 * program sees nothing a real machine could not show it.
 *
 *   LD_PRELOAD=.../inject.so PHASELOOP_FAULTS=P PHASELOOP_FAULTS_SEED=N prog
 *
 * P is the probability of a failure per call (0.01 for 1 %); N seeds the
 * generator, so the same seed gives the same sequence of choices (a
 * program with several threads may still interleave its calls
 * differently). PHASELOOP_FAULTS_CALLS=name,name limits the calls failed.
 * A program may also be linked with this file, and turn failures on when
 * it is ready with phaseloop_faults_set(P) (test/faults/refused_work.c).
 * Each failure is counted; at exit the count goes to standard error as
 * "inject: N faults" when PHASELOOP_FAULTS_REPORT is set; with
 * PHASELOOP_FAULTS_LOG set, each failure is told there as it is made.
 * write and writev (which libfiu wraps too) fail only when
 * PHASELOOP_FAULTS_CALLS names them (test/faults/write_error_work.c). So
 * does close, as Linux fails it: the descriptor is closed, and then EINTR
 * or EIO is returned (libfiu's close fails without closing, which no
 * kernel does; run.sh's io sets take close from here instead). */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static double probability;
static const char* only;
static _Atomic uint64_t state;
static _Atomic unsigned long injected;
static int ready;
static int log_each;

static void report(void) {
  char line[64];
  int n = snprintf(line, sizeof line, "inject: %lu faults\n", (unsigned long)atomic_load(&injected));
  if (n > 0) (void)!write(2, line, (size_t)n);
}

__attribute__((constructor)) static void start(void) {
  const char* p = getenv("PHASELOOP_FAULTS");
  const char* s = getenv("PHASELOOP_FAULTS_SEED");
  only = getenv("PHASELOOP_FAULTS_CALLS");
  probability = p != NULL ? strtod(p, NULL) : 0;
  uint64_t seed = s != NULL ? strtoull(s, NULL, 10) : 1;
  atomic_store(&state, seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull);
  if (getenv("PHASELOOP_FAULTS_REPORT") != NULL) atexit(report);
  log_each = getenv("PHASELOOP_FAULTS_LOG") != NULL;
  ready = 1;
}

/* For a program linked with this file instead of preloading it: sets the
 * probability from now on (the calls named by PHASELOOP_FAULTS_CALLS). */
void phaseloop_faults_set(double p) { probability = p; }

/* splitmix64 over one shared state: one step per call of a wrapped
 * function, whichever thread makes it. */
static uint64_t next_random(void) {
  uint64_t z = atomic_fetch_add(&state, 0x9E3779B97F4A7C15ull) + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int named(const char* call) {
  if (only == NULL) return 1;
  size_t len = strlen(call);
  for (const char* p = only; (p = strstr(p, call)) != NULL; p += len)
    if ((p == only || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) return 1;
  return 0;
}

/* Whether this call fails, the generator drawn: if so errno is set to one
 * of `errs`. */
static int draw(const char* call, const int* errs, int nerrs) {
  uint64_t r = next_random();
  if ((double)(r >> 11) * 0x1.0p-53 >= probability) return 0;
  int e = errs[(r & 0xffff) % (unsigned)nerrs];
  atomic_fetch_add(&injected, 1);
  if (log_each) {
    char line[96];
    int n = snprintf(line, sizeof line, "inject: %s fails with %s\n", call, strerrorname_np(e));
    if (n > 0) (void)!write(2, line, (size_t)n);
  }
  errno = e;
  return 1;
}

/* Whether this call fails: a call PHASELOOP_FAULTS_CALLS names, or any
 * without the variable. */
static int fail(const char* call, const int* errs, int nerrs) {
  if (!ready || probability <= 0 || !named(call)) return 0;
  return draw(call, errs, nerrs);
}

/* The same for a call that fails only when named. */
static int fail_named(const char* call, const int* errs, int nerrs) {
  if (!ready || probability <= 0 || only == NULL || !named(call)) return 0;
  return draw(call, errs, nerrs);
}

#define REAL(name) \
  static __typeof__(&name) real_##name; \
  if (real_##name == NULL) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)
#define ERRS(...) static const int errs[] = {__VA_ARGS__}
#define NERRS ((int)(sizeof errs / sizeof errs[0]))

/* accept(2): what a listening socket's backlog and the process's limits
 * can give (ECONNABORTED: the peer went away first). */
int accept4(int fd, struct sockaddr* addr, socklen_t* len, int flags) {
  REAL(accept4);
  ERRS(ECONNABORTED, EINTR, EMFILE, ENFILE, ENOBUFS, ENOMEM, EPROTO);
  if (fail("accept4", errs, NERRS)) return -1;
  return real_accept4(fd, addr, len, flags);
}

int accept(int fd, struct sockaddr* addr, socklen_t* len) {
  REAL(accept);
  ERRS(ECONNABORTED, EINTR, EMFILE, ENFILE, ENOBUFS, ENOMEM, EPROTO);
  if (fail("accept", errs, NERRS)) return -1;
  return real_accept(fd, addr, len);
}

int epoll_create1(int flags) {
  REAL(epoll_create1);
  ERRS(EMFILE, ENFILE, ENOMEM);
  if (fail("epoll_create1", errs, NERRS)) return -1;
  return real_epoll_create1(flags);
}

/* epoll_ctl(2): ENOMEM, and ENOSPC past max_user_watches. */
int epoll_ctl(int epfd, int op, int fd, struct epoll_event* ev) {
  REAL(epoll_ctl);
  ERRS(ENOMEM, ENOSPC);
  if (op != EPOLL_CTL_DEL && fail("epoll_ctl", errs, NERRS)) return -1;
  return real_epoll_ctl(epfd, op, fd, ev);
}

/* epoll_wait(2): only a signal can interrupt a valid wait. */
int epoll_wait(int epfd, struct epoll_event* evs, int max, int timeout) {
  REAL(epoll_wait);
  ERRS(EINTR);
  if (fail("epoll_wait", errs, NERRS)) return -1;
  return real_epoll_wait(epfd, evs, max, timeout);
}

int epoll_pwait(int epfd, struct epoll_event* evs, int max, int timeout, const sigset_t* mask) {
  REAL(epoll_pwait);
  ERRS(EINTR);
  if (fail("epoll_wait", errs, NERRS)) return -1;
  return real_epoll_pwait(epfd, evs, max, timeout, mask);
}

int eventfd(unsigned int initval, int flags) {
  REAL(eventfd);
  ERRS(EMFILE, ENFILE, ENOMEM, ENODEV);
  if (fail("eventfd", errs, NERRS)) return -1;
  return real_eventfd(initval, flags);
}

int pipe2(int fds[2], int flags) {
  REAL(pipe2);
  ERRS(EMFILE, ENFILE);
  if (fail("pipe2", errs, NERRS)) return -1;
  return real_pipe2(fds, flags);
}

int pipe(int fds[2]) {
  REAL(pipe);
  ERRS(EMFILE, ENFILE);
  if (fail("pipe2", errs, NERRS)) return -1;
  return real_pipe(fds);
}

int socketpair(int domain, int type, int protocol, int fds[2]) {
  REAL(socketpair);
  ERRS(EMFILE, ENFILE, ENOBUFS, ENOMEM);
  if (fail("socketpair", errs, NERRS)) return -1;
  return real_socketpair(domain, type, protocol, fds);
}

/* write(2) and writev(2) on a socket: what the kernel may answer besides
 * EAGAIN (ENOMEM: no memory for the send buffer). Only when named. */
ssize_t write(int fd, const void* buf, size_t count) {
  REAL(write);
  ERRS(ENOMEM);
  if (fd > 2 && fail_named("write", errs, NERRS)) return -1;
  return real_write(fd, buf, count);
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
  REAL(writev);
  ERRS(ENOMEM);
  if (fail_named("writev", errs, NERRS)) return -1;
  return real_writev(fd, iov, iovcnt);
}

/* close(2): Linux releases the descriptor whatever it then returns. */
int close(int fd) {
  REAL(close);
  ERRS(EINTR, EIO);
  const int r = real_close(fd);
  if (r == 0 && fd > 2 && fail_named("close", errs, NERRS)) return -1;
  return r;
}
