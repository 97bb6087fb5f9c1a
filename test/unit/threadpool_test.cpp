// SPDX-License-Identifier: MIT
// Threadpool work requests: where the two callbacks run, liveness,
// cancellation, errors.
//
// The pool is process-wide and starts on first use with UV_THREADPOOL_SIZE
// threads. A static initializer asks for 2 threads (before any test runs),
// but the tests do not depend on the size: to keep a request queued they
// first occupy more blocked requests than the pool can have threads.

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace {

const bool pool_size_set = [] { return setenv("UV_THREADPOOL_SIZE", "2", 1) == 0; }();

// More requests than the pool can ever have threads (at most 1024).
constexpr int occupy_count = 1025;

struct wstate {
  std::thread::id loop_thread;
  std::atomic<bool> work_on_loop_thread{true};
  std::atomic<int> work_calls{0};
  int after_calls = 0;
  int status = 1;
  bool after_on_loop_thread = false;
  pl::req* after_req = nullptr;
};

void record_work(pl::work* w) {
  auto* s = static_cast<wstate*>(w->data);
  s->work_calls++;
  s->work_on_loop_thread = std::this_thread::get_id() == s->loop_thread;
}

void record_after(pl::work* w, int status) {
  auto* s = static_cast<wstate*>(w->data);
  s->after_calls++;
  s->status = status;
  s->after_on_loop_thread = std::this_thread::get_id() == s->loop_thread;
  s->after_req = w;
}

TEST(threadpool, work_runs_on_pool_thread_and_after_on_loop_thread) {
  ASSERT_TRUE(pool_size_set);
  pl::loop l;
  pl::work w;
  wstate s;
  s.loop_thread = std::this_thread::get_id();
  w.data = &s;
  EXPECT_EQ(w.type(), pl::req_type::work);
  ASSERT_EQ(w.queue(l, record_work, record_after), 0);
  EXPECT_EQ(w.owner(), &l);
  EXPECT_EQ(l.active_requests(), 1u);
  EXPECT_TRUE(l.alive());
  EXPECT_EQ(l.close(), pl::errc::busy) << "a request is in flight";
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.work_calls.load(), 1);
  EXPECT_FALSE(s.work_on_loop_thread.load());
  EXPECT_EQ(s.after_calls, 1);
  EXPECT_EQ(s.status, 0);
  EXPECT_TRUE(s.after_on_loop_thread);
  EXPECT_EQ(s.after_req, &w);
  EXPECT_EQ(l.active_requests(), 0u);
  EXPECT_EQ(finish(l), 0);
}

class threadpool_recorded : public pltest::recorded_loop {};

