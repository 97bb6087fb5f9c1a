// What the environment turns on for every loop of a process, unmodified
// programs on the drop-in included:
//   PHASELOOP_STATS=1  a loop_stats on each loop; each loop's table is
//                      printed to stderr when the process exits (a loop
//                      closed before then keeps its table until then).
// Unset, nothing is installed and loops pay nothing.

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "phaseloop/loop.hpp"
#include "phaseloop/stats.hpp"

namespace phaseloop {

namespace {

struct loop_entry {
  loop* owner = nullptr;  // identity only; null once closed
  unsigned number = 0;    // 1, 2, ... in the order loops opened
  long thread = 0;        // the thread that opened it
  bool closed = false;
  loop_stats stats;
};

std::mutex entries_mutex;
// Never destroyed: loops may close, and the table is printed, from atexit
// handlers that run after static destructors of this library would have.
std::vector<loop_entry*>& entries() {
  static auto* v = new std::vector<loop_entry*>;
  return *v;
}

void stats_opened(loop& l) {
  std::lock_guard<std::mutex> lock(entries_mutex);
  auto* e = new (std::nothrow) loop_entry;
  if (e == nullptr) return;
  e->owner = &l;
  e->number = static_cast<unsigned>(entries().size() + 1);
  e->thread = static_cast<long>(::syscall(SYS_gettid));
  try {
    entries().push_back(e);
  } catch (...) {
    delete e;
    return;
  }
  l.add_hook(e->stats);
}

void stats_closing(loop& l) {
  std::lock_guard<std::mutex> lock(entries_mutex);
  for (loop_entry* e : entries())
    if (e->owner == &l) {
      l.remove_hook(e->stats);
      e->owner = nullptr;
      e->closed = true;
    }
}

void stats_print_all() {
  std::lock_guard<std::mutex> lock(entries_mutex);
  for (const loop_entry* e : entries()) {
    char title[128];
    std::snprintf(title, sizeof title, "phaseloop stats: pid %ld, loop %u (thread %ld%s)",
                  static_cast<long>(::getpid()), e->number, e->thread, e->closed ? ", closed" : "");
    e->stats.print(stderr, title);
  }
  std::fflush(stderr);
}

bool enabled(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

bool install_from_env() {
  if (!enabled("PHASELOOP_STATS")) return false;
  set_loop_observer({stats_opened, stats_closing});
  std::atexit(stats_print_all);
  return true;
}

[[gnu::used]] const bool installed = install_from_env();

}  // namespace

}  // namespace phaseloop
