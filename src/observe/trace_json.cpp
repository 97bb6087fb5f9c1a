// SPDX-License-Identifier: MIT
// write_chrome_trace: recorded events as the Chrome Trace Event format
// (JSON object form: {"traceEvents": [...]}), with nlohmann-json.
//
// Each loop's track is a "thread" of the process: "B"/"E" pairs for phases
// and the callbacks nested in them, "s"/"f" flows from a request's start to
// the callback that completes it, "C" counters, "i" instants, and "M"
// metadata naming the process and the tracks. Threadpool workers get a
// track each, with an "X" slice per job and the "t" step of its request's
// flow; threads that sent to an async handle get one with the flow's "s". Timestamps are in
// microseconds from `origin_ns`.

#include "phaseloop/trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "phaseloop/loop.hpp"

#if PHASELOOP_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

namespace phaseloop {

#if PHASELOOP_HAVE_JSON

namespace {

using json = nlohmann::json;

std::string address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// The time a poll phase spent before its first callback (or its end):
// the wait, plus the flush of registrations before it.
double waited_us(const std::vector<trace_recorder::event>& ev, std::size_t begin) {
  for (std::size_t i = begin + 1; i < ev.size(); i++)
    if (ev[i].what == trace_recorder::event::callback_begin || ev[i].what == trace_recorder::event::phase_end)
      return static_cast<double>(ev[i].ns - ev[begin].ns) / 1e3;
  return 0;
}

json callback_args(const trace_recorder::event& e) {
  json a = {{"kind", callback_kind_name(e.cb)}, {"iteration", e.iteration}};
  if (e.handle_type >= 0) {
    a["handle_type"] = handle_type_name(static_cast<handle_type>(e.handle_type));
    a["handle"] = address(e.object);
    if (e.value >= 0) a["fd"] = e.value;
  }
  if (e.req_type >= 0) {
    a["request_type"] = req_type_name(static_cast<req_type>(e.req_type));
    a["request"] = address(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(e.extra)));
  }
  return a;
}

// Flows: a request's start and the callback that completes it (the first
// callback reporting that request after its start), through the report of
// its threadpool job if it had one; an async send and the callback of its
// handle. Numbered from `next`. Starts without such a callback (completed
// in the pending phase, still in flight, or dropped) get none.
// A start is stamped when the request hook runs, just after the request
// went to the pool, so a worker may begin the job a little before that
// stamp: the flow then starts when the job began (`start_ns`), the
// latest time the request certainly existed.
std::vector<std::uint64_t> match_flows(const std::vector<trace_recorder::event>& ev, std::uint64_t& next,
                                       std::unordered_map<std::size_t, std::uint64_t>& start_ns) {
  using event = trace_recorder::event;
  std::vector<std::uint64_t> flow(ev.size(), 0);
  struct start { std::size_t at; std::size_t job; };
  std::unordered_map<const void*, start> started;
  for (std::size_t i = 0; i < ev.size(); i++) {
    const auto& e = ev[i];
    if (e.what == event::submit || e.what == event::send) {
      started[e.object] = {i, SIZE_MAX};
    } else if (e.what == event::job) {
      if (const auto s = started.find(e.object); s != started.end()) s->second.job = i;
    } else if (e.what == event::callback_begin && (e.req_type >= 0 || e.cb == callback_kind::async)) {
      // A request's callback names its request (`extra`), an async's its handle.
      const void* key = e.req_type >= 0 ? reinterpret_cast<const void*>(static_cast<std::uintptr_t>(e.extra)) : e.object;
      const auto s = started.find(key);
      if (s == started.end()) continue;
      flow[s->second.at] = flow[i] = ++next;
      if (s->second.job != SIZE_MAX) {
        flow[s->second.job] = flow[i];
        if (ev[s->second.job].ns < ev[s->second.at].ns) start_ns[s->second.at] = ev[s->second.job].ns;
      }
      started.erase(s);
    }
  }
  return flow;
}

// The traceEvents array, written to the file one event at a time: a
// million events never sit in memory as JSON values at once.
class event_sink {
 public:
  explicit event_sink(std::FILE* f) noexcept : f_(f) {}
  void push_back(const json& j) {
    const std::string text = j.dump();
    if ((!first_ && std::fputc(',', f_) == EOF) || std::fwrite(text.data(), 1, text.size(), f_) != text.size())
      failed_ = true;
    first_ = false;
  }
  bool failed() const noexcept { return failed_; }

