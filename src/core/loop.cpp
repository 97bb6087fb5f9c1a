// SPDX-License-Identifier: MIT
// Loop lifecycle (open, close, the default loop), time, walk, hooks, and the
// loop's own wake-up channel (an eventfd shared by async handles and the
// threadpool's completions).

#include <signal.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <system_error>

#include <cstdio>

#include "core/internal.hpp"
#include "core/fatal.hpp"

namespace phaseloop {

namespace {

// The loop time's clock: the coarse monotonic clock when it is precise to
// 1 ms or better (it is much cheaper to read), else the precise one.
clockid_t fast_clock() noexcept {
  static const clockid_t id = [] {
    timespec res;
    if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && res.tv_sec == 0 && res.tv_nsec <= 1000000)
      return CLOCK_MONOTONIC_COARSE;
    return CLOCK_MONOTONIC;
  }();
  return id;
}

std::uint64_t clock_ns(clockid_t id) noexcept {
  timespec t;
  clock_gettime(id, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

// The default loop lives in static storage as large as libuv's uv_loop_t, so
// that C code may treat it as one.
constexpr std::size_t c_loop_size = 848;
static_assert(sizeof(loop) <= c_loop_size, "loop must fit in a uv_loop_t");
alignas(loop) unsigned char default_mem[c_loop_size];
loop* default_ptr = nullptr;

}  // namespace

namespace {
std::atomic<void (*)(loop&)> observe_opened{nullptr};
std::atomic<void (*)(loop&)> observe_closing{nullptr};
}  // namespace

loop_observer set_loop_observer(loop_observer o) noexcept {
  loop_observer prev;
  prev.opened = observe_opened.exchange(o.opened);
  prev.closing = observe_closing.exchange(o.closing);
  return prev;
}

std::uint64_t loop::hrtime() noexcept { return clock_ns(CLOCK_MONOTONIC); }

void loop::update_time() noexcept {
  if (clock_ != clock_mode::real) [[unlikely]] return;
  time_ = clock_ns(fast_clock()) / 1000000 + clock_offset_;
}

void loop::set_clock(clock_mode m) noexcept {
  if (m == clock_mode::real && clock_ != clock_mode::real) {
    // Continue from where the manual clock got to if it ran ahead.
    const std::uint64_t real = clock_ns(fast_clock()) / 1000000;
    clock_offset_ = time_ > real ? time_ - real : 0;
  }
  clock_ = m;
  update_time();
}

int loop::advance(std::uint64_t ms) noexcept {
  if (clock_ == clock_mode::real) return errc::invalid;
  time_ = time_ + ms < time_ ? UINT64_MAX : time_ + ms;
  return 0;
}

loop::loop(deferred_t) noexcept {}

loop::loop() {
  if (int r = open(); r != 0) throw std::system_error(-r, std::generic_category(), "phaseloop::loop");
}

int loop::open() noexcept {
  profile_ = process_profile();
  update_time();
  if (int r = poller_.open(); r != 0) return r;
  async_watcher_.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (async_watcher_.fd < 0) {
    int e = -errno;
    poller_.close();
    return e;
  }
  async_watcher_.cb = &loop::async_io_;
  if (int r = poller_.watch(async_watcher_, wake_events_); r != 0) {
    ::close(async_watcher_.fd);
    poller_.close();
    return r;
  }
  // The signal pipe is made now, as libuv makes it at loop init, so that
  // its registration is flushed by the first poll like the eventfd's.
  if (int r = open_signal_pipe_(); r != 0) {
    poller_.close();
    ::close(async_watcher_.fd);
    async_watcher_.fd = -1;
    return r;
  }
  // The threadpool's completion channel: an internal async handle that does
  // not keep the loop alive (pending requests do that) and that walk() hides.
  async* wq = new (wq_async_mem_) async(*this, &loop::work_done_);
  wq->unref();
  wq->flags_ |= handle::internal_flag;
  // The SIGCHLD watcher that reaps spawned children (src/io/process.cpp).
  signal* cw = new (child_watcher_mem_) signal(*this);
  cw->unref();
  cw->flags_ |= handle::internal_flag;
  base_watchers_ = poller_.count();
  open_ = true;
  if (auto* f = observe_opened.load(std::memory_order_acquire)) [[unlikely]] f(*this);
  return 0;
}

int loop::close() noexcept {
  if (!open_) return 0;
  if (active_reqs_ != 0) return errc::busy;
  for (handle* h = handles_.front(); h; h = handles_.next(*h))
    if (!(h->flags_ & handle::internal_flag)) return errc::busy;
  {
    // Wait for a worker that is still inside its completion send.
    std::lock_guard<std::mutex> lock(wq_mutex_);
  }
  if (auto* f = observe_closing.load(std::memory_order_acquire)) [[unlikely]] f(*this);
  // Before the poller goes: parts unwatch their fds.
  close_parts_();
  asyncs_.erase(wq_async_());
  handles_.erase(wq_async_());
  // Only the pool's handle can be left on them.
  async_ready_ = async_later_ = nullptr;
  async_posted_.store(nullptr, std::memory_order_relaxed);
  child_watcher_().stop();
  handles_.erase(child_watcher_());
  poller_.close();
  ::close(async_watcher_.fd);
  async_watcher_.fd = -1;
  if (signal_watcher_.fd >= 0) {
    ::close(signal_watcher_.fd);
    ::close(signal_pipe_write_);
    signal_watcher_.fd = signal_pipe_write_ = -1;
  }
  open_ = false;
  if (this == default_ptr) default_ptr = nullptr;
  return 0;
}

loop::~loop() {
  if (!open_) return;
  if (auto* f = observe_closing.load(std::memory_order_acquire)) [[unlikely]] f(*this);
  // Handles still registered are abandoned; release what the loop owns.
  // The signal handler must not write for this loop any more.
  child_watcher_().stop();
  close_parts_();
  poller_.close();
  if (async_watcher_.fd >= 0) ::close(async_watcher_.fd);
  if (signal_watcher_.fd >= 0) {
    ::close(signal_watcher_.fd);
    ::close(signal_pipe_write_);
  }
  if (this == default_ptr) default_ptr = nullptr;
}

int loop::after_fork() noexcept {
  // The loop's thread may have been awake at the fork; it is gone, and
  // sends must write again whatever fails below.
  awake_.store(false, std::memory_order_seq_cst);
  // The epoll instance first: the replacements below register with the
  // new one, and nothing may reach the parent's (unregistering an fd there
  // would stop the parent's loop from seeing it). Registration order is
  // libuv's: changes queued before the fork, the replaced descriptors,
  // then every other watched fd (it decides the order in which fds that
  // are ready at once are reported).
  if (int r = poller_.reopen(); r != 0) return r;
  if (int r = parts_after_fork_(); r != 0) return r;
  // The eventfd is shared with the parent: each process would swallow the
  // other's wake-ups.
  const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) return -errno;
  poller_.unwatch(async_watcher_, wake_events_);
  ::close(async_watcher_.fd);
  async_watcher_.fd = fd;
  if (int r = poller_.watch(async_watcher_, wake_events_); r != 0) return r;
  // A send made before the fork woke the old eventfd only, or none if the
  // loop's thread was awake (cleared above).
  if (asyncs_waiting_(std::memory_order_relaxed)) wake_();
  if (int r = reopen_signal_pipe_(); r != 0) return r;
  return poller_.rearm();
}

void loop::close_parts_() noexcept {
  // In the order they were made, as they were opened.
  before_poll_ = spin_part_ = nullptr;
  while (detail::loop_part* p = parts_) {
    parts_ = p->next_;
    delete p;
  }
}

int loop::parts_after_fork_() noexcept {
  for (detail::loop_part* p = parts_; p != nullptr; p = p->next_)
    if (int r = p->after_fork(); r != 0) return r;
  return 0;
}

void detail::loop_seam::attach(loop& l, loop_part& p, const void* type) noexcept {
  p.type_ = type;
  loop_part** end = &l.parts_;
  while (*end != nullptr) end = &(*end)->next_;
  *end = &p;
}

void detail::loop_seam::detach_and_delete(loop& l, loop_part& p) noexcept {
  for (loop_part** at = &l.parts_; *at != nullptr; at = &(*at)->next_) {
    if (*at != &p) continue;
    *at = p.next_;
    if (l.before_poll_ == &p) l.before_poll_ = nullptr;
    delete &p;
    return;
  }
}

loop& loop::default_loop() {
  int err = 0;
  if (loop* l = default_loop_or_null(&err)) return *l;
  throw std::system_error(-err, std::generic_category(), "phaseloop default loop");
}

loop* loop::default_loop_if_open() noexcept { return default_ptr; }

loop* loop::default_loop_or_null(int* error) noexcept {
  if (default_ptr) return default_ptr;
  loop* l = new (default_mem) loop(deferred);
  if (const int err = l->open(); err != 0) {
    if (error != nullptr) *error = err;
    return nullptr;
  }
  default_ptr = l;
  return l;
}

template <bool Internal>
void loop::walk_(walk_cb cb, void* arg) {
  // Move the list aside so that handles made or finished by `cb` do not
  // disturb the walk; every visited handle goes back in order first.
  handle_list rest;
  rest.splice_back(handles_);
  while (handle* h = rest.pop_front()) {
    handles_.push_back(*h);
    if (Internal || !h->is_internal()) cb(h, arg);
  }
}

void loop::walk(walk_cb cb, void* arg) { walk_<false>(cb, arg); }
void loop::walk_all(walk_cb cb, void* arg) { walk_<true>(cb, arg); }

void loop::print_handles(std::FILE* out, bool active_only) {
  struct target {
    std::FILE* out;
    bool active_only;
  } where{out != nullptr ? out : stderr, active_only};
  walk_all(
      [](handle* h, void* arg) {
        const auto* t = static_cast<const target*>(arg);
        if (t->active_only && !h->is_active()) return;
        std::fprintf(t->out, "[%c%c%c] %-8s %p\n", h->has_ref() ? 'R' : '-', h->is_active() ? 'A' : '-',
                     h->is_internal() ? 'I' : '-', handle_type_name(h->type()), static_cast<void*>(h));
      },
      &where);
}

bool loop::add_hook(hook& h) noexcept {
  if (hook::list::linked(h)) return false;
  hooks_.push_back(h);
  watched_.store(true, std::memory_order_relaxed);
  return true;
}

bool loop::remove_hook(hook& h) noexcept {
  if (!hooks_.contains(h)) return false;
  // A hook call in progress holds the next hook to call: move past this one.
  if (hook_next_ == &h) hook_next_ = hooks_.next(h);
  hooks_.erase(h);
  watched_.store(!hooks_.empty(), std::memory_order_relaxed);
  return true;
}

int loop::block_signal(int signum) noexcept {
  if (signum != SIGPROF) return errc::invalid;
  block_sigprof_ = true;
  return 0;
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
void loop::wake_() noexcept {
  const std::uint64_t one = 1;
  int failures = 0;
  for (;;) {
    ssize_t r = ::write(async_watcher_.fd, &one, sizeof one);
    if (r == sizeof one) {
      poll_hint_.store(true, std::memory_order_release);
      return;
    }
    const int err = r < 0 ? errno : EIO;
    if (err == EINTR) continue;
    if (++failures == detail::transient_tries) detail::fatal("write", err, "the loop's wake-up (eventfd) cannot be sent");
    if (err == EAGAIN) {  // a full counter: empty it, and the next write is a change
      std::uint64_t count;
      ssize_t got;
      do got = ::read(async_watcher_.fd, &count, sizeof count);
      while (got < 0 && errno == EINTR);
    } else {
      sched_yield();
    }
  }
}

// A send's write. On the loop's thread (`own`, or found so here), libuv
// 1.53's next poll wakes for it whatever a pass does before: 1.53 never
// reads the eventfd, so every write after a poll's wait is the next one's
// event. Before 1.53 the pass reads it, and the send it calls with it.
void loop::send_write_(bool own) noexcept {
  if (behaves().eventfd_never_read && (own || on_runner_())) owe_wake_();
  wake_();
}

// ---- the async pass ---------------------------------------------------------
// libuv's pass visits every async handle once, in its queue's order
// (init order, but for handles initialised during a pass: they go right
// after the handle whose callback made them), and calls those it finds
// pending: a send made before a handle's visit runs in the pass, one made
// after it in the next. Handles initialised during the pass are not
// visited, closed ones are dropped. Here senders push the handle they
// make pending on a stack (async::post_), and the pass visits only
// those, ordered by their place in the queue (order_), which gives the
// same calls in the same order, without a look at the handles nobody
// sent to (libuv's million_async: a million handles, a few thousand
// pending at each pass). The stack is taken again after each callback:
// what the callback sent, or another thread sent meanwhile, runs in this
// pass if its handle is still ahead, as in libuv's
// (test/diff/199_async_pass_sends_and_inits.c,
// test/diff/201_async_thread_send_in_pass.c).

namespace {
constexpr std::uint64_t async_order_gap = std::uint64_t{1} << 16;
}

async* loop::merge_asyncs_(async* a, async* b) noexcept {
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

async* loop::sort_asyncs_(async* list) noexcept {
  // Bottom-up merge sort: bins[i] holds a sorted run of 2^i handles.
  async* bins[64] = {};
  while (list != nullptr) {
    async* run = list;
    list = list->posted_next_;
    run->posted_next_ = nullptr;
    int i = 0;
    for (; bins[i] != nullptr; i++) {
      run = merge_asyncs_(bins[i], run);
      bins[i] = nullptr;
    }
    bins[i] = run;
  }
  async* out = nullptr;
  for (async* run : bins) out = merge_asyncs_(run, out);
  return out;
}

void loop::take_posted_asyncs_() noexcept {
  async* posted = async_posted_.exchange(nullptr, std::memory_order_acq_rel);
  if (posted == nullptr) return;
  posted = sort_asyncs_(posted);
  if (!async_pass_) {
    async_ready_ = merge_asyncs_(async_ready_, posted);
    return;
  }
  // During a pass: a send made after the pass began. libuv's pass reads
  // the eventfd first, so such a send's write wakes the next poll, even
  // when this pass calls the handle (and whoever takes the stack: the pass
  // after a callback, or a close in a callback).
  owe_wake_();
  // What the pass has still to visit, and what waits for the next (visited
  // already, or initialised during this pass).
  async* now = nullptr;
  async* later = nullptr;
  async** now_tail = &now;
  async** later_tail = &later;
  while (posted != nullptr) {
    async* a = posted;
    posted = a->posted_next_;
    async**& tail = (a->order_ & 1) != 0 || a->order_ <= async_cursor_ ? later_tail : now_tail;
    *tail = a;
    tail = &a->posted_next_;
  }
  *now_tail = *later_tail = nullptr;
  async_ready_ = merge_asyncs_(async_ready_, now);
  async_later_ = merge_asyncs_(async_later_, later);
}

void loop::place_async_(async& a) noexcept {
  if (!async_pass_) {
    async_next_order_ += async_order_gap;
    a.order_ = async_next_order_;
    asyncs_.push_back(a);
    return;
  }
  // Initialised by a callback of the pass: after the handle visited last
  // (and those initialised since), ahead of the handles still to visit,
  // and skipped by this pass (bit 0, cleared when it ends).
  async* after = async_insert_after_ != nullptr ? asyncs_.next(*async_insert_after_) : asyncs_.front();
  if (after == nullptr) {
    async_next_order_ += async_order_gap;
    a.order_ = async_next_order_ | 1;
  } else {
    std::uint64_t lo = async_insert_after_ != nullptr ? async_insert_after_->order_ & ~std::uint64_t{1} : 0;
    std::uint64_t hi = after->order_ & ~std::uint64_t{1};
    if (hi - lo < 4) {
      renumber_asyncs_();
      lo = async_insert_after_ != nullptr ? async_insert_after_->order_ & ~std::uint64_t{1} : 0;
      hi = after->order_ & ~std::uint64_t{1};
    }
    a.order_ = ((lo + (hi - lo) / 2) & ~std::uint64_t{1}) | 1;
  }
  asyncs_.insert_before(after, a);
  async_insert_after_ = &a;
  async_born_ = true;
}

// Spreads the queue's places out again (after 15 handles initialised
// between the same two): every place changes, their order does not.
void loop::renumber_asyncs_() noexcept {
  sweep_closed_asyncs_();  // a closed handle keeps its old place
  std::uint64_t order = 0;
  std::uint64_t cursor = 0;
  for (async* a = asyncs_.front(); a != nullptr; a = asyncs_.next(*a)) {
    order += async_order_gap;
    if ((a->order_ & ~std::uint64_t{1}) <= async_cursor_) cursor = order;
    a->order_ = order | (a->order_ & 1);
  }
  async_cursor_ = cursor;
  async_next_order_ = order;
}

// Drops closed handles from the loop's lists (before their close callbacks
// run, after which their memory may be gone); true if there was one.
bool loop::sweep_closed_asyncs_() noexcept {
  bool dropped = false;
  for (async** list : {&async_ready_, &async_later_}) {
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
  async_closed_ = false;
  return dropped;
}

void loop::async_io_(loop& l, detail::io_watcher&, unsigned) {
  l.async_ready_ = merge_asyncs_(l.async_ready_, l.async_later_);
  l.async_later_ = nullptr;
  l.take_posted_asyncs_();  // the sends that woke this pass (or came while awake)
  l.async_pass_ = true;
  l.async_cursor_ = 0;
  l.async_insert_after_ = nullptr;
  // A wake-up with nothing to visit and none owed is the late write of a
  // send an earlier pass took (a sender that found the loop about to sleep
  // just as the loop found its send), or of a send on the loop's thread
  // that a pass took before the write's event came: libuv < 1.53 reads
  // such a write at its pass. The poll does not count it as an event.
  l.async_found_ = l.async_ready_ != nullptr || l.async_owed_now_;
  l.async_owed_now_ = false;
  loop* const outer = detail::async_pass_loop;
  detail::async_pass_loop = &l;
  while (async* a = l.async_ready_) {
    l.async_ready_ = a->posted_next_;
    l.async_cursor_ = a->order_;
    if (!a->take_pending_() || a->cb_ == nullptr) continue;  // closed, or no callback
    l.async_insert_after_ = a;
    if (a->flags_ & handle::internal_flag) {
      a->cb_(a);
    } else {
      if (l.hooked()) [[unlikely]] l.send_hook_(*a);
      l.poll_callback_(callback_kind::async, a, nullptr, [a] { a->cb_(a); });
    }
    if (l.async_self_sent_ || l.async_posted_.load(std::memory_order_acquire) != nullptr) {
      // A send made during the callback: by the callback itself, or by
      // another thread before the callback returned (one it waited for,
      // say). libuv's pass visits the handle if it is still ahead (and the
      // send wakes the next poll: take_posted_asyncs_).
      l.async_self_sent_ = false;
      l.take_posted_asyncs_();
    }
  }
  detail::async_pass_loop = outer;
  l.async_pass_ = false;
  if (l.async_born_) {
    for (async* a = l.asyncs_.front(); a != nullptr; a = l.asyncs_.next(*a)) a->order_ &= ~std::uint64_t{1};
    l.async_born_ = false;
  }
}

}  // namespace phaseloop
