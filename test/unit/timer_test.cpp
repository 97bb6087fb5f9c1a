// SPDX-License-Identifier: MIT
// Timers: ordering by (due time, start sequence), re-arming, again(),
// set_repeat(), due(), due_in(), errors, and stopping/closing other timers
// from inside a timers pass. Rules that differ between the 1.44 and 1.45+
// profiles live in profile_test.cpp; the rules here hold in both. A rule
// checked for several cases is a table (a row a case), run once per
// profile; the TEST_Fs run in the profile a loop takes by default.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "test_util.hpp"

namespace {

// Per-timer state reached through `data`.
struct tstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  int stop_after = 0;                        // stop self once `calls` reaches it (0: never)
  std::uint64_t set_repeat_to = 0;           // set_repeat() with it in the callback (0: not)
  pl::timer* victim = nullptr;               // another timer acted on from the callback...
  void (*act)(pl::timer* victim) = nullptr;  // ...with this
  bool active_in_cb = false;                 // what the last call saw
  std::uint64_t due_minus_now = 0;
  std::uint64_t now_in_cb = 0;
};

// Counts the call, notes what the timer looks like in it, logs the name,
// then set_repeat()s and stops the timer as its state asks.
void log_cb(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  s->active_in_cb = t->is_active();
  s->now_in_cb = t->owner().now();
  s->due_minus_now = t->due() - s->now_in_cb;
  if (s->log) s->log->add(s->name);
  if (s->victim) s->act(s->victim);
  if (s->set_repeat_to != 0) t->set_repeat(s->set_repeat_to);
  if (s->stop_after != 0 && s->calls >= s->stop_after) t->stop();
}

void noop_cb(pl::timer*) {}

// A loop `l` (from Base) with a timer `t` whose state is `s`.
template <class Base>
class with_a_timer : public Base {
 protected:
  with_a_timer() { t.data = &s; }

  pl::timer t{this->l};
  tstate s;
};

// The TEST_Fs: a fresh loop in the default profile, with `t` and `s`.
class timers : public with_a_timer<pltest::on_a_loop> {};

// Timers of one loop with the given names, logging them to `log`.
struct named_timers {
  named_timers(pl::loop& l, const std::vector<const char*>& names) {
    for (const char* n : names) {
      st.push_back({&log, n});
      t.emplace_back(l).data = &st.back();
    }
  }
  pl::timer& operator[](std::size_t i) { return t[i]; }

  event_log log;
  std::deque<tstate> st;
  std::deque<pl::timer> t;
};

// ---- the order of due timers ---------------------------------------------

// Timers started in some order with some timeouts, at one loop time, and
// the order their callbacks run in.
struct order_case {
  const char* name;
  friend void PrintTo(const order_case& c, std::ostream* os) { *os << c.name; }
  std::vector<const char*> timers;
  std::vector<std::pair<std::size_t, std::uint64_t>> starts;  // (timer, timeout), in order
  strings ran;
};

const order_case order_cases[] = {
    // All with the same due time, started out of index order.
    {"equal_due_times_run_fifo", {"t0", "t1", "t2", "t3", "t4"}, {{3, 1}, {1, 1}, {4, 1}, {0, 1}, {2, 1}},
     {"t3", "t1", "t4", "t0", "t2"}},
    {"earlier_due_time_runs_first_regardless_of_start_order", {"a", "b", "c"}, {{2, 3}, {0, 1}, {1, 2}},
     {"a", "b", "c"}},
    // A restart gives a new start sequence (and does not count twice).
    {"restarting_active_timer_moves_it_behind_equal_due_timers", {"a", "b"}, {{0, 0}, {1, 0}, {0, 0}}, {"b", "a"}},
};

class due_order : public pltest::loop_per_profile_and_row<order_case> {};
INSTANTIATE_TEST_SUITE_P(both, due_order, pltest::each_row_in(pltest::both_profiles, order_cases), pltest::row_name());

TEST_P(due_order, is_by_due_time_then_start_sequence) {
  const order_case& c = row();
  named_timers ts(l, c.timers);
  for (auto [i, timeout] : c.starts) ASSERT_EQ(ts[i].start(log_cb, timeout, 0), 0);
  // The loop time did not move between the starts: equal timeouts, equal due times.
  for (auto [i, ti] : c.starts) {
    for (auto [j, tj] : c.starts) {
      if (ti == tj) {
        EXPECT_EQ(ts[i].due(), ts[j].due());
      }
    }
  }
  EXPECT_EQ(l.active_handles(), c.timers.size());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(ts.log.events, c.ran);
  for (const tstate& s : ts.st) EXPECT_EQ(s.calls, 1) << s.name;
  EXPECT_EQ(finish(l), 0);
}