TEST_F(threadpool_recorded, after_callback_runs_in_poll_phase) {
  pl::work w;
  wstate s;
  s.loop_thread = std::this_thread::get_id();
  w.data = &s;
  ASSERT_EQ(w.queue(l, record_work, record_after), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(rec.calls_of(pl::callback_kind::work_done), (pltest::call_sites{{pl::phase::poll, nullptr, &w}}));
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, null_after_callback_is_allowed) {
  pl::loop l;
  pl::work w;
  wstate s;
  w.data = &s;
  ASSERT_EQ(w.queue(l, record_work, nullptr), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.work_calls.load(), 1);
  EXPECT_EQ(l.active_requests(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, queue_without_work_function_returns_invalid) {
  pl::loop l;
  pl::work w;
  EXPECT_EQ(w.queue(l, nullptr, record_after), pl::errc::invalid);
  EXPECT_EQ(l.active_requests(), 0u);
  EXPECT_FALSE(l.alive());
  EXPECT_EQ(w.cancel(), pl::errc::busy) << "never queued";
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, cancel_queued_gets_canceled_status) {
  pl::loop l;
  pltest::gate g;
  ASSERT_EQ(g.occupy(l, occupy_count), 0);
  // Queued behind every blocker: no thread can have started it.
  pl::work target;
  wstate s;
  s.loop_thread = std::this_thread::get_id();
  target.data = &s;
  ASSERT_EQ(target.queue(l, [](pl::work*) { ADD_FAILURE() << "a canceled request ran"; }, record_after), 0);
  EXPECT_EQ(l.active_requests(), static_cast<unsigned>(occupy_count + 1));
  EXPECT_EQ(target.cancel(), 0);
  // As in libuv: canceled again before its callback ran, it succeeds (the
  // callback still runs once; see test/diff/078_work_cancel_twice.c).
  EXPECT_EQ(target.cancel(), 0) << "canceled again before its callback";
  EXPECT_EQ(s.after_calls, 0) << "the after callback comes from the loop";
  // The canceled request still keeps the loop alive until its callback ran.
  EXPECT_EQ(l.active_requests(), static_cast<unsigned>(occupy_count + 1));
  // Let the blocked requests go, then run everything.
  g.open.count_down();
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(s.after_calls, 1);
  EXPECT_EQ(s.status, pl::errc::canceled);
  EXPECT_TRUE(s.after_on_loop_thread);
  EXPECT_EQ(g.started.load(), occupy_count);
  EXPECT_EQ(l.active_requests(), 0u);
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, cancel_of_running_or_finished_request_returns_busy) {
  pl::loop l;
  pltest::gate g;
  pltest::blocker b;
  b.g = &g;
  ASSERT_EQ(b.queue(l, pltest::blocker::block, nullptr), 0);
  // Wait (bounded) until a pool thread runs it. The pool may be busy with
  // another test's leftovers only briefly: every test drains its requests.
  const std::uint64_t start = pl::loop::hrtime();
  while (g.started.load() == 0 && pltest::ms_since(start) < 5000) std::this_thread::yield();
  ASSERT_EQ(g.started.load(), 1);
  EXPECT_EQ(b.cancel(), pl::errc::busy) << "running";
  g.open.count_down();
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(b.cancel(), pl::errc::busy) << "done";
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, work_and_timers_share_the_loop) {
  pl::loop l;
  std::atomic<int> done{0};
  constexpr int n = 16;
  pl::work ws[n];
  for (pl::work& w : ws) {
    w.data = &done;
    ASSERT_EQ(w.queue(
                  l, [](pl::work*) {},
                  [](pl::work* r, int status) {
                    EXPECT_EQ(status, 0);
                    ++*static_cast<std::atomic<int>*>(r->data);
                  }),
              0);
  }
  pl::timer t(l);
  int fired = 0;
  t.data = &fired;
  ASSERT_EQ(t.start([](pl::timer* h) { ++*static_cast<int*>(h->data); }, 1, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(done.load(), n);
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(finish(l), 0);
}

TEST(threadpool, requests_from_several_loops_complete_on_their_own_loop) {
  pl::loop a, b;
  pl::work wa, wb;
  wstate sa, sb;
  sa.loop_thread = sb.loop_thread = std::this_thread::get_id();
  wa.data = &sa;
  wb.data = &sb;
  ASSERT_EQ(wa.queue(a, record_work, record_after), 0);
  ASSERT_EQ(wb.queue(b, record_work, record_after), 0);
  EXPECT_EQ(a.run(), 0);
  EXPECT_EQ(sa.after_calls, 1);
  EXPECT_EQ(sb.after_calls, 0) << "b's completion must wait for b to run";
  EXPECT_EQ(b.run(), 0);
  EXPECT_EQ(sb.after_calls, 1);
  EXPECT_EQ(finish(a), 0);
  EXPECT_EQ(finish(b), 0);
}

TEST(threadpool, loop_can_be_destroyed_right_after_its_requests_complete) {
  // Many short-lived loops, each freed as soon as its last completion ran:
  // a pool thread must not touch a loop after handing its result over (in
  // libuv the worker wakes the loop while holding the loop's wq mutex, and
  // uv_loop_close takes that mutex). The race needs a worker preempted
  // right after queueing its result, so this catches it only sometimes, and
  // only under AddressSanitizer (heap-use-after-free in async::send).
  for (int round = 0; round < 2000; round++) {
    auto l = std::make_unique<pl::loop>();
    constexpr int n = 2;
    pl::work ws[n];
    for (pl::work& w : ws) ASSERT_EQ(w.queue(*l, [](pl::work*) {}, nullptr), 0);
    ASSERT_EQ(l->run(), 0);
    ASSERT_EQ(l->close(), 0);
    l.reset();
  }
}

}  // namespace

// Requests that follow each other quickly make a worker spin for the next
// one instead of sleeping; a burst posted then must still spread over the
// pool's threads (the spinning worker takes one, the others are woken),
// not queue behind the spinner.
TEST(threadpool, a_burst_after_a_quick_chain_runs_on_every_worker) {
  ASSERT_TRUE(pool_size_set);
  pl::loop l;
  struct chain {
    int left = 500;
    pl::work w;
    static void nothing(pl::work*) {}
    static void next(pl::work* w, int) {
      auto* ch = static_cast<chain*>(w->data);
      if (--ch->left > 0) {
        EXPECT_EQ(w->queue(*w->owner(), nothing, next), 0);
      }
    }
  } c;
  c.w.data = &c;
  ASSERT_EQ(c.w.queue(l, chain::nothing, chain::next), 0);
  l.run();
  ASSERT_EQ(c.left, 0);

  // Two requests that each wait until both run: they finish only if two
  // workers take them at once.
  struct pair_state {
    std::latch both{2};
    std::atomic<int> done{0};
  } p;
  pl::work a, b;
  a.data = b.data = &p;
  auto work = [](pl::work* w) {
    auto* s = static_cast<pair_state*>(w->data);
    s->both.count_down();
    // Bounded: a pool that ran them one after the other fails the test
    // instead of hanging it.
    for (int i = 0; i < 2000 && !s->both.try_wait(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (s->both.try_wait()) s->done++;
  };
  ASSERT_EQ(a.queue(l, work, [](pl::work*, int) {}), 0);
  ASSERT_EQ(b.queue(l, work, [](pl::work*, int) {}), 0);
  l.run();
  EXPECT_EQ(p.done.load(), 2);
  EXPECT_EQ(finish(l), 0);
}
