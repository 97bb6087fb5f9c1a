// SPDX-License-Identifier: MIT
/* cpu_seconds.h -- the process's CPU time, for the benchmark programs that
 * report operations per CPU second (fs_io.c, ring_ceiling.c). */
#ifndef PHASELOOP_BENCH_CPU_SECONDS_H
#define PHASELOOP_BENCH_CPU_SECONDS_H

#include <sys/resource.h>

/* User and system time of the whole process, every thread included (the
 * threadpool's, and the kernel's io_uring workers and polling thread,
 * which run as threads of the process). */
static inline double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double) u.ru_utime.tv_sec + (double) u.ru_utime.tv_usec / 1e6 + (double) u.ru_stime.tv_sec +
         (double) u.ru_stime.tv_usec / 1e6;
}

#endif
