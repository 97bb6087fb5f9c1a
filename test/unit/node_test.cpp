// SPDX-License-Identifier: MIT
// The Node layer: the drain rule, timers and immediates in each mode. The
// fixture mirrors the JavaScript API (setTimeout, setImmediate, nextTick,
// queueMicrotask) with C++ closures, so each test reads like the snippet it
// models; the expected orders are those real Node prints for the snippet
// (test/oracle/node holds the same cases run against real Node).

#include <cmath>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "phaseloop/node.hpp"

namespace {

namespace pl = phaseloop;
namespace pn = phaseloop::node;
using fn = std::function<void()>;

class js {
 public:
  explicit js(pn::mode m) : rt(loop, m) {}
  ~js() {
    // Timeouts and immediates clear themselves; free them before the runtime.
    timeouts.clear();
    immediates.clear();
  }

  void log(std::string s) { out.push_back(std::move(s)); }
  std::string joined() const {
    std::string r;
    for (const auto& s : out) r += (r.empty() ? "" : " ") + s;
    return r;
  }

  pn::timeout* set_timeout(double ms, fn f, bool repeat = false) {
    auto& e = timeouts.emplace_back(std::make_unique<entry<pn::timeout>>(rt, std::move(f)));
    e->obj.data = e.get();
    e->obj.start([](pn::timeout* t) { static_cast<entry<pn::timeout>*>(t->data)->f(); }, ms, repeat);
    return &e->obj;
  }
  pn::timeout* set_interval(double ms, fn f) { return set_timeout(ms, std::move(f), true); }
  pn::immediate* set_immediate(fn f) {
    auto& e = immediates.emplace_back(std::make_unique<entry<pn::immediate>>(rt, std::move(f)));
    e->obj.data = e.get();
    e->obj.start([](pn::immediate* i) { static_cast<entry<pn::immediate>*>(i->data)->f(); });
    return &e->obj;
  }
  void next_tick(fn f) { rt.next_tick(heap_task(std::move(f))); }
  void microtask(fn f) { rt.queue_microtask(heap_task(std::move(f))); }
  // Busy-waits until the loop clock has moved `ms` past now.
  void busy_wait(std::uint64_t ms) {
    loop.update_time();
    const std::uint64_t until = loop.now() + ms;
    while (loop.now() < until) loop.update_time();
  }
  int run(fn main) {
    auto* m = new fn(std::move(main));
    return rt.run_main({[](void* a) {
                          auto* g = static_cast<fn*>(a);
                          (*g)();
                          delete g;
                        },
                        m});
  }

  pl::loop loop;
  pn::runtime rt;
  std::vector<std::string> out;

