// SPDX-License-Identifier: MIT
// The threadpool: process-wide, started on first use, shared by all loops
// (as libuv's). Workers take requests FIFO; a finished request goes on its
// loop's done queue and the loop's internal async handle wakes the loop,
// which runs the completion callbacks in its poll phase.
//
// Slow work (pool_ops::slow_io: DNS lookups) waits in a queue of its own,
// represented in the main queue by one marker entry, as in libuv: a worker
// that reaches the marker runs the oldest slow request if fewer than half
// the threads (rounded up) run slow work, and puts the marker back at the
// end while more wait. So slow requests keep their turn among the others
// and can never take every thread.
//
// The pool queues detail::pool_task entries; each request type (work here,
// fs_req in src/io/fs.cpp) embeds one and says through its pool_ops how to
// run it, which loop it belongs to and how to complete it.

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <condition_variable>
#include <mutex>
#include <semaphore>
#include <system_error>
#include <thread>
#include <thread>
#include <vector>

#include "core/internal.hpp"
#include "core/loop_impl.hpp"
#include "core/chaos.hpp"
#include "core/fatal.hpp"
#include "phaseloop/dns.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/random.hpp"

namespace phaseloop::detail {

class threadpool {
 public:
  enum state : std::uint8_t { queued = 1, running = 2, done = 3, canceled = 4 };

  // `first`: the loop whose request starts the pool; its profile decides
  // whether the workers carry libuv 1.50's thread name.
  static threadpool& get(const loop* first = nullptr) {
    // Built on first use and never destroyed: workers may still be running
    // user work when static destructors run at exit. A forked child has
    // none of the parent's threads, so it drops the parent's pool (leaking
    // it, as its mutexes may be held by threads that no longer exist) and
    // builds its own on first use.
    if (threadpool* p = current_.load(std::memory_order_acquire)) return *p;
    std::lock_guard<std::mutex> lock(init_mutex_);
    if (threadpool* p = current_.load(std::memory_order_relaxed)) return *p;
    static const bool registered = pthread_atfork(nullptr, nullptr, &forget_in_child) == 0;
    (void)registered;
    auto* p = new threadpool(size_from_env(), first != nullptr && first->behaves().workers_named);
    current_.store(p, std::memory_order_release);
    return *p;
  }

  // Queues `t` for loop `l`, which counts it as active until its done
  // function is about to run (loop::work_done_).
  static int submit(loop& l, pool_task& t, const pool_ops& ops) noexcept {
    t.ops = &ops;
    t.timed = l.hooked();
    t.ran = l.chaos_ == nullptr ? 0 : l.chaos_->pool_delay_us();
    l.active_reqs_++;
    try {
      get(&l).post(t);
    } catch (...) {
      l.active_reqs_--;
      return errc::no_memory;
    }
    return 0;
  }

  static int cancel(loop& l, pool_task& t) noexcept {
    if (get().unqueue(t)) {
      complete(l, t);
      return 0;
    }
    // As in libuv, a request canceled earlier whose callback has not run yet
    // can be canceled again: it succeeds and moves to the back of the queue.
    if (t.state == canceled && pool_task::list::linked(t)) {
      std::lock_guard<std::mutex> lock(l.wq_mutex_);
      pool_task::list::unlink(t);
      l.wq_done_.push_back(t);
      l.wq_async_().send();
      return 0;
    }
    return errc::busy;
  }

  // Requests waiting for a worker (the marker stands for the slow ones);
  // 0 before the pool exists.
  static std::size_t waiting() noexcept {
    threadpool* p = current_.load(std::memory_order_acquire);
    if (p == nullptr) return 0;
    std::lock_guard<std::mutex> lock(p->mutex_);
    std::size_t n = 0;
    for (const pool_task* t = p->queue_.front(); t != nullptr; t = p->queue_.next(*t))
      if (t != &p->marker_) n++;
    for (const pool_task* t = p->slow_.front(); t != nullptr; t = p->slow_.next(*t)) n++;
    return n;
  }

 private:
  void post(pool_task& t) {
    std::lock_guard<std::mutex> lock(mutex_);
    t.state = queued;
    if (t.ops->slow_io) {
      slow_.push_back(t);
      if (pool_task::list::linked(marker_)) return;  // the marker already waits its turn
      queue_.push_back(marker_);
    } else {
      queue_.push_back(t);
    }
    posted_.fetch_add(1, std::memory_order_release);
    // The first request posted while a worker spins is its to take (it
    // looks at the queue under the lock once it stops spinning): no
    // wake-up to make. The others wake sleeping workers as usual.
    if (spinning_ && !spin_claimed_) spin_claimed_ = true;
    else if (idle_ > 0) cond_.notify_one();
  }

