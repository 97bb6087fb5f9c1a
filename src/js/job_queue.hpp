// SPDX-License-Identifier: MIT
#pragma once
// The JS::JobQueue both engines give SpiderMonkey: promise jobs go into the
// event-loop layer's microtask queue, so the layer (Node's drain rules, or
// the HTML microtask checkpoint), not the engine, decides when they run.
//
// Engine provides: bool queue_promise_job(JS::HandleObject job);
//                  void drain_microtasks();   (only a Debugger asks)
//                  std::size_t microtasks_waiting() const;

#include "js/js.hpp"

#include <js/Promise.h>
#include <js/UniquePtr.h>

#include <memory>
#include <vector>

namespace phaseloop::runner {

template <class Engine>
class promise_job_queue final : public JS::JobQueue {
 public:
  explicit promise_job_queue(Engine& e) : e_(e) {}

  JSObject* getIncumbentGlobal(JSContext* cx) override { return JS::CurrentGlobalOrNull(cx); }

  bool enqueuePromiseJob(JSContext* cx, JS::HandleObject, JS::HandleObject job, JS::HandleObject,
                         JS::HandleObject) override {
    if (!set_aside_.empty()) {
      set_aside_.back().push_back(std::make_unique<JS::PersistentRootedObject>(cx, job));
      return true;
    }
    return e_.queue_promise_job(job);
  }

  // Only a Debugger calls this, after each of its hooks (the one that words
  // errors as V8, v8_wording.hpp): it runs the jobs the hook's own code
  // queued, never the script's, which wait for the layer.
  void runJobs(JSContext* cx) override {
    if (set_aside_.empty()) {
      e_.drain_microtasks();
      return;
    }
    auto& queued = set_aside_.back();
    while (!queued.empty()) {
      JS::RootedObject job(cx, *queued.front());
      queued.erase(queued.begin());
      JS::RootedValue fn(cx, JS::ObjectValue(*job));
      JS::RootedValue rval(cx);
      if (!JS::Call(cx, JS::UndefinedHandleValue, fn, JS::HandleValueArray::empty(), &rval)) {
        JS_ClearPendingException(cx);
      }
    }
  }

  bool empty() const override { return set_aside_.empty() ? e_.microtasks_waiting() == 0 : set_aside_.back().empty(); }

#if MOZJS_MAJOR_VERSION >= 128
  // runJobs() never stops before the queue is empty.
  bool isDrainingStopped() const override { return false; }
#endif

 private:
  using job_list = std::vector<std::unique_ptr<JS::PersistentRootedObject>>;

  // While a Debugger hook runs, the script's queue is set aside: the hook's
  // code queues to a queue of its own until SpiderMonkey drops the saved
  // state, and the script's microtasks stay where they were.
  class set_aside final : public SavedJobQueue {
   public:
    explicit set_aside(promise_job_queue& q) : q_(q) { q_.set_aside_.emplace_back(); }
    ~set_aside() override { q_.set_aside_.pop_back(); }
    set_aside(const set_aside&) = delete;
    set_aside& operator=(const set_aside&) = delete;

   private:
    promise_job_queue& q_;
  };

  js::UniquePtr<SavedJobQueue> saveJobQueue(JSContext*) override { return js::MakeUnique<set_aside>(*this); }

  Engine& e_;
  std::vector<job_list> set_aside_;
};

}  // namespace phaseloop::runner
