// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the unit tests: closing every handle of a loop, a hook
// that records what it sees, temporary directories, a tracer writing into
// memory, pool threads held until released, the fixtures and parameter
// names of the TEST_Ps run per profile or per row of a table, the names
// every test file uses unqualified (pl, event_log, finish, strings), and a
// few small conveniences.

#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <latch>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "phaseloop/phaseloop.hpp"

namespace pltest {

namespace pl = phaseloop;

/// Closes every handle of `l` that is not already closing (with no close
/// callback), runs the loop so the close callbacks run, and returns
/// loop.close(). Tests end with `EXPECT_EQ(pltest::finish(l), 0)`.
inline int finish(pl::loop& l) {
  l.walk(
      [](pl::handle* h, void*) {
        if (!h->is_closing()) h->close(nullptr);
      },
      nullptr);
  l.run(pl::run_mode::default_);
  return l.close();
}

/// An environment variable set or unset for one scope: its value before
/// comes back when the scope ends, however the test leaves it (a failed
/// ASSERT included), so that later tests see the process's own.
class scoped_env {
 public:
  explicit scoped_env(const char* name) : name_(name) {
    const char* v = std::getenv(name);
    had_ = v != nullptr;
    if (had_) old_ = v;
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;
  ~scoped_env() {
    if (had_) ::setenv(name_.c_str(), old_.c_str(), 1);
    else ::unsetenv(name_.c_str());
  }
  int set(const char* value) { return ::setenv(name_.c_str(), value, 1); }
  int unset() { return ::unsetenv(name_.c_str()); }

 private:
  std::string name_, old_;
  bool had_ = false;
};

/// Milliseconds elapsed since `start_ns` (a loop::hrtime() value).
inline double ms_since(std::uint64_t start_ns) {
  return static_cast<double>(pl::loop::hrtime() - start_ns) / 1e6;
}

/// Busy-waits (no sleep) until `ms` milliseconds of monotonic time passed.
inline void spin_ms(double ms) {
  const std::uint64_t start = pl::loop::hrtime();
  while (ms_since(start) < ms) {
  }
}

/// Puts the seccomp filter `f` (`n` statements) on the calling process, for
/// good. False when it could not be installed.
inline bool install_seccomp(sock_filter* f, std::size_t n) {
  sock_fprog prog{static_cast<unsigned short>(n), f};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

/// In the calling process, for good: every system call numbered in `nrs`
/// fails with `err` (a seccomp filter, as a locked-down system has).
/// False when the filter could not be installed. Call it in a child.
inline bool forbid_syscalls(std::initializer_list<int> nrs, int err) {
  std::vector<sock_filter> f;
  f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  // Each number jumps to the last statement (refuse) when it matches.
  unsigned left = static_cast<unsigned>(nrs.size());
  for (int nr : nrs) {
    left--;
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), static_cast<unsigned char>(left + 1), 0));
  }
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (static_cast<unsigned>(err) & SECCOMP_RET_DATA)));
  return install_seccomp(f.data(), f.size());
}

/// In the calling process, for good: every epoll_ctl whose operation is
/// not `allowed` fails with `err`. False when the filter could not be
/// installed. Call it in a child.
inline bool forbid_epoll_ctl_but(int allowed, int err) {
  sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(SYS_epoll_ctl), 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      // The second argument's low 32 bits (x86-64 and arm64 are little-endian).
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[1])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(allowed), 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (static_cast<unsigned>(err) & SECCOMP_RET_DATA)),
  };
  return install_seccomp(f, sizeof f / sizeof f[0]);
}

/// Makes a directory named `prefix`-XXXXXX in $TMPDIR (else /tmp) and puts
/// its path in `path`; returns what fs_req::mkdtemp() returned.
inline int make_temp_dir(const char* prefix, std::string& path) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string tpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "-XXXXXX";
  pl::fs_req r;
  const int result = r.mkdtemp(nullptr, tpl.c_str(), nullptr);
  if (result == 0) path = r.path();
  return result;
}

/// Removes a file or a directory tree, with the synchronous API.
inline void remove_tree(const std::string& path) {
  pl::fs_req r;
  if (r.lstat(nullptr, path.c_str(), nullptr) != 0) return;
  if (!S_ISDIR(r.statbuf().st_mode)) {
    r.unlink(nullptr, path.c_str(), nullptr);
    return;
  }
  std::vector<std::string> names;
  if (r.scandir(nullptr, path.c_str(), 0, nullptr) > 0) {
    pl::fs_dirent ent;
    while (r.scandir_next(ent) == 0) names.push_back(ent.name);
  }
  for (const std::string& n : names) remove_tree(path + "/" + n);
  r.rmdir(nullptr, path.c_str(), nullptr);
}

