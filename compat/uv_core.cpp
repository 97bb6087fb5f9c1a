// SPDX-License-Identifier: MIT
// libuv's C API for the loop, handles and requests, over phaseloop's C++
// core. Thin by design: each function converts pointers and forwards. The
// C structs of uv.h reserve the same bytes as libuv's; phaseloop's C++
// objects are constructed inside them (checked below at compile time).

#include <signal.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "phaseloop/dns.hpp"
#include "phaseloop/phaseloop.hpp"
#include "phaseloop/os.hpp"
#include "phaseloop/random.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

// ---- layout: C++ objects fit the C structs and share the public fields ----


// The kinds count as libuv's do (both enums are consecutive).
static_assert(static_cast<int>(pl::handle_type::generic) == UV_HANDLE &&
              static_cast<int>(pl::handle_type::file) == UV_FILE);
static_assert(static_cast<int>(pl::req_type::generic) == UV_REQ &&
              static_cast<int>(pl::req_type::random) == UV_RANDOM);

// Each class publishes where it keeps the fields libuv shows (c_layout()).
static_assert(fits<uv_loop_t, pl::loop>());
static_assert(fits<uv_timer_t, pl::timer>());
static_assert(fits<uv_idle_t, pl::idle>());
static_assert(fits<uv_prepare_t, pl::prepare>());
static_assert(fits<uv_check_t, pl::check>());
static_assert(fits<uv_async_t, pl::async>());
static_assert(fits<uv_signal_t, pl::signal>());
static_assert(fits<uv_work_t, pl::work>());

static_assert(pl::loop::c_layout().data == offsetof(uv_loop_t, data));
static_assert(pl::loop::c_layout().active_handles == offsetof(uv_loop_t, active_handles));
static_assert(pl::handle::c_layout().data == offsetof(uv_handle_t, data));
static_assert(pl::handle::c_layout().loop == offsetof(uv_handle_t, loop));
static_assert(pl::handle::c_layout().type == offsetof(uv_handle_t, type));
static_assert(pl::handle::c_layout().close_cb == offsetof(uv_handle_t, close_cb));
static_assert(pl::handle::c_layout().next_closing == offsetof(uv_handle_t, next_closing));
static_assert(pl::handle::c_layout().flags == offsetof(uv_handle_t, flags));
static_assert(sizeof(pl::handle) == sizeof(uv_handle_t));
static_assert(pl::signal::c_layout().signum == offsetof(uv_signal_t, signum));
static_assert(pl::signal::c_layout().signal_cb == offsetof(uv_signal_t, signal_cb));
static_assert(pl::req::c_layout().data == offsetof(uv_req_t, data));
static_assert(pl::req::c_layout().type == offsetof(uv_req_t, type));
static_assert(pl::req::c_layout().reserved == offsetof(uv_req_t, reserved));
static_assert(pl::work::c_layout().loop == offsetof(uv_work_t, loop));
static_assert(pl::work::c_layout().work_cb == offsetof(uv_work_t, work_cb));
static_assert(pl::work::c_layout().after_work_cb == offsetof(uv_work_t, after_work_cb));

namespace {


inline uv_loop_t* C(pl::loop* l) { return as_ptr<uv_loop_t>(l); }
inline pl::handle& H(uv_handle_t* h) { return as<pl::handle>(h); }
inline const pl::handle& H(const uv_handle_t* h) { return as<const pl::handle>(h); }

}  // namespace

