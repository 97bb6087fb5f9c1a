// SPDX-License-Identifier: MIT
#pragma once
// Where every line of the script's output came from.
//
// The tracker is a loop hook (phases and core callbacks) and a Node-layer
// observer (native callbacks, timeouts, immediates, ticks, microtasks,
// drains). It keeps the stack of what is running, and
//   - with --trace, prints that stack as indented `#` lines interleaved with
//     the script's output (docs/runner.md, "The trace");
//   - with --annotate=FD, writes one record per output line and per Node
//     event to FD, which `phaseloop compare` reads to name the rule behind a
//     divergence (the format is at the top of trace.cpp).

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "phaseloop/hooks.hpp"
#include "phaseloop/node.hpp"

namespace phaseloop::runner {

class engine;

/// Told about every line the script prints (the trackers of both engines).
class line_listener {
 public:
  /// The script is about to print at the start of a line.
  virtual void before_output() = 0;
  /// The script finished a line.
  virtual void line_written() = 0;

 protected:
  ~line_listener() = default;
};

/// The script's standard output: buffered stdio, told to a listener line
/// by line. Loop thread only.
class output {
 public:
  void set_listener(line_listener* l) noexcept { tracker_ = l; }
  /// Text the script prints (console.log, process.stdout.write).
  void script(std::string_view text);
  /// One line of trace (without its newline). Starts a new line first if
  /// the script left one unfinished.
  void trace_line(std::string_view line);
  /// Ends an unfinished line's record and flushes stdout. Safe to call
  /// more than once.
  void finish();

 private:
  line_listener* tracker_ = nullptr;
  bool at_line_start_ = true;
};

class tracker final : public phaseloop::hook, public node::observer, public line_listener {
 public:
  /// `trace`: print the trace on `out`; `annotate_fd` >= 0: write records
  /// there (the tracker owns the descriptor from now on).
  tracker(engine& e, output& out, bool trace, int annotate_fd);
  ~tracker() override;
  tracker(const tracker&) = delete;
  tracker& operator=(const tracker&) = delete;

  // Loop hooks.
  void phase_enter(loop&, const phase_event&) override;
  void phase_exit(loop&, const phase_event&) override;
  void callback_enter(loop&, const callback_event&) override;
  void callback_exit(loop&, const callback_event&) override;

  // Node-layer observer.
  void enter(node::runtime&, const node::event&) override;
  void exit(node::runtime&, const node::event&) override;

  void before_output() override;
  void line_written() override;
  /// An annotation record about the end of the run: `kind` is "exit",
  /// "uncaught", "rejection" (fatal) or "warning".
  void note(std::string_view kind, std::string_view detail);
  /// Prints what is still pending (folded quiet phases) and flushes the
  /// annotations.
  void finish();

 private:
  enum class frame_type : std::uint8_t { phase, callback, event };
  struct frame {
    frame_type type;
    node::event_kind kind;      // events only
    std::string text;           // the trace line
    std::string phase_name;     // phases: "timers", ..., "main"
    std::uint64_t iteration;    // phases
    std::uint64_t id;           // events: the object's id (0: none)
    std::uint64_t native_seq;   // native events: their number
    std::string label;          // native events: the runtime's label
    bool printed;
  };

  void push(frame f);
  void pop(frame_type t);
  void print_pending();
  void flush_quiet();
  void describe(const node::event& e, std::uint64_t& id, std::string& text) const;
  std::string provenance() const;
  void write_record(std::string_view rec);
  std::string stamp(std::uint64_t now) const;

  engine* engine_;
  output* out_;
  bool trace_;
  std::FILE* annotate_ = nullptr;
  std::vector<frame> stack_;
  std::uint64_t native_seq_ = 0;
  std::uint64_t base_time_ = 0;
  bool have_base_ = false;
  // Phases that printed nothing, folded on one line.
  std::string quiet_;
  std::uint64_t quiet_iteration_ = 0;
};

}  // namespace phaseloop::runner
