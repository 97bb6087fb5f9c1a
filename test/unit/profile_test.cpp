// SPDX-License-Identifier: MIT
// The rules that differ between the libuv 1.44 and 1.45+ profiles: where
// timers run in an iteration, the timers pass before the first DEFAULT
// iteration, ONCE's second timers pass, and timers re-armed during a pass.
// Each rule is a table: a row per profile (and run mode) it was checked
// in, with what that profile does.

#include <cstdint>
#include <deque>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.hpp"

namespace {

using iterations = std::vector<std::uint64_t>;
using enum pl::run_mode;
using enum pl::handle_type;
constexpr pl::profile v1_44 = pl::profile::libuv_1_44, v1_45 = pl::profile::libuv_1_45, v1_48 = pl::profile::libuv_1_48;

struct tstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  int limit = 0;
  iterations at{};  // loop.iteration() at each call
  pl::timer* other = nullptr;
};

void rearm_zero(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  s->at.push_back(t->owner().iteration());
  if (s->calls < s->limit) {
    EXPECT_EQ(t->start(rearm_zero, 0, 0), 0);
  }
}

void log_timer(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  s->at.push_back(t->owner().iteration());
  if (s->log) s->log->add(s->name);
}

// Logs the timer, then restarts the timer `other` with timeout 0.
void log_and_restart_other(pl::timer* t) {
  log_timer(t);
  EXPECT_EQ(static_cast<tstate*>(t->data)->other->start(log_timer, 0, 0), 0);
}

// A loop in `profile` with a timer `t` whose state is `s`.
struct one_timer {
  explicit one_timer(pl::profile profile) {
    l.set_order(profile);
    t.data = &s;
  }

  pl::loop l;
  pl::timer t{l};
  tstate s;
};

// The TEST_Ps below run once per row of a table; a row names its profile.
template <class Row>
class per_row : public ::testing::TestWithParam<Row> {
 protected:
  const Row& row() const { return this->GetParam(); }

  one_timer k{row().profile};
  pl::loop& l = k.l;
};

// ---- a timer re-armed with 0 in its callback -------------------------------

// The timer is re-armed until its `limit`th call; the runs in `mode`,
// each with what it returns and the calls made by then.
struct rearm_case {
  const char* name;
  friend void PrintTo(const rearm_case& c, std::ostream* os) { *os << c.name; }
  pl::profile profile;
  int limit;
  pl::run_mode mode;
  std::vector<std::pair<int, int>> runs;  // (run's return, calls after it)
  iterations at;                          // of the calls
  int timers_passes;                      // entered in all the runs
};

const rearm_case rearm_cases[] = {
    // 1.44: all three calls come from the single timers pass of iteration 1.
    {"v1_44_zero_timeout_rearm_runs_again_in_same_pass", v1_44, 3, nowait, {{0, 3}}, {1, 1, 1}, 1},
    // 1.45 to 1.47 moved the timers to the end of the iteration but still
    // take one due timer at a time: a timer re-armed with 0 runs again at once.
    {"v1_45_rearmed_zero_timer_runs_again_in_same_pass", v1_45, 3, nowait, {{0, 3}}, {1, 1, 1}, 1},
    // 1.48: re-armed, it is still alive, and waits for the next pass.
    {"v1_48_rearmed_zero_timer_waits_for_next_pass", v1_48, 3, nowait, {{1, 1}, {1, 2}, {0, 3}}, {1, 2, 3}, 3},
    // The run makes one call per timers pass: the before-loop pass, then
    // one per iteration.
    {"v1_48_rearmed_zero_timer_does_not_busy_loop_in_default_run", v1_48, 4, default_, {{0, 4}}, {0, 1, 2, 3}, 4},
};

class rearmed_zero_timer : public per_row<rearm_case> {};
INSTANTIATE_TEST_SUITE_P(profiles, rearmed_zero_timer, ::testing::ValuesIn(rearm_cases), pltest::row_name());

