// SPDX-License-Identifier: MIT
/* phaseloop: the work item libuv's headers declare for its thread pool.
 *
 * Requests that run on the pool (uv_work_t, uv_fs_t, the resolver's)
 * embed one in libuv; phaseloop keeps its own pool state in those bytes
 * instead, so only the type's name and size matter to programs: five
 * pointers, as in libuv 1.44.
 */
#ifndef UV_THREADPOOL_H_
#define UV_THREADPOOL_H_

#include "version.h"

struct uv_loop_s;

/* A queue link: two pointers, a struct of them from libuv 1.46 on. */
#if UV_VERSION_MINOR >= 46
struct uv__queue {
  struct uv__queue* next;
  struct uv__queue* prev;
};
# define UV__QUEUE(name) struct uv__queue name
#else
# define UV__QUEUE(name) void* name[2]
#endif

struct uv__work {
  void (*work)(struct uv__work* w);             /* opaque to programs */
  void (*done)(struct uv__work* w, int status); /* opaque to programs */
  struct uv_loop_s* loop;
  UV__QUEUE(wq);
};

#endif /* UV_THREADPOOL_H_ */
