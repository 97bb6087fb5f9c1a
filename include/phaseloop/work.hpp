// SPDX-License-Identifier: MIT
#pragma once
/// Threadpool work: run a function on a pool thread, then a completion
/// callback on the loop's thread (in the poll phase).
///
/// The pool is process-wide and shared by every loop, as libuv's: it starts
/// on first use with UV_THREADPOOL_SIZE threads (default 4, at most 1024;
/// 0 means 1). Work runs in submission order (FIFO) as threads free up.

#include <cstddef>
#include "phaseloop/detail/pool_task.hpp"
#include "phaseloop/request.hpp"

namespace phaseloop {

class work;
/// Runs on a pool thread. It must not touch the loop.
using work_cb = void (*)(work*);
/// Runs in the poll phase on the loop's thread; status is 0, or
/// errc::canceled when cancel() took the request before it started.
using after_work_cb = void (*)(work*, int status);

class work : public req {
 public:
  work() noexcept : req(req_type::work) {}

  /// Queues `fn` on the pool; `after` (may be null) runs on the loop when it
  /// is done. errc::invalid when `fn` is null. Loop thread only.
  int queue(phaseloop::loop& l, work_cb fn, after_work_cb after) noexcept;
  /// Cancels a request that has not started running: its after callback
  /// then gets errc::canceled. Canceling it again before that callback ran
  /// also succeeds (and moves it to the back of the completion queue, as in
  /// libuv). errc::busy when it is running or done. Loop thread only.
  int cancel() noexcept;
  /// The loop this request was queued on. (libuv: `loop`, offset 64.)
  phaseloop::loop* owner() const noexcept { return loop_; }

 private:
 public:
  /// Offsets of the fields libuv's uv_work_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t loop, work_cb, after_work_cb; };
  static constexpr c_fields c_layout() noexcept;

 private:
  // How the pool drives a work request (threadpool.cpp).
  friend struct detail::pool_request<work>;
  void pool_run_() noexcept;
  void pool_done_(int status) noexcept;

  phaseloop::loop* loop_ = nullptr;  // offset 64
  work_cb work_cb_ = nullptr;        // offset 72
  after_work_cb after_cb_ = nullptr; // offset 80
  detail::pool_task task_;           // the pool's queue entry
};

}  // namespace phaseloop
