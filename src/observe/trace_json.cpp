// write_chrome_trace: recorded events as the Chrome Trace Event format
// (JSON object form: {"traceEvents": [...]}), with nlohmann-json.
//
// Each track is a "thread" of the process: "B"/"E" pairs for phases and
// the callbacks nested in them, "s"/"f" flows from a request's start to
// the callback that completes it, "C" counters, "i" instants, and "M"
// metadata naming the process and the tracks. Timestamps are in
// microseconds from `origin_ns`.

#include "phaseloop/trace.hpp"

#include <unistd.h>

#include <algorithm>
#include <unordered_map>
#include <cerrno>
#include <cstdio>

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
    if (e.handle_type < 0) a["request"] = address(e.object);
  }
  return a;
}

// Flows: a request's start and the callback that completes it (the first
// callback reporting that request after its start), numbered from `next`.
// Starts without such a callback (completed in the pending phase, still in
// flight, or dropped) get none.
std::vector<std::uint64_t> match_flows(const std::vector<trace_recorder::event>& ev, std::uint64_t& next) {
  std::vector<std::uint64_t> flow(ev.size(), 0);
  std::unordered_map<const void*, std::size_t> started;
  for (std::size_t i = 0; i < ev.size(); i++) {
    const auto& e = ev[i];
    if (e.what == trace_recorder::event::submit) {
      started[e.object] = i;
    } else if (e.what == trace_recorder::event::callback_begin && e.req_type >= 0) {
      const auto s = started.find(e.object);
      if (s == started.end()) continue;
      flow[s->second] = flow[i] = ++next;
      started.erase(s);
    }
  }
  return flow;
}

void add_track(json& out, const trace_track& t, std::uint64_t origin_ns, int pid, std::uint64_t& flows) {
  out.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", t.id}, {"args", {{"name", t.name}}}});
  const auto& ev = t.recorder->events();
  const std::vector<std::uint64_t> flow = match_flows(ev, flows);
  auto ts = [&](const trace_recorder::event& e) {
    return e.ns >= origin_ns ? static_cast<double>(e.ns - origin_ns) / 1e3 : 0.0;
  };
  // Slices still open when the file is written (the process exits from a
  // callback, or a signal ends it in poll) are closed at the write time.
  std::vector<std::pair<const char*, const char*>> open;  // (cat, name)
  for (std::size_t i = 0; i < ev.size(); i++) {
    const auto& e = ev[i];
    json j = {{"pid", pid}, {"tid", t.id}, {"ts", ts(e)}};
    switch (e.what) {
      case trace_recorder::event::phase_begin:
        j.update({{"ph", "B"}, {"cat", "phase"}, {"name", phase_name(e.which)}});
        open.emplace_back("phase", phase_name(e.which));
        j["args"] = {{"iteration", e.iteration}};
        if (e.before_loop) j["args"]["before_loop"] = true;
        if (e.which == phase::poll) {
          j["args"]["timeout_ms"] = e.value;
          j["args"]["waited_ms"] = waited_us(ev, i) / 1e3;
        }
        break;
      case trace_recorder::event::phase_end:
        j.update({{"ph", "E"}, {"cat", "phase"}, {"name", phase_name(e.which)}});
        if (!open.empty()) open.pop_back();
        break;
      case trace_recorder::event::callback_begin:
        if (flow[i] != 0)  // binds to the slice that begins next: this callback
          out.push_back({{"ph", "f"}, {"cat", "request"}, {"name", req_type_name(static_cast<req_type>(e.req_type))},
                         {"id", flow[i]}, {"pid", pid}, {"tid", t.id}, {"ts", ts(e)}});
        j.update({{"ph", "B"}, {"cat", "callback"}, {"name", callback_kind_name(e.cb)}, {"args", callback_args(e)}});
        open.emplace_back("callback", callback_kind_name(e.cb));
        break;
      case trace_recorder::event::callback_end:
        j.update({{"ph", "E"}, {"cat", "callback"}, {"name", callback_kind_name(e.cb)}});
        if (!open.empty()) open.pop_back();
        break;
      case trace_recorder::event::counters:
        j.update({{"ph", "C"}, {"name", "active"}, {"args", {{"handles", e.handles}, {"requests", e.requests}}}});
        out.push_back(j);
        j = {{"pid", pid}, {"tid", t.id}, {"ts", ts(e)}, {"ph", "C"}, {"name", "queued"},
             {"args", {{"pending callbacks", e.pending}, {"threadpool", e.pool_queue}}}};
        break;
      case trace_recorder::event::submit:
        if (flow[i] == 0) continue;
        j.update({{"ph", "s"}, {"cat", "request"}, {"name", req_type_name(static_cast<req_type>(e.req_type))},
                  {"id", flow[i]}, {"args", {{"request", address(e.object)}, {"iteration", e.iteration}}}});
        break;
      case trace_recorder::event::instant:
        j.update({{"ph", "i"}, {"s", "t"}, {"name", e.value == trace_recorder::event::stop ? "stop" : "loop closed"},
                  {"args", {{"iteration", e.iteration}}}});
        break;
    }
    out.push_back(std::move(j));
  }
  const std::uint64_t now = loop::hrtime();
  const double end = ev.empty() ? 0.0 : std::max(ts(ev.back()), now >= origin_ns ? static_cast<double>(now - origin_ns) / 1e3 : 0.0);
  while (!open.empty()) {
    out.push_back({{"ph", "E"}, {"cat", open.back().first}, {"name", open.back().second}, {"pid", pid}, {"tid", t.id},
                   {"ts", end}, {"args", {{"unfinished", true}}}});
    open.pop_back();
  }
  if (t.recorder->dropped() != 0) {
    out.push_back({{"ph", "i"}, {"s", "t"}, {"name", "events dropped"}, {"pid", pid}, {"tid", t.id},
                   {"ts", end}, {"args", {{"count", t.recorder->dropped()}}}});
  }
}

}  // namespace

int write_chrome_trace(const char* path, std::span<const trace_track> tracks, std::uint64_t origin_ns,
                       const char* process_name) noexcept {
  try {
    const int pid = static_cast<int>(::getpid());
    json events = json::array();
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", process_name}}}});
    std::uint64_t dropped = 0, flows = 0;
    for (const trace_track& t : tracks) {
      add_track(events, t, origin_ns, pid, flows);
      dropped += t.recorder->dropped();
    }
    const json doc = {{"traceEvents", std::move(events)},
                      {"displayTimeUnit", "ms"},
                      {"otherData", {{"producer", "phaseloop"}, {"dropped_events", dropped}}}};
    const std::string text = doc.dump();
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) return -errno;
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int e = ok ? 0 : errno;
    if (std::fclose(f) != 0 || !ok) return e != 0 ? -e : -EIO;
    return 0;
  } catch (const std::bad_alloc&) {
    return errc::no_memory;
  } catch (...) {
    return -EIO;
  }
}

#else  // !PHASELOOP_HAVE_JSON

int write_chrome_trace(const char*, std::span<const trace_track>, std::uint64_t, const char*) noexcept {
  return errc::not_supported;
}

#endif

}  // namespace phaseloop