extern "C" {

// ---- loop -----------------------------------------------------------------

int uv_loop_init(uv_loop_t* loop) {
  pl::loop* l = construct<pl::loop>(loop, pl::loop::deferred);
  int r = l->open();
  if (r != 0) l->~loop();
  else l->set_order(c_profile());
  return r;
}

int uv_loop_close(uv_loop_t* loop) {
  int r = L(loop).close();
  if (r == 0) {
    destroy<pl::loop>(loop);
  }
  return r;
}

// Made here, the default loop is a libuv program's (c_profile()); made by
// C++ code first, it keeps its profile.
uv_loop_t* uv_default_loop(void) {
  if (pl::loop* l = pl::loop::default_loop_if_open()) return C(l);
  int err = 0;
  pl::loop* l = pl::loop::default_loop_or_null(&err);
  if (l != nullptr) {
    l->set_order(c_profile());
  } else {
    // libuv returns NULL silently, and most programs use the result
    // unchecked: the crash that follows then has its cause on stderr.
    pl::os::warn("uv_default_loop failed: %s (%s); it returns NULL", pl::error_message(err), pl::error_name(err));
  }
  return C(l);
}

uv_loop_t* uv_loop_new(void) {
  auto* loop = static_cast<uv_loop_t*>(std::malloc(sizeof(uv_loop_t)));
  if (loop == nullptr) return nullptr;
  loop->data = nullptr;
  if (uv_loop_init(loop) != 0) {
    std::free(loop);
    return nullptr;
  }
  return loop;
}

void uv_loop_delete(uv_loop_t* loop) {
  // Compare with the default loop without creating it.
  const bool is_default = pl::loop::default_loop_if_open() == &L(loop);
  int r = uv_loop_close(loop);
  (void)r;
  if (!is_default) std::free(loop);
}

size_t uv_loop_size(void) { return sizeof(uv_loop_t); }

int uv_loop_configure(uv_loop_t* loop, uv_loop_option option, ...) {
  switch (option) {
    case UV_LOOP_BLOCK_SIGNAL: {
      va_list ap;
      va_start(ap, option);
      int signum = va_arg(ap, int);
      va_end(ap);
      return L(loop).block_signal(signum);
    }
    case UV_METRICS_IDLE_TIME:
      L(loop).enable_idle_time_metric();
      return 0;
    case UV_LOOP_USE_IO_URING_SQPOLL:
      // libuv >= 1.49 takes it: file requests through io_uring where the
      // loop's profile waits for it (types.hpp, io_uring_use::automatic).
      if (!pl::behaviour_of(c_profile()).sqpoll_option) return UV_ENOSYS;
      L(loop).ask_io_uring();
      return 0;
  }
  return UV_ENOSYS;
}

uint64_t uv_metrics_idle_time(uv_loop_t* loop) { return L(loop).idle_time(); }

int uv_metrics_info(uv_loop_t* loop, uv_metrics_t* metrics) {
  if (loop == nullptr || metrics == nullptr) return UV_EINVAL;
  const pl::loop::metrics m = L(loop).metrics_info();
  metrics->loop_count = m.loop_count;
  metrics->events = m.events;
  metrics->events_waiting = m.events_waiting;
  return 0;
}

int uv_run(uv_loop_t* loop, uv_run_mode mode) {
  if (mode != UV_RUN_DEFAULT && mode != UV_RUN_ONCE && mode != UV_RUN_NOWAIT) return UV_EINVAL;
  return L(loop).run(static_cast<pl::run_mode>(mode));
}

void uv_stop(uv_loop_t* loop) { L(loop).stop(); }
int uv_loop_alive(const uv_loop_t* loop) { return L(loop).alive() ? 1 : 0; }
uint64_t uv_now(const uv_loop_t* loop) { return L(loop).now(); }
void uv_update_time(uv_loop_t* loop) { L(loop).update_time(); }
uint64_t uv_hrtime(void) { return pl::loop::hrtime(); }
int uv_backend_fd(const uv_loop_t* loop) { return L(loop).backend_fd(); }
int uv_backend_timeout(const uv_loop_t* loop) { return L(loop).backend_timeout(); }
void* uv_loop_get_data(const uv_loop_t* loop) { return loop->data; }
void uv_loop_set_data(uv_loop_t* loop, void* data) { loop->data = data; }

void uv_walk(uv_loop_t* loop, uv_walk_cb walk_cb, void* arg) {
  L(loop).walk(cb_cast<pl::walk_cb>(walk_cb), arg);
}

void uv_print_all_handles(uv_loop_t* loop, FILE* stream) {
  L(loop != nullptr ? loop : uv_default_loop()).print_handles(stream, false);
}
void uv_print_active_handles(uv_loop_t* loop, FILE* stream) {
  L(loop != nullptr ? loop : uv_default_loop()).print_handles(stream, true);
}

// ---- handles --------------------------------------------------------------

void uv_close(uv_handle_t* handle, uv_close_cb close_cb) {
  // A second close is reported, not acted on (libuv aborts on it).
  if (H(handle).close(cb_cast<pl::close_cb>(close_cb)) != 0)
    pl::os::warn("uv_close() called twice on %s handle %p; ignored", pl::handle_type_name(H(handle).type()),
                 static_cast<void*>(handle));
}

int uv_is_active(const uv_handle_t* handle) { return H(handle).is_active() ? 1 : 0; }
[[gnu::hot]] int uv_is_closing(const uv_handle_t* handle) { return H(handle).is_closing() ? 1 : 0; }
void uv_ref(uv_handle_t* handle) { H(handle).ref(); }
void uv_unref(uv_handle_t* handle) { H(handle).unref(); }
int uv_has_ref(const uv_handle_t* handle) { return H(handle).has_ref() ? 1 : 0; }

size_t uv_handle_size(uv_handle_type type) {
  switch (type) {
#define PHASELOOP_HANDLE_SIZE(upper, lower) \
  case UV_##upper:                          \
    return sizeof(uv_##lower##_t);
    UV_HANDLE_TYPE_MAP(PHASELOOP_HANDLE_SIZE)
#undef PHASELOOP_HANDLE_SIZE
    default:
      return static_cast<size_t>(-1);
  }
}

const char* uv_handle_type_name(uv_handle_type type) {
  return pl::handle_type_name(static_cast<pl::handle_type>(type));
}
uv_handle_type uv_handle_get_type(const uv_handle_t* handle) { return handle->type; }
void* uv_handle_get_data(const uv_handle_t* handle) { return handle->data; }
uv_loop_t* uv_handle_get_loop(const uv_handle_t* handle) { return handle->loop; }
void uv_handle_set_data(uv_handle_t* handle, void* data) { handle->data = data; }

// ---- requests -------------------------------------------------------------

size_t uv_req_size(uv_req_type type) {
  switch (type) {
#define PHASELOOP_REQ_SIZE(upper, lower) \
  case UV_##upper:                       \
    return sizeof(uv_##lower##_t);
    UV_REQ_TYPE_MAP(PHASELOOP_REQ_SIZE)
#undef PHASELOOP_REQ_SIZE
    default:
      return static_cast<size_t>(-1);
  }
}

const char* uv_req_type_name(uv_req_type type) { return pl::req_type_name(static_cast<pl::req_type>(type)); }
uv_req_type uv_req_get_type(const uv_req_t* req) { return req->type; }
void* uv_req_get_data(const uv_req_t* req) { return req->data; }
void uv_req_set_data(uv_req_t* req, void* data) { req->data = data; }

int uv_cancel(uv_req_t* req) { return as<pl::req>(req).cancel(); }

// ---- timers ---------------------------------------------------------------

int uv_timer_init(uv_loop_t* loop, uv_timer_t* handle) {
  construct<pl::timer>(handle, L(loop));
  return 0;
}

int uv_timer_start(uv_timer_t* handle, uv_timer_cb cb, uint64_t timeout, uint64_t repeat) {
  return as<pl::timer>(handle).start(cb_cast<pl::timer_cb>(cb), timeout, repeat);
}

int uv_timer_stop(uv_timer_t* handle) { return as<pl::timer>(handle).stop(); }
int uv_timer_again(uv_timer_t* handle) { return as<pl::timer>(handle).again(); }
void uv_timer_set_repeat(uv_timer_t* handle, uint64_t repeat) { as<pl::timer>(handle).set_repeat(repeat); }
uint64_t uv_timer_get_repeat(const uv_timer_t* handle) { return as<const pl::timer>(handle).repeat(); }
uint64_t uv_timer_get_due_in(const uv_timer_t* handle) { return as<const pl::timer>(handle).due_in(); }

// ---- idle, prepare, check -------------------------------------------------

#define PHASELOOP_PHASE_HANDLE(name)                                            \
  int uv_##name##_init(uv_loop_t* loop, uv_##name##_t* handle) {                \
    construct<pl::name>(handle, L(loop));                                       \
    return 0;                                                                   \
  }                                                                             \
  int uv_##name##_start(uv_##name##_t* handle, uv_##name##_cb cb) {             \
    return as<pl::name>(handle).start(cb_cast<pl::name::callback>(cb));         \
  }                                                                             \
  int uv_##name##_stop(uv_##name##_t* handle) { return as<pl::name>(handle).stop(); }

PHASELOOP_PHASE_HANDLE(idle)
PHASELOOP_PHASE_HANDLE(prepare)
PHASELOOP_PHASE_HANDLE(check)
#undef PHASELOOP_PHASE_HANDLE

// ---- async ----------------------------------------------------------------

int uv_async_init(uv_loop_t* loop, uv_async_t* async, uv_async_cb async_cb) {
  construct<pl::async>(async, L(loop), cb_cast<pl::async_cb>(async_cb));
  return 0;
}

int uv_async_send(uv_async_t* async) { return as<pl::async>(async).send(); }

// ---- signals --------------------------------------------------------------

int uv_signal_init(uv_loop_t* loop, uv_signal_t* handle) {
  construct<pl::signal>(handle, L(loop));
  return 0;
}

int uv_signal_start(uv_signal_t* handle, uv_signal_cb signal_cb, int signum) {
  return as<pl::signal>(handle).start(cb_cast<pl::signal_cb>(signal_cb), signum);
}

int uv_signal_start_oneshot(uv_signal_t* handle, uv_signal_cb signal_cb, int signum) {
  return as<pl::signal>(handle).start_oneshot(cb_cast<pl::signal_cb>(signal_cb), signum);
}

int uv_signal_stop(uv_signal_t* handle) { return as<pl::signal>(handle).stop(); }

// ---- threadpool -----------------------------------------------------------

int uv_queue_work(uv_loop_t* loop, uv_work_t* req, uv_work_cb work_cb, uv_after_work_cb after_work_cb) {
  if (work_cb == nullptr) return UV_EINVAL;
  pl::work* w = construct<pl::work>(req);
  return w->queue(L(loop), cb_cast<pl::work_cb>(work_cb), cb_cast<pl::after_work_cb>(after_work_cb));
}

}  // extern "C"
