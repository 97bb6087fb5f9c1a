// SPDX-License-Identifier: MIT
#pragma once
/// The I/O poller behind the poll phase, in the project's own terms: watch an
/// fd for events, unwatch it, wait for readiness. One implementation per
/// backend (src/io/epoll.cpp on Linux); the loop never speaks epoll.
///
/// As in libuv, watching is deferred: watch() records what is wanted and
/// queues the watcher; the kernel learns of it when the poll phase next
/// waits (flush). Unwatching an fd entirely takes effect at once;
/// disarming it waits for the next flush, so that an fd watched again
/// before then costs the kernel one change of events instead of a removal
/// and a new registration.

#include <cstdint>
#include <vector>

#include "phaseloop/detail/ilist.hpp"

namespace phaseloop {
class loop;
}

namespace phaseloop::detail {

/// Readiness bits (the values of poll(2), which epoll shares).
enum : unsigned {
  io_readable = 0x001,     // POLLIN
  io_priority = 0x002,     // POLLPRI
  io_writable = 0x004,     // POLLOUT
  io_error = 0x008,        // POLLERR
  io_hangup = 0x010,       // POLLHUP
  io_read_hangup = 0x2000, // POLLRDHUP: the peer shut down its writing side
  /// Not a readiness bit: asks for edge-triggered reports (EPOLLET), one
  /// per change, for an fd its owner never drains (the loop's eventfd).
  io_edge = 0x80000000u,
  /// Not a readiness bit: set when the pending phase (not the poller)
  /// makes the call, so that a callback can tell which phase it is in.
  io_fed = 0x40000000,
  /// Not a readiness bit: the kernel refused to watch the fd for good
  /// (poller::flush), so it is watched no more; comes with io_error, and
  /// the errno is refused_errno(events).
  io_refused = 0x20000000,
};

/// The events a refused watcher's callback gets (errno < 256).
constexpr unsigned refused_events(int err) noexcept {
  return io_error | io_refused | (static_cast<unsigned>(err) & 0xffu) << 16;
}
/// The errno of refused_events().
constexpr int refused_errno(unsigned events) noexcept { return static_cast<int>((events >> 16) & 0xffu); }

/// One fd the loop watches, embedded in whatever owns the fd.
struct io_watcher {
  /// Called in the poll phase with the ready bits (or in the pending phase).
  using callback = void (*)(phaseloop::loop&, io_watcher&, unsigned events);
  callback cb = nullptr;
  int fd = -1;
  unsigned wanted = 0;      ///< events asked for
  unsigned registered = 0;  ///< events the kernel is watching
  int queued_at = -1;       ///< its entry in the poller's queue of changes, or -1
  link<io_watcher> pending; ///< the loop's pending queue
};

/// A ready fd as returned by wait().
struct io_event {
  int fd;
  unsigned events;
  /// Room for the rest of the kernel's own record of the event (epoll's:
  /// 12 bytes on x86-64, 16 elsewhere): wait() has the kernel write a
  /// batch into the caller's array and turns it into io_events in place,
  /// so that a wait needs no second buffer on the stack (12 KB more, and
  /// the pages a wake-up touches there).
  std::uint64_t backend_;
};

class poller {
 public:
  poller() = default;
  poller(const poller&) = delete;
  poller& operator=(const poller&) = delete;

  /// Creates the kernel object. 0 or a negative error code.
  int open() noexcept;
  /// Releases it. Idempotent.
  void close() noexcept;
  /// In a forked child: replaces the kernel object (shared with the
  /// parent) by a new one, which knows no fd yet. 0 or a negative error
  /// code.
  int reopen() noexcept;
  /// Queues every watched fd the kernel does not know, in fd order, for
  /// the next flush() (after reopen()). 0 or errc::no_memory.
  int rearm() noexcept;
  /// The kernel object's fd (-1 if closed).
  int fd() const noexcept { return fd_; }
  /// Number of fds watched.
  unsigned count() const noexcept { return count_; }