 private:
  template <class T>
  struct entry {
    entry(pn::runtime& r, fn g) : obj(r), f(std::move(g)) {}
    T obj;
    fn f;
  };
  static pn::task heap_task(fn f) {
    return {[](void* a) {
              auto* g = static_cast<fn*>(a);
              (*g)();
              delete g;
            },
            new fn(std::move(f))};
  }
  std::list<std::unique_ptr<entry<pn::timeout>>> timeouts;
  std::list<std::unique_ptr<entry<pn::immediate>>> immediates;
};

constexpr pn::mode all_modes[] = {pn::mode::node10, pn::mode::node11, pn::mode::current};

class NodeModes : public ::testing::TestWithParam<pn::mode> {};
INSTANTIATE_TEST_SUITE_P(AllModes, NodeModes, ::testing::ValuesIn(all_modes),
                         [](const auto& p) { return std::string(pn::mode_name(p.param)); });

// ---- rules every mode shares ---------------------------------------------------

TEST_P(NodeModes, TicksRunBeforeMicrotasksAndTicksFromMicrotasksWait) {
  js j(GetParam());
  j.run([&] {
    j.microtask([&] {
      j.log("m1");
      j.next_tick([&] { j.log("t-from-m1"); });
      j.microtask([&] { j.log("m-from-m1"); });
    });
    j.next_tick([&] {
      j.log("t1");
      j.next_tick([&] { j.log("t-from-t1"); });
      j.microtask([&] { j.log("m-from-t1"); });
    });
    j.log("main");
  });
  EXPECT_EQ(j.joined(), "main t1 t-from-t1 m1 m-from-t1 m-from-m1 t-from-m1");
}

TEST_P(NodeModes, NestedNativeCallbacksDrainOnlyWhenTheOutermostReturns) {
  js j(GetParam());
  j.run([&] {
    j.rt.call_fn([&] {
      j.next_tick([&] { j.log("tick"); });
      j.log("inner");
    });
    j.log("outer");
  });
  EXPECT_EQ(j.joined(), "inner outer tick");
}

TEST_P(NodeModes, ImmediatesQueuedDuringAPassWaitForTheNextOne) {
  js j(GetParam());
  j.run([&] {
    j.set_immediate([&] {
      j.log("i1");
      j.set_immediate([&] { j.log("i3"); });
    });
    j.set_immediate([&] { j.log("i2"); });
  });
  EXPECT_EQ(j.joined(), "i1 i2 i3");
}

TEST_P(NodeModes, ClearImmediateFromAnEarlierImmediateOfThePass) {
  js j(GetParam());
  pn::immediate* second = nullptr;
  j.run([&] {
    j.set_immediate([&] {
      j.log("i1");
      second->clear();
    });
    second = j.set_immediate([&] { j.log("i2"); });
    j.set_immediate([&] { j.log("i3"); });
  });
  EXPECT_EQ(j.joined(), "i1 i3");
}

TEST_P(NodeModes, ShorterDelayListRunsFirstAndEqualDelaysKeepOrder) {
  js j(GetParam());
  j.run([&] {
    j.set_timeout(30, [&] { j.log("a30"); });
    j.set_timeout(1, [&] { j.log("b1"); });
    j.set_timeout(1, [&] { j.log("c1"); });
    j.set_timeout(30, [&] { j.log("d30"); });
  });
  EXPECT_EQ(j.joined(), "b1 c1 a30 d30");
}

TEST_P(NodeModes, DelayClampAndTimeoutMax) {
  EXPECT_EQ(pn::clamp_delay(0), 1);
  EXPECT_EQ(pn::clamp_delay(-5), 1);
  EXPECT_EQ(pn::clamp_delay(std::nan("")), 1);
  EXPECT_EQ(pn::clamp_delay(pn::timeout_max + 1), 1);
  EXPECT_EQ(pn::clamp_delay(pn::timeout_max), pn::timeout_max);
  EXPECT_EQ(pn::clamp_delay(2.5), 2.5);
  // 0 and 1 share the 1 ms list, so they run in insertion order.
  js j(GetParam());
  j.run([&] {
    j.set_timeout(1, [&] { j.log("one"); });
    j.set_timeout(0, [&] { j.log("zero"); });
    j.set_timeout(-1, [&] { j.log("neg"); });
    j.busy_wait(3);
  });
  EXPECT_EQ(j.joined(), "one zero neg");
}

TEST_P(NodeModes, IntervalRearmsUntilClearedFromItsOwnCallback) {
  js j(GetParam());
  int n = 0;
  pn::timeout* iv = nullptr;
  j.run([&] {
    iv = j.set_interval(1, [&] {
      j.log("iv" + std::to_string(++n));
      if (n == 3) iv->clear();
    });
  });
  EXPECT_EQ(j.joined(), "iv1 iv2 iv3");
  EXPECT_FALSE(iv->active());
  EXPECT_EQ(j.rt.refed_timeouts(), 0u);
}

TEST_P(NodeModes, ClearingALaterTimerOfTheSameListFromAnEarlierOne) {
  js j(GetParam());
  pn::timeout* victim = nullptr;
  j.run([&] {
    j.set_timeout(1, [&] {
      j.log("first");
      victim->clear();
    });
    victim = j.set_timeout(1, [&] { j.log("victim"); });
    j.set_timeout(1, [&] { j.log("third"); });
    j.busy_wait(3);
  });
  EXPECT_EQ(j.joined(), "first third");
}

TEST_P(NodeModes, UnrefedTimeoutDoesNotKeepTheLoopAlive) {
  js j(GetParam());
  j.run([&] {
    pn::timeout* t = j.set_timeout(50, [&] { j.log("never"); });
    t->unref();
    EXPECT_FALSE(t->has_ref());
    j.set_timeout(1, [&] { j.log("refed"); });
  });
  EXPECT_EQ(j.joined(), "refed");
}

TEST_P(NodeModes, UnrefedTimeoutStillFiresWhileTheLoopRuns) {
  js j(GetParam());
  j.run([&] {
    pn::timeout* t = j.set_timeout(1, [&] { j.log("unrefed"); });
    t->unref();
    j.set_timeout(20, [&] { j.log("refed"); });
  });
  EXPECT_EQ(j.joined(), "unrefed refed");
}

TEST_P(NodeModes, RefreshRestartsTheCountdown) {
  // Both later timers count from the moment `first` runs (R >= 100): the
  // refreshed one is due at R + 200, `marker` at R + 100. Unrefreshed, it
  // would have been due at 200 <= R + 100. (The 100 ms between them let a
  // loaded machine stall the loop that long without changing the order.)
  js j(GetParam());
  pn::timeout* t = nullptr;
  j.run([&] {
    t = j.set_timeout(200, [&] { j.log("refreshed"); });
    j.set_timeout(100, [&] {
      j.log("first");
      // The marker first: a stall between the two calls then only widens
      // the gap instead of closing it.
      j.set_timeout(100, [&] { j.log("marker"); });
      t->refresh();
    });
  });
  EXPECT_EQ(j.joined(), "first marker refreshed");
}

TEST_P(NodeModes, TimeoutInsertedIntoTheRunningListWaitsForALaterPass) {
  js j(GetParam());
  j.run([&] {
    j.set_timeout(1, [&] {
      j.log("a");
      j.set_timeout(1, [&] { j.log("c"); });
      j.set_immediate([&] { j.log("imm"); });
    });
    j.set_timeout(1, [&] { j.log("b"); });
    j.busy_wait(2);
  });
  EXPECT_EQ(j.joined(), "a b imm c");
}

TEST_P(NodeModes, RejectionHookRunsWhenTheQueuesAreEmpty) {
  js j(GetParam());
  struct state {
    js* j;
    int calls = 0;
  } s{&j};
  j.rt.on_rejections(
      [](pn::runtime&, void* arg) {
        auto* st = static_cast<state*>(arg);
        st->j->log("rej" + std::to_string(++st->calls));
        if (st->calls == 1) {
          st->j->next_tick([st] { st->j->log("tick-from-rej"); });
          return true;
        }
        return false;
      },
      &s);
  j.run([&] { j.microtask([&] { j.log("m"); }); });
  EXPECT_EQ(j.joined(), "m rej1 tick-from-rej rej2");
}

TEST(NodeLayer, ModeNamesRoundTrip) {
  for (pn::mode m : all_modes) {
    pn::mode back{};
    ASSERT_TRUE(pn::parse_mode(pn::mode_name(m), back));
    EXPECT_EQ(back, m);
  }
  pn::mode x{};
  EXPECT_FALSE(pn::parse_mode("node12", x));
  EXPECT_EQ(pn::loop_profile(pn::mode::node10), pl::profile::libuv_1_44);
  EXPECT_EQ(pn::loop_profile(pn::mode::node11), pl::profile::libuv_1_44);
  EXPECT_EQ(pn::loop_profile(pn::mode::current), pl::profile::libuv_1_45);
  EXPECT_FALSE(pn::has_queue_microtask(pn::mode::node10));
  EXPECT_TRUE(pn::has_queue_microtask(pn::mode::node11));
}

// ---- what changed in Node 11 ---------------------------------------------------------

// The seed example: two expired timers, each queueing a promise job.
std::string two_timers_two_promises(pn::mode m) {
  js j(m);
  j.run([&] {
    j.set_timeout(0, [&] {
      j.log("timer1");
      j.microtask([&] { j.log("promise1"); });
    });
    j.set_timeout(0, [&] {
      j.log("timer2");
      j.microtask([&] { j.log("promise2"); });
    });
    j.busy_wait(2);
  });
  return j.joined();
}

TEST(NodeLayer, Node10RunsAListsTimersInOneNativeCallback) {
  EXPECT_EQ(two_timers_two_promises(pn::mode::node10), "timer1 timer2 promise1 promise2");
}

TEST(NodeLayer, Node11DrainsAfterEachTimer) {
  EXPECT_EQ(two_timers_two_promises(pn::mode::node11), "timer1 promise1 timer2 promise2");
  EXPECT_EQ(two_timers_two_promises(pn::mode::current), "timer1 promise1 timer2 promise2");
}

std::string immediates_with_ticks(pn::mode m) {
  js j(m);
  j.run([&] {
    j.set_immediate([&] {
      j.log("imm1");
      j.next_tick([&] { j.log("tick1"); });
      j.microtask([&] { j.log("promise1"); });
    });
    j.set_immediate([&] { j.log("imm2"); });
  });
  return j.joined();
}

TEST(NodeLayer, ImmediatesDrainPerCallbackFromNode11) {
  EXPECT_EQ(immediates_with_ticks(pn::mode::node10), "imm1 imm2 tick1 promise1");
  EXPECT_EQ(immediates_with_ticks(pn::mode::node11), "imm1 tick1 promise1 imm2");
  EXPECT_EQ(immediates_with_ticks(pn::mode::current), "imm1 tick1 promise1 imm2");
}

// Different durations are different lists: Node 10 drains between lists
// (each list is its own native callback) even though not between timers.
TEST(NodeLayer, Node10DrainsBetweenListsOfDifferentDurations) {
  js j(pn::mode::node10);
  j.run([&] {
    j.set_timeout(1, [&] {
      j.log("t1");
      j.microtask([&] { j.log("p1"); });
    });
    j.set_timeout(2, [&] {
      j.log("t2");
      j.microtask([&] { j.log("p2"); });
    });
    j.busy_wait(4);
  });
  EXPECT_EQ(j.joined(), "t1 p1 t2 p2");
}

TEST(NodeLayer, ClearingATimerFromATickBetweenTimersOfOneList) {
  // node11+: the tick queued by `first` runs before `second` and clears it.
  // node10: `second` has already run by the time the tick runs.
  for (pn::mode m : all_modes) {
    js j(m);
    pn::timeout* second = nullptr;
    j.run([&] {
      j.set_timeout(1, [&] {
        j.log("first");
        j.next_tick([&] {
          j.log("tick");
          second->clear();
        });
      });
      second = j.set_timeout(1, [&] { j.log("second"); });
      j.busy_wait(2);
    });
    EXPECT_EQ(j.joined(), m == pn::mode::node10 ? "first second tick" : "first tick")
        << pn::mode_name(m);
  }
}

// ---- the observer ------------------------------------------------------------------

TEST(NodeLayer, ObserverSeesNativeCallbacksAndTheirContents) {
  struct rec : pn::observer {
    std::vector<std::string> ev;
    void enter(pn::runtime&, const pn::event& e) override {
      ev.push_back(std::string("+") + pn::event_kind_name(e.kind) +
                   (e.label ? std::string(":") + e.label : ""));
    }
  } r;
  js j(pn::mode::node11);
  j.rt.set_observer(&r);
  j.run([&] {
    j.set_immediate([&] { j.next_tick([] {}); });
  });
  j.rt.set_observer(nullptr);
  const std::vector<std::string> want = {"+native:main", "+native:immediates", "+immediate",
                                         "+drain", "+tick"};
  EXPECT_EQ(r.ev, want);
}

}  // namespace

