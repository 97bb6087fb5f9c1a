// SPDX-License-Identifier: MIT
#pragma once
/// The event loop: libuv's phases in libuv's order.
///
/// One iteration (profile libuv_1_45, the default):
///
///   pending -> idle -> prepare -> poll -> check -> closing -> timers
///
/// with one extra timers pass before the first iteration of a DEFAULT run;
/// profile libuv_1_44 puts timers first in every iteration and, in ONCE
/// mode, runs them again at its end. docs/design.md has the full diagram.
///
/// Threads: every method is for the loop's thread only, except where noted.
/// A loop is not copyable or movable: handles point at it.

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>

#include "phaseloop/async.hpp"
#include "phaseloop/behaviour.hpp"
#include "phaseloop/chaos.hpp"
#include "phaseloop/detail/poller.hpp"
#include "phaseloop/detail/wakeup.hpp"
#include "phaseloop/handle.hpp"
#include "phaseloop/hooks.hpp"
#include "phaseloop/phase_handles.hpp"
#include "phaseloop/signal.hpp"
#include "phaseloop/timer.hpp"
#include "phaseloop/types.hpp"
#include "phaseloop/work.hpp"

namespace phaseloop {

/// Visits one handle during loop::walk.
using walk_cb = void (*)(handle*, void* arg);

namespace detail {
class chaos;
class loop_part;
struct loop_seam;
}

class loop {
 public:
  /// Free for the user; phaseloop never reads it. (libuv: `data`, offset 0.)
  void* data = nullptr;

 private:
  unsigned active_handles_ = 0;  // offset 8, as libuv's `active_handles`
  unsigned active_reqs_ = 0;

 public:
  /// Tag for the two-step construction the C layer uses.
  struct deferred_t {};
  static constexpr deferred_t deferred{};

  /// Opens a loop with the profile named by $PHASELOOP_PROFILE
  /// ("libuv-1.44" or "libuv-1.45+"), else the newest. Throws
  /// std::system_error when the kernel objects cannot be made.
  loop();
  /// Makes an unopened loop; call open() before anything else.
  explicit loop(deferred_t) noexcept;
  /// Releases the loop's kernel objects. Handles must be closed first.
  ~loop();
  loop(const loop&) = delete;
  loop& operator=(const loop&) = delete;

  /// Second step of loop(deferred): 0 or a negative error code.
  int open() noexcept;
  /// Releases the loop's resources. errc::busy while any handle (closed
  /// handles whose callbacks have run excepted) or request remains.
  int close() noexcept;
  /// In the child, after fork(2) (libuv's uv_loop_fork): gives the loop
  /// kernel objects of its own where the child would otherwise share the
  /// parent's (the epoll instance, the async eventfd, the signal pipe, the
  /// inotify descriptor) and registers every watched fd again. Handles
  /// keep their state; notes of signals caught before the fork are
  /// dropped. 0 or a negative error code.
  int after_fork() noexcept;

  /// Runs the loop in `mode`. Returns non-zero when the loop is still alive
  /// (something would make a further run do work), 0 otherwise.
  int run(run_mode mode = run_mode::default_);
  /// Makes run() return after the current iteration. Poll will not block.
  void stop() noexcept {
    stop_flag_ = true;
    if (!hooks_.empty()) [[unlikely]] stop_hook_();
  }
  /// True when active referenced handles, requests in flight, pending
  /// callbacks or closing handles remain.
  bool alive() const noexcept;

  /// Cached loop time in ms (monotonic clock), updated at the points libuv
  /// updates it: run() entry when not alive, each iteration, after poll.
  std::uint64_t now() const noexcept { return time_; }
  /// Refreshes the cached loop time (nothing to do on a manual clock).
  void update_time() noexcept;
  /// Chooses how now() moves (clock_mode). Time never goes back: a manual
  /// clock starts at the current loop time, and a real clock set again
  /// continues from the time the manual one reached. Loop thread only.
  void set_clock(clock_mode m) noexcept;
  /// How now() moves.
  clock_mode clock() const noexcept { return clock_; }
  /// Moves a manual clock `ms` forward; timers due by then run in the next
  /// timers phase. errc::invalid on a real clock. Loop thread only (from
  /// another thread: an async handle whose callback calls advance()).
  int advance(std::uint64_t ms) noexcept;
  /// Monotonic high-resolution time in ns. Any thread.
  static std::uint64_t hrtime() noexcept;

  /// The poller's fd (epoll), which becomes readable when the loop has work.
  int backend_fd() const noexcept { return poller_.fd(); }
  /// The timeout (ms, -1: infinite) the poll phase would use now.
  int backend_timeout() const noexcept;

