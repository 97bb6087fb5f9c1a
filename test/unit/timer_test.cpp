// SPDX-License-Identifier: MIT
// Timers: ordering by (due time, start sequence), re-arming, again(),
// set_repeat(), due(), due_in(), errors, and stopping/closing other timers
// from inside a timers pass. Rules that differ between the 1.44 and 1.45+
// profiles live in profile_test.cpp; the rules here hold in both.

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

namespace pl = phaseloop;
using pltest::event_log;
using pltest::finish;
using pltest::strings;

constexpr pl::profile both_profiles[] = {pl::profile::libuv_1_44, pl::profile::libuv_1_45};

// The rules that hold in both profiles are TEST_Ps of this fixture: each
// runs once per profile, on a fresh loop `l` with that profile's order.
class timers_per_profile : public ::testing::TestWithParam<pl::profile> {
 protected:
  timers_per_profile() { l.set_order(GetParam()); }

  pl::loop l;
};

// Test names end in the profile: timers_per_profile/libuv_1_44.
std::string profile_name(const ::testing::TestParamInfo<pl::profile>& info) {
  return info.param == pl::profile::libuv_1_44 ? "libuv_1_44" : "libuv_1_45";
}

INSTANTIATE_TEST_SUITE_P(both, timers_per_profile, ::testing::ValuesIn(both_profiles), profile_name);

// Per-timer state reached through `data`.
struct tstate {
  event_log* log = nullptr;
  std::string name;
  int calls = 0;
  int stop_after = 0;         // stop self once `calls` reaches it (0: never)
  pl::timer* victim = nullptr;  // another timer acted on from the callback
  bool active_in_cb = false;
  std::uint64_t due_minus_now = 0;
};

void log_cb(pl::timer* t) {
  auto* s = static_cast<tstate*>(t->data);
  s->calls++;
  if (s->log) s->log->add(s->name);
  if (s->stop_after != 0 && s->calls >= s->stop_after) t->stop();
}

void noop_cb(pl::timer*) {}

