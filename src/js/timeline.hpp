// SPDX-License-Identifier: MIT
#pragma once
// `phaseloop run --trace=FILE.json`: the script's timeline as a Chrome
// Trace Event file, the loop's phases and callbacks (a trace_recorder on
// the runner's loop) with the JavaScript level nested under the native
// callback that ran it: in the Node modes timeouts, immediates, nextTicks,
// microtasks and drains; in browser mode tasks with their source,
// microtask checkpoints and microtasks, rendering updates with their
// animation frames, idle periods and idle callbacks.
//
// The timeline is the runtime's observer; an observer that was there
// already (the tracker of --annotate) is still told everything.

#include <string>

#include "phaseloop/browser.hpp"
#include "phaseloop/node.hpp"
#include "phaseloop/trace.hpp"

namespace phaseloop::runner {

class timeline final : public node::observer, public browser::observer {
 public:
  /// Records `l` from now on into a file at `path`; `next_node` and
  /// `next_browser` (may be null) are told each event after it.
  timeline(loop& l, std::string path, node::observer* next_node, browser::observer* next_browser);
  ~timeline() override;
  timeline(const timeline&) = delete;
  timeline& operator=(const timeline&) = delete;

  void enter(node::runtime& r, const node::event& e) override;
  void exit(node::runtime& r, const node::event& e) override;
  void enter(browser::runtime& r, const browser::event& e) override;
  void exit(browser::runtime& r, const browser::event& e) override;

  /// Writes the file (once; later calls do nothing) and stops recording.
  /// Prints a message and returns false when it cannot be written.
  bool finish();

 private:
  loop* loop_;
  std::string path_;
  node::observer* next_node_;
  browser::observer* next_browser_;
  trace_recorder rec_;
  long thread_;
  std::uint64_t origin_ns_;
  bool done_ = false;
};

}  // namespace phaseloop::runner