/// A FILE* writing to memory (a tracer's output); lines() and text() close
/// it and return what was written.
class memfile {
 public:
  memfile() : f_(open_memstream(&buf_, &size_)) {}
  memfile(const memfile&) = delete;
  memfile& operator=(const memfile&) = delete;
  ~memfile() {
    if (f_) std::fclose(f_);
    std::free(buf_);
  }
  std::FILE* get() const { return f_; }
  std::string text() {
    if (f_) {
      std::fclose(f_);
      f_ = nullptr;
    }
    return std::string(buf_ ? buf_ : "", size_);
  }
  std::vector<std::string> lines() {
    std::vector<std::string> out;
    std::istringstream in(text());
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

 private:
  char* buf_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* f_;
};

/// A loop `l` whose tracer writes into memory from the start; text()
/// detaches the tracer and returns what it wrote. (Check out.get() first.)
struct traced_loop {
  traced_loop() { l.add_hook(tr); }
  std::string text() {
    l.remove_hook(tr);
    return out.text();
  }

  memfile out;
  pl::loop l;
  pl::tracer tr{out.get()};
};

/// Pool work that blocks its thread until its gate opens.
struct gate;
struct blocker : pl::work {
  gate* g = nullptr;
  static void block(pl::work* w);
};

/// Blocks pool threads until released: `open.count_down()` lets every
/// blocker queued on it go; `started` counts those that began.
struct gate {
  std::latch open{1};
  std::atomic<int> started{0};
  std::vector<std::unique_ptr<blocker>> blockers;

  /// Queues `n` blockers on `l`; what the first failed queue() returned,
  /// else 0.
  int occupy(pl::loop& l, int n) {
    for (int i = 0; i < n; i++) {
      blockers.push_back(std::make_unique<blocker>());
      blockers.back()->g = this;
      if (int r = blockers.back()->queue(l, blocker::block, nullptr); r != 0) return r;
    }
    return 0;
  }
};

inline void blocker::block(pl::work* w) {
  gate* g = static_cast<blocker*>(w)->g;
  g->started++;
  g->open.wait();
}

/// One phase event as a recorder hook saw it.
struct phase_rec {
  pl::phase which;
  bool before_loop;
  std::uint64_t iteration;
  int timeout;
  bool enter;
};

/// One callback event as a recorder hook saw it.
struct callback_rec {
  pl::phase which;
  pl::callback_kind kind;
  std::uint64_t iteration;
  pl::handle* handle;
  pl::req* request;
  bool enter;
};

/// Where a callback ran and what for, as the tests compare them: its phase
/// and its handle or request (the other null).
struct call_site {
  pl::phase which;
  const pl::handle* handle = nullptr;
  const pl::req* request = nullptr;
  bool operator==(const call_site&) const = default;
  friend std::ostream& operator<<(std::ostream& os, const call_site& c) {
    return os << pl::phase_name(c.which) << " handle " << c.handle << " request " << c.request;
  }
};
using call_sites = std::vector<call_site>;

/// A hook that records every event.
class recorder : public pl::hook {
 public:
  std::vector<phase_rec> phases;
  std::vector<callback_rec> callbacks;

  void phase_enter(pl::loop&, const pl::phase_event& e) override {
    phases.push_back({e.which, e.before_loop, e.iteration, e.timeout, true});
  }
  void phase_exit(pl::loop&, const pl::phase_event& e) override {
    phases.push_back({e.which, e.before_loop, e.iteration, e.timeout, false});
  }
  void callback_enter(pl::loop&, const pl::callback_event& e) override {
    callbacks.push_back({e.which, e.kind, e.iteration, e.handle, e.request, true});
  }
  void callback_exit(pl::loop&, const pl::callback_event& e) override {
    callbacks.push_back({e.which, e.kind, e.iteration, e.handle, e.request, false});
  }

  /// The names of the phases entered, in order ("timers*" for the timers
  /// pass made before the first iteration).
  std::vector<std::string> entered() const {
    std::vector<std::string> out;
    for (const phase_rec& p : phases)
      if (p.enter) out.push_back(std::string(pl::phase_name(p.which)) + (p.before_loop ? "*" : ""));
    return out;
  }

  /// The callback_enter events only.
  std::vector<callback_rec> calls() const {
    std::vector<callback_rec> out;
    for (const callback_rec& c : callbacks)
      if (c.enter) out.push_back(c);
    return out;
  }

  /// Where the callbacks of `kind` ran and what for, in the order they
  /// began.
  call_sites calls_of(pl::callback_kind kind) const {
    call_sites out;
    for (const callback_rec& c : callbacks)
      if (c.enter && c.kind == kind) out.push_back({c.which, c.handle, c.request});
    return out;
  }

