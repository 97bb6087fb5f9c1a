// SPDX-License-Identifier: MIT
// Loop lifecycle (open, close, the default loop), time, walk, hooks, what a
// profile decides once it is set, and the async pass's callbacks (the
// wake-up itself is detail::wakeup, src/core/wakeup.cpp).

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <system_error>

#include <cstdio>

#include "core/chaos.hpp"
#include "core/internal.hpp"
#include "core/fatal.hpp"

namespace phaseloop {

namespace {

// The loop time's clock: the coarse monotonic clock when it is precise to
// 1 ms or better (it is much cheaper to read), else the precise one.
[[gnu::hot]] clockid_t fast_clock() noexcept {
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

[[gnu::hot]] std::uint64_t loop::hrtime() noexcept { return clock_ns(CLOCK_MONOTONIC); }

[[gnu::hot]] void loop::update_time() noexcept {
  if (odd_clock_) [[unlikely]] return update_time_odd_(false);
  time_ = clock_ns(fast_clock()) / 1000000 + clock_offset_;
}

[[gnu::hot]] void loop::tick_time_() noexcept {
  if (odd_clock_) [[unlikely]] return update_time_odd_(true);
  time_ = clock_ns(fast_clock()) / 1000000 + clock_offset_;
}

// A manual clock moves only by advance(); chaos mode may read the loop's
// own updates behind.
void loop::update_time_odd_(bool own) noexcept {
  if (clock_ != clock_mode::real) return;
  const std::uint64_t t = clock_ns(fast_clock()) / 1000000 + clock_offset_;
  time_ = chaos_ == nullptr || !own ? t : chaos_->clock(t, time_);
}

void loop::set_clock(clock_mode m) noexcept {
  if (m == clock_mode::real && clock_ != clock_mode::real) {
    // Continue from where the manual clock got to if it ran ahead.
    const std::uint64_t real = clock_ns(fast_clock()) / 1000000;
    clock_offset_ = time_ > real ? time_ - real : 0;
  }
  clock_ = m;
  odd_clock_ = clock_ != clock_mode::real || chaos_ != nullptr;
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
  profile_ = static_cast<std::uint8_t>(process_profile());
  apply_profile_();
  update_time();
  if (int r = poller_.open(); r != 0) return r;
  if (int r = wakeup_.open(poller_, &loop::async_io_); r != 0) {
    poller_.close();
    return r;
  }
  // The signal pipe is made now, as libuv makes it at loop init, so that
  // its registration is flushed by the first poll like the eventfd's.
  if (int r = open_signal_pipe_(); r != 0) {
    poller_.close();
    wakeup_.close();
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
  // The n-th loop the process opens: chaos mode gives each its own seed.
  static std::atomic<unsigned> opened{0};
  if (chaos_options o; detail::chaos_from_env(opened.fetch_add(1, std::memory_order_relaxed) + 1, o)) [[unlikely]]
    set_chaos(&o);
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
  // Only the pool's handle can be left on the wake-up's lists.
  wakeup_.forget(wq_async_());
  handles_.erase(wq_async_());
  child_watcher_().stop();
  handles_.erase(child_watcher_());
  poller_.close();
  wakeup_.close();
  if (signal_watcher_.fd >= 0) {
    ::close(signal_watcher_.fd);
    ::close(signal_pipe_write_);
    signal_watcher_.fd = signal_pipe_write_ = -1;
  }
  set_chaos(nullptr);
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
  wakeup_.close();
  if (signal_watcher_.fd >= 0) {
    ::close(signal_watcher_.fd);
    ::close(signal_pipe_write_);
  }
  set_chaos(nullptr);
  if (this == default_ptr) default_ptr = nullptr;
}

int loop::after_fork() noexcept {
  // The loop's thread may have been awake at the fork; it is gone, and
  // sends must write again whatever fails below.
  wakeup_.forget_awake();
  // The epoll instance first: the replacements below register with the
  // new one, and nothing may reach the parent's (unregistering an fd there
  // would stop the parent's loop from seeing it). Registration order is
  // libuv's: changes queued before the fork, the replaced descriptors,
  // then every other watched fd (it decides the order in which fds that
  // are ready at once are reported).
  if (int r = poller_.reopen(); r != 0) return r;
  if (int r = parts_after_fork_(); r != 0) return r;
  if (int r = wakeup_.reopen(poller_); r != 0) return r;
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

// libuv batches its epoll_ctl calls through io_uring from 1.45 on when
// io_uring is not turned off ($UV_USE_IO_URING=0), from 1.50 on always.
// (Nothing a program sees but the ring's descriptor and fewer calls.)
void loop::apply_profile_() noexcept {
  const behaviour& b = behaves();
  const io_uring_use u = detail::io_uring_choice(*this);
  poller_.set_batching(u == io_uring_use::on || u == io_uring_use::sqpoll ||
                       (u == io_uring_use::automatic &&
                        (b.epoll_batching == uring_batching::always ||
                         (b.epoll_batching == uring_batching::unless_env_off && detail::uv_use_io_uring_env() != 0))));
  wakeup_.set_never_read(b.eventfd_never_read);
}

// The eventfd's callback: the async pass (detail::wakeup).
void loop::async_io_(loop& l, detail::io_watcher&, unsigned) {
  detail::wakeup& w = l.wakeup_;
  detail::wakeup::pass p;
  w.begin_pass(p);
  while (async* a = w.next()) {
    if (a->flags_ & handle::internal_flag) {
      a->cb_(a);
    } else {
      if (l.hooked()) [[unlikely]] l.send_hook_(*a);
      l.poll_callback_(callback_kind::async, a, nullptr, [a] { a->cb_(a); });
    }
    w.after_callback();
  }
  w.end_pass();
}

}  // namespace phaseloop