// ---- repeating and re-arming ---------------------------------------------

// One timer started with (timeout, repeat), whose callback stops it at its
// `stop_after`th call or set_repeat()s it: what the callback sees and what
// is left when run() returns.
struct callback_case {
  const char* name;
  friend void PrintTo(const callback_case& c, std::ostream* os) { *os << c.name; }
  std::uint64_t timeout, repeat;
  int stop_after;
  std::uint64_t set_repeat_to;
  int calls;
  bool active_in_cb;                           // in the last call
  std::optional<std::uint64_t> due_minus_now;  // in the last call, where it is known
  std::uint64_t repeat_after;
};

const callback_case callback_cases[] = {
    {"repeating_timer_is_rearmed_before_its_callback", 0, 7, 1, 0, 1, true, 7, 7},
    {"non_repeating_timer_is_inactive_in_its_callback", 0, 0, 0, 0, 1, false, std::nullopt, 0},
    // Stopping the only timer ends the run.
    {"repeating_timer_fires_until_stopped_in_callback", 1, 1, 3, 0, 3, true, 1, 1},
    {"set_repeat_in_callback_of_oneshot_does_not_rearm_it", 0, 0, 0, 1, 1, false, std::nullopt, 1},
};

class timer_callback : public with_a_timer<pltest::loop_per_profile_and_row<callback_case>> {};
INSTANTIATE_TEST_SUITE_P(every_order, timer_callback,
                         pltest::each_row_in(pltest::both_profiles_and_default(), callback_cases), pltest::row_name());

TEST_P(timer_callback, sees_the_timer_rearmed_or_not_and_leaves_it_stopped) {
  const callback_case& c = row();
  s.stop_after = c.stop_after;
  s.set_repeat_to = c.set_repeat_to;
  ASSERT_EQ(t.start(log_cb, c.timeout, c.repeat), 0);
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, c.calls);
  EXPECT_EQ(s.active_in_cb, c.active_in_cb);
  if (c.due_minus_now) {
    EXPECT_EQ(s.due_minus_now, *c.due_minus_now);
  }
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(t.repeat(), c.repeat_after);
  EXPECT_EQ(finish(l), 0);
}

// ---- stopping or closing another timer in the same pass ------------------

// What the first of two timers due together does to the second.
struct victim_case {
  const char* name;
  friend void PrintTo(const victim_case& c, std::ostream* os) { *os << c.name; }
  void (*act)(pl::timer* victim);
  strings events;
};

const victim_case victim_cases[] = {
    {"stopping", [](pl::timer* v) { v->stop(); }, {"a"}},
    {"closing",
     [](pl::timer* v) {
       v->close([](pl::handle* h) {
         auto* vs = static_cast<tstate*>(h->data);
         vs->log->add("closed " + vs->name);
       });
     },
     {"a", "closed b"}},
};

class other_due_timer : public pltest::loop_per_profile_and_row<victim_case> {};
INSTANTIATE_TEST_SUITE_P(both, other_due_timer, pltest::each_row_in(pltest::both_profiles, victim_cases),
                         pltest::row_name());

TEST_P(other_due_timer, in_same_pass_cancels_its_callback) {
  named_timers ts(l, {"a", "b"});
  ts.st[0].victim = &ts[1];
  ts.st[0].act = row().act;
  ASSERT_EQ(ts[0].start(log_cb, 0, 0), 0);
  ASSERT_EQ(ts[1].start(log_cb, 0, 0), 0);  // due at the same time, after a
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(ts.log.events, row().events);
  EXPECT_FALSE(ts[1].is_active());
  EXPECT_EQ(finish(l), 0);
}

// ---- start, stop, again, set_repeat, due ---------------------------------