TEST_P(timers_per_profile, equal_due_times_run_fifo) {
  event_log log;
  pl::timer t0(l), t1(l), t2(l), t3(l), t4(l);
  pl::timer* ts[] = {&t0, &t1, &t2, &t3, &t4};
  tstate st[5];
  for (int i = 0; i < 5; i++) {
    st[i].log = &log;
    st[i].name = "t" + std::to_string(i);
    ts[i]->data = &st[i];
  }
  // Started out of index order, all with the same due time (the loop
  // time does not move between the starts).
  for (int i : {3, 1, 4, 0, 2}) ASSERT_EQ(ts[i]->start(log_cb, 1, 0), 0);
  EXPECT_EQ(t0.due(), t3.due());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"t3", "t1", "t4", "t0", "t2"}));
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, earlier_due_time_runs_first_regardless_of_start_order) {
  event_log log;
  pl::timer a(l), b(l), c(l);
  tstate sa{&log, "a"}, sb{&log, "b"}, sc{&log, "c"};
  a.data = &sa;
  b.data = &sb;
  c.data = &sc;
  ASSERT_EQ(c.start(log_cb, 3, 0), 0);
  ASSERT_EQ(a.start(log_cb, 1, 0), 0);
  ASSERT_EQ(b.start(log_cb, 2, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"a", "b", "c"}));
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, restarting_active_timer_moves_it_behind_equal_due_timers) {
  event_log log;
  pl::timer a(l), b(l);
  tstate sa{&log, "a"}, sb{&log, "b"};
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(log_cb, 0, 0), 0);
  ASSERT_EQ(b.start(log_cb, 0, 0), 0);
  ASSERT_EQ(a.start(log_cb, 0, 0), 0);  // restart: new start sequence
  EXPECT_EQ(l.active_handles(), 2u);    // a restart does not count twice
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"b", "a"}));
  EXPECT_EQ(sa.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, repeating_timer_is_rearmed_before_its_callback) {
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->calls++;
                  st->active_in_cb = h->is_active();
                  st->due_minus_now = h->due() - h->owner().now();
                  h->stop();
                },
                0, 7),
            0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_TRUE(s.active_in_cb);
  EXPECT_EQ(s.due_minus_now, 7u);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, non_repeating_timer_is_inactive_in_its_callback) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->calls++;
                  st->active_in_cb = h->is_active();
                },
                0, 0),
            0);
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_FALSE(s.active_in_cb);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, repeating_timer_fires_until_stopped_in_callback) {
  pl::timer t(l);
  tstate s;
  s.stop_after = 3;
  t.data = &s;
  ASSERT_EQ(t.start(log_cb, 1, 1), 0);
  EXPECT_EQ(l.run(), 0);  // stopping the only timer ends the run
  EXPECT_EQ(s.calls, 3);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, stopping_other_due_timer_in_same_pass_cancels_its_callback) {
  event_log log;
  pl::timer a(l), b(l);
  tstate sa{&log, "a"}, sb{&log, "b"};
  sa.victim = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->log->add(st->name);
                  st->victim->stop();
                },
                0, 0),
            0);
  ASSERT_EQ(b.start(log_cb, 0, 0), 0);  // due at the same time, after a
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"a"}));
  EXPECT_FALSE(b.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST_P(timers_per_profile, closing_other_due_timer_in_same_pass_cancels_its_callback) {
  event_log log;
  pl::timer a(l), b(l);
  tstate sa{&log, "a"}, sb{&log, "b"};
  sa.victim = &b;
  a.data = &sa;
  b.data = &sb;
  ASSERT_EQ(a.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->log->add(st->name);
                  st->victim->close([](pl::handle* v) {
                    auto* vs = static_cast<tstate*>(v->data);
                    vs->log->add("closed " + vs->name);
                  });
                },
                0, 0),
            0);
  ASSERT_EQ(b.start(log_cb, 0, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(log.events, (strings{"a", "closed b"}));
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, stopped_timer_never_runs) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(log_cb, 0, 0), 0);
  ASSERT_EQ(t.stop(), 0);
  EXPECT_EQ(t.stop(), 0);  // stopping an inactive timer is fine
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, start_with_null_callback_returns_invalid) {
  pl::loop l;
  pl::timer t(l);
  EXPECT_EQ(t.start(nullptr, 10, 0), pl::errc::invalid);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, again_without_start_returns_invalid) {
  pl::loop l;
  pl::timer t(l);
  EXPECT_EQ(t.again(), pl::errc::invalid);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, again_is_noop_for_non_repeating_timer) {
  pl::loop l;
  pl::timer t(l);
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

TEST(timers, again_restarts_repeating_timer_with_repeat_as_timeout) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start(noop_cb, 1000, 7), 0);
  ASSERT_EQ(t.stop(), 0);
  EXPECT_EQ(t.again(), 0);
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(t.due(), l.now() + 7);
  EXPECT_EQ(t.repeat(), 7u);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, set_repeat_takes_effect_at_next_rearm) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->calls++;
                  st->due_minus_now = h->due() - h->owner().now();
                  h->stop();
                },
                0, 50),
            0);
  t.set_repeat(3);
  EXPECT_EQ(t.repeat(), 3u);
  EXPECT_EQ(t.due(), l.now());  // the pending due time is not changed
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(s.due_minus_now, 3u);  // re-armed with the new repeat
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, set_repeat_in_callback_of_oneshot_does_not_rearm_it) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->calls++;
                  h->set_repeat(1);
                },
                0, 0),
            0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_FALSE(t.is_active());
  EXPECT_EQ(t.repeat(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, due_and_due_in_follow_loop_time) {
  pl::loop l;
  pl::timer t(l);
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

TEST(timers, huge_timeout_saturates_instead_of_wrapping) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start(noop_cb, UINT64_MAX, 0), 0);
  EXPECT_EQ(t.due(), UINT64_MAX);
  EXPECT_EQ(t.due_in(), UINT64_MAX - l.now());
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // not due: still alive
  EXPECT_TRUE(t.is_active());
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, restart_with_shorter_timeout_replaces_the_pending_one) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  ASSERT_EQ(t.start(log_cb, 100000, 0), 0);
  ASSERT_EQ(t.start(log_cb, 0, 0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(), 0);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, timer_waits_at_least_its_timeout) {
  pl::loop l;
  pl::timer t(l);
  tstate s;
  t.data = &s;
  const std::uint64_t before = l.now();
  ASSERT_EQ(t.start(
                [](pl::timer* h) {
                  auto* st = static_cast<tstate*>(h->data);
                  st->calls++;
                  st->due_minus_now = h->owner().now();  // loop time at the call
                },
                20, 0),
            0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.calls, 1);
  EXPECT_GE(s.due_minus_now, before + 20);
  EXPECT_EQ(finish(l), 0);
}

TEST(timers, many_timers_run_in_due_order) {
  // A larger mix of due times: the callbacks must see non-decreasing due
  // times, and equal ones in start order.
  pl::loop l;
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
    auto* t = new (mem[i]) pl::timer(l);
    items[i] = {&sh, i};
    t->data = &items[i];
    ASSERT_EQ(t->start(
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