  /// Calls `cb` for every handle of the loop, closing ones included, in the
  /// order they were created; the loop's internal handles are skipped.
  void walk(walk_cb cb, void* arg);
  /// As walk(), but also visits the loop's internal handles.
  void walk_all(walk_cb cb, void* arg);
  /// Prints "[RAI] type address" per handle, internal ones included, to
  /// `out` (null: stderr): Referenced, Active, Internal, '-' when not.
  /// libuv's uv_print_all_handles / uv_print_active_handles.
  void print_handles(std::FILE* out, bool active_only);
  /// Number of active referenced handles (what keeps the loop alive).
  unsigned active_handles() const noexcept { return active_handles_; }
  /// Number of requests in flight.
  unsigned active_requests() const noexcept { return active_reqs_; }
  /// Number of callbacks waiting for the pending phase (counts them: for
  /// tools, not for hot paths).
  std::size_t pending_callbacks() const noexcept;
  /// Number of requests queued in the process's threadpool, not yet taken
  /// by a worker (all loops; takes the pool's lock).
  static std::size_t threadpool_queued() noexcept;
  /// Iterations started so far (1-based once running).
  std::uint64_t iteration() const noexcept { return iteration_; }

  /// The phase order this loop follows.
  phaseloop::profile order() const noexcept { return static_cast<phaseloop::profile>(profile_); }
  /// What this loop does where libuv versions differ (behaviour.hpp).
  const behaviour& behaves() const noexcept { return behaviour_of(order()); }
  /// Chooses the phase order; may be changed between runs.
  void set_order(phaseloop::profile p) noexcept {
    profile_ = static_cast<std::uint8_t>(p);
    apply_profile_();
  }

  /// Attaches a hook (see hooks.hpp); it must outlive its attachment.
  /// False (and nothing done) when it is already attached to a loop.
  bool add_hook(hook& h) noexcept;
  /// Detaches a hook, also from inside any hook call (its own or another
  /// hook's). False (and nothing done) when it is not attached to this loop.
  bool remove_hook(hook& h) noexcept;
  /// True when at least one hook is attached.
  bool hooked() const noexcept { return !hooks_.empty(); }

  /// Blocks `signum` while the poll phase waits (libuv's
  /// UV_LOOP_BLOCK_SIGNAL; only SIGPROF is supported, as in libuv).
  int block_signal(int signum) noexcept;
  /// Starts measuring the time poll spends waiting (UV_METRICS_IDLE_TIME).
  void enable_idle_time_metric() noexcept { idle_metric_ = true; }
  /// libuv 1.45's loop metrics: iterations that reached the poll phase
  /// (counted as poll starts, so a prepare callback of the first iteration
  /// sees 0), events the poll phase handled (one per ready watcher per
  /// batch, and one per threadpool request completed beyond the first of a
  /// batch), and of those the events found waiting: what poll found when it
  /// first looked without waiting (only with the idle-time metric, from
  /// profile libuv_1_45), and pool completions delivered by a poll that did
  /// not wait.
  struct metrics {
    std::uint64_t loop_count;
    std::uint64_t events;
    std::uint64_t events_waiting;
  };
  metrics metrics_info() const noexcept { return {polls_, events_handled_, events_waiting_}; }
  /// Nanoseconds poll has spent waiting since enable_idle_time_metric(),
  /// including a wait in progress. Any thread.
  std::uint64_t idle_time() const noexcept;

  /// How asynchronous file requests run (fs.hpp): through a ring this loop
  /// owns (io_uring, made on the first request that may use it, kept
  /// while the loop is open) or on the threadpool. Requests the ring
  /// cannot do (see docs/io_uring.md), and every request when io_uring is
  /// unavailable (old kernel, kernel.io_uring_disabled, seccomp, no memory
  /// for the ring: found out once per loop), run on the threadpool.
  void set_io_uring(io_uring_use u) noexcept {
    io_uring_use_ = u;
    apply_profile_();
  }
  io_uring_use io_uring() const noexcept { return io_uring_use_; }
  /// libuv's uv_loop_configure(UV_LOOP_USE_IO_URING_SQPOLL): what profiles
  /// libuv_1_49 to libuv_1_52 wait for before they use io_uring.
  void ask_io_uring() noexcept { io_uring_asked_ = true; }
  bool io_uring_asked() const noexcept { return io_uring_asked_; }
  /// True once this loop has a working ring (a request used it).
  bool io_uring_ready() const noexcept;

