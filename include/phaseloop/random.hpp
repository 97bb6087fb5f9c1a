// SPDX-License-Identifier: MIT
#pragma once
/// Random bytes from the kernel on the threadpool: libuv's uv_random.
///
/// start() with a callback fills the buffer on a pool thread; the callback
/// runs in the poll phase (hooks see it as callback_kind::random) and the
/// request keeps the loop alive until then, as work and fs requests do.
/// Without a callback it fills the buffer on the calling thread and returns
/// the result (os::random_bytes).
///
/// Threads: start and cancel on the loop's thread. The request and the
/// buffer are the caller's and must stay valid, unmoved, until the callback
/// has run.

#include <cstddef>

#include "phaseloop/detail/pool_task.hpp"
#include "phaseloop/request.hpp"

namespace phaseloop {

class random_req;
/// Runs in the poll phase: `status` is 0 (the buffer is filled), a negative
/// error code, or errc::canceled. The request may be reused or freed inside.
using random_cb = void (*)(random_req*, int status, void* buf, std::size_t len);

class random_req : public req {
 public:
  random_req() noexcept : req(req_type::random) {}

  /// Fills `buf` with `len` random bytes. PHASELOOP_E2BIG above INT32_MAX
  /// bytes, PHASELOOP_EINVAL for flags (none are defined yet) or, with a
  /// callback, a null loop.
  int start(phaseloop::loop* l, void* buf, std::size_t len, unsigned flags, random_cb cb) noexcept;
  /// As work::cancel(): the callback then gets errc::canceled.
  int cancel() noexcept;
  /// The loop the request was started on. (libuv: `loop`, offset 64.)
  phaseloop::loop* owner() const noexcept { return loop_; }

 private:
  friend struct detail::pool_request<random_req>;
  void pool_run_() noexcept;
  void pool_done_(int status) noexcept;

  phaseloop::loop* loop_ = nullptr;  // offset 64
  int status_ = 0;                   // the pool thread's result
  void* buf_ = nullptr;
  std::size_t len_ = 0;
  random_cb cb_ = nullptr;
  detail::pool_task task_;
};

}  // namespace phaseloop
