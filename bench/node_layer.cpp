// SPDX-License-Identifier: MIT
// The Node-layer benchmark: the workloads of bench/node/node_layer.js, on
// phaseloop's C++ Node layer (mode `node`). Each callback does what the JS
// one does -- decrement a counter -- so the comparison with real Node is
// the cost of the queues, timers and immediates themselves. Prints
// "RESULT <name> <rate> ops/s" lines (higher is better).

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "phaseloop/node.hpp"

namespace {

namespace pn = phaseloop::node;
using clock_type = std::chrono::steady_clock;

constexpr long n_ticks = 1000000;
constexpr long n_micro = 1000000;
constexpr long n_imm = 1000000;
constexpr long n_chain = 1000000;
constexpr long n_timers = 1000000;

struct bench {
  pn::runtime* rt;
  long left = 0;
  long total = 0;
  const char* name = "";
  clock_type::time_point t0;
  int stage = 0;
  pn::immediate* imms = nullptr;    // n_imm immediates
  pn::timeout* timers = nullptr;    // n_timers timeouts
  pn::immediate* stepper = nullptr; // moves to the next stage
};

bench* B = nullptr;
void next_stage();

void begin(const char* name, long n) {
  B->name = name;
  B->left = B->total = n;
  B->t0 = clock_type::now();
}

// Every workload runs twice; only the second (warm) pass is reported, as
// in the JS version.
bool warm = false;

void report() {
  if (!warm) return;
  const double s = std::chrono::duration<double>(clock_type::now() - B->t0).count();
  std::printf("RESULT %s %.0f ops/s\n", B->name, static_cast<double>(B->total) / s);
  std::fflush(stdout);
}

void one_done() {
  if (--B->left != 0) return;
  report();
  B->stepper->start([](pn::immediate*) { next_stage(); });
}

void count_task(void*) { one_done(); }

// Each immediate of the chain queues the next one (itself, again).
void chain_step(pn::immediate* self) {
  if (B->left > 1) self->start(chain_step);
  one_done();
}

// Each microtask queues the next: a chain of promise reactions.
void micro_chain_step(void*) {
  if (B->left > 1) B->rt->queue_microtask({micro_chain_step, nullptr});
  one_done();
}

void next_stage() {
  pn::runtime& rt = *B->rt;
  switch (B->stage++) {
    case 0:
      begin("ticks", n_ticks);
      for (long i = 0; i < n_ticks; i++) rt.next_tick({count_task, nullptr});
      break;
    case 1:
      begin("microtasks", n_micro);
      for (long i = 0; i < n_micro; i++) rt.queue_microtask({count_task, nullptr});
      break;
    case 2:
      begin("promises_chain", n_chain);
      rt.queue_microtask({micro_chain_step, nullptr});
      break;
    case 3:
      begin("immediates_batch", n_imm);
      for (long i = 0; i < n_imm; i++) B->imms[i].start([](pn::immediate*) { one_done(); });
      break;
    case 4:
      begin("immediates_chain", n_imm);
      B->imms[0].start(chain_step);
      break;
    case 5: {
      // As the JS: start 1M timers over 100 delays (timed alone), wait
      // until all are due, then time running them.
      begin("timers_start", n_timers);
      for (long i = 0; i < n_timers; i++)
        B->timers[i].start([](pn::timeout*) { one_done(); }, static_cast<double>(1 + i % 100), false);
      report();
      const auto started = B->t0;
      while (clock_type::now() - started < std::chrono::milliseconds(120)) {
      }
      begin("timers_fire", n_timers);
      break;
    }
    default:
      if (!warm) {
        warm = true;
        B->stage = 0;
        next_stage();
      }
      break;
  }
}

}  // namespace

int main() {
  phaseloop::loop loop;
  {
    pn::runtime rt(loop, pn::mode::current);
    bench b;
    b.rt = &rt;
    B = &b;
    // Raw storage: the objects are constructed in place, one per slot.
    b.imms = static_cast<pn::immediate*>(::operator new(sizeof(pn::immediate) * n_imm));
    for (long i = 0; i < n_imm; i++) new (&b.imms[i]) pn::immediate(rt);
    b.timers = static_cast<pn::timeout*>(::operator new(sizeof(pn::timeout) * n_timers));
    for (long i = 0; i < n_timers; i++) new (&b.timers[i]) pn::timeout(rt);
    pn::immediate stepper(rt);
    b.stepper = &stepper;
    rt.run_main({[](void*) { next_stage(); }, nullptr});
    for (long i = 0; i < n_imm; i++) b.imms[i].~immediate();
    for (long i = 0; i < n_timers; i++) b.timers[i].~timeout();
    ::operator delete(b.imms);
    ::operator delete(b.timers);
  }
  return 0;
}