namespace {

TEST_P(NodeModes, RefreshAfterFiringRunsItAgainButNotAfterClear) {
  js j(GetParam());
  pn::timeout* t = nullptr;
  pn::timeout* cleared = nullptr;
  j.run([&] {
    t = j.set_timeout(1, [&] { j.log("fired"); });
    cleared = j.set_timeout(1, [&] { j.log("never"); });
    cleared->clear();
    j.set_timeout(5, [&] {
      j.log("refresh");
      t->refresh();
      cleared->refresh();
    });
    // Keeps node11's unref'd refresh alive; late enough that a stall of
    // the loop before `refresh` (up to ~190 ms) keeps the order.
    j.set_timeout(200, [&] { j.log("end"); });
  });
  EXPECT_EQ(j.joined(), "fired refresh fired end");
  // Node 11 loses the reference of a fired timeout it refreshes.
  EXPECT_EQ(t->has_ref(), GetParam() != pn::mode::node11);
}

}  // namespace

// ---- after a handled exception (runtime::threw) ----------------------------------

namespace {

// Every callback that "throws" calls rt.threw(), as the runner does when
// process.on('uncaughtException') took the exception.
std::string throwing_tick_then_timers(pn::mode m) {
  js j(m);
  j.run([&] {
    j.set_timeout(1, [&] {
      j.log("t1!");
      j.rt.threw();
    });
    j.set_timeout(1, [&] { j.log("t2"); });
    j.set_timeout(2, [&] { j.log("t3"); });
    j.next_tick([&] {
      j.log("tick1!");
      j.rt.threw();
    });
    j.next_tick([&] {
      j.log("tick2");
      j.microtask([&] { j.log("m-from-tick2"); });
    });
    j.microtask([&] { j.log("m1"); });
    j.busy_wait(5);
  });
  return j.joined();
}

}  // namespace

