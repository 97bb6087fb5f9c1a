// SPDX-License-Identifier: MIT
#pragma once
/// Timelines: a trace_recorder is a hook that keeps every phase and every
/// callback of a loop as timed events, in memory, up to a limit; the
/// events are written as a Chrome Trace Event file, which Perfetto UI
/// (ui.perfetto.dev) and chrome://tracing open.
///
/// PHASELOOP_TRACE=FILE in the environment records every loop a process
/// opens (the drop-in libuv.so.1 included) and writes FILE when the process
/// exits, when a loop closes, and on SIGTERM or SIGINT left at their
/// default action; PHASELOOP_TRACE_LIMIT sets the events kept per loop.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "phaseloop/hooks.hpp"

namespace phaseloop {

class trace_recorder : public hook {
 public:
  /// One recorded event. `what` says which; the other fields are those
  /// that kind of event uses.
  struct event {
    enum kind : std::uint8_t {
      phase_begin, phase_end, callback_begin, callback_end, counters, submit, instant, job, send,
      layer_begin, layer_end,  ///< a slice of a layer above the loop (layer_begin())
    };
    /// instant: which (in `value`). A chaos choice keeps its kind in
    /// `handle_type`, its number in `extra`, its two values in `handles`
    /// and `requests`, and its handle in `object`.
    enum mark : std::int32_t { stop = 0, closed = 1, chaos = 2 };
    std::uint64_t ns = 0;           ///< loop::hrtime() when it happened (job: began; send: sent)
    std::uint64_t extra = 0;        ///< job: its run time (ns); send: the sending thread's id;
                                    ///< callback_begin: the request's address (0: none)
    std::uint64_t iteration = 0;
    const void* object = nullptr;   ///< the handle or request called back (identity); layer_begin: the category (a C string)
    const char* label = nullptr;    ///< layer_begin: the slice's name
    std::int32_t value = 0;         ///< phase_begin of poll: the timeout; callback_begin: the fd or -1; instant: its
                                    ///< mark; layer_begin: its detail's index in details(), or -1
    std::uint32_t handles = 0;      ///< counters: active handles; job: the worker
    std::uint32_t requests = 0;     ///< counters: requests in flight
    std::uint32_t pending = 0;      ///< counters: callbacks waiting for the pending phase
    std::uint32_t pool_queue = 0;   ///< counters: requests waiting for a threadpool worker
    kind what = phase_begin;
    phase which = phase::timers;
    callback_kind cb = callback_kind::timer;
    std::int8_t handle_type = -1;   ///< callback_begin: handle_type of the handle, or -1
    std::int8_t req_type = -1;      ///< callback_begin, submit: req_type of the request, or -1
    bool before_loop = false;       ///< phase_begin: the timers pass before iteration 1
  };

  /// Keeps at most `limit` events (and the ends of slices already begun);
  /// later ones are counted in dropped().
  explicit trace_recorder(std::size_t limit = 1000000) : limit_(limit) {}

  const std::vector<event>& events() const noexcept { return events_; }
  /// The detail texts of layer slices.
  const std::vector<std::string>& details() const noexcept { return details_; }
  std::uint64_t dropped() const noexcept { return dropped_; }

  void phase_enter(loop& l, const phase_event& e) override;
  void phase_exit(loop& l, const phase_event& e) override;
  void callback_enter(loop& l, const callback_event& e) override;
  void callback_exit(loop& l, const callback_event& e) override;
  void request_started(loop& l, const request_event& e) override;
  void stopped(loop& l) override;
  void job_ran(loop& l, const job_event& e) override;
  void async_sent(loop& l, const send_event& e) override;
  void chaos_choice(loop& l, const chaos_event& e) override;
  /// Records that the loop is closing (an instant), before the hook is
  /// removed (PHASELOOP_TRACE calls it).
  void closing(loop& l) noexcept;

  /// A slice of a layer above the loop (the runner's JavaScript level:
  /// ticks, microtasks, tasks...), nested in whatever is open on the
  /// loop's track; each begin needs its end. `category` and `name` must
  /// outlive the recorder (string literals); `detail` (may be empty) is
  /// copied. Loop thread only.
  void layer_begin(const char* category, const char* name, std::string_view detail = {}) noexcept;
  void layer_end() noexcept;

 private:
  bool keep_(bool begins) noexcept;
  bool room_() noexcept;
  void push_(const event& e) noexcept;
  std::size_t limit_;
  std::vector<event> events_;
  std::vector<std::string> details_;
  std::uint64_t dropped_ = 0;
  int skipped_open_ = 0;  // slices whose beginning was dropped and that are still open
  int open_ = 0;          // slices begun and kept, not yet ended
};

/// One loop's events in a trace file.
struct trace_track {
  const trace_recorder* recorder;
  std::string name;     ///< e.g. "main loop (thread 4321)", "worker loop 2 (thread 4325)"
  std::uint32_t id;     ///< its track (the "tid" of the format), unique per file
  long thread = 0;      ///< the loop's thread (gettid), 0 when unknown
};

/// Writes the tracks of this process as one Chrome Trace Event JSON file:
/// a slice per phase (iteration, poll timeout and time waited), nested
/// slices per callback (kind, handle type and address, fd, request type),
/// a flow from each request's start to its completion callback (through
/// the job's slice on its threadpool worker's track), a flow from each
/// async send (on the sending thread's track) to its callback, counters
/// of active handles and requests, pending callbacks and threadpool queue
/// depth at each poll, instants for stop, close and each track's dropped
/// events. `origin_ns` is the hrtime() that becomes timestamp 0.
/// 0, a negative errno from the file, or errc::not_supported in a build
/// without JSON support (nlohmann-json3-dev).
int write_chrome_trace(const char* path, std::span<const trace_track> tracks, std::uint64_t origin_ns,
                       const char* process_name) noexcept;

}  // namespace phaseloop
