#pragma once
// Private to the library: template members of loop that several source
// files instantiate (callback wrappers with and without hooks).

#include "phaseloop/loop.hpp"

namespace phaseloop {

template <bool H, class F>
inline void loop::callback_(phase p, callback_kind kind, handle* h, req* r, F&& f) {
  if constexpr (!H) {
    f();
  } else {
    const callback_event e{p, kind, iteration_, time_, h, r};
    each_hook_([&](hook& k) { k.callback_enter(*this, e); });
    f();
    each_hook_([&](hook& k) { k.callback_exit(*this, e); });
  }
}

template <class F>
inline void loop::poll_callback_(callback_kind kind, handle* h, req* r, F&& f) {
  if (hooks_.empty()) [[likely]]
    f();
  else
    callback_<true>(phase::poll, kind, h, r, static_cast<F&&>(f));
}

}  // namespace phaseloop