  /// Chaos mode (chaos.hpp) on this loop with `o`, or off with nullptr;
  /// $PHASELOOP_CHAOS sets it on every loop as it opens. Loop thread,
  /// between runs or from a callback. 0, or errc::nomem.
  int set_chaos(const chaos_options* o) noexcept;
  /// The options chaos mode runs with, or nullptr when it is off.
  const chaos_options* chaos() const noexcept;

  /// The process-wide default loop, built on first use. Never destroyed
  /// unless close_default() is called.
  static loop& default_loop();
  /// As default_loop(), but nullptr when it cannot be opened (the error,
  /// an errc, in *error when given).
  static loop* default_loop_or_null(int* error = nullptr) noexcept;
  /// The default loop if it was built and not closed, else nullptr.
  static loop* default_loop_if_open() noexcept;

 private:
  friend class handle;
  friend class timer;
  template <handle_type>
  friend class phase_handle;
  friend class async;
  friend class signal;
  friend class work;
  friend class detail::threadpool;
  friend struct detail::signal_registry;
 public:
  /// Offsets of the fields libuv's uv_loop_t shows, by its names there
  /// (detail/c_layout.hpp).
  struct c_fields { std::size_t data, active_handles; };
  static constexpr c_fields c_layout() noexcept;

 private:
  // The handles and requests of src/io go through this seam only
  // (src/core/internal.hpp).
  friend struct detail::loop_seam;

  using handle_list = detail::ilist<handle, &handle::all_>;
  using watcher_list = detail::ilist<detail::io_watcher, &detail::io_watcher::pending>;

  // The phases, one call each from run(). Each picks the pass compiled
  // with hook calls (H = true) or without, so an unhooked loop pays one
  // predictable branch per phase.
  void run_timers_(bool before_loop);
  void run_pending_();
  void run_idle_();
  void run_prepare_();
  void run_poll_(int timeout);
  void run_check_();
  void run_closing_();
  template <bool H> void timers_pass_(bool before_loop);
  template <bool H> void pending_pass_();
  template <bool H, handle_type K> void list_pass_(typename phase_handle<K>::list& l);
  // The poll phase: the poller's changes, then rounds of a wait for a
  // batch of events and its dispatch (src/core/run.cpp).
  template <bool H> void poll_phase_(int timeout);
  struct poll_round;
  template <bool H> int flush_watches_(int timeout);
  int wait_(poll_round& r, detail::io_event* events, bool& posted);
  enum class batch_end : unsigned char { nothing, delivered, signals };
  template <bool H> batch_end dispatch_(detail::io_event* events, int n, bool posted, bool peeked);
  template <bool H> void closing_pass_();
  template <bool H, class F>
  void callback_(phase p, callback_kind k, handle* h, req* r, F&& f);
  void phase_hook_(bool enter, phase p, bool before_loop, int timeout);
  // Calls `f(hook&)` for each hook, in order. hook_next_ is the cursor:
  // remove_hook() advances it when it removes the hook about to be called,
  // so any hook may detach any other.
  template <class F>
  void each_hook_(F&& f) {
    for (hook* k = hooks_.front(); k; k = hook_next_) {
      hook_next_ = hooks_.next(*k);
      f(*k);
    }
  }
  void stop_hook_();
  void request_hook_(req& r, handle* h);
  void job_hook_(const req& r, unsigned worker, std::uint64_t began_ns, std::uint64_t run_ns);
  void send_hook_(async& a);
  void chaos_hook_(const chaos_event& e);
  // The loop's own clock updates (run's): chaos mode may read them behind,
  // as if the loop was preempted after reading the clock; update_time(),
  // which a program calls to read the time now, never is.
  void tick_time_() noexcept;
  void update_time_odd_(bool own) noexcept;
  // The poll phase's timeout on a manual clock or in chaos mode; `jump`:
  // the manual clock jumps to the next timer if nothing comes.
  int odd_timeout_(int timeout, bool& jump) noexcept;
  // Chaos mode's choices on a poll batch: its order, and which of its
  // events wait for the next poll; the number of events to dispatch.
  int chaos_batch_(detail::io_event* events, int n, bool posted) noexcept;
  static constexpr int max_batch_ = 1024;  // events one wait may return

  // A callback made from the poll phase (async, signal, threadpool): hooks
  // are tested per callback there. Defined in src/core/loop_impl.hpp.
  template <class F>
  void poll_callback_(callback_kind k, handle* h, req* r, F&& f);