  /// Makes room for `fd` in the poller's tables and queue, so that
  /// watching it later needs no memory of the poller's and cannot fail
  /// (a handle calls this when it takes the fd). 0, or errc for a bad fd
  /// or no memory.
  int reserve(int fd) noexcept { return static_cast<unsigned>(fd) < table_.size() ? 0 : grow_(fd); }
  /// Adds `events` to what `w` (whose fd is set) is watched for; the kernel
  /// is told at the next flush(), or at once when there is no memory to
  /// queue the change. errc for a bad fd, no memory for the fd's room
  /// (see reserve()), or the kernel's refusal of such an immediate change.
  int watch(io_watcher& w, unsigned events) noexcept;
  /// True while some watch() has not reached the kernel yet (a disarmed
  /// fd waiting for its removal is no such change: no event can be missed
  /// for it, and the loop's backend timeout stays what libuv's is).
  bool has_changes() const noexcept;
  /// Tells the kernel about queued watch() calls. A change the kernel
  /// refuses for want of memory (ENOMEM, or ENOSPC: max_user_watches)
  /// stays queued for the next flush, while retrying() says so; after
  /// that has happened on many flushes in a row, or for any other error,
  /// the watcher is dropped and reported through `failed` (with its errno).
  /// (Inline when nothing is queued, as in most iterations.)
  void flush(void (*failed)(io_watcher&, int err, void* arg), void* arg) noexcept {
    retrying_ = false;
    if (changes_.empty()) [[likely]] {
      refusals_ = 0;
      return;
    }
    flush_(failed, arg);
  }
  /// True when the last flush() left a refused change queued to try again:
  /// the caller must not wait long before the next flush, since the fd is
  /// not watched meanwhile.
  bool retrying() const noexcept { return retrying_; }
  /// Lets flush() hand two or more epoll_ctl calls to the kernel in one
  /// system call, through an io_uring ring of the poller's own (made on
  /// first use), as libuv >= 1.45 batches them; without liburing, or when
  /// the ring cannot be made, flush() makes the calls one by one.
  void set_batching(bool on) noexcept { batching_ = on; }
  /// How many changes the queue holds without allocating (for tests: it
  /// stays put once the fds are reserved).
  std::size_t queue_capacity() const noexcept { return changes_.capacity(); }
  /// True once flush() has a working ring for its batches.
  bool batching_ready() const noexcept { return ring_ != nullptr; }
  /// Removes `events`; with none left, the fd is no longer watched. O(1).
  void unwatch(io_watcher& w, unsigned events) noexcept;
  /// As unwatch(), but with no events left the kernel keeps the fd until
  /// the next flush(), which removes it unless watch() asked for events
  /// again meanwhile (then it changes the events instead). Until then the
  /// fd counts as watched and watcher() finds `w`, whose `wanted` is 0
  /// (the loop delivers nothing to it). Only for an fd that stays open
  /// and a watcher that stays alive until that flush or an unwatch():
  /// closing goes through unwatch().
  void disarm(io_watcher& w, unsigned events) noexcept;
  /// The watcher registered for `fd`, or nullptr.
  io_watcher* watcher(int fd) const noexcept {
    return fd >= 0 && static_cast<unsigned>(fd) < table_.size() ? table_[fd] : nullptr;
  }

  /// Waits up to `timeout` ms (-1: forever) and stores up to `max` ready fds
  /// in `out`. Returns the count, 0 on timeout, or a negative error code
  /// (errc for EINTR is -EINTR). `sigprof_blocked` blocks SIGPROF while
  /// waiting (UV_LOOP_BLOCK_SIGNAL).
  int wait(int timeout, io_event* out, int max, bool sigprof_blocked) noexcept;
  /// Ends the dispatch of the events the last wait() returned. Until then,
  /// unwatching an fd also blanks its entry in that batch, so a callback
  /// that closes an fd (which may then be reused) cannot get a stale event.
  void end_batch() noexcept {
    batch_ = nullptr;
    batch_n_ = 0;
    batch_scan_ = false;
  }

 private:
  int fd_ = -1;
  unsigned count_ = 0;
  std::vector<io_watcher*> table_;  // indexed by fd; grows with the highest fd
  // Fds whose watcher wants a registration change, in watch() order. Kept
  // by fd rather than by link so that a watcher stays small enough for
  // libuv's uv_poll_t. An entry is live while the fd's watcher names it
  // (queued_at); unwatch() only forgets the index, and flush() and
  // compact_() skip the stale entry. Its capacity is twice the table's
  // size (reserve()), so queueing an fd with room allocates nothing.
  std::vector<int> changes_;
  unsigned queued_ = 0;     // live entries in changes_
  bool flushing_ = false;   // flush() is walking changes_: no compaction
  bool retrying_ = false;   // the last flush() queued a refused change again
  int refusals_ = 0;        // flushes in a row that did so
  int queue_(io_watcher& w) noexcept;
  // reserve() when the table has no room for `fd` (or fd is negative).
  int grow_(int fd) noexcept;
  // Takes `w` off the queue (false: it was not on it).
  bool unqueue_(io_watcher& w) noexcept;
  void compact_() noexcept;
  void flush_(void (*failed)(io_watcher&, int, void*), void* arg) noexcept;
  // One registration change now; errno's value when the kernel refuses.
  int apply_(io_watcher& w) noexcept;
  // After the kernel refused `w`'s change: queues it again when the error
  // may pass, else drops `w` and tells `failed`.
  void refused_(io_watcher& w, int err, void (*failed)(io_watcher&, int, void*), void* arg, bool may_retry) noexcept;
  static constexpr int transient_refusals = 64;  // flushes in a row that may retry
  io_watcher* take_change_(std::size_t i, std::size_t end) noexcept;
  // Forgets `w` (off the queue already): out of the kernel, the table and
  // the current batch.
  void drop_(io_watcher& w) noexcept;
  // Batches through io_uring (epoll.cpp): the ring, made on first use
  // (false when it cannot be); one change added (true: the chunk is
  // full); the chunk sent and its refusals reported.
  bool open_ring_() noexcept;
  bool batch_add_(io_watcher& w) noexcept;
  void batch_send_(void (*failed)(io_watcher&, int, void*), void* arg) noexcept;
  void drop_ring_() noexcept;
  struct ctl_ring;             // epoll.cpp
  ctl_ring* ring_ = nullptr;   // made by the first batch
  io_event* batch_ = nullptr;
  int batch_n_ = 0;
  bool batching_ = false;
  bool ring_failed_ = false;   // the ring could not be made: one by one
  bool batch_scan_ = false;  // the batch holds an fd twice: scan it instead
  // Where each fd's event sits in the batch, indexed by fd like table_, so
  // that unwatch() blanks it without scanning the batch (a callback that
  // closes connections would otherwise make a batch cost n^2). An entry is
  // only trusted when the batch slot it names holds that fd.
  std::vector<int> batch_pos_;
};

}  // namespace phaseloop::detail
