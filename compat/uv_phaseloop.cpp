// SPDX-License-Identifier: MIT
// The C extension API (uv_phaseloop.h): phase hooks and the tracer for C
// programs, adapted onto phaseloop::hook.

#include "uv_phaseloop.h"

#include <new>

#include "phaseloop/loop.hpp"
#include "phaseloop/stats.hpp"
#include "phaseloop/tracer.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

namespace {

uv_loop_t* C(pl::loop& l) { return as_ptr<uv_loop_t>(&l); }

phaseloop_phase_event to_c(const pl::phase_event& e) {
  return phaseloop_phase_event{static_cast<phaseloop_phase>(e.which), e.before_loop ? 1 : 0, e.iteration, e.now,
                               e.timeout};
}

phaseloop_callback_event to_c(const pl::callback_event& e) {
  return phaseloop_callback_event{static_cast<phaseloop_phase>(e.which),
                                  static_cast<phaseloop_callback_kind>(e.kind),
                                  e.iteration,
                                  e.now,
                                  as_ptr<uv_handle_t>(e.handle),
                                  as_ptr<uv_req_t>(e.request)};
}

// Lives inside phaseloop_hook_t::phaseloop_private_.
class c_hook final : public pl::hook {
 public:
  explicit c_hook(phaseloop_hook_t* h) : h_(h) {}
  void phase_enter(pl::loop& l, const pl::phase_event& e) override {
    if (h_->phase_enter) {
      auto c = to_c(e);
      h_->phase_enter(C(l), &c, h_->arg);
    }
  }
  void phase_exit(pl::loop& l, const pl::phase_event& e) override {
    if (h_->phase_exit) {
      auto c = to_c(e);
      h_->phase_exit(C(l), &c, h_->arg);
    }
  }
  void callback_enter(pl::loop& l, const pl::callback_event& e) override {
    if (h_->callback_enter) {
      auto c = to_c(e);
      h_->callback_enter(C(l), &c, h_->arg);
    }
  }
  void callback_exit(pl::loop& l, const pl::callback_event& e) override {
    if (h_->callback_exit) {
      auto c = to_c(e);
      h_->callback_exit(C(l), &c, h_->arg);
    }
  }
  phaseloop_hook_t* owner() const { return h_; }

 private:
  phaseloop_hook_t* h_;
};

static_assert(sizeof(c_hook) <= sizeof(phaseloop_hook_t::phaseloop_private_));
static_assert(alignof(c_hook) <= alignof(void*));

c_hook* adapter(phaseloop_hook_t* h) { return as_ptr<c_hook>(h->phaseloop_private_); }

// Marks a hook's private storage as holding a live adapter (attached).
bool attached(phaseloop_hook_t* h) {
  return adapter(h)->owner() == h && pl::hook::list::linked(*adapter(h));
}

}  // namespace

struct phaseloop_tracer_s {
  pl::tracer t;
};

struct phaseloop_metrics_s {
  pl::loop_stats s;
  uv_loop_t* attached = nullptr;
};

static_assert(PHASELOOP_CB_RANDOM == static_cast<int>(pl::callback_kind::random));
static_assert(pl::phase_count == 7 && PHASELOOP_PHASE_CLOSING == static_cast<int>(pl::phase::closing));
// uv_phaseloop.h numbers each profile as the library does.
constexpr int profile_number(int minor) { return static_cast<int>(pl::profile_of({1, minor, 0})); }
static_assert(PHASELOOP_PROFILE_LIBUV_1_44 == profile_number(44) && PHASELOOP_PROFILE_LIBUV_1_45 == profile_number(45) &&
              PHASELOOP_PROFILE_LIBUV_1_48 == profile_number(48) && PHASELOOP_PROFILE_LIBUV_1_49 == profile_number(49) &&
              PHASELOOP_PROFILE_LIBUV_1_50 == profile_number(50) && PHASELOOP_PROFILE_LIBUV_1_51 == profile_number(51) &&
              PHASELOOP_PROFILE_LIBUV_1_52 == profile_number(52) && PHASELOOP_PROFILE_LIBUV_1_53 == profile_number(53) &&
              PHASELOOP_PROFILE_LIBUV_1_53 == static_cast<int>(pl::profile::newest));

