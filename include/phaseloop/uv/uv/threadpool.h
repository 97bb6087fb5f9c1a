/* phaseloop: the work item libuv's headers declare for its thread pool.
 *
 * Requests that run on the pool (uv_work_t, uv_fs_t, the resolver's)
 * embed one in libuv; phaseloop keeps its own pool state in those bytes
 * instead, so only the type's name and size matter to programs: five
 * pointers, as in libuv 1.44.
 */
#ifndef UV_THREADPOOL_H_
#define UV_THREADPOOL_H_

struct uv_loop_s;

struct uv__work {
  void (*work)(struct uv__work* w);             /* opaque to programs */
  void (*done)(struct uv__work* w, int status); /* opaque to programs */
  struct uv_loop_s* loop;
  void* wq[2];
};

#endif /* UV_THREADPOOL_H_ */
