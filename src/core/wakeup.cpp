// SPDX-License-Identifier: MIT
// The loop's wake-up (include/phaseloop/detail/wakeup.hpp): the eventfd,
// the posted stack, the awake flag, the spin, and the ordered async pass.

#include "phaseloop/detail/wakeup.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

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

void wakeup::begin_pass(pass& p) noexcept {
  // The sends that woke this pass (or came while awake), and those held
  // back from the last one.
  take_posted_();
  pass_ = &p;
  p.start(ready_);
  ready_ = nullptr;
  // A wake-up with nothing to visit and none owed is the late write of a
  // send an earlier pass took (a sender that found the loop about to sleep
  // just as the loop found its send), or of a send on the loop's thread
  // that a pass took before the write's event came: libuv < 1.53 reads
  // such a write at its pass. The poll does not count it as an event.
  found_ = !p.empty() || owed_now_;
  owed_now_ = false;
}

async* wakeup::next() noexcept {
  while (async* a = pass_->pop()) {
    pass_->cursor_ = a->order_;
    if (!a->take_pending_() || a->cb_ == nullptr) continue;  // closed, or no callback
    pass_->insert_after_ = a;
    return a;
  }
  return nullptr;
}

void wakeup::end_pass() noexcept {
  pass_ = nullptr;
  if (born_) {
    for (async* a = asyncs_.front(); a != nullptr; a = asyncs_.next(*a)) a->order_ &= ~std::uint64_t{1};
    born_ = false;
  }
}

wakeup::pass::~pass() {
  if (first_.at != first_.inline_) std::free(first_.at);
  if (later_.at != later_.inline_) std::free(later_.at);
}

bool wakeup::pass::array::reserve() noexcept {
  if (n < cap) return true;
  if (cap > std::numeric_limits<unsigned>::max() / 2 / sizeof(entry)) return false;
  const unsigned more = cap * 2;
  void* grown = at == inline_ ? std::malloc(more * sizeof(entry)) : std::realloc(at, more * sizeof(entry));
  if (grown == nullptr) return false;
  if (at == inline_) std::memcpy(grown, inline_, sizeof inline_);
  at = static_cast<entry*>(grown);
  cap = more;
  return true;
}

namespace {
// Sorts entries by place; makes a heap whose top is the first place.
constexpr auto sooner = [](const auto& x, const auto& y) { return x.order < y.order; };
constexpr auto heap_order = [](const auto& x, const auto& y) { return x.order > y.order; };
}  // namespace

void wakeup::pass::start(async* list) noexcept {
  while (list != nullptr) {
    async* a = list;
    list = a->posted_next_;
    if (first_.reserve())
      first_.at[first_.n++] = {a->order_, a};
    else
      spill(*a);
  }
  if (first_.n > 1) std::sort(first_.at, first_.at + first_.n, sooner);
}

void wakeup::pass::join(async& a) noexcept {
  if (!later_.reserve()) {
    spill(a);
    return;
  }
  later_.at[later_.n++] = {a.order_, &a};
  std::push_heap(later_.at, later_.at + later_.n, heap_order);
}

async* wakeup::pass::pop() noexcept {
  entry* best = head_ < first_.n ? &first_.at[head_] : nullptr;
  if (later_.n != 0 && (best == nullptr || later_.at[0].order < best->order)) best = &later_.at[0];
  if (spill_ != nullptr && (best == nullptr || spill_->order_ < best->order)) [[unlikely]] {
    async* a = spill_;
    spill_ = a->posted_next_;
    return a;
  }
  if (best == nullptr) return nullptr;
  async* const a = best->handle;
  if (best == later_.at) {
    std::pop_heap(later_.at, later_.at + later_.n, heap_order);
    later_.n--;
  } else {
    head_++;
  }
  return a;
}

template <class Gone>
bool wakeup::pass::drop(Gone gone) noexcept {
  bool dropped = drop_(first_, head_, gone);
  if (drop_(later_, 0, gone)) {
    std::make_heap(later_.at, later_.at + later_.n, heap_order);
    dropped = true;
  }
  if (drop_(spill_, gone)) dropped = true;
  return dropped;
}

void wakeup::pass::rekey() noexcept {
  for (unsigned i = head_; i < first_.n; i++) first_.at[i].order = first_.at[i].handle->order_;
  for (unsigned i = 0; i < later_.n; i++) later_.at[i].order = later_.at[i].handle->order_;
}

// Only when memory is short, so a walk along the list is fine.
void wakeup::pass::spill(async& a) noexcept {
  a.posted_next_ = nullptr;
  spill_ = merge_(spill_, &a);
}

