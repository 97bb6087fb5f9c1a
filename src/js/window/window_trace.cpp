// SPDX-License-Identifier: MIT
// The provenance of a browser-mode run's output: the --trace view and the
// annotation records for `phaseloop compare`.
//
// --trace prints, before the lines they produce, one `#` line per step of
// the HTML processing model, indented by nesting:
//
//   # task (timer): setTimeout #2 (0 ms, nesting level 1) @1.2ms
//   #   microtask checkpoint
//   #     microtask: promise job #4
//   # update the rendering @16.7ms
//   #   animation frame callback: requestAnimationFrame #1
//   # idle period until 49.9ms @17.0ms
//   # idle callback: requestIdleCallback #1 @17.1ms
//
// Tasks, rendering updates, idle periods and callbacks are always shown; a
// microtask checkpoint only when a microtask ran in it.
//
// Annotation records use trace.cpp's format with browser values:
//   E  step turn 0 source kind id what    (kind: setTimeout, setInterval,
//      message, requestAnimationFrame, requestIdleCallback, promise job,
//      queueMicrotask, script; step: task, rendering, idle-callback, or
//      microtask-checkpoint for microtasks queued outside any task; the
//      turn counts these steps, a task's checkpoint being part of it)
//   L  step turn 0 source kind id what    (the innermost event's values)
//   X  kind detail                        (exit, error, rejection)

#include <unistd.h>

#include <string>

#include "js/window/window.hpp"

namespace phaseloop::runner {

namespace {

std::string ms(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fms", t);
  return buf;
}

bool always_shown(browser::event_kind k) { return k != browser::event_kind::microtask_checkpoint; }

}  // namespace

window_tracer::window_tracer(output& out, bool trace, int annotate_fd) : out_(&out), trace_(trace) {
  if (annotate_fd >= 0) annotate_ = fdopen(annotate_fd, "w");
}

window_tracer::~window_tracer() {
  if (annotate_ != nullptr) std::fclose(annotate_);
}

std::string window_tracer::text_of(const frame& f) const {
  using browser::event_kind;
  std::string what = f.kind;
  if (f.id != 0) what += " #" + std::to_string(f.id);
  if (!f.what.empty()) what += " (" + f.what + ")";
  switch (f.ev.kind) {
    case event_kind::task:
      return "task (" + std::string(browser::source_name(f.ev.src)) + ")" + (what.empty() ? "" : ": " + what) +
             " @" + ms(f.ev.now);
    case event_kind::microtask_checkpoint: return "microtask checkpoint";
    case event_kind::microtask: return "microtask" + (what.empty() ? "" : ": " + what);
    case event_kind::rendering: return "update the rendering @" + ms(f.ev.now);
    case event_kind::animation_frame: return "animation frame callback" + (what.empty() ? "" : ": " + what);
    case event_kind::idle_period: return "idle period until " + ms(f.ev.deadline) + " @" + ms(f.ev.now);
    case event_kind::idle_callback:
      return "idle callback" + (what.empty() ? "" : ": " + what) + " @" + ms(f.ev.now);
  }
  return "?";
}

void window_tracer::print_pending() {
  if (!trace_) return;
  for (std::size_t i = 0; i < stack_.size(); i++) {
    frame& f = stack_[i];
    if (f.printed) continue;
    out_->trace_line("# " + std::string(2 * i, ' ') + text_of(f));
    f.printed = true;
  }
}

void window_tracer::write_record(char type, const frame* f) {
  if (annotate_ == nullptr) return;
  const frame* top = stack_.empty() ? nullptr : &stack_.front();
  const char* step = top == nullptr ? "-" : browser::event_kind_name(top->ev.kind);
  const char* src = f != nullptr && f->ev.kind == browser::event_kind::task ? browser::source_name(f->ev.src) : "-";
  std::string kind = f == nullptr || f->kind.empty() ? "-" : f->kind;
  std::fprintf(annotate_, "%c\t%s\t%llu\t0\t%s\t%s\t%llu\t%s\n", type, step,
               static_cast<unsigned long long>(turn_), src, kind.c_str(),
               static_cast<unsigned long long>(f == nullptr ? 0 : f->id),
               f == nullptr || f->what.empty() ? "-" : f->what.c_str());
}

void window_tracer::enter(browser::runtime&, const browser::event& e) {
  // The checkpoint that follows a task (or an idle callback) is shown
  // inside it; anything else closes that task first.
  if (closing_ && e.kind == browser::event_kind::microtask_checkpoint && stack_.size() == 1) {
    checkpoint_of_task_ = true;
  } else if (closing_) {
    stack_.pop_back();
  }
  closing_ = false;
  if (stack_.empty()) turn_++;
  stack_.push_back({e, {}, 0, {}, false});
  if (e.kind == browser::event_kind::idle_period) print_pending();
}

void window_tracer::exit(browser::runtime&, const browser::event& e) {
  if (closing_) {  // (defensive: enter() always settles a closing task)
    stack_.pop_back();
    closing_ = false;
  }
  if (stack_.empty()) return;
  if (always_shown(stack_.back().ev.kind)) print_pending();
  const browser::event_kind k = stack_.back().ev.kind;
  if (stack_.size() == 1 && (k == browser::event_kind::task || k == browser::event_kind::idle_callback)) {
    closing_ = true;  // kept until the next event: its checkpoint, if that comes next
    return;
  }
  stack_.pop_back();
  if (e.kind == browser::event_kind::microtask_checkpoint && checkpoint_of_task_ && stack_.size() == 1) {
    stack_.pop_back();  // the task it belonged to
    checkpoint_of_task_ = false;
  }
}

void window_tracer::detail(const char* kind, std::uint64_t id, std::string_view what) {
  if (stack_.empty()) return;
  frame& f = stack_.back();
  f.kind = kind;
  f.id = id;
  f.what = what;
  write_record('E', &f);
}

void window_tracer::before_output() { print_pending(); }

void window_tracer::line_written() {
  // The innermost event that says what it is.
  const frame* f = nullptr;
  for (auto it = stack_.rbegin(); it != stack_.rend() && f == nullptr; ++it) {
    if (!it->kind.empty()) f = &*it;
  }
  write_record('L', f);
}

void window_tracer::note(std::string_view kind, std::string_view detail) {
  if (annotate_ == nullptr) return;
  std::fprintf(annotate_, "X\t%.*s\t%.*s\n", static_cast<int>(kind.size()), kind.data(),
               static_cast<int>(detail.size()), detail.data());
}

void window_tracer::finish() {
  if (annotate_ != nullptr) std::fflush(annotate_);
}

}  // namespace phaseloop::runner
