// SPDX-License-Identifier: MIT
// The loop's wake-up (include/phaseloop/detail/wakeup.hpp): the eventfd,
// the posted stack, the awake flag, the spin, and the ordered async pass.

#include "phaseloop/detail/wakeup.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "core/fatal.hpp"
#include "core/internal.hpp"
#include "core/loop_impl.hpp"

namespace phaseloop::detail {

namespace {
// How the eventfd is watched: readable, edge-triggered (see write()).
constexpr unsigned wake_events = io_readable | io_edge;
// Between two handles appended to the queue: room for those initialised
// between them during passes.
constexpr std::uint64_t order_gap = std::uint64_t{1} << 16;
// The wake-up whose pass this thread is running (push()).
thread_local wakeup* pass_running = nullptr;
}  // namespace

// ---- the descriptor --------------------------------------------------------

int wakeup::open(poller& p, io_watcher::callback cb) noexcept {
  watcher_.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (watcher_.fd < 0) return -errno;
  watcher_.cb = cb;
  if (int r = p.watch(watcher_, wake_events); r != 0) {
    close();
    return r;
  }
  return 0;
}

int wakeup::reopen(poller& p) noexcept {
  const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) return -errno;
  p.unwatch(watcher_, wake_events);
  ::close(watcher_.fd);
  watcher_.fd = fd;
  if (int r = p.watch(watcher_, wake_events); r != 0) return r;
  // A send made before the fork woke the old eventfd only, or none if the
  // loop's thread was awake (forget_awake()).
  if (waiting(std::memory_order_relaxed)) write();
  return 0;
}

void wakeup::close() noexcept {
  if (watcher_.fd >= 0) ::close(watcher_.fd);
  watcher_.fd = -1;
}

// The eventfd is watched edge-triggered and never read by the loop: every
// write is a change epoll reports once, so a wake-up costs one write and
// no read. The counter only grows; once it is full (after 2^64 - 2
// wake-ups) a write fails with EAGAIN, and the writer empties it and
// writes again, so that the write is a change epoll sees.
//
// A wake-up is never lost: a loop asleep in epoll_wait with no timeout
// would sleep on with a finished request or a send undelivered. Any other
// failure (the kernel's only real one is EBADF, a bug; a fault injector
// makes up others) is tried again, and one that persists ends the
// process with the call and errno named (docs/design.md, "When a system
// call fails").
void wakeup::write() noexcept {
  const std::uint64_t one = 1;
  int failures = 0;
  for (;;) {
    ssize_t r = ::write(watcher_.fd, &one, sizeof one);
    if (r == sizeof one) {
      hint();
      return;
    }
    const int err = r < 0 ? errno : EIO;
    if (err == EINTR) continue;
    if (++failures == transient_tries) fatal("write", err, "the loop's wake-up (eventfd) cannot be sent");
    if (err == EAGAIN) {  // a full counter: empty it, and the next write is a change
      std::uint64_t count;
      ssize_t got;
      do got = ::read(watcher_.fd, &count, sizeof count);
      while (got < 0 && errno == EINTR);
    } else {
      sched_yield();
    }
  }
}

// ---- senders -----------------------------------------------------------------

// A Treiber stack: only the loop takes from it, and all of it at once. The
// push releases what the sender wrote before to the callback; the loop
// takes the stack with one read-modify-write, which synchronizes with
// every push before it.
void wakeup::push(async& a) noexcept {
  async* head = posted_.load(std::memory_order_relaxed);
  do a.posted_next_ = head;
  while (!posted_.compare_exchange_weak(head, &a, std::memory_order_seq_cst, std::memory_order_relaxed));
  // A callback of the pass sent: the pass takes the stack after it, so
  // that a handle it has still to visit runs in it.
  if (pass_running == this) self_sent_ = true;
}

// On the loop's thread (`own`, or found so here), libuv 1.53's next poll
// wakes for the write whatever a pass does before: 1.53 never reads the
// eventfd, so every write after a poll's wait is the next one's event.
// Before 1.53 the pass reads it, and the send it calls with it.
void wakeup::write_for_send(bool own) noexcept {
  if (never_read_ && (own || on_runner())) owe();
  write();
}

