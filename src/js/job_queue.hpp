#pragma once
// The JS::JobQueue both engines give SpiderMonkey: promise jobs go into the
// event-loop layer's microtask queue, so the layer (Node's drain rules, or
// the HTML microtask checkpoint), not the engine, decides when they run.
//
// Engine provides: bool queue_promise_job(JS::HandleObject job);
//                  void drain_microtasks();   (only a debugger asks)
//                  std::size_t microtasks_waiting() const;

#include "js/js.hpp"

#include <js/Promise.h>
#include <js/UniquePtr.h>

namespace phaseloop::runner {

template <class Engine>
class promise_job_queue final : public JS::JobQueue {
 public:
  explicit promise_job_queue(Engine& e) : e_(e) {}

  JSObject* getIncumbentGlobal(JSContext* cx) override { return JS::CurrentGlobalOrNull(cx); }

  bool enqueuePromiseJob(JSContext*, JS::HandleObject, JS::HandleObject job, JS::HandleObject,
                         JS::HandleObject) override {
    return e_.queue_promise_job(job);
  }

  // Only the debugger calls this (the runner has none).
  void runJobs(JSContext*) override { e_.drain_microtasks(); }

  bool empty() const override { return e_.microtasks_waiting() == 0; }

#if MOZJS_MAJOR_VERSION >= 128
  // runJobs() never stops before the queue is empty.
  bool isDrainingStopped() const override { return false; }
#endif

 private:
  // The debugger's "interrupt the debuggee's queue": nothing to save, since
  // no debugger ever runs.
  js::UniquePtr<SavedJobQueue> saveJobQueue(JSContext*) override {
    return js::MakeUnique<SavedJobQueue>();
  }

  Engine& e_;
};

}  // namespace phaseloop::runner