TEST_F(timers, stopped_timer_never_runs) {
  ASSERT_EQ(t.start(log_cb, 0, 0), 0);
  ASSERT_EQ(t.stop(), 0);
  EXPECT_EQ(t.stop(), 0);  // stopping an inactive timer is fine
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, start_with_null_callback_returns_invalid) {
  EXPECT_EQ(t.start(nullptr, 10, 0), pl::errc::invalid);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, again_without_start_returns_invalid) {
  EXPECT_EQ(t.again(), pl::errc::invalid);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, again_is_noop_for_non_repeating_timer) {
  ASSERT_EQ(t.start(noop_cb, 1000, 0), 0);
  const std::uint64_t due = t.due();
  pltest::spin_ms(2);
  l.update_time();
  EXPECT_EQ(t.again(), 0);
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(t.due(), due);
  ASSERT_EQ(t.stop(), 0);
  EXPECT_EQ(t.again(), 0);  // stopped, non-repeating: stays stopped
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, again_restarts_repeating_timer_with_repeat_as_timeout) {
  ASSERT_EQ(t.start(noop_cb, 1000, 7), 0);
  ASSERT_EQ(t.stop(), 0);
  EXPECT_EQ(t.again(), 0);
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(t.due(), l.now() + 7);
  EXPECT_EQ(t.repeat(), 7u);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, set_repeat_takes_effect_at_next_rearm) {
  s.stop_after = 1;
  ASSERT_EQ(t.start(log_cb, 0, 50), 0);
  t.set_repeat(3);
  EXPECT_EQ(t.repeat(), 3u);
  EXPECT_EQ(t.due(), l.now());  // the pending due time is not changed
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(s.due_minus_now, 3u);  // re-armed with the new repeat
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, due_and_due_in_follow_loop_time) {
  ASSERT_EQ(t.start(noop_cb, 100, 0), 0);
  EXPECT_EQ(t.due(), l.now() + 100);
  EXPECT_EQ(t.due_in(), 100u);
  pltest::spin_ms(5);
  l.update_time();
  EXPECT_LT(t.due_in(), 100u);
  EXPECT_EQ(t.due_in(), t.due() - l.now());
  ASSERT_EQ(t.start(noop_cb, 0, 0), 0);
  EXPECT_EQ(t.due_in(), 0u);  // due now
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, huge_timeout_saturates_instead_of_wrapping) {
  ASSERT_EQ(t.start(noop_cb, UINT64_MAX, 0), 0);
  EXPECT_EQ(t.due(), UINT64_MAX);
  EXPECT_EQ(t.due_in(), UINT64_MAX - l.now());
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // not due: still alive
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, restart_with_shorter_timeout_replaces_the_pending_one) {
  ASSERT_EQ(t.start(log_cb, 100000, 0), 0);
  ASSERT_EQ(t.start(log_cb, 0, 0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(), 0);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, timer_waits_at_least_its_timeout) {
  const std::uint64_t before = l.now();
  ASSERT_EQ(t.start(log_cb, 20, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_GE(s.now_in_cb, before + 20);  // loop time at the call
  EXPECT_EQ(finish(l), 0);
}

TEST_F(timers, many_timers_run_in_due_order) {
  // A larger mix of due times: the callbacks must see non-decreasing due
  // times, and equal ones in start order.
  constexpr int n = 64;
  struct rec {
    std::uint64_t due;
    int index;
  };
  struct shared {
    std::vector<rec> seen;
  } sh;
  struct item {
    shared* sh;
    int index;
  };
  alignas(pl::timer) unsigned char mem[n][sizeof(pl::timer)];
  item items[n];
  for (int i = 0; i < n; i++) {
    auto* tm = new (mem[i]) pl::timer(l);
    items[i] = {&sh, i};
    tm->data = &items[i];
    ASSERT_EQ(tm->start(
                  [](pl::timer* h) {
                    auto* it = static_cast<item*>(h->data);
                    it->sh->seen.push_back({h->due(), it->index});
                  },
                  static_cast<std::uint64_t>((i * 7) % 5), 0),
              0);
  }
  EXPECT_EQ(l.run(), 0);
  ASSERT_EQ(sh.seen.size(), static_cast<std::size_t>(n));
  for (int i = 1; i < n; i++) {
    const rec& a = sh.seen[i - 1];
    const rec& b = sh.seen[i];
    EXPECT_TRUE(a.due < b.due || (a.due == b.due && a.index < b.index))
        << "position " << i << ": (" << a.due << "," << a.index << ") then (" << b.due << "," << b.index << ")";
  }
  EXPECT_EQ(finish(l), 0);
  // Handles have trivial destructors; their close callbacks have run.
}

}  // namespace
