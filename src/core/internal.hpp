// SPDX-License-Identifier: MIT
#pragma once
// Private to the library: the seam between the loop (src/core) and the
// handles and requests of src/io. An io file reaches its loop through these
// calls only -- never through the loop's members -- as libuv's handles go
// through uv__io_start/stop/feed and uv__req_register/unregister.
//
//   poller(l)            the fds the poll phase waits on: watch, unwatch
//   defer(l, w)          w's callback runs in the next pending phase
//   deferred, undefer    whether it waits for that phase; take it off
//   req_register(l)      a request is in flight (keeps the loop alive) ...
//   req_unregister(l)    ... and no longer
//   complete(l, ...)     a callback made from the poll phase, seen by hooks
//   child_watcher(l)     the loop's SIGCHLD watcher (process.cpp starts it)
//   unlist, close_pending  handle bookkeeping a subsystem's internal handle needs
//   part<T>(l)           state a subsystem keeps per loop (see loop_part)
//
// Threads: the loop's thread only.

#include <cstdlib>
#include <cstring>
#include <new>

#include "core/loop_impl.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop::detail {

/// The bytes in `n` buffers.
inline std::size_t buf_bytes(const fs_buf* bufs, unsigned n) noexcept {
  std::size_t sum = 0;
  for (unsigned i = 0; i < n; i++) sum += bufs[i].len;
  return sum;
}
/// A write's or a send's own copy of its `n` buffers: in `small` (room for
/// `room`) when they fit, else in memory from malloc -- as libuv does, and
/// shorter per call than operator new[]'s chain down to malloc; nullptr
/// when there is no memory. free_bufs() gives it back.
inline fs_buf* copy_bufs(fs_buf* small, unsigned room, const fs_buf* bufs, unsigned n) noexcept {
  fs_buf* copy = small;
  if (n > room && (copy = static_cast<fs_buf*>(std::malloc(n * sizeof *bufs))) == nullptr) return nullptr;
  if (n != 0) std::memcpy(copy, bufs, n * sizeof *bufs);
  return copy;
}
inline void free_bufs(fs_buf* copy, const fs_buf* small) noexcept {
  if (copy != small) std::free(copy);
}

/// $UV_USE_IO_URING as libuv reads it, once per process: -1 when unset,
/// else its value as atoi reads it (src/core/profile.cpp).
int uv_use_io_uring_env() noexcept;
/// $PHASELOOP_IO_URING, read once per process: "on" or "1" puts every loop
/// left at io_uring_use::automatic on io_uring, "sqpoll" on a polled ring,
/// "off" or "0" none; unset or empty: automatic. Another value is reported
/// (once) and ignored.
io_uring_use phaseloop_io_uring_env() noexcept;
/// What was chosen for loop `l` over its profile's rules, for its file
/// ring and its epoll_ctl batches alike: its own set_io_uring, else
/// $PHASELOOP_IO_URING; automatic when neither chose.
inline io_uring_use io_uring_choice(const loop& l) noexcept {
  return l.io_uring() != io_uring_use::automatic ? l.io_uring() : phaseloop_io_uring_env();
}

/// State an I/O subsystem keeps per loop -- fs_event's inotify instance,
/// the resolver's channels, accept's spare descriptor, the running
/// children -- made on first use by its own file (loop_seam::part<T>) and
/// owned by the loop from then on. The loop knows no part's type: it
/// destroys them when it closes (before its poller goes, so a part may
/// unwatch its fds) and asks them to take kernel objects of their own in a
/// forked child (after_fork), in the order they were made.
///
/// A part type T derives from loop_part and is constructible from `loop&`.
class loop_part {
 public:
  explicit loop_part(loop& l) noexcept : loop_(l) {}
  loop_part(const loop_part&) = delete;
  loop_part& operator=(const loop_part&) = delete;
  virtual ~loop_part() = default;
  /// In the child after fork(2), once the poller was replaced: 0 or a
  /// negative error code (loop::after_fork() returns the first one).
  virtual int after_fork() noexcept { return 0; }
  /// Called once by the poll phase before it waits, after the part asked
  /// with loop_seam::before_poll.
  virtual void before_poll() noexcept {}
  /// For the part the poll phase may spin on (loop_seam::spin_on): true
  /// when its watched descriptor would be readable now -- read from
  /// memory the kernel writes to, without a system call.
  virtual bool readable_now() const noexcept { return false; }
  /// For that part: false when a poll that spins would slow the answer it
  /// waits for (the thread the kernel wakes for it needs the CPU).
  virtual bool spin_helps() const noexcept { return true; }

  phaseloop::loop& owner() const noexcept { return loop_; }

