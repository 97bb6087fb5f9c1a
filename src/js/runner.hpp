// SPDX-License-Identifier: MIT
#pragma once
// The `phaseloop` command: runs a JavaScript file on SpiderMonkey with
// Node's event-loop rules or a browser window's (run), or in every mode
// side by side (compare). docs/runner.md describes both.
//
// Files:
//   main.cpp      command line, --help, --version
//   run.cpp       `run`: reads the file, builds loop + runtime + engine
//   js.hpp        SpiderMonkey's API, as every file includes it
//   host.*        what both engines share: the context and its global, the
//                 script's text and output (console is defined on it)
//   job_queue.hpp promise jobs into the layer's microtask queue
//   bindings.hpp  what globals.cpp, timers.cpp and fs_module.cpp define
//   engine.*      the Node engine: rejections, errors, the main script,
//                 the JS values the Node layer holds
//   globals.cpp   console, timers, immediates, process, queueMicrotask,
//                 performance, require
//   fs_module.cpp require('fs') on phaseloop's fs requests
//   inspect.*     Node's util.format / util.inspect, per Node version
//   trace.*       provenance of every output line: --trace and --annotate
//   window.*      --mode=browser: the window engine on phaseloop::browser
//                 (window_api.cpp: timers, frames, idle callbacks,
//                 MessageChannel; window_trace.cpp: its trace)
//   compare.cpp   `compare`: runs the modes as children, explains the
//                 first divergence

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "phaseloop/node.hpp"

namespace phaseloop::runner {

/// What a script runs as: one of the Node modes, or a browser window.
struct target {
  bool browser = false;
  node::mode mode = node::mode::current;  ///< when not browser
  /// "node10", "node11", "node" or "browser".
  const char* name() const noexcept { return browser ? "browser" : node::mode_name(mode); }
  /// Parses a --mode value; false when unknown.
  static bool parse(std::string_view s, target& out) noexcept;
};

/// What `phaseloop run` was asked to do.
struct run_options {
  node::mode mode = node::mode::current;
  /// --mode=browser: the HTML event loop (window.hpp) instead of Node's.
  bool browser = false;
  bool trace = false;
  /// --trace=FILE.json: the timeline (timeline.hpp) written there.
  std::string trace_file;
  /// --expose-gc: a global gc() that runs a full collection (as Node's).
  bool expose_gc = false;
  /// --libuv=VERSION (Node modes): the phase order of the libuv that Node
  /// runs on, instead of the mode's own (node::loop_profile).
  std::optional<phaseloop::profile> libuv;
  /// --annotate=FD: where each output line's provenance goes (-1: nowhere).
  int annotate_fd = -1;
  /// The script as named on the command line, and its absolute path
  /// ("[stdin]" when read from standard input, as Node names it).
  std::string file;
  std::string path;
  /// `phaseloop run -`: the script is standard input.
  bool from_stdin = false;
  /// Arguments after the file name (process.argv[2...]; after -e/-p CODE,
  /// process.argv[1...], as Node has them).
  std::vector<std::string> args;
  /// -e CODE / -p CODE: the script is CODE ("[eval]"); with print, its
  /// completion value is printed as console.log prints it.
  std::optional<std::string> eval;
  bool print = false;
};

/// process.version in each mode.
const char* node_version(node::mode m) noexcept;

/// `phaseloop run`: returns the process exit status (it may also end the
/// process itself, as process.exit() and uncaught exceptions do).
int run_script(const run_options& o);

/// `phaseloop compare`: 0 when every mode printed the same, 1 when they
/// diverge, 2 on errors. Each mode runs in a child process of this program.
/// `timeout_s` > 0 stops a mode that runs longer (it is reported as
/// stopped); `file` "-" reads the script from standard input once.
int compare_modes(const std::vector<target>& modes, const std::string& file, const std::vector<std::string>& args,
                  double timeout_s);

/// `phaseloop trace ...`: runs a program on the drop-in with tracing on, or
/// (`trace view`) writes a trace's HTML page. Returns the exit status.
int trace_command(int argc, char** argv);

/// Writes the self-contained HTML page that draws the Chrome Trace Event
/// file `json_path`; 0, or 1 after saying why on stderr.
int write_trace_html(const std::string& json_path, const std::string& html_path);

}  // namespace phaseloop::runner
