// SPDX-License-Identifier: MIT
#pragma once
/// The loop's wake-up (an implementation detail of loop): everything by
/// which an async send -- from any thread, and the threadpool's
/// completions, which are sends of an internal async handle -- reaches the
/// loop's thread and its callback, in libuv's order.
///
/// - The eventfd, watched by the poller edge-triggered and never read: a
///   send that must wake the loop writes to it (write()).
/// - The posted stack: a sender pushes the handle it made pending
///   (push()); the loop takes the whole stack at once.
/// - The awake flag: while the loop is awake (from the end of a poll that
///   watched only the loop's own descriptors to the start of the next
///   wait or the end of run()), a send from another thread writes nothing;
///   the next poll phase finds the stack before it waits and takes the
///   handle with no system call on either side. A sender that finds the
///   loop about to sleep writes, as ever, and so does one on the loop's own
///   thread, so that the eventfd's place among the descriptors a poll
///   reports is libuv's. (Each side stores its own flag, then reads the
///   other's, sequentially consistent: a send is seen before the wait or
///   wakes it.)
/// - The spin: before a wait on the loop's own descriptors alone, poll
///   spins a while for an event when the last such wait ended by one that
///   soon (spin_window(), prepare_wait()).
/// - The pass: libuv's pass visits every async handle once, in its queue's
///   order (init order, but for handles initialised during a pass: they
///   go right after the handle whose callback made them), and calls those
///   it finds pending. Here the pass visits only the handles made pending,
///   ordered by their place in the queue (async::order_), which gives the
///   same calls in the same order without a look at the handles nobody
///   sent to (begin_pass(), next(), after_callback(), end_pass()). A send
///   that comes during the pass joins it if its handle is still ahead. The
///   pass keeps each handle's place beside it in an array (those it began
///   with sorted, those that joined in a heap), so that ordering them
///   reads no handle twice and a handle joining costs O(log n), not a walk
///   along those waiting.
/// - The wake-ups owed: a wake-up libuv's next poll would have, for a send
///   no pass is left to call (owe()).
///
/// The loop calls it from its poll phase (src/core/run.cpp), async handles
/// from send() and close; src/core/wakeup.cpp has the rest.

#include <pthread.h>

#include <atomic>
#include <cstdint>

#include "phaseloop/async.hpp"
#include "phaseloop/detail/poller.hpp"

namespace phaseloop::detail {

class loop_part;

/// How long a thread about to sleep may first spin for what would wake it
/// (poll for a write to the loop's own descriptors, a pool worker for
/// work): PHASELOOP_SPIN_US microseconds (0: never; at most 10,000), 50 by
/// default -- longer than a thread's wake-up here, so that an answer to
/// something just handed to another thread is caught (src/core/run.cpp).
std::uint64_t spin_window_ns() noexcept;

class wakeup {
 public:
  wakeup() = default;
  wakeup(const wakeup&) = delete;
  wakeup& operator=(const wakeup&) = delete;

  // ---- the descriptor ------------------------------------------------------
  /// Makes the eventfd and has `p` watch it, calling `cb` when it is
  /// readable. 0 or a negative error code (nothing left open).
  int open(poller& p, io_watcher::callback cb) noexcept;
  /// In a forked child (the eventfd is shared with the parent: each
  /// process would swallow the other's wake-ups): a new eventfd, watched by
  /// `p`, written to when a send is still waiting. 0 or a negative error.
  int reopen(poller& p) noexcept;
  /// Closes the eventfd (the poller is closed already). Idempotent.
  void close() noexcept;
  io_watcher& watcher() noexcept { return watcher_; }
  bool is_watcher(const io_watcher& w) const noexcept { return &w == &watcher_; }
  /// Makes a poll return (any thread, async-signal-safe).
  void write() noexcept;
  /// Something was written to one of the loop's own descriptors (the
  /// signal handler's pipe too): a poll without waiting has a reason to look.
  void hint() noexcept { hint_.store(true, std::memory_order_release); }

  // ---- senders -------------------------------------------------------------
  /// The thread in run() (the low half of pthread_self()).
  void set_runner(std::uint32_t self) noexcept { runner_.store(self, std::memory_order_relaxed); }
  bool on_runner() const noexcept {
    return runner_.load(std::memory_order_relaxed) == static_cast<std::uint32_t>(pthread_self());
  }
  /// The loop's profile: libuv >= 1.53 never reads its eventfd.
  void set_never_read(bool on) noexcept { never_read_ = on; }
  /// Adds a handle just made pending to the stack (any thread; once per
  /// change from idle).
  void push(async& a) noexcept;
  /// The wake-up of a send that pushed (without hooks): a write, unless the
  /// loop is awake and the sender is another thread.
  void notify() noexcept {
    if (!awake_.load(std::memory_order_seq_cst))
      write_for_send(false);
    else if (on_runner())
      write_for_send(true);
  }
  /// A send's write; `own`: made on the loop's thread.
  void write_for_send(bool own) noexcept;

