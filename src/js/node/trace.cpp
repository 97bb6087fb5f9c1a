// SPDX-License-Identifier: MIT
// The provenance of output lines: the --trace view and the --annotate
// records.
//
// Annotation records, one per line, fields separated by tabs:
//
//   E  phase iteration native-seq native-label kind id what
//      a Node event started (kind: timeout, immediate, tick, microtask)
//   L  phase iteration native-seq native-label kind id what
//      the script finished an output line (kind: the innermost Node event
//      running, or "main" in the main script, "native" in a native
//      callback outside any event, "-" outside everything)
//   N  seq label
//      a native callback started (all of them, also those that print
//      nothing; compare ignores these)
//   X  kind detail
//      the end: "exit" status, "uncaught" exception, fatal "rejection",
//      or a rejection "warning" (node10/node11)
//
// phase is a loop phase name, "main" for the main script, "-" after the
// loop; native-seq numbers the native callbacks from 1 (0: none).
// Lines and events come in the order they happened; the n-th L record is
// the n-th line of stdout. This format is internal to phaseloop compare.

#include "js/trace.hpp"

#include <unistd.h>

#include <string>

#include "js/node/engine.hpp"

namespace phaseloop::runner {

// ---- output ---------------------------------------------------------------------

void output::script(std::string_view text) {
  while (!text.empty()) {
    if (at_line_start_ && tracker_) tracker_->before_output();
    const std::size_t nl = text.find('\n');
    const std::size_t n = nl == std::string_view::npos ? text.size() : nl + 1;
    std::fwrite(text.data(), 1, n, stdout);
    at_line_start_ = nl != std::string_view::npos;
    if (at_line_start_ && tracker_) tracker_->line_written();
    text.remove_prefix(n);
  }
  // Written at once, as Node writes console.log to a file or a pipe: a
  // script killed or stopped by a timeout keeps what it printed.
  std::fflush(stdout);
}

void output::trace_line(std::string_view line) {
  if (!at_line_start_) {
    std::fputc('\n', stdout);
    at_line_start_ = true;
  }
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
}

void output::finish() {
  if (!at_line_start_) {
    // The last line had no newline: it still is a line of output.
    if (tracker_) tracker_->line_written();
    at_line_start_ = true;
  }
  std::fflush(stdout);
}

// ---- tracker ------------------------------------------------------------------------

namespace {

const char* callback_name(callback_kind k) {
  switch (k) {
    case callback_kind::timer: return "timer callback";
    case callback_kind::idle: return "idle callback";
    case callback_kind::prepare: return "prepare callback";
    case callback_kind::check: return "check callback";
    case callback_kind::async: return "async callback";
    case callback_kind::signal: return "signal callback";
    case callback_kind::close: return "close callback";
    case callback_kind::work_done: return "threadpool request done";
    case callback_kind::pending: return "pending callback";
    case callback_kind::io: return "I/O callback";
    case callback_kind::fs: return "fs request done";
    case callback_kind::dns: return "dns request done";
    case callback_kind::random: return "random request done";
  }
  return "callback";
}

std::string number(double d) {
  if (d == static_cast<double>(static_cast<long long>(d))) return std::to_string(static_cast<long long>(d));
  std::string s = std::to_string(d);
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

}  // namespace

tracker::tracker(engine& e, output& out, bool trace, int annotate_fd)
    : engine_(&e), out_(&out), trace_(trace) {
  if (annotate_fd >= 0) annotate_ = fdopen(annotate_fd, "w");
  push({frame_type::phase, node::event_kind::native, "[main script]", "main", 0, 0, 0, {}, false});
}

tracker::~tracker() {
  if (annotate_) std::fclose(annotate_);
}

std::string tracker::stamp(std::uint64_t now) const {
  return " @" + std::to_string(now >= base_time_ ? now - base_time_ : 0) + "ms";
}

void tracker::push(frame f) { stack_.push_back(std::move(f)); }

void tracker::pop(frame_type t) {
  // Frames are strictly nested; be tolerant anyway.
  while (!stack_.empty()) {
    const bool match = stack_.back().type == t;
    stack_.pop_back();
    if (match) return;
  }
}

void tracker::flush_quiet() {
  if (quiet_.empty()) return;
  if (trace_) {
    out_->trace_line("# [iter " + std::to_string(quiet_iteration_) + "] " + quiet_ + ": nothing ran");
  }
  quiet_.clear();
}

void tracker::print_pending() {
  if (!trace_) return;
  for (std::size_t i = 0; i < stack_.size(); i++) {
    frame& f = stack_[i];
    if (f.printed) continue;
    if (f.type == frame_type::phase) flush_quiet();
    out_->trace_line("# " + std::string(2 * i, ' ') + f.text);
    f.printed = true;
  }
}

void tracker::phase_enter(loop&, const phase_event& e) {
  if (!have_base_) {
    // Times are counted from the first phase, so that traces compare.
    base_time_ = e.now;
    have_base_ = true;
  }
  if (!stack_.empty() && stack_.front().phase_name == "main") stack_.clear();
  if (!quiet_.empty() && quiet_iteration_ != e.iteration) flush_quiet();
  std::string text = e.before_loop ? "[before the loop" : "[iter " + std::to_string(e.iteration);
  text += stamp(e.now) + "] " + phase_name(e.which);
  if (e.which == phase::poll) text += " (timeout " + std::to_string(e.timeout) + ")";
  push({frame_type::phase, node::event_kind::native, text, phase_name(e.which), e.iteration, 0, 0, {}, false});
}

void tracker::phase_exit(loop&, const phase_event& e) {
  if (!stack_.empty() && stack_.back().type == frame_type::phase && !stack_.back().printed) {
    if (!quiet_.empty() && quiet_iteration_ != e.iteration) flush_quiet();
    quiet_iteration_ = e.iteration;
    if (!quiet_.empty()) quiet_ += ' ';
    quiet_ += e.before_loop ? "timers(before the loop)" : phase_name(e.which);
    if (e.which == phase::poll) quiet_ += "(timeout " + std::to_string(e.timeout) + ")";
  }
  pop(frame_type::phase);
}

void tracker::callback_enter(loop&, const callback_event& e) {
  push({frame_type::callback, node::event_kind::native, callback_name(e.kind), {}, 0, 0, 0, {}, false});
}

void tracker::callback_exit(loop&, const callback_event&) { pop(frame_type::callback); }

void tracker::describe(const node::event& e, std::uint64_t& id, std::string& text) const {
  id = 0;
  switch (e.kind) {
    case node::event_kind::native:
      text = std::string("native callback \"") + (e.label ? e.label : "?") + "\"";
      return;
    case node::event_kind::drain:
      text = "drain: nextTicks, then microtasks";
      return;
    case node::event_kind::timeout: {
      const auto* t = static_cast<const node::timeout*>(e.object);
      const auto* r = static_cast<const js_timeout*>(t->data);
      id = r ? r->id : 0;
      text = std::string(t->repeating() ? "setInterval " : "setTimeout ") + number(t->delay()) + " ms";
      if (!t->has_ref()) text += ", unref'd";
      return;
    }
    case node::event_kind::immediate: {
      const auto* i = static_cast<const node::immediate*>(e.object);
      const auto* r = static_cast<const js_immediate*>(i->data);
      id = r ? r->id : 0;
      text = "setImmediate";
      return;
    }
    case node::event_kind::tick:
    case node::event_kind::microtask: {
      // Every tick and microtask is one of the engine's queued_tasks.
      const auto* q = static_cast<const queued_task*>(e.object);
      id = q ? q->id : 0;
      text = !q ? "?" : q->kind == task_kind::tick ? "process.nextTick"
             : q->kind == task_kind::node_tick ? "a warning, by process.emitWarning"
             : q->kind == task_kind::promise_job ? "promise job" : "queueMicrotask";
      return;
    }
  }
}

void tracker::enter(node::runtime&, const node::event& e) {
  frame f{frame_type::event, e.kind, {}, {}, 0, 0, 0, {}, false};
  std::string what;
  describe(e, f.id, what);
  if (e.kind == node::event_kind::native) {
    f.native_seq = ++native_seq_;
    f.label = e.label ? e.label : "?";
    f.text = what;
  } else if (e.kind == node::event_kind::drain) {
    f.text = what;
  } else {
    f.label = what;
    f.text = std::string(node::event_kind_name(e.kind)) + " #" + std::to_string(f.id) + " (" + what + ")";
  }
  if (annotate_ && e.kind == node::event_kind::native) {
    write_record("N\t" + std::to_string(f.native_seq) + "\t" + f.label);
  }
  push(std::move(f));
  if (e.kind == node::event_kind::native || e.kind == node::event_kind::drain) return;
  print_pending();
  if (annotate_) write_record("E\t" + provenance());
}

void tracker::exit(node::runtime&, const node::event&) { pop(frame_type::event); }

std::string tracker::provenance() const {
  std::string phase = "-", label = "-", kind = "-", what = "-";
  std::uint64_t iteration = 0, seq = 0, id = 0;
  for (const frame& f : stack_) {
    if (f.type == frame_type::phase) {
      phase = f.phase_name;
      iteration = f.iteration;
    } else if (f.type == frame_type::event) {
      if (f.kind == node::event_kind::native) {
        if (seq == 0) {
          seq = f.native_seq;
          label = f.label;
          kind = f.label == "main" ? "main" : "native";
        }
      } else if (f.kind != node::event_kind::drain) {
        kind = node::event_kind_name(f.kind);
        id = f.id;
        what = f.label;
      }
    }
  }
  return phase + "\t" + std::to_string(iteration) + "\t" + std::to_string(seq) + "\t" + label + "\t" + kind +
         "\t" + std::to_string(id) + "\t" + what;
}

void tracker::before_output() { print_pending(); }

void tracker::line_written() {
  if (annotate_) write_record("L\t" + provenance());
}

void tracker::note(std::string_view kind, std::string_view detail) {
  if (!annotate_) return;
  std::string d(detail);
  for (char& c : d) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  write_record("X\t" + std::string(kind) + "\t" + d);
}

void tracker::write_record(std::string_view rec) {
  std::fwrite(rec.data(), 1, rec.size(), annotate_);
  std::fputc('\n', annotate_);
}

void tracker::finish() {
  flush_quiet();
  if (annotate_) std::fflush(annotate_);
}

}  // namespace phaseloop::runner
