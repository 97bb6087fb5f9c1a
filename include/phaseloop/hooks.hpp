// SPDX-License-Identifier: MIT
#pragma once
/// Phase hooks: observe, and act on, the entry and exit of every phase and
/// every callback the loop makes.
///
/// A hook is an object the caller owns and attaches with loop::add_hook();
/// it must stay alive until removed. Hooks run on the loop's thread, in the
/// order they were added, and may call anything a callback may call
/// (stop the loop, start or close handles, add or remove hooks).
///
/// Cost: with no hook attached the loop pays one well-predicted branch per
/// phase; each phase runner is compiled twice (with and without hooks) and
/// the branch picks one. Callbacks made from the poll phase (async, signal,
/// threadpool completions) test for hooks once per callback.

#include <cstdint>

#include "phaseloop/chaos.hpp"
#include "phaseloop/detail/ilist.hpp"
#include "phaseloop/types.hpp"

namespace phaseloop {

class req;

/// What a phase hook is told.
struct phase_event {
  phase which;              ///< the phase entered or left
  bool before_loop;         ///< the timers pass libuv >= 1.45 runs before iteration 1
  std::uint64_t iteration;  ///< 1-based iteration count of this loop
  std::uint64_t now;        ///< loop time (ms) at the hook call
  int timeout;              ///< poll phase: the timeout it was given (ms, -1: none)
};

/// What kind of callback the loop is about to make.
enum class callback_kind : std::uint8_t {
  timer, idle, prepare, check, async, signal, close, work_done, pending, io,
  fs,  ///< an fs_req completed (poll phase)
  dns,  ///< a getaddrinfo_req or getnameinfo_req completed (poll phase)
  random,  ///< a random_req completed (poll phase)
};

/// "timer", "idle", ..., "work done", "fs", "dns", "random".
const char* callback_kind_name(callback_kind k) noexcept;

/// What a callback hook is told.
struct callback_event {
  phase which;                 ///< the phase the callback runs in
  callback_kind kind;          ///< which callback
  std::uint64_t iteration;     ///< 1-based iteration count
  std::uint64_t now;           ///< loop time (ms)
  phaseloop::handle* handle;   ///< the handle called back, or nullptr
  phaseloop::req* request;     ///< the request completed, or nullptr
};

/// What a request hook is told: a request was started (submitted to the
/// threadpool, a write queued, a connection begun, ...). Its completion
/// callback, if any, comes later as a callback_event with the same request.
struct request_event {
  phaseloop::req* request;     ///< the request (type() tells which)
  phaseloop::handle* handle;   ///< the handle it is for, or nullptr
  std::uint64_t iteration;     ///< 1-based iteration count
  std::uint64_t now;           ///< loop time (ms)
};

/// What a job hook is told: a threadpool worker ran a request's work.
/// Reported on the loop's thread when the loop takes the completion (in
/// the poll phase, before the completion callback), for requests submitted
/// while the loop had a hook; canceled requests never ran and are not
/// reported.
struct job_event {
  const phaseloop::req* request;  ///< the request whose work ran
  unsigned worker;                ///< the worker thread (0-based, in the order the pool made them)
  std::uint64_t began_ns;         ///< loop::hrtime() when the worker began it
  std::uint64_t run_ns;           ///< how long it ran (ns; microsecond steps beyond 2.1 s)
  std::uint64_t iteration;        ///< 1-based iteration count at the report
};

/// What a send hook is told: an async handle is about to be called back
/// for a send made while the loop had a hook (the first of the sends the
/// callback answers: later ones coalesce into it).
struct send_event {
  phaseloop::handle* handle;      ///< the async handle
  std::uint64_t sent_ns;          ///< loop::hrtime() at the send
  long thread;                    ///< the sending thread's kernel id (gettid)
  std::uint64_t iteration;        ///< 1-based iteration count
};

/// Derive and override what you need; the defaults do nothing.
class hook {
 public:
  virtual ~hook() = default;
  /// Entering a phase.
  virtual void phase_enter(loop&, const phase_event&) {}
  /// Leaving a phase.
  virtual void phase_exit(loop&, const phase_event&) {}
  /// About to make a callback. The handle or request is still valid here.
  virtual void callback_enter(loop&, const callback_event&) {}
  /// A callback returned. The handle or request may have been freed by it:
  /// use the pointers as identities only.
  virtual void callback_exit(loop&, const callback_event&) {}
  /// A request was started, on the loop's thread (threadpool work, file
  /// system and DNS requests, random, writes, connects, shutdowns, UDP
  /// sends).
  virtual void request_started(loop&, const request_event&) {}
  /// loop::stop() was called (on the loop's thread).
  virtual void stopped(loop&) {}
  /// A threadpool job ran (see job_event), on the loop's thread.
  virtual void job_ran(loop&, const job_event&) {}
  /// An async handle's callback is about to run for a send (see
  /// send_event), on the loop's thread; callback_enter follows.
  virtual void async_sent(loop&, const send_event&) {}
  /// Chaos mode (chaos.hpp) perturbed what the loop does, on the loop's
  /// thread; called where the choice takes effect (a callback_enter for
  /// what it changed may follow).
  virtual void chaos_choice(loop&, const chaos_event&) {}

 private:
  friend class loop;
  detail::link<hook> node_;

 public:
  /// The loop's list type for hooks (an implementation detail).
  using list = detail::ilist<hook, &hook::node_>;
};

/// A process-wide observer of loops, for tools that attach hooks to every
/// loop of a program (PHASELOOP_STATS). `opened` runs at the end of each
/// successful loop::open(); `closing` when loop::close() is about to
/// succeed, or an open loop is destroyed; both on that loop's thread.
struct loop_observer {
  void (*opened)(loop&) = nullptr;
  void (*closing)(loop&) = nullptr;
};
/// Installs `o` (set it before loops open); returns the previous observer.
/// Any thread.
loop_observer set_loop_observer(loop_observer o) noexcept;

}  // namespace phaseloop