 private:
  std::FILE* f_;
  bool first_ = true;
  bool failed_ = false;
};

// Events that belong on other tracks than their loop's: jobs on threadpool
// workers, sends on the threads that made them. Written after the loops'
// tracks, each track in time order.
struct elsewhere {
  std::uint32_t track;
  std::uint64_t ns;
  json first;   // a flow step or flow start, or null
  json second;  // the job slice, or null
};

constexpr std::uint32_t worker_track_base = 1u << 23;  // + worker index
constexpr std::uint32_t thread_track_base = 1u << 24;  // + thread id

void add_track(event_sink& out, const trace_track& t, std::uint64_t origin_ns, int pid, std::uint64_t& flows,
               std::vector<elsewhere>& other) {
  using event = trace_recorder::event;
  out.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", t.id}, {"args", {{"name", t.name}}}});
  const auto& ev = t.recorder->events();
  std::unordered_map<std::size_t, std::uint64_t> start_ns;
  const std::vector<std::uint64_t> flow = match_flows(ev, flows, start_ns);
  auto ts_of = [&](std::uint64_t ns) { return ns >= origin_ns ? static_cast<double>(ns - origin_ns) / 1e3 : 0.0; };
  auto ts = [&](const event& e) { return ts_of(e.ns); };
  auto flow_event = [&](const char* ph, const char* name, std::uint64_t id, std::uint32_t track, std::uint64_t ns) {
    return json{{"ph", ph}, {"cat", "request"}, {"name", name}, {"id", id}, {"pid", pid}, {"tid", track}, {"ts", ts_of(ns)}};
  };
  // Sends made on this loop's own thread go on this track, merged in by
  // time (they happened inside the callback that made them).
  std::vector<std::size_t> own_sends;
  for (std::size_t i = 0; i < ev.size(); i++) {
    const auto& e = ev[i];
    if (e.what == event::job && flow[i] != 0) {
      const char* name = req_type_name(static_cast<req_type>(e.req_type));
      const std::uint32_t track = worker_track_base + e.handles;
      json slice = {{"ph", "X"}, {"cat", "job"}, {"name", name}, {"pid", pid}, {"tid", track}, {"ts", ts(e)},
                    {"dur", static_cast<double>(e.extra) / 1e3},
                    {"args", {{"request", address(e.object)}, {"loop", t.name}, {"worker", e.handles + 1}}}};
      other.push_back({track, e.ns, flow_event("t", name, flow[i], track, e.ns), std::move(slice)});
    } else if (e.what == event::send && flow[i] != 0) {
      if (t.thread != 0 && static_cast<long>(e.extra) == t.thread) {
        own_sends.push_back(i);
      } else {
        const std::uint32_t track = thread_track_base + static_cast<std::uint32_t>(e.extra);
        json start = flow_event("s", "async send", flow[i], track, e.ns);
        start["args"] = {{"handle", address(e.object)}, {"thread", e.extra}};
        other.push_back({track, e.ns, std::move(start), nullptr});
      }
    }
  }
  std::stable_sort(own_sends.begin(), own_sends.end(), [&](std::size_t a, std::size_t b) { return ev[a].ns < ev[b].ns; });
  std::size_t next_send = 0;
  auto sends_until = [&](std::uint64_t ns) {
    for (; next_send < own_sends.size() && ev[own_sends[next_send]].ns <= ns; next_send++) {
      const auto& e = ev[own_sends[next_send]];
      json start = flow_event("s", "async send", flow[own_sends[next_send]], t.id, e.ns);
      start["args"] = {{"handle", address(e.object)}, {"thread", e.extra}};
      out.push_back(std::move(start));
    }
  };
  // Slices still open when the file is written (the process exits from a
  // callback, or a signal ends it in poll) are closed at the write time.
  struct slice { const char* cat; const char* name; bool layer; };
  std::vector<slice> open;
  for (std::size_t i = 0; i < ev.size(); i++) {
    const auto& e = ev[i];
    if (e.what == event::job || e.what == event::send) continue;
    // A layer's end with no layer slice innermost (a layer that ended more
    // slices than it began) is left out: the file stays well nested.
    if (e.what == event::layer_end && (open.empty() || !open.back().layer)) continue;
    // A phase or callback that ends inside a layer's slice (a layer that
    // began more than it ended) ends that slice first, as unfinished.
    if (e.what == event::phase_end || e.what == event::callback_end) {
      while (!open.empty() && open.back().layer) {
        out.push_back({{"ph", "E"}, {"cat", open.back().cat}, {"name", open.back().name}, {"pid", pid}, {"tid", t.id},
                       {"ts", ts(e)}, {"args", {{"unfinished", true}}}});
        open.pop_back();
      }
    }
    sends_until(e.ns);
    json j = {{"pid", pid}, {"tid", t.id}, {"ts", ts(e)}};
    switch (e.what) {
      case event::phase_begin:
        j.update({{"ph", "B"}, {"cat", "phase"}, {"name", phase_name(e.which)}});
        open.push_back({"phase", phase_name(e.which), false});
        j["args"] = {{"iteration", e.iteration}};
        if (e.before_loop) j["args"]["before_loop"] = true;
        if (e.which == phase::poll) {
          j["args"]["timeout_ms"] = e.value;
          j["args"]["waited_ms"] = waited_us(ev, i) / 1e3;
        }
        break;
      case event::phase_end:
        j.update({{"ph", "E"}, {"cat", "phase"}, {"name", phase_name(e.which)}});
        if (!open.empty()) open.pop_back();
        break;
      case event::callback_begin:
        if (flow[i] != 0)  // binds to the slice that begins next: this callback
          out.push_back(flow_event("f", e.req_type >= 0 ? req_type_name(static_cast<req_type>(e.req_type)) : "async send",
                                   flow[i], t.id, e.ns));
        j.update({{"ph", "B"}, {"cat", "callback"}, {"name", callback_kind_name(e.cb)}, {"args", callback_args(e)}});
        open.push_back({"callback", callback_kind_name(e.cb), false});
        break;
      case event::callback_end:
        j.update({{"ph", "E"}, {"cat", "callback"}, {"name", callback_kind_name(e.cb)}});
        if (!open.empty()) open.pop_back();
        break;
      case event::counters:
        j.update({{"ph", "C"}, {"name", "active"}, {"args", {{"handles", e.handles}, {"requests", e.requests}}}});
        out.push_back(j);
        j = {{"pid", pid}, {"tid", t.id}, {"ts", ts(e)}, {"ph", "C"}, {"name", "queued"},
             {"args", {{"pending callbacks", e.pending}, {"threadpool", e.pool_queue}}}};
        break;
      case event::submit:
        if (flow[i] == 0) continue;
        j = flow_event("s", req_type_name(static_cast<req_type>(e.req_type)), flow[i], t.id,
                       start_ns.count(i) ? start_ns[i] : e.ns);
        j["args"] = {{"request", address(e.object)}, {"iteration", e.iteration}};
        break;
      case event::instant:
        if (e.value == event::chaos) {
          const auto kind = static_cast<chaos_kind>(e.handle_type);
          j.update({{"ph", "i"}, {"s", "t"}, {"cat", "chaos"},
                    {"name", std::string("chaos: ") + chaos_kind_name(kind)},
                    {"args", {{"choice", chaos_choice_text(kind, e.handles, e.requests)},
                              {"number", e.extra}, {"iteration", e.iteration}}}});
          if (const char* v = std::getenv("PHASELOOP_CHAOS")) j["args"]["PHASELOOP_CHAOS"] = v;
          if (e.object != nullptr) j["args"]["handle"] = address(e.object);
          break;
        }
        j.update({{"ph", "i"}, {"s", "t"}, {"name", e.value == event::stop ? "stop" : "loop closed"},
                  {"args", {{"iteration", e.iteration}}}});
        break;
      case event::layer_begin: {
        const char* cat = static_cast<const char*>(e.object);
        j.update({{"ph", "B"}, {"cat", cat}, {"name", e.label}});
        if (e.value >= 0 && static_cast<std::size_t>(e.value) < t.recorder->details().size())
          j["args"] = {{"detail", t.recorder->details()[static_cast<std::size_t>(e.value)]}};
        open.push_back({cat, e.label, true});
        break;
      }
      case event::layer_end:
        j.update({{"ph", "E"}, {"cat", open.back().cat}, {"name", open.back().name}});
        open.pop_back();
        break;
      case event::job:
      case event::send: break;
    }
    out.push_back(std::move(j));
  }
  sends_until(UINT64_MAX);
  const std::uint64_t now = loop::hrtime();
  const double end = ev.empty() ? 0.0 : std::max(ts(ev.back()), now >= origin_ns ? static_cast<double>(now - origin_ns) / 1e3 : 0.0);
  while (!open.empty()) {
    out.push_back({{"ph", "E"}, {"cat", open.back().cat}, {"name", open.back().name}, {"pid", pid}, {"tid", t.id},
                   {"ts", end}, {"args", {{"unfinished", true}}}});
    open.pop_back();
  }
  if (t.recorder->dropped() != 0) {
    out.push_back({{"ph", "i"}, {"s", "t"}, {"name", "events dropped"}, {"pid", pid}, {"tid", t.id},
                   {"ts", end}, {"args", {{"count", t.recorder->dropped()}}}});
  }
}

// The workers' and senders' tracks: named, then their events in time order.
void add_other_tracks(event_sink& out, std::vector<elsewhere>& other, int pid) {
  std::stable_sort(other.begin(), other.end(), [](const elsewhere& a, const elsewhere& b) {
    return a.track != b.track ? a.track < b.track : a.ns < b.ns;
  });
  for (std::size_t i = 0; i < other.size(); i++) {
    const std::uint32_t track = other[i].track;
    if (i == 0 || other[i - 1].track != track) {
      const std::string name = track >= thread_track_base
                                   ? "thread " + std::to_string(track - thread_track_base)
                                   : "threadpool worker " + std::to_string(track - worker_track_base + 1);
      out.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", track}, {"args", {{"name", name}}}});
    }
    if (!other[i].first.is_null()) out.push_back(std::move(other[i].first));
    if (!other[i].second.is_null()) out.push_back(std::move(other[i].second));
  }
}

}  // namespace