// ---- the poll phase ----------------------------------------------------------

bool wakeup::part_readable(const loop_part* part) noexcept { return part->readable_now(); }

// Not while the ring has exactly one request in the kernel: the worker
// thread the kernel wakes for it needs the CPU a spin would hold (with
// more, that worker goes from one to the next without sleeping, and the
// spin collects their completions).
bool wakeup::part_helps(const loop_part* part) noexcept { return part->spin_helps(); }

// A spin that finds nothing, or a wait that lasts longer than the window
// (a timer, a quiet loop), turns spinning off until a wait is short again
// (prepare_wait(), waited()).
bool wakeup::spin_(std::uint64_t ns, const loop_part* part) noexcept {
  // Sends write nothing while the loop spins; a spin that finds nothing
  // is followed by the wait, which clears this first.
  awake_.store(true, std::memory_order_seq_cst);
  return spin_until([&] { return own_ready(part) || posted_.load(std::memory_order_relaxed) != nullptr; }, ns);
}

void wakeup::leave_awake_() noexcept {
  awake_.store(false, std::memory_order_seq_cst);
  if (waiting(std::memory_order_seq_cst)) write();
}

// ---- the pass ------------------------------------------------------------------
// The stack is taken again after each callback: what the callback sent, or
// another thread sent meanwhile, runs in this pass if its handle is still
// ahead, as in libuv's (test/diff/199_async_pass_sends_and_inits.c,
// test/diff/201_async_thread_send_in_pass.c).

wakeup* wakeup::begin_pass() noexcept {
  ready_ = merge_(ready_, later_);
  later_ = nullptr;
  take_posted_();  // the sends that woke this pass (or came while awake)
  pass_ = true;
  cursor_ = 0;
  insert_after_ = nullptr;
  // A wake-up with nothing to visit and none owed is the late write of a
  // send an earlier pass took (a sender that found the loop about to sleep
  // just as the loop found its send), or of a send on the loop's thread
  // that a pass took before the write's event came: libuv < 1.53 reads
  // such a write at its pass. The poll does not count it as an event.
  found_ = ready_ != nullptr || owed_now_;
  owed_now_ = false;
  wakeup* const outer = pass_running;
  pass_running = this;
  return outer;
}

async* wakeup::next() noexcept {
  while (async* a = ready_) {
    ready_ = a->posted_next_;
    cursor_ = a->order_;
    if (!a->take_pending_() || a->cb_ == nullptr) continue;  // closed, or no callback
    insert_after_ = a;
    return a;
  }
  return nullptr;
}

void wakeup::end_pass(wakeup* outer) noexcept {
  pass_running = outer;
  pass_ = false;
  if (born_) {
    for (async* a = asyncs_.front(); a != nullptr; a = asyncs_.next(*a)) a->order_ &= ~std::uint64_t{1};
    born_ = false;
  }
}

async* wakeup::merge_(async* a, async* b) noexcept {
  async* out = nullptr;
  async** tail = &out;
  while (a != nullptr && b != nullptr) {
    async*& first = a->order_ < b->order_ ? a : b;
    *tail = first;
    tail = &first->posted_next_;
    first = first->posted_next_;
  }
  *tail = a != nullptr ? a : b;
  return out;
}

async* wakeup::sort_(async* list) noexcept {
  // Bottom-up merge sort: bins[i] holds a sorted run of 2^i handles.
  async* bins[64] = {};
  while (list != nullptr) {
    async* run = list;
    list = list->posted_next_;
    run->posted_next_ = nullptr;
    int i = 0;
    for (; bins[i] != nullptr; i++) {
      run = merge_(bins[i], run);
      bins[i] = nullptr;
    }
    bins[i] = run;
  }
  async* out = nullptr;
  for (async* run : bins) out = merge_(run, out);
  return out;
}