TEST_P(rearmed_zero_timer, runs_again_in_the_pass_or_in_the_next_as_the_profile_says) {
  pltest::recorder rec;
  l.add_hook(rec);
  k.s.limit = row().limit;
  ASSERT_EQ(k.t.start(rearm_zero, 0, 0), 0);
  for (auto [ret, calls] : row().runs) {
    EXPECT_EQ(l.run(row().mode), ret);
    EXPECT_EQ(k.s.calls, calls);
  }
  EXPECT_EQ(k.s.at, row().at);
  EXPECT_EQ(rec.entries(pl::phase::timers), row().timers_passes);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

// ---- a timer restarted by another during the pass ----------------------------

// Due timers started in this order; the first restarts the second with
// timeout 0. The NOWAIT runs, each with what it returns and the log by then.
struct restart_case {
  const char* name;
  friend void PrintTo(const restart_case& c, std::ostream* os) { *os << c.name; }
  pl::profile profile;
  std::vector<const char*> timers;
  std::vector<std::pair<int, strings>> runs;
};

const restart_case restart_cases[] = {
    // b is due in this pass too; restarting it (even with 0) takes it out of
    // the pass.
    {"v1_48_timer_restarted_by_another_during_pass_waits_for_next_pass", v1_48, {"a", "b"},
     {{1, {"a"}}, {0, {"a", "b"}}}},
    // b gets a new start sequence: it runs after c, in the same pass.
    {"v1_44_timer_restarted_by_another_with_zero_runs_in_same_pass", v1_44, {"a", "b", "c"}, {{0, {"a", "c", "b"}}}},
};

class restarted_timer : public per_row<restart_case> {};
INSTANTIATE_TEST_SUITE_P(profiles, restarted_timer, ::testing::ValuesIn(restart_cases), pltest::row_name());

TEST_P(restarted_timer, runs_in_the_pass_or_in_the_next_as_the_profile_says) {
  event_log log;
  std::deque<tstate> st;
  std::deque<pl::timer> ts;
  for (const char* name : row().timers) {
    st.push_back({&log, name});
    ts.emplace_back(l).data = &st.back();
  }
  st[0].other = &ts[1];
  ASSERT_EQ(ts[0].start(log_and_restart_other, 0, 0), 0);
  for (std::size_t i = 1; i < ts.size(); i++) ASSERT_EQ(ts[i].start(log_timer, 0, 0), 0);
  for (const auto& [ret, events] : row().runs) {
    EXPECT_EQ(l.run(pl::run_mode::nowait), ret);
    EXPECT_EQ(log.events, events);
  }
  EXPECT_EQ(finish(l), 0);
}

// ---- where the timers run in the iteration ---------------------------------

// A due timer and a handle of kind `other` that logs its kind and stops
// itself: what a run in `mode` logs, and the iteration the timer ran in
// (0: the timers pass before the first iteration).
struct place_case {
  const char* name;
  friend void PrintTo(const place_case& c, std::ostream* os) { *os << c.name; }
  pl::profile profile;
  pl::run_mode mode;
  pl::handle_type other;
  strings events;
  iterations at;
};

const place_case place_cases[] = {
    {"v1_45_default_runs_timers_before_first_iteration", v1_45, default_, idle, {"timer", "idle"}, {0}},
    {"v1_45_once_runs_timers_after_the_iteration", v1_45, once, check, {"check", "timer"}, {1}},
    {"v1_45_nowait_runs_timers_after_the_iteration", v1_45, nowait, check, {"check", "timer"}, {1}},
    {"v1_44_default_runs_timers_first_in_the_iteration", v1_44, default_, idle, {"timer", "idle"}, {1}},
    {"v1_44_once_runs_timers_first_in_the_iteration", v1_44, once, idle, {"timer", "idle"}, {1}},
    {"v1_44_nowait_runs_timers_first_in_the_iteration", v1_44, nowait, idle, {"timer", "idle"}, {1}},
};

template <class H>
void log_kind_and_stop(H* h) {
  static_cast<event_log*>(h->data)->add(pl::handle_type_name(h->type()));
  h->stop();
}

class timers_place : public per_row<place_case> {};
INSTANTIATE_TEST_SUITE_P(profiles, timers_place, ::testing::ValuesIn(place_cases), pltest::row_name());

TEST_P(timers_place, in_the_iteration_is_the_profiles) {
  event_log log;
  pl::idle i(l);
  pl::check c(l);
  i.data = c.data = &log;
  k.s.log = &log;
  k.s.name = "timer";
  ASSERT_EQ(k.t.start(log_timer, 0, 0), 0);
  if (row().other == idle) {
    ASSERT_EQ(i.start(log_kind_and_stop<pl::idle>), 0);
  } else {
    ASSERT_EQ(c.start(log_kind_and_stop<pl::check>), 0);
  }
  EXPECT_EQ(l.run(row().mode), 0);
  EXPECT_EQ(log.events, row().events);
  EXPECT_EQ(k.s.at, row().at);
  EXPECT_EQ(finish(l), 0);
}

// ---- ONCE and a due repeating timer ------------------------------------------

struct once_case {
  const char* name;
  friend void PrintTo(const once_case& c, std::ostream* os) { *os << c.name; }
  pl::profile profile;
  iterations at;  // of the timer's calls
};

const once_case once_cases[] = {
    // Once at the start of the iteration; poll then waits ~1 ms for the
    // re-armed timer, which the end-of-iteration pass runs again.
    {"v1_44_once_runs_due_repeat_timer_twice", v1_44, {1, 1}},
    {"v1_45_once_runs_due_repeat_timer_once", v1_45, {1}},
};

class once_repeat_timer : public per_row<once_case> {};
INSTANTIATE_TEST_SUITE_P(profiles, once_repeat_timer, ::testing::ValuesIn(once_cases), pltest::row_name());

TEST_P(once_repeat_timer, runs_as_often_as_the_profile_has_timers_passes) {
  ASSERT_EQ(k.t.start(log_timer, 0, 1), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(k.s.calls, static_cast<int>(row().at.size()));
  EXPECT_EQ(k.s.at, row().at);
  EXPECT_EQ(finish(l), 0);
}

// ---- rules of one profile ------------------------------------------------------

// Starts the timer its data points to (timeout 0), and stops itself.
template <class H>
void start_the_timer_once(H* h) {
  EXPECT_EQ(static_cast<pl::timer*>(h->data)->start(log_timer, 0, 0), 0);
  h->stop();
}

TEST(profile, v1_44_nowait_runs_timers_once_at_iteration_start) {
  one_timer k(pl::profile::libuv_1_44);
  pl::check c(k.l);
  pl::prepare p(k.l);
  c.data = &k.t;
  p.data = &k.t;
  // A timer started after the timers phase with timeout 0 waits for the
  // next iteration in NOWAIT mode (no second timers pass)...
  ASSERT_EQ(c.start(start_the_timer_once<pl::check>), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.s.calls, 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(k.s.calls, 1);
  EXPECT_EQ(k.s.at, (iterations{2}));
  // ...but runs in the same iteration in ONCE mode (started from prepare,
  // so that poll has a timer to wait for).
  ASSERT_EQ(p.start(start_the_timer_once<pl::prepare>), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::once), 0);
  EXPECT_EQ(k.s.calls, 2);
  EXPECT_EQ(k.s.at, (iterations{2, 3}));
  EXPECT_EQ(finish(k.l), 0);
}

TEST(profile, order_may_change_between_runs) {
  one_timer k(pl::profile::libuv_1_44);
  k.s.limit = 2;
  ASSERT_EQ(k.t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(k.s.calls, 2);  // 1.44: re-armed timer ran again in the pass
  EXPECT_EQ(k.l.order(), pl::profile::libuv_1_44);
  k.l.set_order(pl::profile::libuv_1_48);
  EXPECT_EQ(k.l.order(), pl::profile::libuv_1_48);
  k.s.calls = 0;
  ASSERT_EQ(k.t.start(rearm_zero, 0, 0), 0);
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(k.s.calls, 1);  // 1.48: it waits for the next pass
  EXPECT_EQ(k.l.run(pl::run_mode::nowait), 0);
  EXPECT_EQ(k.s.calls, 2);
  EXPECT_EQ(finish(k.l), 0);
}

}  // namespace