  void make_close_pending_(handle& h) noexcept;
  template <bool Internal> void walk_(walk_cb cb, void* arg);
  int poll_timeout_() const noexcept;
  void jump_to_next_timer_() noexcept;  // clock_mode::manual_jump
  template <bool H> void dispatch_io_(detail::io_watcher& w, unsigned events);

  template <handle_type K>
  typename phase_handle<K>::list& phase_list_() noexcept {
    if constexpr (K == handle_type::idle) return idles_;
    else if constexpr (K == handle_type::prepare) return prepares_;
    else return checks_;
  }

  // Internal handles and watchers.
  static void async_io_(loop& l, detail::io_watcher& w, unsigned events);
  static void signal_io_(loop& l, detail::io_watcher& w, unsigned events);
  static void work_done_(async* a);
  int open_signal_pipe_() noexcept;
  int reopen_signal_pipe_() noexcept;  // after fork: a pipe of the child's own
  async& wq_async_() noexcept { return *reinterpret_cast<async*>(wq_async_mem_); }
  signal& child_watcher_() noexcept { return *reinterpret_cast<signal*>(child_watcher_mem_); }
  // What the profile and the io_uring choice decide once they are set.
  void apply_profile_() noexcept;

  bool stop_flag_ = false;
  // Whether hooks are attached, for other threads (async senders stamp
  // their sends for hooks only).
  std::atomic<bool> watched_{false};
  bool open_ = false;
  bool idle_metric_ = false;
  int poll_wait_ = 0;  // the timeout of poll's current wait (0: a look)
  std::uint64_t polls_ = 0;  // metrics_info()
  std::uint64_t events_handled_ = 0;
  std::uint64_t events_waiting_ = 0;
  bool block_sigprof_ = false;
  bool io_uring_asked_ = false;
  io_uring_use io_uring_use_ = io_uring_use::automatic;
  clock_mode clock_ = clock_mode::real;
  std::uint8_t profile_ = static_cast<std::uint8_t>(profile::newest);  // a phaseloop::profile
  // The clock is manual or chaos mode is on: the clock update and the poll
  // timeout take their slow paths, behind one test on the fast ones.
  bool odd_clock_ = false;
  std::uint64_t time_ = 0;
  std::uint64_t clock_offset_ = 0;   // ms a real clock runs ahead of CLOCK_MONOTONIC
  std::uint64_t iteration_ = 0;
  std::atomic<std::uint64_t> idle_time_ns_{0};
  std::atomic<std::uint64_t> wait_start_ns_{0};  // 0: poll is not waiting

  handle_list handles_;              // every handle, in creation order
  handle* closing_ = nullptr;        // LIFO list of closing handles
  timer::heap timers_;               // active timers by (due, start sequence)
  std::uint64_t timer_seq_ = 0;      // start sequence counter
  idle::list idles_;
  prepare::list prepares_;
  check::list checks_;
  watcher_list pending_;             // deferred I/O callbacks
  hook::list hooks_;
  hook* hook_next_ = nullptr;        // the next hook of the call in progress

  detail::poller poller_;
  detail::io_watcher signal_watcher_;  // read end of the signal pipe
  int signal_pipe_write_ = -1;
  // How many watchers the poller has with only the eventfd and the signal
  // pipe: a poll without waiting is skipped when it has no more and
  // nothing was written to them since the last poll (wakeup::own_ready).
  unsigned base_watchers_ = 0;
  detail::wakeup wakeup_;  // async sends and the threadpool's completions
  // State the I/O subsystems keep per loop, made on first use (inotify,
  // resolver, accept's spare fd, running children): src/core/internal.hpp.
  detail::loop_part* parts_ = nullptr;
  // A part with work to hand the kernel before poll waits (the io_uring
  // ring's unsubmitted requests), else null.
  detail::loop_part* before_poll_ = nullptr;
  // A part whose one watched descriptor poll counts with the loop's own
  // two (the io_uring ring's: its completions are in memory the loop can
  // read), else null.
  detail::loop_part* spin_part_ = nullptr;
  detail::chaos* chaos_ = nullptr;  // chaos mode's state (src/core/chaos.hpp), null when off
  void close_parts_() noexcept;
  int parts_after_fork_() noexcept;

  std::mutex wq_mutex_;                // guards wq_done_
  detail::pool_task::list wq_done_;    // finished pool requests, for the poll phase
  alignas(async) unsigned char wq_async_mem_[sizeof(async)];

  // SIGCHLD watcher (internal, unreferenced), started by the first spawn.
  alignas(signal) unsigned char child_watcher_mem_[sizeof(signal)];
};

}  // namespace phaseloop