  /// How many times the phase `which` was entered (a timers pass before
  /// the first iteration counts).
  int entries(pl::phase which) const {
    int n = 0;
    for (const phase_rec& p : phases)
      if (p.enter && p.which == which) n++;
    return n;
  }

  /// The timeouts of the poll phases entered, in order.
  std::vector<int> poll_timeouts() const {
    std::vector<int> out;
    for (const phase_rec& p : phases)
      if (p.enter && p.which == pl::phase::poll) out.push_back(p.timeout);
    return out;
  }

  void clear() {
    phases.clear();
    callbacks.clear();
  }
};

/// A string log that callbacks append to through a handle's `data`.
struct event_log {
  std::vector<std::string> events;
  void add(std::string s) { events.push_back(std::move(s)); }
};

using strings = std::vector<std::string>;

/// The two timer orders: libuv 1.44's (timers first in an iteration) and
/// 1.45's (timers last), for the rules that hold in both.
inline constexpr pl::profile both_profiles[] = {pl::profile::libuv_1_44, pl::profile::libuv_1_45};

/// The orders a rule that holds in every profile is checked in: both of
/// the above, and the one a loop takes when none is set
/// (process_profile(): the newest, or $PHASELOOP_PROFILE's), each once.
inline std::vector<pl::profile> both_profiles_and_default() {
  std::vector<pl::profile> v(std::begin(both_profiles), std::end(both_profiles));
  if (std::find(v.begin(), v.end(), pl::process_profile()) == v.end()) v.push_back(pl::process_profile());
  return v;
}

/// A test name's part for a profile: libuv_1_44 for "libuv-1.44".
inline std::string profile_id(pl::profile p) {
  std::string s = pl::profile_name(p);
  for (char& c : s)
    if (c == '-' || c == '.') c = '_';
  return s;
}

/// Names the instances of a TEST_P over profiles: suite/test/libuv_1_44.
inline std::string profile_param_name(const ::testing::TestParamInfo<pl::profile>& info) {
  return profile_id(info.param);
}

/// A fresh loop `l` for each test.
class on_a_loop : public ::testing::Test {
 protected:
  pl::loop l;
};

/// A fresh loop `l` whose events the recorder `rec` records from the start
/// (and, unless the test removes it, to the end).
class recorded_loop : public ::testing::Test {
 protected:
  recorded_loop() { l.add_hook(rec); }
  ~recorded_loop() override { l.remove_hook(rec); }

  pl::loop l;
  recorder rec;
};

/// A loop `l` in the parameter's profile, for the TEST_Ps run once per
/// profile (INSTANTIATE_TEST_SUITE_P(..., ValuesIn(both_profiles),
/// profile_param_name)).
class loop_per_profile : public ::testing::TestWithParam<pl::profile> {
 protected:
  loop_per_profile() { l.set_order(GetParam()); }

  pl::loop l;
};

/// A loop `l` in a profile, for the TEST_Ps over a table of cases run in
/// each profile: the parameter is (profile, case), `row()` the case.
template <class Row>
class loop_per_profile_and_row : public ::testing::TestWithParam<std::tuple<pl::profile, Row>> {
 protected:
  loop_per_profile_and_row() { l.set_order(std::get<0>(this->GetParam())); }
  const Row& row() const { return std::get<1>(this->GetParam()); }

  pl::loop l;
};

/// The parameters of a loop_per_profile_and_row TEST_P: every row in each
/// of `profiles`.
template <class Profiles, class Row, std::size_t N>
auto each_row_in(const Profiles& profiles, const Row (&rows)[N]) {
  return ::testing::Combine(::testing::ValuesIn(profiles), ::testing::ValuesIn(rows));
}

/// Names the instances of a TEST_P over a table whose rows have a `name`
/// (suite/test/name), or over (profile, row) pairs (libuv_1_44_name).
struct row_name {
  template <class Row>
  std::string operator()(const ::testing::TestParamInfo<Row>& info) const {
    return info.param.name;
  }
  template <class Row>
  std::string operator()(const ::testing::TestParamInfo<std::tuple<pl::profile, Row>>& info) const {
    return profile_id(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name;
  }
};

}  // namespace pltest

// The names every test file uses unqualified.
namespace pl = phaseloop;
using pltest::event_log;
using pltest::finish;
using pltest::strings;

namespace phaseloop {
// How GoogleTest shows a profile in a TEST_P's parameter: libuv-1.44...
inline void PrintTo(profile p, std::ostream* os) { *os << profile_name(p); }
// ...and a handle type: idle.
inline void PrintTo(handle_type t, std::ostream* os) { *os << handle_type_name(t); }
}  // namespace phaseloop
