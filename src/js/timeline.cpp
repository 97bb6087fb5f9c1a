// SPDX-License-Identifier: MIT
// `phaseloop run --trace=FILE.json` (timeline.hpp).

#include "js/timeline.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "phaseloop/loop.hpp"

namespace phaseloop::runner {

timeline::timeline(loop& l, std::string path, node::observer* next_node, browser::observer* next_browser)
    : loop_(&l),
      path_(std::move(path)),
      next_node_(next_node),
      next_browser_(next_browser),
      thread_(static_cast<long>(::syscall(SYS_gettid))),
      origin_ns_(loop::hrtime()) {
  l.add_hook(rec_);
}

timeline::~timeline() { finish(); }

void timeline::enter(node::runtime& r, const node::event& e) {
  // A native callback says what made it ("timers", "immediates", ...).
  rec_.layer_begin("js", node::event_kind_name(e.kind), e.label != nullptr ? e.label : "");
  if (next_node_ != nullptr) next_node_->enter(r, e);
}

void timeline::exit(node::runtime& r, const node::event& e) {
  if (next_node_ != nullptr) next_node_->exit(r, e);
  rec_.layer_end();
}

void timeline::enter(browser::runtime& r, const browser::event& e) {
  const char* detail = e.kind == browser::event_kind::task
                           ? (e.label != nullptr ? e.label : browser::source_name(e.src))
                           : "";
  rec_.layer_begin("js", browser::event_kind_name(e.kind), detail);
  if (next_browser_ != nullptr) next_browser_->enter(r, e);
}

void timeline::exit(browser::runtime& r, const browser::event& e) {
  if (next_browser_ != nullptr) next_browser_->exit(r, e);
  rec_.layer_end();
}

bool timeline::finish() {
  if (done_) return true;
  done_ = true;
  loop_->remove_hook(rec_);
  const trace_track track{&rec_, "main loop (thread " + std::to_string(thread_) + ")", 1, thread_};
  char name[64];
  std::snprintf(name, sizeof name, "phaseloop run (pid %ld)", static_cast<long>(::getpid()));
  if (const int r = write_chrome_trace(path_.c_str(), {&track, 1}, origin_ns_, name); r != 0) {
    std::fprintf(stderr, "phaseloop: cannot write the trace %s: %s\n", path_.c_str(), std::strerror(-r));
    return false;
  }
  return true;
}

}  // namespace phaseloop::runner
