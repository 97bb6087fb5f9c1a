// SPDX-License-Identifier: MIT
#pragma once
/// The threadpool's queue entry. Every request that runs on the pool
/// (`work`, `fs_req`) embeds one and describes its kind with a static table
/// of three functions, so that neither the pool nor the loop's completion
/// queue knows any request type. A table, not virtual functions: a vtable
/// pointer would sit at offset 0, where C programs read a request's `data`.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "phaseloop/detail/ilist.hpp"

namespace phaseloop {
class loop;
class req;
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
  /// The request this task serves (for hooks: a job's run on a worker is
  /// reported with it); on the loop's thread.
  const phaseloop::req* (*request)(pool_task&) = nullptr;
};

/// Lives inside a request. Zero bytes (and the default values) mean "never
/// queued". The pool owns `node` and `state`; see src/core/threadpool.cpp.
/// Its size is libuv's struct uv__work's (40 bytes): requests that embed a
/// task keep libuv's later fields at libuv's offsets.
struct pool_task {
  link<pool_task> node;  // the pool's queue, then the loop's done queue
  const pool_ops* ops = nullptr;
  std::uint8_t state = 0;
  /// Set at submission when the loop has hooks: the worker then stamps
  /// when the job began and how long it ran, and the loop reports it.
  bool timed = false;
  std::uint16_t worker = 0;   ///< timed: the worker that ran it (0-based)
  /// timed: run time, see run_ns(); before the run, how long chaos mode
  /// has the worker wait first (us; 0: not at all).
  std::uint32_t ran = 0;
  std::uint64_t began_ns = 0; ///< timed: loop::hrtime() when the worker began it

  /// Stores a run time: nanoseconds below 2^31 ns (2.1 s), microseconds
  /// with the top bit set beyond (up to 35 minutes; longer saturates).
  void set_run_ns(std::uint64_t ns) noexcept {
    if (ns < (1ull << 31))
      ran = static_cast<std::uint32_t>(ns);
    else
      ran = 0x80000000u | static_cast<std::uint32_t>(std::min<std::uint64_t>(ns / 1000, 0x7fffffffu));
  }
  std::uint64_t run_ns() const noexcept {
    return (ran & 0x80000000u) ? static_cast<std::uint64_t>(ran & 0x7fffffffu) * 1000 : ran;
  }

  /// Queue type of the pool and of the loop's done queue.
  using list = ilist<pool_task, &pool_task::node>;
};

static_assert(sizeof(pool_task) == 40, "libuv's struct uv__work is 40 bytes");

/// The object holding `t` at byte `offset` (offsetof of its pool_task
/// member): the way back from a task to its request.
template <class T>
T& task_owner(pool_task& t, std::size_t offset) noexcept {
  return *reinterpret_cast<T*>(reinterpret_cast<char*>(&t) - offset);
}

/// How the pool drives a request type R that holds its pool_task as
/// `task_` and its loop as `loop_` (R befriends pool_request<R>): R's
/// pool_run_() on a worker, its pool_done_(status) on the loop's thread.
template <class R>
struct pool_request {
  static R& of(pool_task& t) noexcept {
    // offsetof on a class that is not standard-layout is conditionally
    // supported; GCC and Clang support it (the C layer relies on it too).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    return task_owner<R>(t, offsetof(R, task_));
#pragma GCC diagnostic pop
  }
  static constexpr pool_ops ops = {
      [](pool_task& t) { of(t).pool_run_(); },
      [](pool_task& t) -> phaseloop::loop& { return *of(t).loop_; },
      [](pool_task& t, int status) { of(t).pool_done_(status); },
      false,
      [](pool_task& t) -> const phaseloop::req* { return &of(t); },
  };
};

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
