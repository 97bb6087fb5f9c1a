// SPDX-License-Identifier: MIT
// trace_recorder: a hook that keeps each phase and callback as timed
// events. The cost per event is one clock read and one append; the vector
// grows by doubling up to the limit, so a recorded loop does not allocate
// per event once warm.

#include "phaseloop/trace.hpp"

#include "phaseloop/loop.hpp"
#include "phaseloop/poll.hpp"
#include "phaseloop/request.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/udp.hpp"

namespace phaseloop {

namespace {

int fd_of(const handle* h) noexcept {
  switch (h->type()) {
    case handle_type::tcp:
    case handle_type::named_pipe:
    case handle_type::tty: return static_cast<const stream*>(h)->fd();
    case handle_type::udp: return static_cast<const udp*>(h)->fd();
    case handle_type::poll: return static_cast<const poll*>(h)->fd();
    default: return -1;
  }
}

}  // namespace

// Past the limit, a slice is dropped whole: its beginning and its end.
// Ends of slices already kept are kept beyond the limit, so that every
// kept slice is closed.
bool trace_recorder::keep_(bool begins) noexcept {
  if (begins) {
    if (events_.size() < limit_ && skipped_open_ == 0) {
      open_++;
      return true;
    }
    skipped_open_++;
    dropped_++;
    return false;
  }
  if (skipped_open_ > 0) {
    skipped_open_--;
    dropped_++;
    return false;
  }
  if (open_ > 0) open_--;
  return true;
}

void trace_recorder::push_(const event& e) noexcept {
  try {
    events_.push_back(e);
  } catch (...) {
    dropped_++;  // out of memory: the event is lost, and counted
  }
}

void trace_recorder::phase_enter(loop& l, const phase_event& e) {
  if (!keep_(true)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::phase_begin;
  ev.which = e.which;
  ev.value = e.timeout;
  ev.before_loop = e.before_loop;
  push_(ev);
  if (e.which == phase::poll && events_.size() < limit_) {
    event c;
    c.ns = ev.ns;
    c.iteration = e.iteration;
    c.what = event::counters;
    c.handles = l.active_handles();
    c.requests = l.active_requests();
    c.pending = static_cast<std::uint32_t>(l.pending_callbacks());
    c.pool_queue = static_cast<std::uint32_t>(loop::threadpool_queued());
    push_(c);
  }
}

void trace_recorder::phase_exit(loop&, const phase_event& e) {
  if (!keep_(false)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::phase_end;
  ev.which = e.which;
  push_(ev);
}

void trace_recorder::callback_enter(loop&, const callback_event& e) {
  if (!keep_(true)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::callback_begin;
  ev.which = e.which;
  ev.cb = e.kind;
  ev.value = -1;
  if (e.handle != nullptr) {
    ev.object = e.handle;
    ev.handle_type = static_cast<std::int8_t>(e.handle->type());
    ev.value = fd_of(e.handle);
  }
  if (e.request != nullptr) {
    if (ev.object == nullptr) ev.object = e.request;
    ev.extra = reinterpret_cast<std::uintptr_t>(e.request);
    ev.req_type = static_cast<std::int8_t>(e.request->type());
  }
  push_(ev);
}

// Single events (no slice): kept while under the limit, else counted.
bool trace_recorder::room_() noexcept {
  if (events_.size() < limit_) return true;
  dropped_++;
  return false;
}

void trace_recorder::request_started(loop&, const request_event& e) {
  if (!room_()) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::submit;
  ev.object = e.request;
  ev.req_type = static_cast<std::int8_t>(e.request->type());
  push_(ev);
}

void trace_recorder::job_ran(loop&, const job_event& e) {
  if (!room_()) return;
  event ev;
  ev.ns = e.began_ns;
  ev.extra = e.run_ns;
  ev.iteration = e.iteration;
  ev.what = event::job;
  ev.object = e.request;
  ev.req_type = static_cast<std::int8_t>(e.request->type());
  ev.handles = e.worker;
  push_(ev);
}

void trace_recorder::async_sent(loop&, const send_event& e) {
  if (!room_()) return;
  event ev;
  ev.ns = e.sent_ns;
  ev.extra = static_cast<std::uint64_t>(e.thread);
  ev.iteration = e.iteration;
  ev.what = event::send;
  ev.object = e.handle;
  push_(ev);
}

void trace_recorder::chaos_choice(loop&, const chaos_event& e) {
  if (!room_()) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::instant;
  ev.value = event::chaos;
  ev.handle_type = static_cast<std::int8_t>(e.kind);
  ev.extra = e.number;
  ev.handles = static_cast<std::uint32_t>(e.a);
  ev.requests = static_cast<std::uint32_t>(e.b);
  ev.object = e.handle;
  push_(ev);
}

void trace_recorder::stopped(loop& l) {
  if (!room_()) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = l.iteration();
  ev.what = event::instant;
  ev.value = event::stop;
  push_(ev);
}

void trace_recorder::closing(loop& l) noexcept {
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = l.iteration();
  ev.what = event::instant;
  ev.value = event::closed;
  push_(ev);  // kept past the limit: one per loop
}

void trace_recorder::layer_begin(const char* category, const char* name, std::string_view detail) noexcept {
  if (!keep_(true)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.what = event::layer_begin;
  ev.object = category;
  ev.label = name;
  ev.value = -1;
  if (!detail.empty()) {
    try {
      details_.emplace_back(detail);
      ev.value = static_cast<std::int32_t>(details_.size() - 1);
    } catch (...) {
      // out of memory: the slice is kept without its detail
    }
  }
  push_(ev);
}

void trace_recorder::layer_end() noexcept {
  if (!keep_(false)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.what = event::layer_end;
  push_(ev);
}

void trace_recorder::callback_exit(loop&, const callback_event& e) {
  if (!keep_(false)) return;
  event ev;
  ev.ns = loop::hrtime();
  ev.iteration = e.iteration;
  ev.what = event::callback_end;
  ev.which = e.which;
  ev.cb = e.kind;
  push_(ev);
}

}  // namespace phaseloop
