// SPDX-License-Identifier: MIT
// `phaseloop compare`: run one script in several modes (Node's and the
// browser's), show the outputs side by side, and name the rule behind the
// first divergence.
//
// Each mode runs in a child process (this program, `run --annotate=3`),
// whose stdout, stderr and provenance records (trace.cpp) go to memory
// files. Two modes' runs are compared as sequences of Node events and
// output lines; where they part, the kinds of event on each side name the
// rule.

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "js/runner.hpp"

namespace phaseloop::runner {

namespace {

// One provenance record (see trace.cpp).
struct record {
  char type = 0;  // 'E' event, 'L' line, 'X' end
  std::string phase;
  std::uint64_t iteration = 0;
  std::uint64_t native_seq = 0;
  std::string label;
  std::string kind;
  std::uint64_t id = 0;
  std::string what;
  std::string line;  // L: the text of the line
};

struct run_result {
  target mode;
  int status = 0;       // exit status, or -signal
  bool ran = false;     // the child could be started
  bool timed_out = false;  // stopped by --timeout
  std::vector<std::string> lines;
  std::string err;
  std::vector<record> records;  // E and L in order
  std::vector<record> ends;     // X records
};

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    if (nl == std::string::npos) nl = s.size();
    out.push_back(s.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

std::vector<std::string> split_tabs(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t tab = s.find('\t', pos);
    out.push_back(s.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
    if (tab == std::string::npos) return out;
    pos = tab + 1;
  }
}

// Everything from `fd`'s current position to its end.
std::string read_rest(int fd) {
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

// A memory file's whole content.
std::string read_all(int fd) { return lseek(fd, 0, SEEK_SET) < 0 ? std::string() : read_rest(fd); }

std::string self_exe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("phaseloop");
}

// Runs one mode; `timeout_s` > 0 stops it (SIGKILL) after that long;
// `script_fd` >= 0 is its standard input (the script, for `-`).
// A mode's child while it runs.
struct child {
  pid_t pid = -1;
  int out = -1, err = -1, ann = -1;
  bool done = false;
  int ws = 0;
};

// Starts `r.mode`'s child; false when it cannot be started.
bool start_child(run_result& r, child& c, const std::string& file, const std::vector<std::string>& args,
                 int script_fd) {
  c.out = memfd_create("phaseloop-stdout", MFD_CLOEXEC);
  c.err = memfd_create("phaseloop-stderr", MFD_CLOEXEC);
  c.ann = memfd_create("phaseloop-annotate", MFD_CLOEXEC);  // each child gets only its own
  if (c.out < 0 || c.err < 0 || c.ann < 0) {
    std::fprintf(stderr, "phaseloop: memfd_create: %s\n", std::strerror(errno));
    return false;
  }
  const std::string exe = self_exe();
  const std::string mode = std::string("--mode=") + r.mode.name();
  std::vector<std::string> argv_s = {exe, "run", mode, "--annotate=3", "--", file};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);

  std::fflush(stdout);
  c.pid = fork();
  if (c.pid < 0) {
    std::fprintf(stderr, "phaseloop: fork: %s\n", std::strerror(errno));
    return false;
  }
  if (c.pid == 0) {
    // The script first: its descriptor may be 3, which the annotations take.
    // Each child reads it from its own descriptor, at its start.
    if (script_fd >= 0) {
      char path[64];
      std::snprintf(path, sizeof path, "/proc/self/fd/%d", script_fd);
      const int own = open(path, O_RDONLY);
      if (own < 0 || dup2(own, 0) < 0) _exit(127);
    }
    // (A descriptor already in its place keeps it, open across exec.)
    auto place = [](int fd, int to) { return fd == to ? fcntl(to, F_SETFD, 0) : dup2(fd, to); };
    if (place(c.out, 1) < 0 || place(c.err, 2) < 0 || place(c.ann, 3) < 0) _exit(127);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  return true;
}

// Waits for every child, each until `timeout_s` seconds from now (0: no
// limit); a child still running then is killed (what it wrote stays).
// False when waiting fails.
bool wait_children(std::vector<run_result>& runs, std::vector<child>& children, double timeout_s) {
  timespec start{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  std::size_t left = children.size();
  while (left > 0) {
    for (std::size_t i = 0; i < children.size(); i++) {
      child& c = children[i];
      if (c.done) continue;
      const pid_t w = waitpid(c.pid, &c.ws, timeout_s > 0 ? WNOHANG : 0);
      if (w < 0 && errno != EINTR) return false;
      if (w == c.pid) {
        c.done = true;
        left--;
      }
    }
    if (left == 0) break;
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (timeout_s > 0 && static_cast<double>(now.tv_sec - start.tv_sec) +
                                 static_cast<double>(now.tv_nsec - start.tv_nsec) / 1e9 >=
                             timeout_s) {
      for (std::size_t i = 0; i < children.size(); i++) {
        child& c = children[i];
        if (c.done) continue;
        kill(c.pid, SIGKILL);
        runs[i].timed_out = true;
        while (waitpid(c.pid, &c.ws, 0) < 0 && errno == EINTR) {
        }
        c.done = true;
      }
      break;
    }
    const timespec nap{0, 5'000'000};
    nanosleep(&nap, nullptr);
  }
  return true;
}

// Reads what a finished child wrote.
void finish_child(run_result& r, child& c) {
  const int ws = c.ws;
  const int out = c.out, err = c.err, ann = c.ann;
  if (WIFEXITED(ws)) {
    r.status = WEXITSTATUS(ws);
    r.ran = r.status != 127;
  } else {
    r.status = WIFSIGNALED(ws) ? -WTERMSIG(ws) : -1;
    r.ran = true;
  }
  r.lines = split_lines(read_all(out));
  r.err = read_all(err);
  // A warning names the process, as Node's do ("(node:1234) ..."): each
  // mode is its own process, so its number is no part of the comparison.
  const std::string own = "(node:" + std::to_string(c.pid) + ")";
  for (std::size_t at = r.err.find(own); at != std::string::npos; at = r.err.find(own, at))
    r.err.replace(at, own.size(), "(node:PID)");
  std::size_t line = 0;
  for (const std::string& l : split_lines(read_all(ann))) {
    std::vector<std::string> f = split_tabs(l);
    if (f.empty() || f[0].size() != 1) continue;
    record rec;
    rec.type = f[0][0];
    if (rec.type == 'X') {
      if (f.size() >= 2) rec.kind = f[1];
      if (f.size() >= 3) rec.what = f[2];
      r.ends.push_back(std::move(rec));
      continue;
    }
    if ((rec.type != 'E' && rec.type != 'L') || f.size() < 8) continue;
    rec.phase = f[1];
    rec.iteration = std::strtoull(f[2].c_str(), nullptr, 10);
    rec.native_seq = std::strtoull(f[3].c_str(), nullptr, 10);
    rec.label = f[4];
    rec.kind = f[5];
    rec.id = std::strtoull(f[6].c_str(), nullptr, 10);
    rec.what = f[7];
    if (rec.type == 'L' && line < r.lines.size()) rec.line = r.lines[line++];
    r.records.push_back(std::move(rec));
  }
  close(out);
  close(err);
  close(ann);
}

// ---- explaining a divergence -----------------------------------------------------------

bool is_drained(const std::string& kind) { return kind == "tick" || kind == "microtask"; }

// A browser run's steps (window_trace.cpp) in place of loop phases.
bool browser_step(const std::string& phase) {
  return phase == "task" || phase == "rendering" || phase == "idle-callback" || phase == "idle-period" ||
         phase == "microtask-checkpoint";
}

std::string where(const record& r) {
  if (r.phase == "main") return "in the main script";
  if (r.phase == "-") return "after the loop";
  if (r.phase == "rendering") return "in rendering update " + std::to_string(r.iteration) + " (a step of the page)";
  if (browser_step(r.phase)) return "in " + r.phase + " " + std::to_string(r.iteration) + " of the page";
  // libuv >= 1.45 runs the timers once before the first iteration.
  if (r.iteration == 0) return "in the " + r.phase + " pass before the first iteration";
  return "in the " + r.phase + " phase of iteration " + std::to_string(r.iteration);
}

// "ran timeout #2 (setTimeout 1 ms)", "printed "x" from timeout #1".
std::string describe(const record& r, bool with_where) {
  std::string s;
  if (r.type == 'L') {
    s = "printed \"" + r.line + "\"";
    if (r.kind == "main") {
      s += " from the main script";
    } else if (r.kind == "script") {
      s += " from the script";
    } else if (r.kind != "-" && r.kind != "native") {
      s += " from " + r.kind + (r.id != 0 ? " #" + std::to_string(r.id) : "");
    } else if (r.label != "-") {
      s += " from native callback \"" + r.label + "\"";
    }
  } else {
    s = "ran " + r.kind + " #" + std::to_string(r.id) + " (" + r.what + ")";
  }
  return with_where && r.phase != "main" ? s + " " + where(r) : s;
}

std::string end_of(const run_result& r) {
  if (r.timed_out) return "was stopped by the timeout";
  for (const record& x : r.ends) {
    if (x.kind == "uncaught") return "stopped on an uncaught exception (" + x.what + ")";
    if (x.kind == "rejection") return "stopped on an unhandled rejection (" + x.what + ")";
  }
  if (r.status < 0) return "was killed by signal " + std::to_string(-r.status);
  for (const record& x : r.ends) {
    // The browser reports an error and goes on; its status says so at the end.
    if (x.kind == "error" || x.kind == "unhandled-rejection") {
      return "reported \"Uncaught " + x.what + "\" and ended with status " + std::to_string(r.status);
    }
  }
  return "ended with status " + std::to_string(r.status);
}

bool same_step(const record& a, const record& b) {
  if (a.type != b.type) return false;
  if (a.type == 'L') return a.line == b.line;
  return a.kind == b.kind && a.id == b.id;
}

const char* name(const target& m) { return m.name(); }

// True when `t` is the Node mode `m`.
bool is(const target& t, node::mode m) { return !t.browser && t.mode == m; }

// The globals a later Node added, with the major version that did: a
// script using one stops with a ReferenceError in the older modes.
struct added_global {
  const char* name;
  int major;
};
constexpr added_global added_globals[] = {
    {"queueMicrotask", 11}, {"TextEncoder", 11},     {"TextDecoder", 11}, {"globalThis", 12},
    {"AbortController", 15}, {"AbortSignal", 15},    {"EventTarget", 15}, {"Event", 15},
    {"performance", 16},     {"structuredClone", 17}, {"DOMException", 17}};

// A rule about how a run ended, when the two runs ended differently.
std::string ending_rule(const run_result& ended) {
  for (const record& x : ended.ends) {
    const int major = is(ended.mode, node::mode::node10) ? 10 : is(ended.mode, node::mode::node11) ? 11 : 0;
    for (const added_global& g : added_globals) {
      if (x.kind == "uncaught" && major != 0 && major < g.major &&
          x.what.find(std::string(g.name) + " is not defined") != std::string::npos) {
        return std::string(g.name) + " does not exist in " + name(ended.mode) + "; it came with Node " +
               std::to_string(g.major) + ".";
      }
    }
    if (x.kind == "rejection") {
      return "since Node 15 an unhandled promise rejection is an uncaught exception (exit status 1); "
             "node10 and node11 print a warning and carry on.";
    }
  }
  return {};
}

// What else to say when the runs ended differently.
std::string also(const run_result& a, const run_result& b) {
  if (a.status == b.status) return {};
  std::string s;
  for (const run_result* r : {&a, &b}) {
    if (r->status == 0) continue;
    s += "\nThen " + std::string(name(r->mode)) + " " + end_of(*r) + ".";
    const std::string rule = ending_rule(*r);
    if (!rule.empty()) s += "\nRule: " + rule;
  }
  return s;
}

// The n-th output line's record, if the run wrote one.
const record* line_record(const run_result& r, std::size_t n) {
  for (const record& rec : r.records) {
    if (rec.type == 'L' && n-- == 0) return &rec;
  }
  return nullptr;
}

// "printed "x" from setTimeout #2 in task 3 of the page".
std::string printed(const run_result& r, std::size_t n) {
  if (const record* rec = line_record(r, n)) return describe(*rec, true);
  return "printed \"" + r.lines[n] + "\"";
}

// A Node mode against the browser: their steps have different names, so
// the lines are compared, each with where it came from.
std::string explain_browser(const run_result& a, const run_result& b) {
  std::size_t k = 0;
  while (k < a.lines.size() && k < b.lines.size() && a.lines[k] == b.lines[k]) k++;
  std::string s;
  const std::string an = name(a.mode), bn = name(b.mode);
  if (k < a.lines.size() && k < b.lines.size()) {
    s = "at line " + std::to_string(k + 1) + ", " + an + " " + printed(a, k) + ", while " + bn + " " +
        printed(b, k) + ".";
  } else if (k < a.lines.size() || k < b.lines.size()) {
    const run_result& longer = k < a.lines.size() ? a : b;
    const run_result& shorter = k < a.lines.size() ? b : a;
    s = std::string(name(shorter.mode)) + " " + end_of(shorter) + " after " + std::to_string(k) + " line" +
        (k == 1 ? "" : "s") + ", where " + name(longer.mode) + " " + printed(longer, k) + ".";
  } else {
    s = "Same output, but " + an + " " + end_of(a) + " and " + bn + " " + end_of(b) + ".";
  }
  // A global one side lacks.
  bool missing = false;
  for (const run_result* r : {&a, &b}) {
    for (const record& x : r->ends) {
      const std::size_t at = x.what.find(" is not defined");
      if ((x.kind != "uncaught" && x.kind != "error") || at == std::string::npos) continue;
      std::size_t from = x.what.rfind(' ', at - 1);
      from = from == std::string::npos ? 0 : from + 1;
      const std::string global = x.what.substr(from, at - from);
      s += "\nRule: " + global + (r->mode.browser ? " is Node's; a browser window has none."
                                                 : " belongs to the browser; Node has none.");
      missing = true;
    }
  }
  if (missing) return s;
  // Two timers in a different order: Node's 1 ms minimum.
  const run_result& br = a.mode.browser ? a : b;
  const run_result& nd = a.mode.browser ? b : a;
  const record* rb = k < br.lines.size() ? line_record(br, k) : nullptr;
  const record* rn = k < nd.lines.size() ? line_record(nd, k) : nullptr;
  if (rb != nullptr && rn != nullptr && rn->kind == "timeout" &&
      (rb->kind == "setTimeout" || rb->kind == "setInterval") && rb->what.rfind("0 ms", 0) == 0) {
    return s + "\nRule: Node raises every timer delay below 1 ms to 1 ms, so setTimeout(f, 0) and "
               "setTimeout(g, 1) share one list and run in creation order; a browser keeps 0 ms as 0 "
               "(HTML timers; Chromium dropped its 1 ms minimum), so the 0 ms timer is due first.";
  }
  return s + "\nRule: a browser is not Node. It runs one task at a time from its task queues (timers "
             "and posted messages in the order they were queued), performs a microtask checkpoint "
             "after every task and every callback, and between tasks updates the rendering "
             "(requestAnimationFrame callbacks, every 16.7 ms) or runs idle callbacks. Node runs "
             "libuv's phases (timers, poll, check, close) and has process.nextTick and setImmediate. "
             "`phaseloop run --trace --mode=browser` shows the browser's steps.";
}

// The explanation of where runs `a` and `b` first part; empty if they agree.
std::string explain(const run_result& a, const run_result& b) {
  if (a.lines == b.lines && a.status == b.status) return {};
  if (a.mode.browser != b.mode.browser) return explain_browser(a, b);
  const std::size_t n = std::min(a.records.size(), b.records.size());
  std::size_t k = 0;
  while (k < n && same_step(a.records[k], b.records[k])) k++;
  const std::string an = name(a.mode), bn = name(b.mode);
  if (k == n && a.records.size() == b.records.size()) {
    if (a.status != b.status) {
      return "Same output, but " + an + " " + end_of(a) + " and " + bn + " " + end_of(b) + ".";
    }
    return "Same events, different output.";
  }
  std::string s;
  // One side ended early.
  if (k == a.records.size() || k == b.records.size()) {
    const run_result& ended = k == a.records.size() ? a : b;
    const run_result& other = k == a.records.size() ? b : a;
    const record& next = other.records[k];
    s = std::string(name(ended.mode)) + " " + end_of(ended) + " where " + name(other.mode) + " " +
        describe(next, true) + ".";
    const std::string rule = ending_rule(ended);
    return rule.empty() ? s : s + "\nRule: " + rule;
  }
  const record& ra = a.records[k];
  const record& rb = b.records[k];
  if (k > 0) {
    const record& common = a.records[k - 1];
    s = "both " + describe(common, true) + "; next, ";
  }
  const bool same_place = ra.phase == rb.phase && ra.iteration == rb.iteration;
  s += an + " " + describe(ra, !same_place) + ", while " + bn + " " + describe(rb, !same_place);
  if (same_place && ra.phase != "main") s += ", both " + where(ra);
  s += ".";

  // The same event printed different text: not scheduling.
  if (ra.type == 'L' && rb.type == 'L' && ra.kind == rb.kind && ra.id == rb.id) {
    return s + "\nRule: not a scheduling rule: the same step printed different text. Node versions "
               "format values differently (util.inspect: quotes, -0, [Function], array layout) and "
               "differ in what they provide (process.version, queueMicrotask, hasRef...)." +
           also(a, b);
  }
  if (ra.type == 'E' && rb.type == 'E') {
    const record* batched = nullptr;
    const run_result* bmode = nullptr;
    const run_result* dmode = nullptr;
    if ((ra.kind == "timeout" || ra.kind == "immediate") && is_drained(rb.kind)) {
      batched = &ra;
      bmode = &a;
      dmode = &b;
    } else if ((rb.kind == "timeout" || rb.kind == "immediate") && is_drained(ra.kind)) {
      batched = &rb;
      bmode = &b;
      dmode = &a;
    }
    if (batched != nullptr && is(bmode->mode, node::mode::node10)) {
      const std::string other = name(dmode->mode);
      if (batched->kind == "timeout") {
        return s + "\nRule: node10 runs every expired timer of one list (same delay) in one native "
                   "callback, so nextTicks and microtasks wait until the list is done; " +
               other + " drains nextTicks and microtasks after each timer (Node PR #22842, Node 11.0.0).";
      }
      return s + "\nRule: node10 runs all the immediates of one check phase in one native callback, "
                 "so nextTicks and microtasks wait until they are all done; " +
             other + " drains nextTicks and microtasks after each immediate (Node PR #22842, Node 11.0.0).";
    }
    // Different timeouts at the same step, one of them unref'd: Node 10
    // moved it out of its list.
    const bool a10 = is(a.mode, node::mode::node10), b10 = is(b.mode, node::mode::node10);
    const auto unrefd = [](const record& r) { return r.what.find("unref'd") != std::string::npos; };
    if (ra.kind == "timeout" && rb.kind == "timeout" && a10 != b10 && (unrefd(ra) || unrefd(rb))) {
      return s + "\nRule: node10 moves an unref'd timer out of its list onto a libuv timer of its "
                 "own, so it runs after the timers of its old list that are due with it; node11 and "
                 "later only drop its reference, and it keeps its place in the list.";
    }
    const bool a_new = is(a.mode, node::mode::current), b_new = is(b.mode, node::mode::current);
    if (a_new != b_new && ra.phase != rb.phase && (ra.phase == "timers" || rb.phase == "timers")) {
      const std::string newer = a_new ? an : bn, older = a_new ? bn : an;
      return s + "\nRule: " + newer + " (libuv >= 1.45) runs the timers phase after the check and "
             "closing phases, at the end of each iteration (and once before the first one), instead "
             "of first in the iteration as " + older + " (libuv 1.44 and older) does.";
    }
  }
  return s + "\nNo known rule matches; compare the two with `phaseloop run --trace --mode=MODE`." +
         also(a, b);
}

// ---- layout -----------------------------------------------------------------------------

std::size_t width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string fit(const std::string& s, std::size_t w) {
  std::string out;
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); i++) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80) {
      if (cols == w) break;
      cols++;
    }
    out += static_cast<char>(c == '\t' ? ' ' : c);
  }
  if (cols < width(s)) {
    // Too long: end with "..." in the last three columns.
    while (width(out) > (w > 3 ? w - 3 : 0)) {
      do out.pop_back(); while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80);
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0) out.pop_back();
    }
    out += "...";
    cols = width(out);
  }
  return out + std::string(w > cols ? w - cols : 0, ' ');
}

}  // namespace