extern "C" {

int phaseloop_hook_add(uv_loop_t* loop, phaseloop_hook_t* hook) {
  if (loop == nullptr || hook == nullptr) return UV_EINVAL;
  // A hook whose (zero-initialized) storage holds an attached adapter is
  // refused.
  if (hook->phaseloop_private_[0] != nullptr && attached(hook)) return UV_EINVAL;
  c_hook* a = new (hook->phaseloop_private_) c_hook(hook);
  L(loop).add_hook(*a);
  return 0;
}

int phaseloop_hook_remove(uv_loop_t* loop, phaseloop_hook_t* hook) {
  if (loop == nullptr || hook == nullptr || hook->phaseloop_private_[0] == nullptr || !attached(hook))
    return UV_EINVAL;
  if (!L(loop).remove_hook(*adapter(hook))) return UV_EINVAL;  // attached elsewhere
  adapter(hook)->~c_hook();
  for (void*& p : hook->phaseloop_private_) p = nullptr;
  return 0;
}

int phaseloop_loop_set_profile(uv_loop_t* loop, phaseloop_profile profile) {
  if (loop == nullptr) return UV_EINVAL;
  if (pl::profile_name(static_cast<pl::profile>(profile)) == nullptr) return UV_EINVAL;
  L(loop).set_order(static_cast<pl::profile>(profile));
  return 0;
}

phaseloop_profile phaseloop_loop_get_profile(const uv_loop_t* loop) {
  return static_cast<phaseloop_profile>(loop == nullptr ? pl::profile::newest : L(loop).order());
}

int phaseloop_loop_set_clock(uv_loop_t* loop, phaseloop_clock clock) {
  if (loop == nullptr) return UV_EINVAL;
  if (clock != PHASELOOP_CLOCK_REAL && clock != PHASELOOP_CLOCK_MANUAL && clock != PHASELOOP_CLOCK_MANUAL_JUMP)
    return UV_EINVAL;
  L(loop).set_clock(static_cast<pl::clock_mode>(clock));
  return 0;
}

phaseloop_clock phaseloop_loop_get_clock(const uv_loop_t* loop) {
  return loop == nullptr ? PHASELOOP_CLOCK_REAL : static_cast<phaseloop_clock>(L(loop).clock());
}

int phaseloop_loop_advance(uv_loop_t* loop, uint64_t ms) {
  return loop == nullptr ? UV_EINVAL : L(loop).advance(ms);
}

uint64_t phaseloop_loop_iteration(const uv_loop_t* loop) { return loop == nullptr ? 0 : L(loop).iteration(); }

const char* phaseloop_phase_name(phaseloop_phase phase) {
  if (phase < PHASELOOP_PHASE_TIMERS || phase > PHASELOOP_PHASE_CLOSING) return nullptr;
  return pl::phase_name(static_cast<pl::phase>(phase));
}

phaseloop_tracer_t* phaseloop_tracer_new(FILE* out, int verbose) {
  return new (std::nothrow) phaseloop_tracer_s{pl::tracer(out, verbose != 0)};
}

// NULL arguments are ignored: these functions have no error to return.
void phaseloop_tracer_name(phaseloop_tracer_t* t, const void* object, const char* label) {
  if (t != nullptr && label != nullptr) t->t.name(object, label);
}
void phaseloop_tracer_attach(phaseloop_tracer_t* t, uv_loop_t* loop) {
  if (t != nullptr && loop != nullptr) L(loop).add_hook(t->t);
}
void phaseloop_tracer_detach(phaseloop_tracer_t* t, uv_loop_t* loop) {
  if (t == nullptr || loop == nullptr) return;
  L(loop).remove_hook(t->t);
  t->t.flush();
}
void phaseloop_tracer_free(phaseloop_tracer_t* t) { delete t; }

phaseloop_metrics_t* phaseloop_metrics_new(void) { return new (std::nothrow) phaseloop_metrics_s; }

int phaseloop_metrics_attach(phaseloop_metrics_t* m, uv_loop_t* loop) {
  if (m == nullptr || loop == nullptr || m->attached != nullptr || !L(loop).add_hook(m->s)) return UV_EINVAL;
  m->attached = loop;
  return 0;
}

int phaseloop_metrics_detach(phaseloop_metrics_t* m, uv_loop_t* loop) {
  if (m == nullptr || loop == nullptr || m->attached != loop || !L(loop).remove_hook(m->s)) return UV_EINVAL;
  m->attached = nullptr;
  return 0;
}

int phaseloop_metrics_get(const phaseloop_metrics_t* m, phaseloop_metrics_info_t* info) {
  if (m == nullptr || info == nullptr) return UV_EINVAL;
  *info = phaseloop_metrics_info_t{};
  info->iterations = m->s.iterations();
  for (int p = 0; p < pl::phase_count; p++) {
    const auto& t = m->s.totals(static_cast<pl::phase>(p));
    info->phase[p] = {t.passes, t.ns, t.callbacks};
  }
  const auto& slow = m->s.slowest();
  info->slowest_ns = slow.ns;
  info->slowest_kind = static_cast<phaseloop_callback_kind>(slow.kind);
  info->slowest_phase = static_cast<phaseloop_phase>(slow.which);
  info->slowest_iteration = slow.iteration;
  const auto lag = m->s.timer_lag();
  info->lag_samples = lag.samples;
  info->lag_p50_ms = lag.p50;
  info->lag_p90_ms = lag.p90;
  info->lag_p99_ms = lag.p99;
  info->lag_max_ms = lag.max;
  return 0;
}

int phaseloop_metrics_print(const phaseloop_metrics_t* m, FILE* out, const char* title) {
  if (m == nullptr || out == nullptr) return UV_EINVAL;
  m->s.print(out, title != nullptr ? title : "phaseloop stats");
  return 0;
}

void phaseloop_metrics_free(phaseloop_metrics_t* m) {
  if (m != nullptr && m->attached != nullptr) L(m->attached).remove_hook(m->s);  // freed while attached: detach
  delete m;
}

}  // extern "C"
