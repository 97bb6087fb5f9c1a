// SPDX-License-Identifier: MIT
// What the environment turns on for every loop of a process, unmodified
// programs on the drop-in included:
//   PHASELOOP_STATS=1     a loop_stats on each loop; each loop's table is
//                         printed to stderr when the process exits, also by
//                         SIGTERM/SIGINT left at their default action (a
//                         loop closed before then keeps its table until then).
//   PHASELOOP_STATS=FILE  (a value with a '/') the same, appended to FILE
//                         (`phaseloop trace` collects them so).
//   PHASELOOP_TRACE=FILE  a trace_recorder on each loop; FILE (Chrome Trace
//                         Event JSON) is written when a loop closes, when
//                         the process exits, and on SIGTERM/SIGINT left at
//                         their default action. "%p" in FILE becomes the
//                         pid; a process other than the first to claim FILE
//                         (a child, which inherits the variable) writes
//                         FILE.<pid> instead.
//   PHASELOOP_TRACE_LIMIT events kept per loop (default 1,000,000).
// Unset, nothing is installed and loops pay nothing.

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "phaseloop/loop.hpp"
#include "phaseloop/stats.hpp"
#include "phaseloop/trace.hpp"

namespace phaseloop {

namespace {

struct loop_entry {
  loop* owner = nullptr;  // identity only; null once closed
  unsigned number = 0;    // 1, 2, ... in the order loops opened
  long thread = 0;        // the thread that opened it
  bool closed = false;
  bool is_default = false;  // seen as the default loop (uv_default_loop()) while open
  loop_stats* stats = nullptr;
  trace_recorder* trace = nullptr;
};

struct settings {
  bool stats = false;
  std::string stats_path;  // empty: stderr
  std::string trace_path;  // empty: no tracing
  std::size_t trace_limit = 1000000;
  std::uint64_t origin_ns = 0;
};

// Never destroyed: loops may close, and tables and traces are written,
// from atexit handlers that run after this library's static destructors.
settings& config() {
  static auto* s = new settings;
  return *s;
}
std::recursive_mutex entries_mutex;
std::vector<loop_entry*>& entries() {
  static auto* v = new std::vector<loop_entry*>;
  return *v;
}

// ---- the trace file ---------------------------------------------------------

std::string trace_file() {
  std::string path = config().trace_path;
  const std::string pid = std::to_string(::getpid());
  if (const auto at = path.find("%p"); at != std::string::npos) return path.replace(at, 2, pid);
  const char* owner = std::getenv("PHASELOOP_TRACE_PID");
  return owner != nullptr && pid == owner ? path : path + "." + pid;
}

// The default loop is only known while it is open: noted whenever the
// entries are looked at, before a closing loop forgets its owner.
void note_default(loop_entry& e) {
  if (e.owner != nullptr && e.owner == loop::default_loop_if_open()) e.is_default = true;
}

// A track's name says the loop's role: the main loop is the default loop,
// or, in a process that never made one, the first loop opened on the main
// thread; other loops are worker loops when they run on other threads.
std::string track_name(const loop_entry& e, bool main) {
  const std::string thread = " (thread " + std::to_string(e.thread) + ")";
  if (main) return "main loop" + thread;
  const std::string number = "loop " + std::to_string(e.number) + thread;
  return e.thread == static_cast<long>(::getpid()) ? number : "worker " + number;
}

void write_trace() {
  std::lock_guard<std::recursive_mutex> lock(entries_mutex);
  const loop_entry* main = nullptr;
  for (loop_entry* e : entries()) {
    note_default(*e);
    if (e->is_default) main = e;
  }
  for (const loop_entry* e : entries())
    if (main == nullptr && e->thread == static_cast<long>(::getpid())) main = e;
  std::vector<trace_track> tracks;
  for (const loop_entry* e : entries()) {
    if (e->trace == nullptr) continue;
    tracks.push_back({e->trace, track_name(*e, e == main), e->number, e->thread});
  }
  // The program's name (argv[0]'s last part, as ps shows it) with its pid.
  char name[128];
  std::snprintf(name, sizeof name, "%s (pid %ld)", program_invocation_short_name, static_cast<long>(::getpid()));
  const std::string path = trace_file();
  if (int r = write_chrome_trace(path.c_str(), tracks, config().origin_ns, name); r != 0)
    std::fprintf(stderr, "phaseloop: cannot write the trace %s: %s\n", path.c_str(), std::strerror(-r));
}

void print_stats();

void on_fatal_signal(int sig) {
  // Not async-signal-safe (it allocates): a tool's last act before the
  // process dies of the signal anyway, as the default action would.
  static volatile sig_atomic_t once = 0;
  if (once == 0) {
    once = 1;
    print_stats();
    if (!config().trace_path.empty()) write_trace();
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void catch_if_default(int sig) {
  struct sigaction old {};
  if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) return;
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(sig, &sa, nullptr);
}

// ---- loops opening and closing ---------------------------------------------

void opened(loop& l) {
  std::lock_guard<std::recursive_mutex> lock(entries_mutex);
  auto* e = new (std::nothrow) loop_entry;
  if (e == nullptr) return;
  e->owner = &l;
  e->number = static_cast<unsigned>(entries().size() + 1);
  e->thread = static_cast<long>(::syscall(SYS_gettid));
  if (config().stats) e->stats = new (std::nothrow) loop_stats;
  if (!config().trace_path.empty()) e->trace = new (std::nothrow) trace_recorder(config().trace_limit);
  try {
    entries().push_back(e);
  } catch (...) {
    delete e->stats;
    delete e->trace;
    delete e;
    return;
  }
  if (e->stats != nullptr) l.add_hook(*e->stats);
  if (e->trace != nullptr) l.add_hook(*e->trace);
}

void closing(loop& l) {
  std::lock_guard<std::recursive_mutex> lock(entries_mutex);
  bool traced = false;
  for (loop_entry* e : entries())
    if (e->owner == &l) {
      note_default(*e);
      if (e->stats != nullptr) l.remove_hook(*e->stats);
      if (e->trace != nullptr) {
        e->trace->closing(l);
        l.remove_hook(*e->trace);
      }
      traced = traced || e->trace != nullptr;
      e->owner = nullptr;
      e->closed = true;
    }
  if (traced) write_trace();
}

// Each loop's statistics table, to stderr or appended to the file.
void print_stats() {
  std::lock_guard<std::recursive_mutex> lock(entries_mutex);
  if (!config().stats) return;
  std::FILE* out = stderr;
  if (!config().stats_path.empty()) {
    out = std::fopen(config().stats_path.c_str(), "a");
    if (out == nullptr) {
      std::fprintf(stderr, "phaseloop: cannot append the statistics to %s: %s\n", config().stats_path.c_str(),
                   std::strerror(errno));
      out = stderr;
    }
  }
  // One write per process where it fits, so that the tables of processes
  // sharing the file do not interleave. (On the heap: 64 KiB of static
  // storage would push the statics the loop reads on every iteration
  // onto a page of their own.)
  constexpr std::size_t buffer_size = 1 << 16;
  const std::unique_ptr<char, decltype(&std::free)> buffer(
      out != stderr ? static_cast<char*>(std::malloc(buffer_size)) : nullptr, &std::free);
  if (buffer != nullptr) std::setvbuf(out, buffer.get(), _IOFBF, buffer_size);
  for (const loop_entry* e : entries()) {
    if (e->stats == nullptr) continue;
    char title[128];
    std::snprintf(title, sizeof title, "phaseloop stats: pid %ld, loop %u (thread %ld%s)",
                  static_cast<long>(::getpid()), e->number, e->thread, e->closed ? ", closed" : "");
    e->stats->print(out, title);
  }
  if (out != stderr) std::fclose(out);
  std::fflush(stderr);
}

void at_exit() {
  std::lock_guard<std::recursive_mutex> lock(entries_mutex);
  print_stats();
  if (!config().trace_path.empty()) write_trace();
}

bool enabled(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

bool install_from_env() {
  settings& s = config();
  s.stats = enabled("PHASELOOP_STATS");
  if (s.stats && std::strchr(std::getenv("PHASELOOP_STATS"), '/') != nullptr) s.stats_path = std::getenv("PHASELOOP_STATS");
  if (const char* t = std::getenv("PHASELOOP_TRACE"); t != nullptr && *t != '\0') {
    s.trace_path = t;
    if (const char* n = std::getenv("PHASELOOP_TRACE_LIMIT"); n != nullptr && *n != '\0') {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(n, &end, 10);
      if (*end == '\0') s.trace_limit = static_cast<std::size_t>(v);
      else std::fprintf(stderr, "phaseloop: PHASELOOP_TRACE_LIMIT=%s is not a number; keeping %zu\n", n, s.trace_limit);
    }
    // The first process to see the variable owns the file name; its
    // children inherit PHASELOOP_TRACE_PID and write FILE.<pid>. Processes
    // that are not its children (siblings under a shell) cannot tell, so
    // `phaseloop trace` names a claim file too: whoever creates it first
    // owns FILE.
    const char* claim = std::getenv("PHASELOOP_TRACE_CLAIM");
    if (claim != nullptr && *claim != '\0' && std::getenv("PHASELOOP_TRACE_PID") == nullptr) {
      const int fd = ::open(claim, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
      if (fd >= 0) ::close(fd);
      ::setenv("PHASELOOP_TRACE_PID", fd >= 0 ? std::to_string(::getpid()).c_str() : "claimed", 1);
    }
    if (std::getenv("PHASELOOP_TRACE_PID") == nullptr)
      ::setenv("PHASELOOP_TRACE_PID", std::to_string(::getpid()).c_str(), 1);
    s.origin_ns = loop::hrtime();
  }
  if (!s.stats && s.trace_path.empty()) return false;
  // A process ended by SIGTERM or SIGINT (left at their default action)
  // still reports: its statistics and its timeline.
  catch_if_default(SIGTERM);
  catch_if_default(SIGINT);
  set_loop_observer({opened, closing});
  std::atexit(at_exit);
  return true;
}

[[gnu::used]] const bool installed = install_from_env();

}  // namespace

}  // namespace phaseloop