int compare_modes(const std::vector<target>& modes, const std::string& file, const std::vector<std::string>& args,
                  double timeout_s) {
  // `-`: the script is read once from standard input, and each mode reads
  // it from the start of a memory file.
  int script_fd = -1;
  if (file == "-") {
    script_fd = memfd_create("phaseloop-script", 0);
    const std::string text = script_fd >= 0 ? read_rest(0) : std::string();
    if (script_fd < 0 || write(script_fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      std::fprintf(stderr, "phaseloop: cannot keep the script from standard input: %s\n", std::strerror(errno));
      return 2;
    }
  }
  // Every mode at once, each with the whole timeout.
  std::vector<run_result> runs(modes.size());
  std::vector<child> children(modes.size());
  for (std::size_t i = 0; i < modes.size(); i++) {
    runs[i].mode = modes[i];
    if (!start_child(runs[i], children[i], file, args, script_fd)) {
      for (std::size_t j = 0; j < i; j++) kill(children[j].pid, SIGKILL);
      for (std::size_t j = 0; j < i; j++) waitpid(children[j].pid, nullptr, 0);
      return 2;
    }
  }
  if (!wait_children(runs, children, timeout_s)) {
    std::fprintf(stderr, "phaseloop: waitpid: %s\n", std::strerror(errno));
    return 2;
  }
  for (std::size_t i = 0; i < modes.size(); i++) {
    run_result& r = runs[i];
    finish_child(r, children[i]);
    if (!r.ran) {
      std::fprintf(stderr, "phaseloop: could not run mode %s\n", name(r.mode));
      return 2;
    }
    if (r.timed_out)
      std::fprintf(stderr, "phaseloop: mode %s was stopped after %g s (--timeout=%g)\n", name(r.mode), timeout_s,
                   timeout_s);
  }
  if (script_fd >= 0) close(script_fd);

  std::size_t rows = 0;
  std::vector<std::size_t> widths;
  for (const run_result& r : runs) {
    rows = std::max(rows, r.lines.size());
    std::size_t w = std::max<std::size_t>(width(name(r.mode)), r.timed_out ? 9 : 6);  // "timed out"
    for (const std::string& l : r.lines) w = std::max(w, width(l));
    widths.push_back(std::min<std::size_t>(w, 40));
  }
  const std::size_t num_w = std::to_string(std::max<std::size_t>(rows, 1)).size();

  std::printf("phaseloop compare %s\n\n", file.c_str());
  std::string header = "  " + std::string(num_w, ' ') + "  ";
  for (std::size_t i = 0; i < runs.size(); i++) {
    header += fit(name(runs[i].mode), widths[i]);
    if (i + 1 < runs.size()) header += " | ";
  }
  while (!header.empty() && header.back() == ' ') header.pop_back();
  std::printf("%s\n", header.c_str());

  std::size_t first = rows;
  for (std::size_t row = 0; row < rows; row++) {
    bool differ = false;
    for (const run_result& r : runs) {
      const bool has = row < r.lines.size(), has0 = row < runs[0].lines.size();
      if (has != has0 || (has && r.lines[row] != runs[0].lines[row])) differ = true;
    }
    if (differ && first == rows) first = row;
    std::string line = differ ? "* " : "  ";
    const std::string num = std::to_string(row + 1);
    line += std::string(num_w - num.size(), ' ') + num + "  ";
    for (std::size_t i = 0; i < runs.size(); i++) {
      line += fit(row < runs[i].lines.size() ? runs[i].lines[row] : "", widths[i]);
      if (i + 1 < runs.size()) line += " | ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (row == first) line += "   <- first divergence";
    std::printf("%s\n", line.c_str());
  }
  std::string status = "  " + std::string(num_w, ' ') + "  ";
  bool statuses_differ = false;
  for (std::size_t i = 0; i < runs.size(); i++) {
    const run_result& r = runs[i];
    std::string st = r.timed_out    ? std::string("timed out")
                     : r.status < 0 ? "signal " + std::to_string(-r.status)
                                    : "exit " + std::to_string(r.status);
    status += fit(st, widths[i]);
    if (i + 1 < runs.size()) status += " | ";
    if (r.status != runs[0].status) statuses_differ = true;
  }
  while (!status.empty() && status.back() == ' ') status.pop_back();
  std::printf("%s\n", status.c_str());

  // Each mode's error output, once for the modes that wrote the same.
  bool errors_differ = false;
  for (const run_result& r : runs) errors_differ |= r.err != runs[0].err;
  std::vector<bool> shown(runs.size(), false);
  for (std::size_t i = 0; i < runs.size(); i++) {
    if (shown[i] || runs[i].err.empty()) continue;
    std::string who = name(runs[i].mode);
    for (std::size_t j = i + 1; j < runs.size(); j++) {
      if (runs[j].err != runs[i].err) continue;
      shown[j] = true;
      who += std::string(", ") + name(runs[j].mode);
    }
    std::printf("\nError output of %s:\n", who.c_str());
    const std::vector<std::string> lines = split_lines(runs[i].err);
    const std::size_t max_lines = 20;
    for (std::size_t k = 0; k < lines.size() && k < max_lines; k++) std::printf("  %s\n", lines[k].c_str());
    if (lines.size() > max_lines) std::printf("  ... (%zu lines more)\n", lines.size() - max_lines);
  }

  bool any_timed_out = false;
  bool all_failed = true;
  for (const run_result& r : runs) {
    any_timed_out |= r.timed_out;
    all_failed &= r.timed_out || r.status != 0;
  }
  if (first == rows && !statuses_differ && !errors_differ && !any_timed_out) {
    std::printf("\nAll %zu modes print the same %zu line%s", runs.size(), rows, rows == 1 ? "" : "s");
    if (!all_failed) {
      std::printf(".\n");
      return 0;
    }
    // They agree, on a script that fails in every mode: say so, and exit 3.
    const run_result& r = runs[0];
    std::printf(", write the same error output and end the same way (%s).\n",
                r.status < 0 ? ("signal " + std::to_string(-r.status)).c_str()
                             : ("exit " + std::to_string(r.status)).c_str());
    return 3;
  }
  if (any_timed_out) {
    std::printf("\nNot every mode finished within %g s: the comparison covers what each printed until then.\n",
                timeout_s);
  }
  if (first < rows) {
    std::printf("\nThe modes diverge at line %zu.\n", first + 1);
  } else if (statuses_differ) {
    std::printf("\nThe modes print the same lines but end differently.\n");
  } else if (errors_differ) {
    std::printf("\nThe modes print the same lines but write different error output.\n");
  }
  for (std::size_t i = 0; i + 1 < runs.size(); i++) {
    const std::string why = explain(runs[i], runs[i + 1]);
    std::printf("\n%s vs %s: ", name(runs[i].mode), name(runs[i + 1].mode));
    if (why.empty()) {
      std::printf(runs[i].err == runs[i + 1].err ? "same output.\n" : "same output, different error output.\n");
      continue;
    }
    std::printf("%s\n", why.c_str());
  }
  return 1;
}

}  // namespace phaseloop::runner
