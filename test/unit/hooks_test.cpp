// SPDX-License-Identifier: MIT
// Phase hooks: the phase sequence of one iteration under each profile and
// run mode, what callback events carry, and hooks that act on the loop
// (stop it, remove themselves or other hooks).

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_util.hpp"

namespace {

using pltest::recorder;

// The tests that record a loop's events from its start.
class hooks_recorded : public pltest::recorded_loop {};

// The phases one run() enters, for a loop with one active idle handle
// (whose callback stops the loop in DEFAULT mode, so that every mode makes
// exactly one iteration).
strings phases_of_one_run(pl::profile p, pl::run_mode mode) {
  pl::loop l;
  l.set_order(p);
  recorder rec;
  l.add_hook(rec);
  pl::idle i(l);
  pl::run_mode m = mode;
  i.data = &m;
  EXPECT_EQ(i.start([](pl::idle* h) {
              if (*static_cast<pl::run_mode*>(h->data) == pl::run_mode::default_) h->owner().stop();
            }),
            0);
  EXPECT_EQ(l.run(mode), 1);
  EXPECT_EQ(l.iteration(), 1u);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
  return rec.entered();
}

// The phases of one iteration are the same in every profile and mode; the
// timers passes around them are not. "timers*": the timers pass run before
// the first iteration.
const strings iteration_phases = {"pending", "idle", "prepare", "poll", "check", "closing"};

struct order_case {
  const char* name;
  pl::profile profile;
  pl::run_mode mode;
  strings before, after;  // the phases entered before and after iteration_phases
  friend void PrintTo(const order_case& c, std::ostream* os) { *os << c.name; }
};

using enum pl::run_mode;
constexpr pl::profile v1_44 = pl::profile::libuv_1_44, v1_45 = pl::profile::libuv_1_45;

const order_case order_cases[] = {
    {"v1_44_once", v1_44, once, {"timers"}, {"timers"}},
    {"v1_44_nowait", v1_44, nowait, {"timers"}, {}},
    {"v1_44_default", v1_44, default_, {"timers"}, {}},
    {"v1_45_default", v1_45, default_, {"timers*"}, {"timers"}},
    {"v1_45_once", v1_45, once, {}, {"timers"}},
    {"v1_45_nowait", v1_45, nowait, {}, {"timers"}},
};

class phase_order : public ::testing::TestWithParam<order_case> {};
INSTANTIATE_TEST_SUITE_P(hooks, phase_order, ::testing::ValuesIn(order_cases), pltest::row_name());

TEST_P(phase_order, of_one_run_is_the_profiles) {
  const order_case& c = GetParam();
  strings want = c.before;
  want.insert(want.end(), iteration_phases.begin(), iteration_phases.end());
  want.insert(want.end(), c.after.begin(), c.after.end());
  EXPECT_EQ(phases_of_one_run(c.profile, c.mode), want);
}

TEST_F(hooks_recorded, phase_enter_and_exit_are_paired_and_carry_the_iteration) {
  pl::idle i(l);
  int calls = 0;
  i.data = &calls;
  ASSERT_EQ(i.start([](pl::idle* h) {
              if (++*static_cast<int*>(h->data) == 2) h->stop();
            }),
            0);
  EXPECT_EQ(l.run(), 0);
  ASSERT_FALSE(rec.phases.empty());
  ASSERT_EQ(rec.phases.size() % 2, 0u);
  for (std::size_t k = 0; k < rec.phases.size(); k += 2) {
    const auto& enter = rec.phases[k];
    const auto& exit = rec.phases[k + 1];
    EXPECT_TRUE(enter.enter);
    EXPECT_FALSE(exit.enter);
    EXPECT_EQ(enter.which, exit.which);
    EXPECT_EQ(enter.iteration, exit.iteration);
    EXPECT_EQ(enter.before_loop, exit.before_loop);
    // Only the pre-iteration timers pass is flagged, and it has iteration 0.
    if (enter.before_loop) {
      EXPECT_EQ(enter.which, pl::phase::timers);
      EXPECT_EQ(enter.iteration, 0u);
    } else {
      EXPECT_GE(enter.iteration, 1u);
      EXPECT_LE(enter.iteration, 2u);
    }
  }
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(hooks_recorded, poll_phase_event_carries_the_poll_timeout) {
  pl::timer t(l);
  // Long enough that a stalled machine (sanitizers, CI load) still finds
  // the timer not due when poll computes its timeout.
  l.update_time();
  ASSERT_EQ(t.start([](pl::timer*) {}, 200, 0), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 0);
  const std::vector<int> polls = rec.poll_timeouts();
  EXPECT_EQ(polls.size(), 1u);
  for (int timeout : polls) {
    EXPECT_GT(timeout, 0);
    EXPECT_LE(timeout, 200);
  }
  rec.clear();
  pl::idle i(l);
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  EXPECT_EQ(rec.poll_timeouts(), (std::vector<int>{0}));
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(hooks_recorded, poll_exit_event_reports_the_timeout_poll_was_given) {
  // A signal interrupts the wait (EINTR) and the poll phase waits again for
  // the rest of its timeout; both events must still report the timeout the
  // phase was given.
  pl::signal s(l);
  pl::timer t(l);
  ASSERT_EQ(s.start([](pl::signal* h, int) { h->stop(); }, SIGUSR1), 0);
  // The signal ends the run long before the timer is due (a loaded
  // machine must not make poll's timeout 0).
  ASSERT_EQ(t.start([](pl::timer*) {}, 2000, 0), 0);
  const pthread_t loop_thread = pthread_self();
  std::thread killer([loop_thread] {
    pltest::spin_ms(10);
    pthread_kill(loop_thread, SIGUSR1);
  });
  EXPECT_EQ(l.run(pl::run_mode::once), 1);
  killer.join();
  int enter_timeout = -2, exit_timeout = -2;
  for (const auto& p : rec.phases)
    if (p.which == pl::phase::poll) (p.enter ? enter_timeout : exit_timeout) = p.timeout;
  EXPECT_GT(enter_timeout, 0);
  EXPECT_EQ(exit_timeout, enter_timeout);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST_F(hooks_recorded, callback_events_carry_handle_and_phase) {
  l.set_order(pl::profile::libuv_1_44);
  pl::timer t(l);
  pl::idle i(l);
  pl::prepare p(l);
  pl::check c(l);
  ASSERT_EQ(t.start([](pl::timer* h) { h->close([](pl::handle*) {}); }, 0, 0), 0);
  ASSERT_EQ(i.start([](pl::idle* h) { h->stop(); }), 0);
  ASSERT_EQ(p.start([](pl::prepare* h) { h->stop(); }), 0);
  ASSERT_EQ(c.start([](pl::check* h) { h->stop(); }), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
  const auto calls = rec.calls();
  ASSERT_EQ(calls.size(), 5u);
  struct expect_t {
    pl::phase which;
    pl::callback_kind kind;
    pl::handle* handle;
  } expected[] = {
      {pl::phase::timers, pl::callback_kind::timer, &t},
      {pl::phase::idle, pl::callback_kind::idle, &i},
      {pl::phase::prepare, pl::callback_kind::prepare, &p},
      {pl::phase::check, pl::callback_kind::check, &c},
      {pl::phase::closing, pl::callback_kind::close, &t},
  };
  for (std::size_t k = 0; k < calls.size(); k++) {
    SCOPED_TRACE(k);
    EXPECT_EQ(calls[k].which, expected[k].which);
    EXPECT_EQ(calls[k].kind, expected[k].kind);
    EXPECT_EQ(calls[k].handle, expected[k].handle);
    EXPECT_EQ(calls[k].request, nullptr);
    EXPECT_EQ(calls[k].iteration, 1u);
  }
  // Every callback_enter is followed by its callback_exit with the same data.
  ASSERT_EQ(rec.callbacks.size(), 10u);
  for (std::size_t k = 0; k < rec.callbacks.size(); k += 2) {
    EXPECT_TRUE(rec.callbacks[k].enter);
    EXPECT_FALSE(rec.callbacks[k + 1].enter);
    EXPECT_EQ(rec.callbacks[k].kind, rec.callbacks[k + 1].kind);
    EXPECT_EQ(rec.callbacks[k].handle, rec.callbacks[k + 1].handle);
  }
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, callback_events_are_inside_their_phase) {
  pl::loop l;
  // A hook that checks every callback event against the phase it is in.
  struct nesting : pl::hook {
    bool in_phase = false;
    pl::phase current{};
    int checked = 0;
    void phase_enter(pl::loop&, const pl::phase_event& e) override {
      EXPECT_FALSE(in_phase);
      in_phase = true;
      current = e.which;
    }
    void phase_exit(pl::loop&, const pl::phase_event& e) override {
      EXPECT_TRUE(in_phase);
      EXPECT_EQ(e.which, current);
      in_phase = false;
    }
    void callback_enter(pl::loop&, const pl::callback_event& e) override {
      EXPECT_TRUE(in_phase);
      EXPECT_EQ(e.which, current);
      checked++;
    }
  } hk;
  l.add_hook(hk);
  pl::timer t(l);
  pl::async a(l, [](pl::async* h) { h->close([](pl::handle*) {}); });
  pl::idle i(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  ASSERT_EQ(i.start([](pl::idle* h) { h->close([](pl::handle*) {}); }), 0);
  ASSERT_EQ(a.send(), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(hk.checked, 5);  // timer, idle, async, two closes
  l.remove_hook(hk);
  EXPECT_EQ(finish(l), 0);
}

struct logging_hook : pl::hook {
  explicit logging_hook(event_log* lg = nullptr, std::string n = {}) : log(lg), name(std::move(n)) {}

  event_log* log;
  std::string name;
  pl::hook* remove_on_first = nullptr;  // removed at the first phase_enter
  bool removed = false;
  int enters = 0;
  void phase_enter(pl::loop& l, const pl::phase_event& e) override {
    enters++;
    if (log) log->add(name + ":" + pl::phase_name(e.which));
    if (remove_on_first && !removed) {
      removed = true;
      l.remove_hook(*remove_on_first);
    }
  }
};

// Runs one NOWAIT iteration of `l` in 1.45's order (seven phases entered),
// kept going by the idle handle `i`, which stops itself.
void run_one_nowait_iteration(pl::loop& l, pl::idle& i) {
  ASSERT_EQ(i.start([](pl::idle* h) { h->stop(); }), 0);
  l.set_order(pl::profile::libuv_1_45);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 0);
}

TEST(hooks, hooks_run_in_the_order_they_were_added) {
  pl::loop l;
  event_log log;
  logging_hook a(&log, "a"), b(&log, "b");
  l.add_hook(b);
  l.add_hook(a);
  l.add_hook(b);  // adding an attached hook again changes nothing
  EXPECT_TRUE(l.hooked());
  pl::idle i(l);
  run_one_nowait_iteration(l, i);
  ASSERT_GE(log.events.size(), 4u);
  EXPECT_EQ(log.events[0], "b:pending");
  EXPECT_EQ(log.events[1], "a:pending");
  EXPECT_EQ(log.events[2], "b:idle");
  EXPECT_EQ(log.events[3], "a:idle");
  EXPECT_EQ(a.enters, 7);
  EXPECT_EQ(b.enters, 7);
  l.remove_hook(a);
  l.remove_hook(b);
  l.remove_hook(b);  // removing a detached hook is harmless
  EXPECT_FALSE(l.hooked());
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, removing_hook_from_inside_hook_is_safe) {
  pl::loop l;
  logging_hook self, other;
  self.remove_on_first = &self;
  l.add_hook(self);
  l.add_hook(other);
  pl::idle i(l);
  run_one_nowait_iteration(l, i);
  EXPECT_EQ(self.enters, 1);   // saw the event during which it left
  EXPECT_EQ(other.enters, 7);  // the hook after it saw every event
  EXPECT_TRUE(l.hooked());
  l.remove_hook(other);
  EXPECT_FALSE(l.hooked());
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, removing_hook_from_its_callback_enter_skips_its_callback_exit) {
  pl::loop l;
  struct once_hook : pl::hook {
    int enters = 0, exits = 0;
    void callback_enter(pl::loop& lp, const pl::callback_event&) override {
      enters++;
      lp.remove_hook(*this);
    }
    void callback_exit(pl::loop&, const pl::callback_event&) override { exits++; }
  } h;
  recorder rec;
  l.add_hook(h);
  l.add_hook(rec);
  pl::timer t(l);
  ASSERT_EQ(t.start([](pl::timer*) {}, 0, 0), 0);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(h.enters, 1);
  EXPECT_EQ(h.exits, 0);
  EXPECT_EQ(rec.callbacks.size(), 2u);  // the other hook saw enter and exit
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, removing_other_hook_from_inside_hook_skips_it_and_keeps_the_rest) {
  // Hooks a, b, c. During the first phase_enter, a detaches b. b must not be
  // called once detached (its owner may already have destroyed it), and c,
  // which is still attached, must still be called for that event.
  pl::loop l;
  event_log log;
  logging_hook a(&log, "a"), b(&log, "b"), c(&log, "c");
  a.remove_on_first = &b;
  l.add_hook(a);
  l.add_hook(b);
  l.add_hook(c);
  pl::idle i(l);
  run_one_nowait_iteration(l, i);
  EXPECT_EQ(b.enters, 0) << "a detached hook was called";
  EXPECT_EQ(c.enters, a.enters) << "an attached hook missed events";
  ASSERT_GE(log.events.size(), 2u);
  EXPECT_EQ(log.events[0], "a:pending");
  EXPECT_EQ(log.events[1], "c:pending");
  l.remove_hook(a);
  l.remove_hook(c);
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, hook_can_stop_loop) {
  pl::loop l;
  struct stopper : pl::hook {
    int stops = 0;
    void phase_enter(pl::loop& lp, const pl::phase_event& e) override {
      if (e.which == pl::phase::prepare) {
        stops++;
        lp.stop();
      }
    }
  } h;
  recorder rec;
  l.add_hook(h);
  l.add_hook(rec);
  pl::timer far(l);
  ASSERT_EQ(far.start([](pl::timer*) { ADD_FAILURE() << "far timer fired"; }, 10000, 0), 0);
  const std::uint64_t start = pl::loop::hrtime();
  EXPECT_EQ(l.run(), 1);
  EXPECT_LT(pltest::ms_since(start), 1000.0);
  EXPECT_EQ(h.stops, 1);
  EXPECT_EQ(l.iteration(), 1u);
  const std::vector<int> polls = rec.poll_timeouts();
  EXPECT_FALSE(polls.empty());
  for (int timeout : polls) EXPECT_EQ(timeout, 0);
  l.remove_hook(h);
  l.remove_hook(rec);
  EXPECT_EQ(finish(l), 0);
}

TEST(hooks, hook_can_close_a_handle) {
  pl::loop l;
  struct closer : pl::hook {
    pl::handle* victim = nullptr;
    void phase_enter(pl::loop&, const pl::phase_event& e) override {
      if (e.which == pl::phase::check && victim && !victim->is_closing()) victim->close(nullptr);
    }
  } h;
  pl::idle i(l);
  int calls = 0;
  i.data = &calls;
  ASSERT_EQ(i.start([](pl::idle* x) { ++*static_cast<int*>(x->data); }), 0);
  h.victim = &i;
  l.add_hook(h);
  EXPECT_EQ(l.run(), 0);  // closing the only handle ends the run
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(i.is_closing());
  l.remove_hook(h);
  EXPECT_EQ(l.close(), 0);
}

TEST(hooks, hook_attached_to_one_loop_is_not_taken_by_another) {
  pl::loop a, b;
  recorder rec;
  a.add_hook(rec);
  b.add_hook(rec);  // already attached elsewhere: ignored
  EXPECT_TRUE(a.hooked());
  EXPECT_FALSE(b.hooked());
  b.remove_hook(rec);  // not b's: ignored
  EXPECT_TRUE(a.hooked());
  pl::idle i(b);
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  EXPECT_EQ(b.run(pl::run_mode::nowait), 1);
  EXPECT_TRUE(rec.phases.empty()) << "b's phases reached a's hook";
  a.remove_hook(rec);
  EXPECT_FALSE(a.hooked());
  EXPECT_EQ(finish(a), 0);
  EXPECT_EQ(finish(b), 0);
}

TEST_F(hooks_recorded, no_events_after_removal) {
  pl::idle i(l);
  ASSERT_EQ(i.start([](pl::idle*) {}), 0);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  const std::size_t seen = rec.phases.size();
  EXPECT_GT(seen, 0u);
  l.remove_hook(rec);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);
  EXPECT_EQ(rec.phases.size(), seen);
  EXPECT_EQ(finish(l), 0);
}

// request_started: each request started on the loop, before its callback
// (which the callback hooks see with the same request); stopped: stop().
struct request_log : pl::hook {
  std::vector<std::string> seen;
  void request_started(pl::loop&, const pl::request_event& e) override {
    seen.push_back(std::string("start ") + pl::req_type_name(e.request->type()));
    started.push_back(e.request);
  }
  void callback_enter(pl::loop&, const pl::callback_event& e) override {
    if (e.request != nullptr) seen.push_back(std::string("done ") + pl::req_type_name(e.request->type()));
  }
  void stopped(pl::loop& l) override { seen.push_back("stop at " + std::to_string(l.iteration())); }
  std::vector<pl::req*> started;
};

TEST(hooks, request_started_precedes_its_completion_and_stop_is_seen) {
  pl::loop l;
  request_log log;
  l.add_hook(log);
  pl::work w;
  pl::fs_req f;
  ASSERT_EQ(w.queue(l, [](pl::work*) {}, [](pl::work*, int) {}), 0);
  ASSERT_EQ(f.stat(&l, "/", [](pl::fs_req*) {}), 0);
  EXPECT_EQ(log.seen, (strings{"start work", "start fs"}));
  EXPECT_EQ(log.started, (std::vector<pl::req*>{&w, &f}));
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  ASSERT_EQ(log.seen.size(), 4u);
  // The two completions come in either order (two workers).
  EXPECT_TRUE((log.seen[2] == "done work" && log.seen[3] == "done fs") ||
              (log.seen[2] == "done fs" && log.seen[3] == "done work"))
      << log.seen[2] << ", " << log.seen[3];
  pl::idle i(l);
  ASSERT_EQ(i.start([](pl::idle* h) { h->owner().stop(); }), 0);
  const std::string stop_at = "stop at " + std::to_string(l.iteration() + 1);
  EXPECT_EQ(l.run(pl::run_mode::default_), 1);
  EXPECT_EQ(log.seen.back(), stop_at);
  l.remove_hook(log);
  l.stop();  // no hook any more: nothing seen
  EXPECT_EQ(log.seen.back(), stop_at);
  EXPECT_EQ(l.run(pl::run_mode::nowait), 1);  // (the stop ends this run at once)
  i.close(nullptr);
  EXPECT_EQ(finish(l), 0);
}

// job_ran: a threadpool job is reported once, before its completion
// callback, with the worker that ran it and a run time at least as long
// as the work slept; a request submitted with no hook attached, or
// canceled before it ran, is not reported.
struct job_log : pl::hook {
  std::vector<pl::job_event> jobs;
  std::vector<std::string> order;
  const void* watched = nullptr;
  void job_ran(pl::loop&, const pl::job_event& e) override {
    jobs.push_back(e);
    order.push_back("job");
  }
  void callback_enter(pl::loop&, const pl::callback_event& e) override {
    if (e.kind == pl::callback_kind::work_done) order.push_back(e.request == watched ? "done" : "other done");
  }
};

TEST(hooks, job_ran_reports_each_job_with_its_worker_and_run_time) {
  pl::loop l;
  pl::work unwatched;
  ASSERT_EQ(unwatched.queue(l, [](pl::work*) {}, [](pl::work*, int) {}), 0);
  job_log log;
  l.add_hook(log);
  pl::work w;
  log.watched = &w;
  const std::uint64_t before = pl::loop::hrtime();
  ASSERT_EQ(w.queue(l, [](pl::work*) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); },
                    [](pl::work*, int) {}),
            0);
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  ASSERT_EQ(log.jobs.size(), 1u);
  EXPECT_EQ(log.jobs[0].request, &w);
  EXPECT_LT(log.jobs[0].worker, 1024u);
  EXPECT_GE(log.jobs[0].began_ns, before);
  EXPECT_GE(log.jobs[0].run_ns, 20'000'000u);
  EXPECT_LT(log.jobs[0].began_ns + log.jobs[0].run_ns, pl::loop::hrtime());
  // Ours is told once, before its callback; the unwatched one's callback
  // comes before or after, as the workers happen to finish.
  const strings first{"other done", "job", "done"}, last{"job", "done", "other done"};
  EXPECT_TRUE(log.order == first || log.order == last) << ::testing::PrintToString(log.order);
  l.remove_hook(log);
  EXPECT_EQ(finish(l), 0);
}

// async_sent: a send from another thread while a hook is attached is told
// before the callback, with the sender's thread id and the send's time;
// coalesced sends are told once.
struct send_log : pl::hook {
  std::vector<pl::send_event> sends;
  int callbacks = 0;
  void async_sent(pl::loop&, const pl::send_event& e) override { sends.push_back(e); }
  void callback_enter(pl::loop&, const pl::callback_event& e) override {
    if (e.kind == pl::callback_kind::async) callbacks++;
  }
};

TEST(hooks, async_sent_names_the_sending_thread) {
  pl::loop l;
  send_log log;
  l.add_hook(log);
  pl::async a(l, [](pl::async* h) { h->close(nullptr); });
  long sender = 0;
  const std::uint64_t before = pl::loop::hrtime();
  std::thread t([&] {
    sender = static_cast<long>(::syscall(SYS_gettid));
    a.send();
    a.send();  // coalesces into the first
  });
  t.join();
  EXPECT_EQ(l.run(pl::run_mode::default_), 0);
  EXPECT_EQ(log.callbacks, 1);
  ASSERT_EQ(log.sends.size(), 1u);
  EXPECT_EQ(log.sends[0].handle, &a);
  EXPECT_EQ(log.sends[0].thread, sender);
  EXPECT_NE(sender, static_cast<long>(::syscall(SYS_gettid)));
  EXPECT_GE(log.sends[0].sent_ns, before);
  l.remove_hook(log);
  EXPECT_EQ(finish(l), 0);
}

}  // namespace
