// SPDX-License-Identifier: MIT
#pragma once
// The `phaseloop` command: runs a JavaScript file on SpiderMonkey with
// Node's event-loop rules or a browser window's (run), or in every mode
// side by side (compare). docs/runner.md describes both.
//
// Files (docs/design.md, "Layout"):
//   src/cli/      the command: main.cpp (command line, --help, --version),
//                 run.cpp (`run`: the file, a loop, a runtime, an engine),
//                 compare.cpp (`compare`: the modes as children, the first
//                 divergence explained), trace_command.cpp (`trace`, `trace
//                 view`; no engine), trace_view.html
//   src/js/       what both hosts share: js.hpp (SpiderMonkey's API, as
//                 every file includes it), host.* (the context, its global,
//                 the script's text and output), job_queue.hpp, lib.* (the
//                 built-ins written in JavaScript, lib/*.js), inspect.*
//                 (Node's util.format / util.inspect), trace.hpp and
//                 timeline.* (provenance and timelines), v8_wording.*
//   src/js/node/  the Node host: engine.* (rejections, errors, the main
//                 script), globals.cpp, timers.cpp, fs_module.cpp (what
//                 bindings.hpp declares), trace.cpp
//   src/js/window/ the browser host on phaseloop::browser: window.*,
//                 window_api.cpp (timers, frames, idle callbacks,
//                 MessageChannel), window_trace.cpp

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

/// Where the drop-in libuv.so.1 is: $PHASELOOP_DROPIN_DIR, next to this
/// program in a build tree, or where `make install` put it; "" when none
/// is found (trace_command.cpp).
std::string find_dropin();

/// Says on stderr, as `phaseloop COMMAND`, when the program `name` (PATH
/// searched) loads no libuv.so.1, so that the drop-in cannot reach its
/// loops (trace_command.cpp).
void warn_if_libuv_built_in(const char* name, const char* command);

/// `phaseloop chaos ...`: runs a program on the drop-in under chaos mode
/// with one seed after another, reports the seeds that failed and shrinks
/// the first failure (chaos_command.cpp). Returns the exit status.
int chaos_command(int argc, char** argv);

/// Writes the self-contained HTML page that draws the Chrome Trace Event
/// file `json_path`; 0, or 1 after saying why on stderr.
int write_trace_html(const std::string& json_path, const std::string& html_path);

}  // namespace phaseloop::runner
