// SPDX-License-Identifier: MIT
// phaseloop: run a JavaScript file on phaseloop's Node layer, or compare
// how the Node modes run it. See docs/runner.md.

#ifdef PHASELOOP_WITH_RUNNER
#include <js-config.h>
#endif
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "js/runner.hpp"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

namespace {

using phaseloop::node::mode;
using phaseloop::runner::target;

const char usage_text[] =
    "usage: phaseloop run [--mode=node10|node11|node|browser] [--libuv=VERSION] [--trace] [--trace=OUT.json]\n"
    "                     [--expose-gc] FILE.js | -e CODE | -p CODE [ARGS...]\n"
    "       phaseloop compare [--modes=node10,node11,node,browser] [--timeout=SECONDS] FILE.js [ARGS...]\n"
    "       phaseloop trace [-o FILE] [--html] [--profile VERSION] -- COMMAND [ARGS...]\n"
    "       phaseloop trace view FILE.json [-o FILE.html]\n"
    "       phaseloop chaos [--seed N] [--runs K] [--kinds LIST] [--timeout SECONDS] [--no-shrink]\n"
    "                       [--profile VERSION] -- COMMAND [ARGS...]\n"
    "       phaseloop [RUN OPTIONS] FILE.js | -e CODE | -p CODE [ARGS...]   (as run)\n"
    "       phaseloop --help | --version | -V | -v\n"
    "  (FILE.js may be - for standard input; COMMAND --help shows one command's help)\n";

const char help_intro[] =
    "phaseloop runs JavaScript (SpiderMonkey) on phaseloop's event loop with the\n"
    "scheduling rules of a chosen Node version, or of a browser window.\n"
    "\n";

// The help of each command (`phaseloop run --help`, ...), also parts of
// `phaseloop --help`.
const char help_run[] =
    "  phaseloop run [--mode=MODE] [--libuv=VERSION] [--trace] [--trace=OUT.json] [--expose-gc]\n"
    "                FILE.js | -e CODE | -p CODE [ARGS...]\n"
    "      Runs FILE.js as Node's main module (CommonJS: require, module, exports,\n"
    "      __filename, __dirname). MODE is one of\n"
    "        node10  Node 10: a timer list's expired timers run in one native\n"
    "                callback, all immediates of a check pass in one; no\n"
    "                queueMicrotask; libuv 1.44's phase order (timers first)\n"
    "        node11  Node 11: nextTicks and microtasks drain after every timer\n"
    "                and every immediate (so until Node 19); libuv 1.44's order;\n"
    "                an unhandled rejection is a warning\n"
    "        node    Node 20+ (the default): as node11, on libuv >= 1.45's phase\n"
    "                order (timers after check and closing); an unhandled\n"
    "                rejection ends the process with status 1\n"
    "        browser The HTML event loop as Chromium runs it: task queues\n"
    "                (timers and posted messages by queueing order), a microtask\n"
    "                checkpoint after each task and callback, rendering updates\n"
    "                at 60 Hz with requestAnimationFrame callbacks, idle periods\n"
    "                with requestIdleCallback, the timer nesting clamp. The\n"
    "                script is a classic script; globals: window, self,\n"
    "                console, setTimeout/setInterval/clear*, requestAnimationFrame,\n"
    "                cancelAnimationFrame, requestIdleCallback (IdleDeadline),\n"
    "                cancelIdleCallback, queueMicrotask, MessageChannel,\n"
    "                performance.now. An exception is reported (window.onerror,\n"
    "                else \"Uncaught ...\" on stderr) and the loop goes on; the\n"
    "                exit status is 1 if an error reached stderr, else 0\n"
    "      Node globals: console, setTimeout/setInterval/setImmediate and clear*,\n"
    "      process (nextTick, exit, exitCode, argv, env, pid, version, hrtime,\n"
    "      stdout.write), queueMicrotask, performance.now (node only), require('fs').\n"
    "      Exit status: process.exitCode (0 by default), the code given to\n"
    "      process.exit(), or 1 after an uncaught exception.\n"
    "\n"
    "  --trace\n"
    "      Interleaves the script's output with a trace of where it came from.\n"
    "      Trace lines start with '#', indented by nesting:\n"
    "        # [iter N @Tms] PHASE       a loop phase (N: iteration, T: loop time\n"
    "                                    since start); [main script] before the\n"
    "                                    loop, [before the loop ...] for the timers\n"
    "                                    pass libuv >= 1.45 runs first\n"
    "        #   timer callback          a core callback made by the loop\n"
    "        #     native callback \"L\"   one native callback of the Node layer\n"
    "                                    (Node's MakeCallback): \"main\", \"timers\",\n"
    "                                    \"immediates\", \"timeout\", \"fs.readFile\"...\n"
    "        #       timeout #3 (setTimeout 1 ms)   a Node event, with its object's\n"
    "                                    number (in creation order): timeout,\n"
    "                                    immediate, tick, microtask\n"
    "        #       drain: nextTicks, then microtasks\n"
    "        # [iter N] PHASES: nothing ran      phases folded because nothing in\n"
    "                                    them reached the script\n"
    "      Every other line is the script's own output. In browser mode the\n"
    "      lines mark tasks (with their source), microtask checkpoints and\n"
    "      microtasks, rendering updates and animation-frame callbacks, idle\n"
    "      periods and idle callbacks, each with the time since the start.\n"
    "\n"
    "  --trace=OUT.json\n"
    "      Writes the run's timeline to OUT.json (Chrome Trace Event format:\n"
    "      https://ui.perfetto.dev, or `phaseloop trace view`): the loop's\n"
    "      phases and callbacks with the JavaScript level nested under the native\n"
    "      callback that ran it (Node modes: native callbacks, timeouts,\n"
    "      immediates, ticks, microtasks, drains; browser mode: tasks with their\n"
    "      source, microtask checkpoints, microtasks, rendering updates,\n"
    "      animation frames, idle periods and callbacks). Written when the script\n"
    "      ends, also through process.exit(). Combines with --trace.\n"
    "\n"
    "  --libuv=VERSION\n"
    "      (Node modes) Runs the loop as the libuv that Node is built on: upstream\n"
    "      Node 20 bundles libuv 1.46 (the node mode's default), but a Node linked\n"
    "      to its system's libuv runs that one's phases (Debian 13's Node 20.19 has\n"
    "      1.50, whose timers pass runs only the timers due when it began). Node\n"
    "      tells its own: node -p process.versions.uv.\n"
    "\n"
    "  --expose-gc\n"
    "      Defines gc(), which runs a full garbage collection (as node --expose-gc).\n"
    "\n"
    "  -e CODE, --eval CODE; -p CODE, --print CODE\n"
    "      Runs CODE as the main module, named [eval] (as node -e); -p then prints\n"
    "      the value of its last expression as console.log does (Node modes).\n"
    "      The arguments after CODE are process.argv[1...].\n"
    "\n";

const char help_compare[] =
    "  phaseloop compare [--modes=M1,M2,...] [--timeout=SECONDS] FILE.js [ARGS...]\n"
    "      Runs FILE.js in each mode at once (default: node10,node11,node,browser),\n"
    "      prints their outputs side by side with their exit statuses and error\n"
    "      output, marks the lines that differ, and names the rule behind the\n"
    "      first divergence. A mode still running after SECONDS (default 60;\n"
    "      0: no limit) is stopped, and said to be; what it printed is kept.\n"
    "      Exit status: 0 when every mode printed the same, wrote the same error\n"
    "      output and exited 0; 3 when they agree but each failed the same way;\n"
    "      1 when they diverge, one timed out or FILE.js cannot be read; 2 on\n"
    "      other errors.\n"
    "\n";

const char help_trace[] =
    "  phaseloop trace [-o FILE] [--html] [--profile VERSION] -- COMMAND [ARGS...]\n"
    "      Runs COMMAND, any program that links libuv.so.1 (a libuv server, node),\n"
    "      on phaseloop's drop-in libuv.so.1 with a timeline of every loop it opens\n"
    "      (PHASELOOP_TRACE): FILE (default phaseloop-trace.json), and FILE.<pid>\n"
    "      for each child process that opens loops too. Then prints, on stderr,\n"
    "      where the files are and each loop's statistics (PHASELOOP_STATS: time\n"
    "      per phase, slowest callback, timer lag). The files are Chrome Trace\n"
    "      Event JSON, for https://ui.perfetto.dev; --html also writes each as a\n"
    "      page (FILE.html); -o PAGE.html writes the page there and the timeline\n"
    "      beside it (PAGE.json). --profile makes the drop-in behave as that libuv\n"
    "      version, 1.44 to 1.53 (PHASELOOP_PROFILE). A program that does not load\n"
    "      libuv.so.1 (libuv built in, as nodejs.org's node) is named before it\n"
    "      runs. Exit status: COMMAND's (128 + the signal that ended it).\n"
    "\n"
    "  phaseloop trace view FILE.json [-o FILE.html]\n"
    "      Writes one self-contained HTML page (no network) that draws the trace:\n"
    "      a track per loop, phases with their iterations, callbacks nested,\n"
    "      counters; zoom, pan, details on hover; tables of time per phase, the\n"
    "      slowest callbacks and the busy time per iteration.\n"
    "\n";

const char help_chaos[] =
    "  phaseloop chaos [--seed N] [--runs K] [--kinds LIST] [--timeout SECONDS] [--no-shrink]\n"
    "                  [--profile VERSION] -- COMMAND [ARGS...]\n"
    "      Runs COMMAND (a program that links libuv.so.1, node, or phaseloop run) on\n"
    "      the drop-in K times (default 20) in chaos mode, with seeds N (default 1),\n"
    "      N+1, ...: each run's loops take, from its seed, orders libuv may also\n"
    "      take -- a poll batch reordered or cut, threadpool completions\n"
    "      reordered, short reads and writes, late timers, spurious EAGAIN\n"
    "      (PHASELOOP_CHAOS; docs/chaos.md). --kinds keeps some of them: a list\n"
    "      of batch, pool, reads, writes, timers, eagain, joined by , or +. Lists\n"
    "      the seeds whose run failed (non-zero status, a signal, or no end within\n"
    "      --timeout, default 60 s), shows the end of the first one's output, and\n"
    "      shrinks it to the fewest kinds and perturbations that still fail\n"
    "      (unless --no-shrink), with the PHASELOOP_CHAOS value that repeats it.\n"
    "      Exit status: 0 when every run passed, 1 when one failed, 2 on errors.\n"
    "\n";

const char help_exit[] =
    "  Every option with a value takes it as --opt=VALUE or --opt VALUE (--trace,\n"
    "  whose value is optional, only as --trace=OUT.json).\n"
    "  FILE.js - (or /dev/stdin) reads the script from standard input; Node's\n"
    "  names then: __filename [stdin], __dirname ., process.argv[1] -.\n"
    "  Exit status 2 also means a usage error; a file that cannot be read\n"
    "  gives status 1 in run and compare (\"phaseloop: cannot open FILE: reason\").\n";

// `phaseloop COMMAND --help`: that command's usage and help, on stdout.
int command_help(const char* help) {
  std::fputs(help, stdout);
  std::fputs(help_exit, stdout);
  return 0;
}

int usage() {
  std::fputs(usage_text, stderr);
  return 2;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

#ifdef PHASELOOP_WITH_RUNNER

int mode_needs_value() {
  std::fputs("phaseloop: --mode needs a value (node10, node11, node or browser)\n", stderr);
  return 2;
}

int unknown_mode(std::string_view m) {
  std::fprintf(stderr, "phaseloop: unknown mode '%.*s' (node10, node11, node or browser)\n",
               static_cast<int>(m.size()), m.data());
  return usage();
}

// Puts argv[i] in `a` and says whether it is an option. Options end at the
// first non-option (or a lone "-"), which is the script, or after "--",
// which is skipped.
bool next_option(int argc, char** argv, int& i, std::string_view& a) {
  if (i >= argc) return false;
  a = argv[i];
  if (a == "--") {
    i++;
    return false;
  }
  return starts_with(a, "-") && a != "-";
}

// Whether `a` (argv[i]) is option `name`, as "--name=VALUE" or as
// "--name VALUE" (then i moves past the value); `value` is the value, and
// `missing` says that the second form had none.
bool option_value(int argc, char** argv, int& i, std::string_view a, std::string_view name, std::string_view& value,
                  bool& missing) {
  missing = false;
  if (a == name) {
    if (i + 1 >= argc) {
      missing = true;
      value = {};
      return true;
    }
    value = argv[++i];
    return true;
  }
  if (a.size() > name.size() && starts_with(a, name) && a[name.size()] == '=') {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

int needs_value(std::string_view name, const char* what) {
  std::fprintf(stderr, "phaseloop: %.*s needs a value (%s)\n", static_cast<int>(name.size()), name.data(), what);
  return usage();
}

bool resolve(const std::string& file, std::string& path) {
  char buf[PATH_MAX];
  if (realpath(file.c_str(), buf) == nullptr) {
    std::fprintf(stderr, "phaseloop: cannot open %s: %s\n", file.c_str(), std::strerror(errno));
    return false;
  }
  path = buf;
  return true;
}

int run_command(int argc, char** argv) {
  phaseloop::runner::run_options o;
  int i = 2;
  std::string_view value;
  bool missing = false;
  for (std::string_view a; next_option(argc, argv, i, a); i++) {
    if (a == "--help" || a == "-h") return command_help(help_run);
    if (a == "--trace") {
      o.trace = true;
    } else if (starts_with(a, "--trace=")) {
      o.trace_file = a.substr(8);
      if (o.trace_file.empty()) {
        std::fputs("phaseloop: --trace= needs a file name (--trace=OUT.json)\n", stderr);
        return usage();
      }
    } else if (a == "--expose-gc") {
      o.expose_gc = true;
    } else if (option_value(argc, argv, i, a, "-e", value, missing) ||
               option_value(argc, argv, i, a, "--eval", value, missing)) {
      if (missing) return needs_value("-e", "the code to run");
      o.eval = std::string(value);
      o.print = false;
    } else if (option_value(argc, argv, i, a, "-p", value, missing) ||
               option_value(argc, argv, i, a, "--print", value, missing)) {
      if (missing) return needs_value("-p", "the code whose value to print");
      o.eval = std::string(value);
      o.print = true;
    } else if (option_value(argc, argv, i, a, "--libuv", value, missing)) {
      if (missing || value.empty()) return needs_value("--libuv", "a libuv version, as node -p process.versions.uv");
      // Any libuv 1.x: one before 1.44 runs as 1.44's order (timers first),
      // as Node 10's 1.34 and Node 11's 1.27 did.
      phaseloop::libuv_version v{};
      const std::string text(value);
      if (!phaseloop::parse_libuv_version(text.c_str(), v) || v.major != 1) {
        std::fprintf(stderr, "phaseloop: --libuv=%s is no libuv version (1.27.0, 1.46, ...)\n", text.c_str());
        return usage();
      }
      o.libuv = phaseloop::profile_of(v);
    } else if (option_value(argc, argv, i, a, "--mode", value, missing)) {
      std::string_view m = value;
      if (missing || m.empty()) return mode_needs_value();
      phaseloop::runner::target t;
      if (!phaseloop::runner::target::parse(m, t)) return unknown_mode(m);
      o.browser = t.browser;
      o.mode = t.mode;
    } else if (starts_with(a, "--annotate=")) {
      // Internal: provenance records for `compare` (trace.cpp).
      char* end = nullptr;
      const long fd = std::strtol(argv[i] + 11, &end, 10);
      if (*end != '\0' || fd < 3) return usage();
      o.annotate_fd = static_cast<int>(fd);
    } else {
      std::fprintf(stderr, "phaseloop: unknown option %s\n", argv[i]);
      return usage();
    }
  }
  if (o.eval) {
    if (o.print && o.browser) {
      std::fputs("phaseloop: -p is for the Node modes (a browser script has no completion value to print)\n", stderr);
      return usage();
    }
    // As node -e: the rest are the script's arguments.
    o.file = o.path = "[eval]";
    for (; i < argc; i++) o.args.emplace_back(argv[i]);
  } else if (i >= argc) {
    return usage();
  }
  if (o.trace && o.annotate_fd >= 0) {
    std::fputs("phaseloop: --trace and --annotate do not mix\n", stderr);
    return usage();
  }
  if (o.libuv && o.browser) {
    std::fputs("phaseloop: --libuv is for the Node modes; a browser has no libuv\n", stderr);
    return usage();
  }
  if (!o.eval) {
    o.file = argv[i++];
    o.args.assign(argv + i, argv + argc);
    if (o.file == "-") {
      o.from_stdin = true;
      o.path = "[stdin]";  // as Node names it
    } else if (o.file == "/dev/stdin") {
      o.path = o.file;  // (its real path is a pipe's, which cannot be opened by name)
    } else if (!resolve(o.file, o.path)) {
      return 1;
    }
  }
  if (!o.trace_file.empty()) {
    // Made now, so that a path that cannot be written fails before the run.
    std::FILE* f = std::fopen(o.trace_file.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "phaseloop: cannot write the trace %s: %s\n", o.trace_file.c_str(), std::strerror(errno));
      return 2;
    }
    std::fclose(f);
  }
  return phaseloop::runner::run_script(o);
}

int compare_command(int argc, char** argv) {
  std::vector<target> modes = {{false, mode::node10}, {false, mode::node11}, {false, mode::current}, {true, mode::current}};
  int i = 2;
  double timeout_s = 60;
  std::string_view value;
  bool missing = false;
  for (std::string_view a; next_option(argc, argv, i, a); i++) {
    if (a == "--help" || a == "-h") return command_help(help_compare);
    if (option_value(argc, argv, i, a, "--timeout", value, missing)) {
      if (missing) return needs_value("--timeout", "seconds, 0 for no limit");
      const std::string v(value);
      char* end = nullptr;
      timeout_s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(timeout_s >= 0) || timeout_s > 1e6) {
        std::fprintf(stderr, "phaseloop: --timeout wants seconds (0: no limit), not '%s'\n", v.c_str());
        return 2;
      }
    } else if (option_value(argc, argv, i, a, "--modes", value, missing)) {
      if (missing || value.empty()) return needs_value("--modes", "a list such as node10,node");
      modes.clear();
      std::string_view list = value;
      while (!list.empty()) {
        const std::size_t comma = list.find(',');
        std::string_view name = list.substr(0, comma);
        target t;
        if (!target::parse(name, t)) return unknown_mode(name);
        modes.push_back(t);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      }
      if (modes.size() < 2) {
        std::fputs("phaseloop: compare needs at least two modes\n", stderr);
        return usage();
      }
    } else {
      std::fprintf(stderr, "phaseloop: unknown option %s\n", argv[i]);
      return usage();
    }
  }
  if (i >= argc) return usage();
  const std::string file = argv[i++];
  std::string path;
  if (file != "-" && file != "/dev/stdin" && !resolve(file, path)) return 1;  // as run says it
  std::vector<std::string> args(argv + i, argv + argc);
  // /dev/stdin is read once, as "-" is: a pipe cannot be read by every mode.
  return phaseloop::runner::compare_modes(modes, file == "/dev/stdin" ? "-" : file, args, timeout_s);
}

#else

int no_runner(const char* what) {
  std::fprintf(stderr,
               "phaseloop: %s needs the JavaScript runner, and this phaseloop was built without it\n"
               "  (configure --with-runner, with SpiderMonkey: libmozjs-128-dev or libmozjs-102-dev)\n",
               what);
  return 2;
}
int run_command(int, char**) { return no_runner("run"); }
int compare_command(int, char**) { return no_runner("compare"); }

#endif  // PHASELOOP_WITH_RUNNER

// Whether `phaseloop ARG ...` means `phaseloop run ARG ...`: ARG is an
// option of run, "-", or a script (a file that exists, or a name ending in
// .js, .cjs or .mjs, which run then says it cannot open).
bool looks_like_run(std::string_view a) {
  for (std::string_view opt : {"--mode", "--libuv", "--trace", "--expose-gc", "-e", "--eval", "-p", "--print"})
    if (a == opt || (starts_with(a, opt) && a.size() > opt.size() && a[opt.size()] == '=')) return true;
  if (a == "-") return true;
  if (starts_with(a, "-")) return false;
  for (std::string_view ext : {".js", ".cjs", ".mjs"})
    if (a.size() > ext.size() && a.substr(a.size() - ext.size()) == ext) return true;
  struct stat st;
  return ::stat(std::string(a).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(usage_text, stdout);
    std::fputs("\n", stdout);
    for (const char* part : {help_intro, help_run, help_compare, help_trace, help_chaos, help_exit})
      std::fputs(part, stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "-V" || cmd == "-v") {
#ifdef PHASELOOP_WITH_RUNNER
    std::printf("phaseloop %s (SpiderMonkey %d.%d; modes node10 = %s, node11 = %s, node = %s)\n",
                PACKAGE_VERSION, MOZJS_MAJOR_VERSION, MOZJS_MINOR_VERSION,
                phaseloop::runner::node_version(mode::node10),
                phaseloop::runner::node_version(mode::node11),
                phaseloop::runner::node_version(mode::current));
#else
    std::printf("phaseloop %s (trace only: built without the JavaScript runner)\n", PACKAGE_VERSION);
#endif
    return 0;
  }
  if (cmd == "run") return run_command(argc, argv);
  if (cmd == "compare") return compare_command(argc, argv);
  if (cmd == "trace") {
    const bool view = argc > 2 && std::string_view(argv[2]) == "view";
    const int at = view ? 3 : 2;
    if (argc > at && (std::string_view(argv[at]) == "--help" || std::string_view(argv[at]) == "-h"))
      return command_help(help_trace);
    return phaseloop::runner::trace_command(argc, argv);
  }
  if (cmd == "chaos") {
    if (argc > 2 && (std::string_view(argv[2]) == "--help" || std::string_view(argv[2]) == "-h"))
      return command_help(help_chaos);
    return phaseloop::runner::chaos_command(argc, argv);
  }
  // As node: `phaseloop [RUN OPTIONS] FILE.js`, `-e CODE` and `-p CODE`
  // are `run`.
  if (looks_like_run(cmd)) {
    std::vector<char*> args(argv, argv + argc);
    args.insert(args.begin() + 1, const_cast<char*>("run"));
    args.push_back(nullptr);
    return run_command(argc + 1, args.data());
  }
  std::fprintf(stderr, "phaseloop: unknown command '%s'\n", argv[1]);
  return usage();
}