  // ---- the poll phase ------------------------------------------------------
  /// At the start of each round of the poll phase (a wait or a look): takes
  /// the wake-up owed before it for this round's pass. Whether a send is
  /// waiting for a pass (or a wake-up owed to this round).
  bool take_round() noexcept {
    if (owed_.load(std::memory_order_relaxed)) {
      owed_.store(false, std::memory_order_relaxed);
      owed_now_ = true;
    }
    return waiting(std::memory_order_acquire) || owed_now_;
  }
  /// How long a wait of `timeout` may spin first: the spin window
  /// (PHASELOOP_SPIN_US) when only the loop's own descriptors are watched
  /// (`own_only`; `part`: the io_uring ring's, if any) and the ring allows
  /// it, at most the timeout; else 0.
  static std::uint64_t spin_window(bool own_only, const loop_part* part, int timeout) noexcept {
    std::uint64_t window = own_only && (part == nullptr || part_helps(part)) ? spin_window_ns() : 0;
    if (timeout > 0 && static_cast<std::uint64_t>(timeout) * 1000000 < window)
      window = static_cast<std::uint64_t>(timeout) * 1000000;
    return window;
  }
  /// Before a wait (timeout not 0) with spin window `window`: spins for an
  /// event first when the last such wait ended by one within the window
  /// (a send that came while the loop was awake counts as one), so that a
  /// quick answer from another thread costs no sleep and wake-up; then,
  /// with nothing posted, leaves the awake state, from where a send writes.
  /// `posted` says, and is updated to, whether a send waits on the stack.
  /// True if it spun.
  bool prepare_wait(bool& posted, std::uint64_t window, const loop_part* part) noexcept {
    bool spun = false;
    if (posted && window != 0) spin_next_ = true;
    if (!posted && window != 0 && spin_next_) {
      spun = spin_next_ = spin_(window, part);
      posted = posted_.load(std::memory_order_acquire) != nullptr;
    }
    if (!posted) {
      // About to sleep: from here a send writes to the eventfd, and one
      // made before is seen here.
      awake_.store(false, std::memory_order_seq_cst);
      posted = posted_.load(std::memory_order_seq_cst) != nullptr;
    }
    return spun;
  }
  /// After a wait that did not spin: whether it ended by an event within
  /// the window (the next wait then spins first).
  void waited(bool soon) noexcept { spin_next_ = soon; }
  /// Whether the loop's own descriptors would be readable now (a write, or
  /// a completion in `part`'s queue), without a system call.
  bool own_ready(const loop_part* part) const noexcept {
    return hint_.load(std::memory_order_acquire) || (part != nullptr && part_readable(part));
  }
  /// About to look at the descriptors: later writes set the hint again.
  void clear_hint() noexcept { hint_.store(false, std::memory_order_relaxed); }
  /// Awake until the next wait (only while nothing but the loop's own
  /// descriptors is watched: a send then has nothing to come before or
  /// after in a poll's batch).
  void set_awake(bool on) noexcept { awake_.store(on, std::memory_order_relaxed); }
  /// Whether the eventfd's event in a batch is a wake-up the last pass had
  /// something for (a late write of a send an earlier pass took is no
  /// event).
  bool found() const noexcept { return found_; }
  /// Leaving run() (the caller may wait on the backend descriptor next): a
  /// send that wrote nothing must make it readable.
  void leave_awake() noexcept {
    if (awake_.load(std::memory_order_relaxed)) leave_awake_();
  }
  /// In a forked child: the loop's thread is gone, sends write again.
  void forget_awake() noexcept { awake_.store(false, std::memory_order_seq_cst); }
  /// Whether a handle made pending waits for a pass: on the stack, or on
  /// the lists a close moves the stack to, or closed there (a wake-up
  /// owed). `o` orders the read of the stack.
  bool waiting(std::memory_order o) const noexcept {
    return posted_.load(o) != nullptr || ready_ != nullptr || (pass_ != nullptr && !pass_->empty()) ||
           owed_.load(std::memory_order_relaxed);
  }

  // ---- the pass --------------------------------------------------------------
  /// A pass's state, in the frame of the eventfd watcher's callback.
  class pass {
   public:
    pass() = default;
    ~pass();
    pass(const pass&) = delete;
    pass& operator=(const pass&) = delete;

