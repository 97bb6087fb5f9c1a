// SPDX-License-Identifier: MIT
#pragma once
// What both engines keep beside their context (host.hpp), in one template:
// the runtime the script runs on (node::runtime or browser::runtime), the
// tracer that watches it (--trace and compare's annotations), the timeline
// of --trace=FILE.json in front of the tracer, the prototypes the bindings
// make, and the identities the trace shows. Each engine names its own
// types; the wiring and the order of teardown are the same for both.

#include "js/js.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "phaseloop/hooks.hpp"
#include "phaseloop/loop.hpp"
#include "js/host.hpp"
#include "js/timeline.hpp"

namespace phaseloop::runner {

/// `Self` is the engine; `Proto` an enum of its prototypes ending in
/// `count_`. A `Tracer` that is also a phaseloop::hook watches the loop's
/// phases as well.
template <class Self, class Runtime, class Tracer, class Proto>
class runtime_host : public script_host {
 public:
  static Self& from(JSContext* cx) { return static_cast<Self&>(script_host::from(cx)); }
  Runtime& rt() noexcept { return *rt_; }
  phaseloop::loop& owner() noexcept { return *loop_; }
  /// The tracer, or null when nothing traces the run.
  Tracer* tracing() noexcept { return tracer_.get(); }
  /// Whether each callback is watched (--trace, --trace=FILE.json,
  /// compare's annotations).
  bool watched() const noexcept { return tracer_ != nullptr || timeline_ != nullptr; }
  std::size_t microtasks_waiting() const { return rt_->microtasks_waiting(); }

  /// Identities for the objects the trace names, in creation order.
  std::uint64_t next_id() noexcept { return ++ids_; }

  /// A prototype kept for the life of the context.
  void set_proto(Proto p, JS::HandleObject o) { protos_[static_cast<int>(p)].emplace(cx_, o); }
  JSObject* get_proto(Proto p) const {
    const auto& slot = protos_[static_cast<int>(p)];
    return slot ? slot->get() : nullptr;
  }

 protected:
  runtime_host(phaseloop::loop& l, const run_options& o, std::string source, inspect_style style)
      : script_host(o, std::move(source), style), loop_(&l) {}
  ~runtime_host() = default;

  /// Puts `tracer` (may be null) on the runtime, the output and, if it is
  /// a hook, the loop; then, for --trace=FILE.json, a timeline in front of
  /// it. Call once rt_ is made.
  void observe(std::unique_ptr<Tracer> tracer) {
    tracer_ = std::move(tracer);
    if (tracer_) {
      out_.set_listener(tracer_.get());
      if constexpr (std::is_base_of_v<phaseloop::hook, Tracer>) loop_->add_hook(*tracer_);
      rt_->set_observer(tracer_.get());
    }
    if (opts_.trace_file.empty()) return;
    if constexpr (std::is_base_of_v<node::observer, Tracer>) {
      timeline_ = std::make_unique<timeline>(*loop_, opts_.trace_file, tracer_.get(), nullptr);
    } else {
      timeline_ = std::make_unique<timeline>(*loop_, opts_.trace_file, nullptr, tracer_.get());
    }
    rt_->set_observer(timeline_.get());
  }

  /// The first step of teardown: writes the timeline and finishes the
  /// tracer, and takes both off what they watch.
  void stop_observing() noexcept {
    if (timeline_) {
      timeline_->finish();
      rt_->set_observer(tracer_.get());
      timeline_.reset();
    }
    if (!tracer_) return;
    tracer_->finish();
    if constexpr (std::is_base_of_v<phaseloop::hook, Tracer>) loop_->remove_hook(*tracer_);
    rt_->set_observer(nullptr);
    out_.set_listener(nullptr);
  }

  /// Drops the prototypes; before destroy_context().
  void drop_protos() noexcept {
    for (auto& p : protos_) p.reset();
  }

  phaseloop::loop* loop_;
  std::unique_ptr<Tracer> tracer_;
  std::unique_ptr<timeline> timeline_;
  std::optional<Runtime> rt_;

 private:
  std::optional<JS::PersistentRootedObject> protos_[static_cast<int>(Proto::count_)];
  std::uint64_t ids_ = 0;
};

}  // namespace phaseloop::runner
