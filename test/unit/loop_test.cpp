// SPDX-License-Identifier: MIT
// The loop object: backend_timeout, walk, liveness (ref/unref), cached
// time, profiles, the default loop, metrics, and the name tables.

#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace {

void noop_timer(pl::timer*) {}
void noop_idle(pl::idle*) {}

// ---- backend_timeout -------------------------------------------------------

TEST(loop, backend_timeout_rules) {
  pl::loop l;
  pl::timer t(l), t0(l);
  pl::idle i(l);
  // One real iteration first, so that the poller knows every fd (until
  // then backend_timeout is 0; see the next test).
  ASSERT_EQ(i.start(noop_idle), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  ASSERT_EQ(i.stop(), 0);

  EXPECT_EQ(l.backend_timeout(), 0) << "no active handles or requests";

  ASSERT_EQ(t.start(noop_timer, 100, 0), 0);
  int bt = l.backend_timeout();
  EXPECT_GT(bt, 0);
  EXPECT_LE(bt, 100);

  t.unref();
  EXPECT_EQ(l.backend_timeout(), 0) << "only an unref'd timer";
  t.ref();

  ASSERT_EQ(t0.start(noop_timer, 0, 0), 0);
  EXPECT_EQ(l.backend_timeout(), 0) << "a timer due now";
  ASSERT_EQ(t0.stop(), 0);

  ASSERT_EQ(i.start(noop_idle), 0);
  EXPECT_EQ(l.backend_timeout(), 0) << "an active idle handle";
  i.unref();
  EXPECT_EQ(l.backend_timeout(), 0) << "an active but unref'd idle handle";
  ASSERT_EQ(i.stop(), 0);
  EXPECT_GT(l.backend_timeout(), 0) << "idle stopped";

  l.stop();
  EXPECT_EQ(l.backend_timeout(), 0) << "after stop()";
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_GT(l.backend_timeout(), 0) << "after the stopped run";

  ASSERT_EQ(t.start(noop_timer, 1000000, 0), 0);
  bt = l.backend_timeout();
  EXPECT_GT(bt, 100);
  EXPECT_LE(bt, 1000000);

  ASSERT_EQ(t.start(noop_timer, UINT64_MAX, 0), 0);
  EXPECT_EQ(l.backend_timeout(), INT_MAX) << "clamped";
  ASSERT_EQ(t.stop(), 0);

  {
    pl::async a(l, nullptr);
    EXPECT_EQ(l.backend_timeout(), -1) << "only an async handle: no timer to wait for";
    ASSERT_EQ(a.close(nullptr), 0);
    EXPECT_EQ(l.backend_timeout(), 0) << "a handle is closing";
    EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, backend_timeout_is_zero_before_first_iteration) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start(noop_timer, 100, 0), 0);
  // The loop's own fds reach the kernel in the first poll phase; until then
  // a caller waiting on backend_fd() could miss events.
  EXPECT_EQ(l.backend_timeout(), 0);
  t.unref();
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);  // does not iterate
  t.ref();
  EXPECT_EQ(l.backend_timeout(), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  const int bt = l.backend_timeout();
  EXPECT_GT(bt, 0);
  EXPECT_LE(bt, 100);
  EXPECT_GE(l.backend_fd(), 0);
  EXPECT_EQ(finish(l), 0);
}

// ---- walk ------------------------------------------------------------------

TEST(loop, walk_skips_internal_handles_and_visits_in_creation_order) {
  pl::loop l;
  std::vector<pl::handle*> seen;
  auto collect = [](pl::handle* h, void* arg) { static_cast<std::vector<pl::handle*>*>(arg)->push_back(h); };
  l.walk(collect, &seen);
  EXPECT_TRUE(seen.empty()) << "a fresh loop shows no handle (its internal async is hidden)";

  pl::check c(l);
  pl::timer t2(l);
  pl::signal s(l);
  pl::idle i(l);
  pl::async a(l, nullptr);
  pl::timer t1(l);
  pl::prepare p(l);
  // Started in another order than created; state does not matter.
  ASSERT_EQ(p.start([](pl::prepare*) {}), 0);
  ASSERT_EQ(t1.start(noop_timer, 1000, 0), 0);
  ASSERT_EQ(i.start(noop_idle), 0);
  ASSERT_EQ(s.start([](pl::signal*, int) {}, SIGWINCH), 0);
  ASSERT_EQ(c.start([](pl::check*) {}), 0);

  // A work request in flight is not a handle.
  pl::work w;
  ASSERT_EQ(w.queue(l, [](pl::work*) {}, nullptr), 0);

  seen.clear();
  l.walk(collect, &seen);
  const std::vector<pl::handle*> expected{&c, &t2, &s, &i, &a, &t1, &p};
  EXPECT_EQ(seen, expected);

  // Closing handles are still walked, in the same place.
  ASSERT_EQ(t2.close(nullptr), 0);
  seen.clear();
  l.walk(collect, &seen);
  EXPECT_EQ(seen, expected);

  EXPECT_EQ(finish(l), 0);
}