  // Takes `t` off the queue if no worker has started it.
  bool unqueue(pool_task& t) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (t.state != queued) return false;
    // A queued task waits on the slow lane if its kind is slow I/O, else on
    // the queue; the marker, if left alone by this, is dropped by the
    // worker reaching it.
    if (!pool_task::list::linked(t)) return false;
    if (t.ops->slow_io)
      slow_.erase(t);
    else
      queue_.erase(t);
    t.state = canceled;
    return true;
  }

  unsigned slow_limit() const noexcept { return (static_cast<unsigned>(threads_.size()) + 1) / 2; }

  // True when the only queued entry is the marker and slow work may not
  // start now: a worker then waits instead of spinning on the marker.
  bool only_blocked_slow_work() const noexcept {
    return queue_.front() == &marker_ && queue_.next(marker_) == nullptr &&
           slow_running_ >= slow_limit();
  }

  // The next request to run, with the lock held, or null to look again.
  pool_task* take() noexcept {
    pool_task* t = queue_.pop_front();
    if (t != &marker_) return t;
    if (slow_.empty()) return nullptr;
    if (slow_running_ >= slow_limit()) {
      queue_.push_back(marker_);  // try again after the others
      return nullptr;
    }
    t = slow_.pop_front();
    slow_running_++;
    if (!slow_.empty()) {
      queue_.push_back(marker_);
      if (idle_ > 0) cond_.notify_one();
    }
    return t;
  }

  // The send happens under the loop's mutex, which loop::close() takes:
  // once the loop has run this request's callback it may be closed and
  // freed, so no worker may still be about to touch it.
  static void complete(loop& l, pool_task& t) {
    std::lock_guard<std::mutex> lock(l.wq_mutex_);
    l.wq_done_.push_back(t);
    l.wq_async_().send();
  }

  static unsigned size_from_env() {
    unsigned n = 4;
    if (const char* v = std::getenv("UV_THREADPOOL_SIZE")) n = static_cast<unsigned>(std::atoi(v));
    if (n == 0) n = 1;
    if (n > 1024) n = 1024;
    return n;
  }

  // Returns once every worker is running (as libuv's pool does), so that
  // no worker is still starting up when the caller goes on (and, say,
  // forks).
  threadpool(unsigned n, bool named) {
    threads_.reserve(n);
    std::counting_semaphore<> started(0);
    unsigned made = 0;
    for (unsigned i = 0; i < n; i++) {
      try {
        threads_.emplace_back([this, &started, named, i] {
          // libuv >= 1.50 names its workers (what top and debuggers show).
          if (named) pthread_setname_np(pthread_self(), "libuv-worker");
          started.release();
          run(static_cast<std::uint16_t>(i));
        });
        made++;
      } catch (const std::system_error& e) {
        if (made == 0) detail::fatal("pthread_create", e.code().value(), "the threadpool has no worker");
        break;
      } catch (...) {
        if (made == 0) detail::fatal("pthread_create", ENOMEM, "the threadpool has no worker");
        break;
      }
    }
    for (unsigned i = 0; i < made; i++) started.acquire();
  }

  void run(std::uint16_t worker) {
    std::unique_lock<std::mutex> lock(mutex_);
    // Whether this worker spins for work before it sleeps: when its last
    // sleep was short (work comes that often), one worker at a time spins
    // up to the spin window, so that the next request needs no wake-up.
    bool spin = false;
    for (;;) {
      while (queue_.empty() || only_blocked_slow_work()) {
        const std::uint64_t window = detail::spin_window_ns();
        if (spin && !spinning_ && window != 0) {
          spinning_ = true;
          const unsigned seen = posted_.load(std::memory_order_relaxed);
          lock.unlock();
          spin = detail::spin_until([&] { return posted_.load(std::memory_order_acquire) != seen; }, window);
          lock.lock();
          spinning_ = spin_claimed_ = false;
          continue;
        }
        idle_++;
        const std::uint64_t before = window != 0 ? loop::hrtime() : 0;
        cond_.wait(lock);
        idle_--;
        spin = window != 0 && loop::hrtime() - before < 4 * window;
      }
      pool_task* t = take();
      if (t == nullptr) continue;
      t->state = running;
      const bool slow = t->ops->slow_io;
      lock.unlock();
      const bool timed = t->timed;
      if (t->ran != 0) [[unlikely]] std::this_thread::sleep_for(std::chrono::microseconds(t->ran));
      if (timed) [[unlikely]] {
        t->worker = worker;
        t->began_ns = loop::hrtime();
      }
      t->ops->run(*t);
      if (timed) [[unlikely]] t->set_run_ns(loop::hrtime() - t->began_ns);
      complete(t->ops->owner(*t), *t);  // `running` until the loop takes it
      lock.lock();
      if (slow) {
        slow_running_--;
        // A slot for slow work is free: a worker waiting on the marker may go.
        if (!slow_.empty() && idle_ > 0) cond_.notify_one();
      }
    }
  }

