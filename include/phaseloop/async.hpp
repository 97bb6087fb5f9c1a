// SPDX-License-Identifier: MIT
#pragma once
/// Async handles: wake the loop from any thread and run a callback on it.
///
/// send() is the only thread-safe call in phaseloop. Sends coalesce: any
/// number of send() calls before the callback runs give one callback. The
/// callback runs in the poll phase; when several async handles are pending,
/// they run in the order they were initialized.

#include <atomic>

#include "phaseloop/handle.hpp"

namespace phaseloop {

class async;
/// Runs in the poll phase, on the loop's thread.
using async_cb = void (*)(async*);

class async : public handle {
 public:
  /// Joins `l` as an active handle (it keeps the loop alive until closed or
  /// unref'd). `cb` may be null: sends are then swallowed. Loop thread only.
  async(phaseloop::loop& l, async_cb cb) noexcept;

  /// Wakes the loop and makes it run the callback. Any thread, and
  /// async-signal-safe (atomics and one write()). Always returns 0.
  int send() noexcept;

 private:
  friend class phaseloop::loop;
  friend class phaseloop::handle;
  friend class detail::wakeup;
  void close_() noexcept;
  // Takes the pending state, spinning while a watched sender is between
  // its stamp and its wake-up. Returns true when the handle was pending.
  bool take_pending_() noexcept;
  // Marks the handle closed and waits until no sender is inside send().
  void wait_for_senders_() noexcept;
  // While the loop has hooks, a send that makes the handle pending stamps
  // its time and thread in the handle's spare words (spare_[0], [1]); the
  // loop takes them (0: no stamp) before the callback, for send hooks.
  void stamp_send_() noexcept;
  std::uint64_t take_send_stamp_(long& thread) noexcept;

  async_cb cb_;
  // 0: idle; 1: a sender is stamping and waking the loop (only while the
  // loop has hooks); 2: pending; 3: closed (no send gets through). A
  // handle made pending is on one of the loop's lists of pending handles
  // until the loop takes it back to 0 (or sweeps it once closed).
  std::atomic<int> pending_{0};
  // Senders inside send() past the cheap check. A sender that made the
  // handle pending still touches the loop afterwards (the wake-up); close
  // waits for the count to drop to 0, so neither the handle nor the loop
  // can be freed under it. (busy_, posted_next_ and order_ use the
  // bytes of uv_async_t this class leaves free; compat's static_assert
  // checks that it still fits.)
  std::atomic<int> busy_{0};
  // The next handle on the loop's stack of handles made pending (pushed
  // by senders), then, once the loop took the stack, on one of its own
  // lists of pending handles ordered by order_.
  async* posted_next_ = nullptr;
  // The handle's place in the loop's queue of async handles (asyncs_ is
  // ordered by it): even, growing along the queue; bit 0 is set while the
  // handle was initialised during the pass now running (which skips it).
  std::uint64_t order_ = 0;

 public:
  /// The loop's list type for async handles (an implementation detail).
  using list = detail::ilist<async, &async::link_>;
};

}  // namespace phaseloop
