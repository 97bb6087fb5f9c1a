#pragma once
/// The threadpool's queue entry. Every request that runs on the pool
/// (`work`, `fs_req`) embeds one and describes its kind with a static table
/// of three functions, so that neither the pool nor the loop's completion
/// queue knows any request type. A table, not virtual functions: a vtable
/// pointer would sit at offset 0, where C programs read a request's `data`.

#include <cstddef>

#include "phaseloop/detail/ilist.hpp"

namespace phaseloop {
class loop;
}

namespace phaseloop::detail {

struct pool_task;

/// How the pool drives one kind of request.
struct pool_ops {
  /// The request's work, on a pool thread. It must not touch the loop.
  void (*run)(pool_task&);
  /// The loop to report completion to; called on the pool thread after run.
  phaseloop::loop& (*owner)(pool_task&);
  /// The completion, on the loop's thread in the poll phase, after the loop
  /// stopped counting the request. `status` is 0, or errc::canceled when
  /// the request was canceled before it started.
  void (*done)(pool_task&, int status);
  /// Work that mostly waits (DNS lookups): as in libuv, at most half the
  /// pool's threads (rounded up) run such work at once, so that it cannot
  /// hold up file system work.
  bool slow_io = false;
};

/// Lives inside a request. Zero bytes (and the default values) mean "never
/// queued". The pool owns `node` and `state`; see src/core/threadpool.cpp.
struct pool_task {
  link<pool_task> node;  // the pool's queue, then the loop's done queue
  const pool_ops* ops = nullptr;
  int state = 0;
  // Free: keeps the size of libuv's struct uv__work (40 bytes), where
  // requests that embed a task keep libuv's later fields.
  void* unused_ = nullptr;

  /// Queue type of the pool and of the loop's done queue.
  using list = ilist<pool_task, &pool_task::node>;
};

/// The object holding `t` at byte `offset` (offsetof of its pool_task
/// member): the way back from a task to its request.
template <class T>
T& task_owner(pool_task& t, std::size_t offset) noexcept {
  return *reinterpret_cast<T*>(reinterpret_cast<char*>(&t) - offset);
}

/// Threadpool entry points for request types (src/core/threadpool.cpp).
/// Loop thread only.
///
/// Queues `t` on the process-wide pool for loop `l`; `l` counts it as an
/// active request until just before ops.done runs. 0, or errc::no_memory
/// when the pool cannot be started.
int pool_submit(phaseloop::loop& l, pool_task& t, const pool_ops& ops) noexcept;
/// libuv's uv_cancel for a pool request: a request no thread has started
/// is taken off the queue and completes with errc::canceled (0 returned);
/// one canceled earlier whose completion has not run yet moves to the back
/// of the completion queue (0); anything else is errc::busy.
int pool_cancel(phaseloop::loop& l, pool_task& t) noexcept;
/// Requests queued in the process's threadpool, not yet taken by a worker.
std::size_t pool_queued() noexcept;

}  // namespace phaseloop::detail