  static void forget_in_child() {
    current_.store(nullptr, std::memory_order_relaxed);
    new (&init_mutex_) std::mutex;  // it may have been held at fork time
  }

  static inline std::atomic<threadpool*> current_{nullptr};
  static inline std::mutex init_mutex_;

  std::mutex mutex_;
  std::condition_variable cond_;
  pool_task::list queue_;
  pool_task::list slow_;   // slow requests, in order; marker_ stands for them in queue_
  pool_task marker_;
  unsigned slow_running_ = 0;
  unsigned idle_ = 0;
  bool spinning_ = false;                // a worker spins for work (guarded by mutex_)
  bool spin_claimed_ = false;            // a request was posted for it to take
  std::atomic<unsigned> posted_{0};      // requests posted so far, for the spinner
  std::vector<std::thread> threads_;
};

int pool_submit(loop& l, pool_task& t, const pool_ops& ops) noexcept { return threadpool::submit(l, t, ops); }
std::size_t pool_queued() noexcept { return threadpool::waiting(); }
int pool_cancel(loop& l, pool_task& t) noexcept { return threadpool::cancel(l, t); }

}  // namespace phaseloop::detail

namespace phaseloop {

std::size_t loop::threadpool_queued() noexcept { return detail::pool_queued(); }

void work::pool_run_() noexcept { work_cb_(this); }

void work::pool_done_(int status) noexcept {
  if (after_work_cb cb = after_cb_)
    loop_->poll_callback_(callback_kind::work_done, nullptr, this, [cb, this, status] { cb(this, status); });
}

int work::queue(phaseloop::loop& l, work_cb fn, after_work_cb after) noexcept {
  if (fn == nullptr) return errc::invalid;
  loop_ = &l;
  work_cb_ = fn;
  after_cb_ = after;
  const int r = detail::pool_submit(l, task_, detail::pool_request<work>::ops);
  if (r == 0) detail::loop_seam::started(l, *this, nullptr);
  return r;
}

int work::cancel() noexcept {
  if (loop_ == nullptr) return errc::busy;
  return detail::pool_cancel(*loop_, task_);
}

namespace {

// Requests that finished in one order complete in another: which worker
// ends first is the kernel scheduler's choice.
void chaos_order(detail::chaos& c, detail::pool_task::list& done) {
  std::vector<detail::pool_task*> tasks;
  while (detail::pool_task* t = done.pop_front()) tasks.push_back(t);
  std::vector<detail::pool_task*> order = tasks;
  for (std::size_t i = order.size(); i > 1; i--) std::swap(order[i - 1], order[c.below(chaos_kind::pool, i)]);
  const auto n = static_cast<std::int64_t>(order.size());
  const bool use = order != tasks && c.take(chaos_kind::pool, nullptr, n, 0);
  for (detail::pool_task* t : use ? order : tasks) done.push_back(*t);
}

}  // namespace

void loop::work_done_(async* a) {
  loop& l = a->owner();
  detail::pool_task::list done;
  {
    // O(1) under the lock that workers contend on.
    std::lock_guard<std::mutex> lock(l.wq_mutex_);
    done.splice_back(l.wq_done_);
  }
  if (l.chaos_ != nullptr) [[unlikely]] chaos_order(*l.chaos_, done);
  std::uint64_t n = 0;
  while (detail::pool_task* t = done.pop_front()) {
    l.active_reqs_--;
    const int status = t->state == detail::threadpool::canceled ? errc::canceled : 0;
    t->state = detail::threadpool::done;
    if (t->timed && status == 0 && l.hooked() && t->ops->request != nullptr) [[unlikely]]
      l.job_hook_(*t->ops->request(*t), t->worker, t->began_ns, t->run_ns());
    t->ops->done(*t, status);
    n++;
  }
  // Metrics: the wake-up counted as one event; each completion beyond the
  // first counts one more (waiting, when poll did not wait), as in libuv.
  if (n > 1) {
    l.events_handled_ += n - 1;
    if (l.poll_wait_ == 0) l.events_waiting_ += n - 1;
  }
}

// The pool's request types, each with its own cancel().
int req::cancel() noexcept {
  switch (type_) {
    case req_type::work: return static_cast<work*>(this)->cancel();
    case req_type::fs: return static_cast<fs_req*>(this)->cancel();
    case req_type::getaddrinfo:
    case req_type::getnameinfo: return static_cast<dns_req*>(this)->cancel();
    case req_type::random: return static_cast<random_req*>(this)->cancel();
    default: return errc::invalid;
  }
}

}  // namespace phaseloop