void wakeup::take_posted_() noexcept {
  async* posted = posted_.exchange(nullptr, std::memory_order_acq_rel);
  if (posted == nullptr) return;
  posted = sort_(posted);
  if (!pass_) {
    ready_ = merge_(ready_, posted);
    return;
  }
  // During a pass: a send made after the pass began. libuv's pass reads
  // the eventfd first, so such a send's write wakes the next poll, even
  // when this pass calls the handle (and whoever takes the stack: the pass
  // after a callback, or a close in a callback).
  owe();
  // What the pass has still to visit, and what waits for the next (visited
  // already, or initialised during this pass).
  async* now = nullptr;
  async* later = nullptr;
  async** now_tail = &now;
  async** later_tail = &later;
  while (posted != nullptr) {
    async* a = posted;
    posted = a->posted_next_;
    async**& tail = (a->order_ & 1) != 0 || a->order_ <= cursor_ ? later_tail : now_tail;
    *tail = a;
    tail = &a->posted_next_;
  }
  *now_tail = *later_tail = nullptr;
  ready_ = merge_(ready_, now);
  later_ = merge_(later_, later);
}

// ---- the queue -------------------------------------------------------------------

void wakeup::place(async& a) noexcept {
  if (!pass_) {
    next_order_ += order_gap;
    a.order_ = next_order_;
    asyncs_.push_back(a);
    return;
  }
  // Initialised by a callback of the pass: after the handle visited last
  // (and those initialised since), ahead of the handles still to visit,
  // and skipped by this pass (bit 0, cleared when it ends).
  async* after = insert_after_ != nullptr ? asyncs_.next(*insert_after_) : asyncs_.front();
  if (after == nullptr) {
    next_order_ += order_gap;
    a.order_ = next_order_ | 1;
  } else {
    std::uint64_t lo = insert_after_ != nullptr ? insert_after_->order_ & ~std::uint64_t{1} : 0;
    std::uint64_t hi = after->order_ & ~std::uint64_t{1};
    if (hi - lo < 4) {
      renumber_();
      lo = insert_after_ != nullptr ? insert_after_->order_ & ~std::uint64_t{1} : 0;
      hi = after->order_ & ~std::uint64_t{1};
    }
    a.order_ = ((lo + (hi - lo) / 2) & ~std::uint64_t{1}) | 1;
  }
  asyncs_.insert_before(after, a);
  insert_after_ = &a;
  born_ = true;
}

void wakeup::remove(async& a) noexcept {
  take_posted_();
  closed_ = true;
  // A handle initialised later in this pass goes where this one was.
  if (pass_ && insert_after_ == &a) insert_after_ = asyncs_.prev(a);
  async::list::unlink(a);
}

void wakeup::forget(async& a) noexcept {
  asyncs_.erase(a);
  ready_ = later_ = nullptr;
  posted_.store(nullptr, std::memory_order_relaxed);
}

// Spreads the queue's places out again (after 15 handles initialised
// between the same two): every place changes, their order does not.
void wakeup::renumber_() noexcept {
  sweep_closed_();  // a closed handle keeps its old place
  std::uint64_t order = 0;
  std::uint64_t cursor = 0;
  for (async* a = asyncs_.front(); a != nullptr; a = asyncs_.next(*a)) {
    order += order_gap;
    if ((a->order_ & ~std::uint64_t{1}) <= cursor_) cursor = order;
    a->order_ = order | (a->order_ & 1);
  }
  cursor_ = cursor;
  next_order_ = order;
}

// Drops closed handles from the lists; true if there was one.
bool wakeup::sweep_closed_() noexcept {
  bool dropped = false;
  for (async** list : {&ready_, &later_}) {
    async** p = list;
    while (*p != nullptr) {
      if ((*p)->pending_.load(std::memory_order_relaxed) == 3) {
        *p = (*p)->posted_next_;
        dropped = true;
      } else {
        p = &(*p)->posted_next_;
      }
    }
  }
  closed_ = false;
  return dropped;
}

}  // namespace phaseloop::detail