int write_chrome_trace(const char* path, std::span<const trace_track> tracks, std::uint64_t origin_ns,
                       const char* process_name) noexcept {
  std::FILE* f = std::fopen(path, "w");
  if (f == nullptr) return -errno;
  int status = 0;
  try {
    const int pid = static_cast<int>(::getpid());
    std::uint64_t dropped = 0, flows = 0;
    for (const trace_track& t : tracks) dropped += t.recorder->dropped();
    std::fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":", f);
    const json other_data = {{"producer", "phaseloop"}, {"dropped_events", dropped}};
    std::fputs(other_data.dump().c_str(), f);
    std::fputs(",\"traceEvents\":[", f);
    event_sink events(f);
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", process_name}}}});
    std::vector<elsewhere> other;
    for (const trace_track& t : tracks) add_track(events, t, origin_ns, pid, flows, other);
    add_other_tracks(events, other, pid);
    if (std::fputs("]}", f) == EOF || events.failed()) status = errno != 0 ? -errno : -EIO;
  } catch (const std::bad_alloc&) {
    status = errc::no_memory;
  } catch (...) {
    status = -EIO;
  }
  if (std::fclose(f) != 0 && status == 0) status = errno != 0 ? -errno : -EIO;
  return status;
}

#else  // !PHASELOOP_HAVE_JSON

int write_chrome_trace(const char*, std::span<const trace_track>, std::uint64_t, const char*) noexcept {
  return errc::not_supported;
}

#endif

}  // namespace phaseloop