 private:
  friend class phaseloop::loop;
  friend struct loop_seam;
  phaseloop::loop& loop_;
  const void* type_ = nullptr;  // which T (the address of T's tag)
  loop_part* next_ = nullptr;   // the loop's parts, in the order made
};

struct loop_seam {
  static detail::poller& poller(loop& l) noexcept { return l.poller_; }

  /// Runs `w`'s callback, with io_fed among the events, in the next
  /// pending phase (once, however often it is deferred meanwhile).
  static void defer(loop& l, io_watcher& w) noexcept {
    if (!loop::watcher_list::linked(w)) l.pending_.push_back(w);
  }

  /// True while `w` waits for the pending phase.
  static bool deferred(const io_watcher& w) noexcept { return loop::watcher_list::linked(w); }
  /// Takes `w` off the pending phase's queue (when its fd goes away).
  static void undefer(io_watcher& w) noexcept { loop::watcher_list::unlink(w); }

  /// The loop's chaos mode (src/core/chaos.hpp), or nullptr when off.
  static detail::chaos* chaos(loop& l) noexcept { return l.chaos_; }
  /// Tells the hooks of a perturbation (chaos::take).
  static void chaos_hook(loop& l, const chaos_event& e) { l.chaos_hook_(e); }

  static void req_register(loop& l) noexcept { l.active_reqs_++; }
  /// Tells the hooks a request started (nothing when none is attached).
  static void started(loop& l, req& r, handle* h) noexcept {
    if (!l.hooks_.empty()) [[unlikely]] l.request_hook_(r, h);
  }
  static void req_unregister(loop& l) noexcept { l.active_reqs_--; }
  /// Asks the poll phase to call p.before_poll() before it next waits.
  static void before_poll(loop& l, loop_part& p) noexcept { l.before_poll_ = &p; }
  /// Lets the poll phase count `p`'s one watched descriptor with the
  /// loop's own (nullptr: none): a poll waiting on those alone may spin
  /// on p.readable_now() as it does on writes to the eventfd, and one
  /// that would not wait skips the system call when p has nothing.
  static void spin_on(loop& l, loop_part* p) noexcept { l.spin_part_ = p; }
  /// `n` more events handled by the current poll callback (libuv's
  /// metrics count each completion it delivers).
  static void more_events(loop& l, unsigned n) noexcept {
    l.events_handled_ += n;
    if (l.poll_wait_ == 0) l.events_waiting_ += n;
  }

  /// A callback made from the poll phase: hooks see it (as kind `k`, of
  /// handle `h` or request `r`) when any is attached.
  template <class F>
  static void complete(loop& l, callback_kind k, handle* h, req* r, F&& f) {
    l.poll_callback_(k, h, r, static_cast<F&&>(f));
  }
  /// A callback made from phase `p`, with hook calls (H = loop::hooked()).
  template <bool H, class F>
  static void callback(loop& l, phase p, callback_kind k, handle* h, req* r, F&& f) {
    l.callback_<H>(p, k, h, r, static_cast<F&&>(f));
  }

  static signal& child_watcher(loop& l) noexcept { return l.child_watcher_(); }

  /// Takes a handle that was never started out of the loop's handle list
  /// (a subsystem's internal handle it gives up on before using it).
  static void unlist(loop& l, handle& h) noexcept { l.handles_.erase(h); }
  /// Ends a close() whose last step was deferred: the close callback runs
  /// in the next closing phase.
  static void close_pending(loop& l, handle& h) noexcept { l.make_close_pending_(h); }

  /// The loop's part of type T, or nullptr if none was made.
  template <class T>
  static T* find(loop& l) noexcept {
    for (loop_part* p = l.parts_; p != nullptr; p = p->next_)
      if (p->type_ == &T::tag) return static_cast<T*>(p);
    return nullptr;
  }
  /// The loop's part of type T, made (T(loop&)) on first use; nullptr when
  /// there is no memory for it.
  template <class T>
  static T* part(loop& l) noexcept {
    if (T* p = find<T>(l)) return p;
    T* made = new (std::nothrow) T(l);
    if (made != nullptr) attach(l, *made, &T::tag);
    return made;
  }
  /// Makes `p`, a part of type T made by the caller with new, the loop's
  /// (for a part whose constructor takes more than the loop).
  template <class T>
  static void adopt(loop& l, T& p) noexcept {
    attach(l, p, &T::tag);
  }
  /// Destroys the loop's part of type T now (nothing if there is none).
  template <class T>
  static void drop(loop& l) noexcept {
    if (T* p = find<T>(l)) detach_and_delete(l, *p);
  }

 private:
  static void attach(loop& l, loop_part& p, const void* type) noexcept;
  static void detach_and_delete(loop& l, loop_part& p) noexcept;
};

}  // namespace phaseloop::detail