template <class Gone>
bool wakeup::drop_(pass::array& list, unsigned from, Gone gone) noexcept {
  unsigned to = from;
  for (unsigned i = from; i < list.n; i++)
    if (!gone(*list.at[i].handle)) list.at[to++] = list.at[i];
  const bool dropped = to != list.n;
  list.n = to;
  return dropped;
}

template <class Gone>
bool wakeup::drop_(async*& list, Gone gone) noexcept {
  bool dropped = false;
  async** p = &list;
  while (*p != nullptr) {
    if (gone(**p)) {
      *p = (*p)->posted_next_;
      dropped = true;
    } else {
      p = &(*p)->posted_next_;
    }
  }
  return dropped;
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

void wakeup::take_posted_() noexcept {
  async* posted = posted_.exchange(nullptr, std::memory_order_acq_rel);
  if (posted == nullptr) return;
  if (pass_ != nullptr) {
    // During a pass: a send made after the pass began. libuv's pass reads
    // the eventfd first, so such a send's write wakes the next poll, even
    // when this pass calls the handle (and whoever takes the stack: the
    // pass after a callback, or a close in a callback).
    owe();
  }
  // What the pass has still to visit joins it; the rest (everything when
  // no pass runs, else what the pass visited already or what was
  // initialised during it) waits for the next.
  while (posted != nullptr) {
    async* a = posted;
    posted = a->posted_next_;
    if (pass_ != nullptr && (a->order_ & 1) == 0 && a->order_ > pass_->cursor_) {
      pass_->join(*a);
    } else {
      a->posted_next_ = ready_;
      ready_ = a;
    }
  }
}

// ---- the queue -------------------------------------------------------------------

void wakeup::place(async& a) noexcept {
  if (pass_ == nullptr) {
    next_order_ += order_gap;
    a.order_ = next_order_;
    asyncs_.push_back(a);
    return;
  }
  // Initialised by a callback of the pass: after the handle visited last
  // (and those initialised since), ahead of the handles still to visit,
  // and skipped by this pass (bit 0, cleared when it ends).
  async* after = pass_->insert_after_ != nullptr ? asyncs_.next(*pass_->insert_after_) : asyncs_.front();
  if (after == nullptr) {
    next_order_ += order_gap;
    a.order_ = next_order_ | 1;
  } else {
    std::uint64_t lo = pass_->insert_after_ != nullptr ? pass_->insert_after_->order_ & ~std::uint64_t{1} : 0;
    std::uint64_t hi = after->order_ & ~std::uint64_t{1};
    if (hi - lo < 4) {
      renumber_();
      lo = pass_->insert_after_ != nullptr ? pass_->insert_after_->order_ & ~std::uint64_t{1} : 0;
      hi = after->order_ & ~std::uint64_t{1};
    }
    a.order_ = ((lo + (hi - lo) / 2) & ~std::uint64_t{1}) | 1;
  }
  asyncs_.insert_before(after, a);
  pass_->insert_after_ = &a;
  born_ = true;
}

void wakeup::remove(async& a) noexcept {
  take_posted_();
  closed_ = true;
  // A handle initialised later in this pass goes where this one was.
  if (pass_ != nullptr && pass_->insert_after_ == &a) pass_->insert_after_ = asyncs_.prev(a);
  async::list::unlink(a);
}

void wakeup::forget(async& a) noexcept {
  asyncs_.erase(a);
  ready_ = nullptr;
  posted_.store(nullptr, std::memory_order_relaxed);
}

// Spreads the queue's places out again (after 15 handles initialised
// between the same two, during a pass): every place changes, their order
// does not.
void wakeup::renumber_() noexcept {
  sweep_closed_();  // a closed handle keeps its old place
  std::uint64_t order = 0;
  std::uint64_t cursor = 0;
  for (async* a = asyncs_.front(); a != nullptr; a = asyncs_.next(*a)) {
    order += order_gap;
    if ((a->order_ & ~std::uint64_t{1}) <= pass_->cursor_) cursor = order;
    a->order_ = order | (a->order_ & 1);
  }
  pass_->cursor_ = cursor;
  pass_->rekey();
  next_order_ = order;
}

// Drops closed handles from the lists; true if there was one.
bool wakeup::sweep_closed_() noexcept {
  const auto gone = [](const async& a) { return a.pending_.load(std::memory_order_relaxed) == 3; };
  bool dropped = drop_(ready_, gone);
  if (pass_ != nullptr && pass_->drop(gone)) dropped = true;
  closed_ = false;
  return dropped;
}

}  // namespace phaseloop::detail