// A tick that threw ends the drain: the other ticks and the microtasks
// wait for the next native callback (the timers here), whose first
// timeouts run before them; after t1 threw, t2 runs without a drain before
// it (test/oracle/node/066 shows the same against real Node).
TEST_P(NodeModes, AThrowingTickLeavesTheRestForTheNextDrain) {
  EXPECT_EQ(throwing_tick_then_timers(GetParam()), "tick1! t1! t2 tick2 m1 m-from-tick2 t3");
}

// The main script threw and a listener took it: Node 12+ drains after it
// at once; Node 10 and 11 leave the queues for the first callback from
// the loop (after the whole pass of immediates in 10, after the first
// immediate in 11), as test/oracle/node/084 shows against real Node.
TEST_P(NodeModes, AMainScriptThatThrewDrainsAsItsNodeDoes) {
  js j(GetParam());
  j.run([&] {
    j.set_immediate([&] { j.log("i1"); });
    j.set_immediate([&] { j.log("i2"); });
    j.next_tick([&] { j.log("tick"); });
    j.microtask([&] { j.log("m"); });
    j.log("main!");
    j.rt.threw();
  });
  const char* want = GetParam() == pn::mode::node10   ? "main! i1 i2 tick m"
                     : GetParam() == pn::mode::node11 ? "main! i1 tick m i2"
                                                      : "main! tick m i1 i2";
  EXPECT_EQ(j.joined(), want);
}

TEST_P(NodeModes, AThrowingMicrotaskDoesNotEndTheCheckpoint) {
  js j(GetParam());
  j.run([&] {
    j.microtask([&] {
      j.log("m1!");
      j.rt.threw();
    });
    j.microtask([&] { j.log("m2"); });
    j.next_tick([&] { j.log("tick"); });
  });
  EXPECT_EQ(j.joined(), "tick m1! m2");
}

TEST(NodeLayer, AThrowingImmediateLetsTheNextRunWithoutADrain) {
  for (pn::mode m : {pn::mode::node11, pn::mode::current}) {
    js j(m);
    j.run([&] {
      j.set_immediate([&] {
        j.log("i1");
        j.next_tick([&] { j.log("tick1"); });
      });
      j.set_immediate([&] {
        j.log("i2!");
        j.next_tick([&] { j.log("tick2"); });
        j.rt.threw();
      });
      j.set_immediate([&] { j.log("i3"); });
    });
    EXPECT_EQ(j.joined(), "i1 tick1 i2! i3 tick2") << pn::mode_name(m);
  }
}