TEST(loop, walk_callback_may_close_handles) {
  pl::loop l;
  pl::timer a(l), b(l), c(l);
  int visits = 0;
  l.walk(
      [](pl::handle* h, void* arg) {
        ++*static_cast<int*>(arg);
        EXPECT_EQ(h->close(nullptr), 0);
      },
      &visits);
  EXPECT_EQ(visits, 3);
  EXPECT_TRUE(a.is_closing());
  EXPECT_TRUE(b.is_closing());
  EXPECT_TRUE(c.is_closing());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.close(), 0);
}

// ---- liveness ----------------------------------------------------------------

TEST(alive, unref_handle_does_not_keep_loop_alive) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) { ADD_FAILURE() << "unref'd far timer fired"; }, 10000, 0), 0);
  EXPECT_TRUE(l.alive());
  t.unref();
  EXPECT_FALSE(t.has_ref());
  EXPECT_TRUE(t.is_active());
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.active_handles(), 0u);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(), 0);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  t.ref();
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST(alive, ref_and_unref_are_idempotent) {
  pl::loop l;
  pl::idle i(l);
  EXPECT_TRUE(i.has_ref());  // handles start referenced
  ASSERT_EQ(i.start(noop_idle), 0);
  EXPECT_EQ(l.active_handles(), 1u);
  i.ref();
  i.ref();
  EXPECT_EQ(l.active_handles(), 1u);
  i.unref();
  i.unref();
  EXPECT_EQ(l.active_handles(), 0u);
  i.ref();
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST(alive, unref_of_inactive_handle_is_remembered_at_start) {
  pl::loop l;
  pl::timer t(l);
  t.unref();
  EXPECT_EQ(l.active_handles(), 0u);
  ASSERT_EQ(t.start(noop_timer, 10000, 0), 0);
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_FALSE(l.alive());
  ASSERT_EQ(t.stop(), 0);
  t.ref();
  EXPECT_EQ(l.active_handles(), 0u);  // inactive: still nothing counts
  ASSERT_EQ(t.start(noop_timer, 10000, 0), 0);
  EXPECT_EQ(l.active_handles(), 1u);
  EXPECT_EQ(finish(l), 0);
}

TEST(alive, inactive_handles_do_not_keep_loop_alive) {
  pl::loop l;
  pl::timer t(l);
  pl::idle i(l);
  pl::signal s(l);
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.active_handles(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST(alive, async_is_active_from_construction) {
  pl::loop l;
  pl::async a(l, nullptr);
  EXPECT_TRUE(a.is_active());
  EXPECT_TRUE(l.alive());
  a.unref();
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(finish(l), 0);
}

// ---- time ------------------------------------------------------------------

TEST(time, now_is_cached_until_update_time) {
  pl::loop l;
  const std::uint64_t t0 = l.now();
  pltest::spin_ms(20);
  EXPECT_EQ(l.now(), t0) << "the loop time must not move by itself";
  l.update_time();
  const std::uint64_t t1 = l.now();
  EXPECT_GE(t1 - t0, 10u);
  EXPECT_LE(t1 - t0, 1000u);
  EXPECT_EQ(finish(l), 0);
}

TEST(time, run_refreshes_the_loop_time) {
  pl::loop l;
  pl::idle i(l);
  ASSERT_EQ(i.start(noop_idle), 0);
  const std::uint64_t t0 = l.now();
  pltest::spin_ms(15);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // poll updates the time
  EXPECT_GE(l.now() - t0, 10u);
  EXPECT_EQ(finish(l), 0);
}

TEST(time, hrtime_is_monotonic_nanoseconds) {
  const std::uint64_t a = pl::loop::hrtime();
  pltest::spin_ms(2);
  const std::uint64_t b = pl::loop::hrtime();
  EXPECT_GT(b, a);
  EXPECT_GE(b - a, 1000000u);  // 2 ms spun: at least 1 ms in ns
  EXPECT_LT(b - a, 1000000000u);
}

// ---- profiles and construction ---------------------------------------------

TEST(loop, profile_comes_from_environment_at_open) {
  pltest::scoped_env profile("PHASELOOP_PROFILE");
  ASSERT_EQ(profile.set("libuv-1.44"), 0);
  {
    pl::loop l;
    EXPECT_EQ(l.order(), pl::profile::libuv_1_44);
    l.set_order(pl::profile::libuv_1_45);
    EXPECT_EQ(l.order(), pl::profile::libuv_1_45);
    EXPECT_EQ(l.close(), 0);
  }
  ASSERT_EQ(profile.unset(), 0);
  {
    pl::loop l;
    EXPECT_EQ(l.order(), pl::profile::newest);
    EXPECT_EQ(l.close(), 0);
  }
}

TEST(loop, deferred_construction_then_open) {
  pl::loop l(pl::loop::deferred);
  ASSERT_EQ(l.open(), 0);
  pl::timer t(l);
  int calls = 0;
  t.data = &calls;
  ASSERT_EQ(t.start([](pl::timer* h) { ++*static_cast<int*>(h->data); }, 0, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, close_twice_is_harmless) {
  pl::loop l;
  EXPECT_EQ(l.close(), 0);
  EXPECT_EQ(l.close(), 0);
}

TEST(loop, data_starts_null_and_belongs_to_the_user) {
  pl::loop l;
  EXPECT_EQ(l.data, nullptr);
  int x = 0;
  l.data = &x;
  pl::timer t(l);
  EXPECT_EQ(t.data, nullptr);
  t.data = &x;
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.data, &x);
  EXPECT_EQ(t.data, &x);
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, default_loop_is_a_singleton) {
  pl::loop& a = pl::loop::default_loop();
  pl::loop* b = pl::loop::default_loop_or_null();
  EXPECT_EQ(&a, b);
  pl::timer t(a);
  int calls = 0;
  t.data = &calls;
  ASSERT_EQ(t.start([](pl::timer* h) { ++*static_cast<int*>(h->data); }, 0, 0), 0);
  EXPECT_EQ(a.run(), 0);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(finish(a), 0);
}

TEST(loop, block_signal_accepts_only_sigprof) {
  pl::loop l;
  EXPECT_EQ(l.block_signal(SIGUSR1), pl::errc::invalid);
  EXPECT_EQ(l.block_signal(SIGPROF), 0);
  pl::timer t(l);
  ASSERT_EQ(t.start(noop_timer, 1, 0), 0);
  EXPECT_EQ(l.run(), 0);  // polling with SIGPROF blocked still works
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, idle_time_metric_counts_blocking_poll_only_once_enabled) {
  pl::loop l;
  pl::timer t(l);
  ASSERT_EQ(t.start(noop_timer, 15, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.idle_time(), 0u) << "not enabled: not measured";
  l.enable_idle_time_metric();
  ASSERT_EQ(t.start(noop_timer, 20, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_GE(l.idle_time(), 10u * 1000000u);
  EXPECT_LT(l.idle_time(), 1000u * 1000000u);
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, iteration_counts_iterations_across_runs) {
  pl::loop l;
  pl::idle i(l);
  ASSERT_EQ(i.start(noop_idle), 0);
  EXPECT_EQ(l.iteration(), 0u);
  for (int k = 1; k <= 3; k++) {
    EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
    EXPECT_EQ(l.iteration(), static_cast<std::uint64_t>(k));
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(loop, two_loops_are_independent) {
  pl::loop a, b;
  pl::idle ia(a), ib(b);
  int ca = 0, cb = 0;
  ia.data = &ca;
  ib.data = &cb;
  ASSERT_EQ(ia.start([](pl::idle* h) { ++*static_cast<int*>(h->data); }), 0);
  ASSERT_EQ(ib.start([](pl::idle* h) { ++*static_cast<int*>(h->data); }), 0);
  EXPECT_EQ(a.active_handles(), 1u);
  EXPECT_EQ(b.active_handles(), 1u);
  EXPECT_EQ(a.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(ca, 1);
  EXPECT_EQ(cb, 0);
  EXPECT_EQ(&ia.owner(), &a);
  EXPECT_EQ(&ib.owner(), &b);
  EXPECT_EQ(finish(a), 0);
  EXPECT_EQ(b.close(), pl::errc::busy);
  EXPECT_EQ(finish(b), 0);
}

// ---- names -------------------------------------------------------------------

TEST(names, phase_handle_and_request_names) {
  const char* phases[] = {"timers", "pending", "idle", "prepare", "poll", "check", "closing"};
  for (int i = 0; i < pl::phase_count; i++) EXPECT_STREQ(pl::phase_name(static_cast<pl::phase>(i)), phases[i]);
  EXPECT_STREQ(pl::handle_type_name(pl::handle_type::timer), "timer");
  EXPECT_STREQ(pl::handle_type_name(pl::handle_type::async), "async");
  EXPECT_STREQ(pl::handle_type_name(pl::handle_type::signal), "signal");
  EXPECT_STREQ(pl::handle_type_name(pl::handle_type::named_pipe), "pipe");
  EXPECT_STREQ(pl::handle_type_name(pl::handle_type::generic), "handle");
  EXPECT_EQ(pl::handle_type_name(pl::handle_type::unknown), nullptr);
  EXPECT_STREQ(pl::req_type_name(pl::req_type::work), "work");
  EXPECT_STREQ(pl::req_type_name(pl::req_type::generic), "req");
  EXPECT_EQ(pl::req_type_name(pl::req_type::unknown), nullptr);
}

TEST(names, error_names_and_messages) {
  EXPECT_STREQ(pl::error_name(pl::errc::invalid), "EINVAL");
  EXPECT_STREQ(pl::error_name(pl::errc::busy), "EBUSY");
  EXPECT_STREQ(pl::error_name(pl::errc::canceled), "ECANCELED");
  EXPECT_STREQ(pl::error_name(pl::errc::eof), "EOF");
  EXPECT_STREQ(pl::error_message(pl::errc::invalid), "invalid argument");
  EXPECT_EQ(pl::error_name(-999999), nullptr);
  EXPECT_EQ(pl::from_errno(EINVAL), pl::errc::invalid);
  EXPECT_EQ(pl::from_errno(-EINVAL), pl::errc::invalid);
  EXPECT_EQ(pl::from_errno(0), 0);
}

}  // namespace