   private:
    friend class wakeup;
    // A handle to visit and its place (order_), read once: the pass
    // orders its handles by the places kept here, without a look at the
    // handles themselves.
    struct entry {
      std::uint64_t order;
      async* handle;
    };
    // A growable array of entries, in the pass's frame up to `small`.
    struct array {
      static constexpr unsigned small = 8;
      entry* at = inline_;
      unsigned n = 0;
      unsigned cap = small;
      entry inline_[small];
      // Room for one more; false when memory is short.
      bool reserve() noexcept;
    };
    bool empty() const noexcept { return first_.n == head_ && later_.n == 0 && spill_ == nullptr; }
    // The handles the pass begins with (`list`, linked through
    // posted_next_), sorted by place.
    void start(async* list) noexcept;
    // A handle that joins the running pass (its place is ahead).
    void join(async& a) noexcept;
    // Takes the handle first in the queue's order; null when none is left.
    async* pop() noexcept;
    // Drops the handles `gone` says are gone; true if there was one.
    template <class Gone>
    bool drop(Gone gone) noexcept;
    // Reads the places again (the queue's were spread out; their order
    // stays).
    void rekey() noexcept;
    // Memory short: the handle goes into spill_ instead.
    void spill(async& a) noexcept;

    array first_;          // the handles the pass began with, sorted
    unsigned head_ = 0;    // first_'s next
    array later_;          // the handles that joined it, a min-heap
    // When an array cannot grow: the handles it had no room for, sorted
    // by place and linked through posted_next_ (each added by a walk).
    async* spill_ = nullptr;
    // The handle a handle initialised now goes after in the queue
    // (nullptr: the front), and the order_ of the handle visited last.
    async* insert_after_ = nullptr;
    std::uint64_t cursor_ = 0;
  };
  /// Starts a pass (the eventfd watcher's callback) in `p`, which lives
  /// until end_pass().
  void begin_pass(pass& p) noexcept;
  /// The next handle to call, taken back to idle; null when the pass is over.
  async* next() noexcept;
  /// After a callback: what it sent, or another thread sent meanwhile, runs
  /// in this pass if its handle is still ahead.
  void after_callback() noexcept {
    // (A send made by the callback is on the stack, unless a close in
    // it took the stack already, which put the handle in this pass.)
    if (posted_.load(std::memory_order_acquire) != nullptr) take_posted_();
  }
  void end_pass() noexcept;

  // ---- the queue -------------------------------------------------------------
  /// A handle initialised (its place in the queue).
  void place(async& a) noexcept;
  /// A handle closed, once no sender is inside send(): from here only the
  /// lists can hold it (the pass skips it there, sweep_closed() drops it).
  void remove(async& a) noexcept;
  /// Before the close callbacks: drops closed handles from the lists (their
  /// memory may go after), owing a wake-up for one that was there.
  void sweep_closed() noexcept {
    if (closed_ && sweep_closed_()) owe();
  }
  /// At the loop's close: drops the internal handle `a`, the only one left.
  void forget(async& a) noexcept;
  /// A wake-up libuv's next poll would have for a send no pass is left to
  /// call: one made by a callback of the pass (libuv writes after its pass
  /// read the eventfd), one to a handle closed before any pass saw it, and,
  /// as libuv 1.53 never reads the eventfd, any send made on the loop's
  /// thread. Each round of the poll phase takes what was owed before it
  /// (take_round()); what is owed during the round waits for the next.
  void owe() noexcept { owed_.store(true, std::memory_order_relaxed); }

 private:
  static bool part_readable(const loop_part* part) noexcept;
  static bool part_helps(const loop_part* part) noexcept;
  bool spin_(std::uint64_t ns, const loop_part* part) noexcept;
  void leave_awake_() noexcept;
  void take_posted_() noexcept;
  bool sweep_closed_() noexcept;
  void renumber_() noexcept;
  static async* merge_(async* a, async* b) noexcept;
  template <class Gone>
  static bool drop_(async*& list, Gone gone) noexcept;
  template <class Gone>
  static bool drop_(pass::array& list, unsigned from, Gone gone) noexcept;

  io_watcher watcher_;  // the eventfd
  // A poll without waiting is skipped when only the loop's own descriptors
  // are watched and nothing was written to them since the last poll.
  std::atomic<bool> hint_{true};
  std::atomic<bool> awake_{false};
  // Set on the loop's thread only (atomic for the odd sender whose thread
  // id shares runner_'s low half).
  std::atomic<bool> owed_{false};
  bool owed_now_ = false;  // taken by this round, for its pass
  std::atomic<std::uint32_t> runner_{0};
  // The stack of handles made pending (a Treiber stack, pushed by senders,
  // taken all at once by the loop); not empty tells the loop a send was made.
  std::atomic<async*> posted_{nullptr};
  bool spin_next_ = false;  // the next wait spins first
  bool never_read_ = false;
  // The pass's flags: a handle was initialised during it; a closed handle
  // may still be on the lists; the last pass had a handle to visit, or a
  // wake-up owed.
  bool born_ = false;
  bool closed_ = false;
  bool found_ = false;
  // The pass running (null: none), and the handles taken from the stack
  // for the next pass, in no order (linked through posted_next_).
  pass* pass_ = nullptr;
  async* ready_ = nullptr;
  std::uint64_t next_order_ = 0;  // order_ of the last handle appended
  async::list asyncs_;            // the queue, in libuv's order (order_)
};

}  // namespace phaseloop::detail
