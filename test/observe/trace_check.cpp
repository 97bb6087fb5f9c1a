// SPDX-License-Identifier: MIT
// trace_check FILE [--phases a,b,...] [--kinds x,y,...] [--tracks N] [--flows N]
//                  [--jobs N] [--sends N] [--js a,b,...]
// Checks a trace file against the rules of the Chrome Trace Event format
// as phaseloop writes it: JSON with a traceEvents array; every event has a
// phase type, and all but metadata a pid, tid and timestamp; per track the
// timestamps never go back, every "E" closes the innermost open "B" of the
// same name, nothing is left open, and every callback slice lies inside a
// phase slice; every flow ("s" and "f", same id) starts once and ends
// once, no earlier, the end right before a callback slice begins on its
// track; a
// flow's step ("t") lies between its start and end and comes right before
// the job slice ("X", cat "job") it marks; a worker's job slices have a
// duration and never overlap (a worker runs one job at a time).
// --phases and --kinds name phases and callback kinds that must appear;
// --tracks the least number of tracks, --flows of flows, --jobs of job
// slices, --sends of flows from an async send; --js names slices of the
// "js" category (phaseloop run --trace=FILE) that must appear, each of
// which, when it runs inside a loop phase, must also run inside a callback
// of that phase. Exit 0 when it holds.

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using json = nlohmann::json;

std::set<std::string> split(const std::string& s) {
  std::set<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.insert(item);
  return out;
}

struct track_state {
  double last_ts = -1;
  double job_end = -1;  // end of the last job slice
  std::vector<std::pair<std::string, std::string>> open;  // (cat, name)
};

int fail(std::size_t i, const std::string& why) {
  std::printf("FAIL: event %zu: %s\n", i, why.c_str());
  return 1;
}

// Applies one event to its track; an empty string when it keeps the rules.
std::string step(track_state& t, const json& e, std::set<std::string>& phases, std::set<std::string>& kinds,
                 std::set<std::string>& js, std::size_t& slices) {
  const std::string ph = e["ph"];
  const double ts = e["ts"];
  if (ts < t.last_ts) return "timestamp goes back on its track";
  t.last_ts = ts;
  const std::string cat = e.value("cat", "");
  const std::string name = e.value("name", "");
  if (ph == "B") {
    if (cat == "callback") {
      bool in_phase = false;
      for (const auto& o : t.open) in_phase = in_phase || o.first == "phase";
      if (!in_phase) return "callback \"" + name + "\" outside every phase";
      kinds.insert(name);
    } else if (cat == "phase") {
      phases.insert(name);
    } else if (cat == "js") {
      for (auto o = t.open.rbegin(); o != t.open.rend(); ++o) {
        if (o->first == "callback") break;
        if (o->first == "phase") return "JavaScript \"" + name + "\" inside phase \"" + o->second + "\" but no callback";
      }
      js.insert(name);
    }
    t.open.emplace_back(cat, name);
  } else if (ph == "E") {
    if (t.open.empty()) return "\"E\" of \"" + name + "\" with nothing open";
    if (t.open.back().second != name) return "\"E\" of \"" + name + "\" closes \"" + t.open.back().second + "\"";
    t.open.pop_back();
    slices++;
  } else if (ph == "X") {
    if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0) return "an \"X\" without a duration";
    slices++;
    if (cat == "job") {
      if (ts < t.job_end) return "job \"" + name + "\" begins before the worker's previous job ended";
      t.job_end = ts + e["dur"].get<double>();
    }
  } else if (ph != "C" && ph != "i" && ph != "s" && ph != "f" && ph != "t") {
    return "unknown phase type \"" + ph + "\"";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: trace_check FILE [--phases a,b] [--kinds x,y] [--tracks N] [--flows N] [--jobs N] [--sends N] [--js a,b]\n");
    return 2;
  }
  std::set<std::string> want_phases, want_kinds, want_js;
  std::size_t want_tracks = 1, want_flows = 0, want_jobs = 0, want_sends = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string opt = argv[i];
    if (opt == "--phases") want_phases = split(argv[i + 1]);
    else if (opt == "--kinds") want_kinds = split(argv[i + 1]);
    else if (opt == "--tracks") want_tracks = std::stoul(argv[i + 1]);
    else if (opt == "--flows") want_flows = std::stoul(argv[i + 1]);
    else if (opt == "--jobs") want_jobs = std::stoul(argv[i + 1]);
    else if (opt == "--js") want_js = split(argv[i + 1]);
    else if (opt == "--sends") want_sends = std::stoul(argv[i + 1]);
    else return std::fprintf(stderr, "trace_check: unknown option %s\n", opt.c_str()), 2;
  }
  json doc;
  try {
    std::ifstream in(argv[1]);
    if (!in) return std::printf("FAIL: cannot open %s\n", argv[1]), 1;
    doc = json::parse(in);
  } catch (const std::exception& e) {
    return std::printf("FAIL: %s is not JSON: %s\n", argv[1], e.what()), 1;
  }
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array())
    return std::printf("FAIL: no traceEvents array\n"), 1;

  std::map<std::pair<long, long>, track_state> tracks;
  std::set<std::string> phases, kinds, js;
  std::size_t slices = 0, flows = 0, jobs = 0, sends = 0;
  struct flow_state { int starts = 0, ends = 0; double start = 0, end = 0; };
  std::map<std::uint64_t, flow_state> flow_of;
  std::vector<std::pair<std::uint64_t, double>> steps;         // (id, ts), checked at the end
  const json& events = doc["traceEvents"];
  for (std::size_t i = 0; i < events.size(); i++) {
    const json& e = events[i];
    if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) return fail(i, "no \"ph\"");
    if (e["ph"] == "M") continue;
    if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("pid") || !e.contains("tid"))
      return fail(i, "no ts, pid or tid");
    track_state& t = tracks[{e["pid"].get<long>(), e["tid"].get<long>()}];
    if (const std::string why = step(t, e, phases, kinds, js, slices); !why.empty()) return fail(i, why);
    if (e["ph"] == "X" && e.value("cat", "") == "job") jobs++;
    if (e["ph"] == "t") {
      if (!e.contains("id") || !e["id"].is_number_unsigned()) return fail(i, "a flow step without a numeric id");
      const json& next = i + 1 < events.size() ? events[i + 1] : json();
      if (!next.is_object() || next.value("ph", "") != "X" || next.value("cat", "") != "job" ||
          next.value("ts", -1.0) != e["ts"].get<double>() || next.value("tid", -1L) != e["tid"].get<long>())
        return fail(i, "flow step " + std::to_string(e["id"].get<std::uint64_t>()) + " does not mark a job");
      steps.emplace_back(e["id"].get<std::uint64_t>(), e["ts"].get<double>());
    }
    if (e["ph"] == "s" || e["ph"] == "f") {
      if (!e.contains("id") || !e["id"].is_number_unsigned()) return fail(i, "a flow event without a numeric id");
      const std::uint64_t id = e["id"];
      auto& f = flow_of[id];
      if (e["ph"] == "s") {
        if (f.starts++ != 0) return fail(i, "flow " + std::to_string(id) + " starts twice");
        f.start = e["ts"].get<double>();
      } else {
        if (f.ends++ != 0) return fail(i, "flow " + std::to_string(id) + " ends twice");
        f.end = e["ts"].get<double>();
        // It binds to the next slice: the next event is a callback's "B".
        const json& next = i + 1 < events.size() ? events[i + 1] : json();
        if (!next.is_object() || next.value("ph", "") != "B" || next.value("cat", "") != "callback")
          return fail(i, "flow " + std::to_string(id) + " does not end at a callback");
        if (e.value("name", "") == "async send") sends++;
      }
    }
  }
  // Flows: a track's events come together, so a flow may start (on another
  // thread's track) later in the file than it ends.
  for (const auto& [id, f] : flow_of) {
    const std::string which = "flow " + std::to_string(id);
    if (f.starts == 0) return std::printf("FAIL: %s ends without a start\n", which.c_str()), 1;
    if (f.ends == 0) return std::printf("FAIL: %s never ends\n", which.c_str()), 1;
    if (f.end < f.start) return std::printf("FAIL: %s ends before it starts\n", which.c_str()), 1;
    flows++;
  }
  for (const auto& [id, ts] : steps) {
    const auto f = flow_of.find(id);
    if (f == flow_of.end()) return std::printf("FAIL: flow step of %llu, a flow that never ran\n", (unsigned long long)id), 1;
    if (ts < f->second.start || ts > f->second.end)
      return std::printf("FAIL: flow %llu's step at %.3f lies outside its span\n", (unsigned long long)id, ts), 1;
  }
  int status = 0;
  for (const auto& [id, t] : tracks)
    if (!t.open.empty()) {
      std::printf("FAIL: track %ld/%ld ends with \"%s\" open\n", id.first, id.second, t.open.back().second.c_str());
      status = 1;
    }
  for (const std::string& p : want_phases)
    if (!phases.count(p)) status = 1, std::printf("FAIL: no \"%s\" phase\n", p.c_str());
  for (const std::string& k : want_kinds)
    if (!kinds.count(k)) status = 1, std::printf("FAIL: no \"%s\" callback\n", k.c_str());
  for (const std::string& k : want_js)
    if (!js.count(k)) status = 1, std::printf("FAIL: no JavaScript \"%s\"\n", k.c_str());
  if (tracks.size() < want_tracks) status = 1, std::printf("FAIL: %zu tracks, wanted %zu\n", tracks.size(), want_tracks);
  if (flows < want_flows) status = 1, std::printf("FAIL: %zu flows, wanted %zu\n", flows, want_flows);
  if (jobs < want_jobs) status = 1, std::printf("FAIL: %zu jobs, wanted %zu\n", jobs, want_jobs);
  if (sends < want_sends) status = 1, std::printf("FAIL: %zu async send flows, wanted %zu\n", sends, want_sends);
  if (status == 0)
    std::printf("ok: %zu events, %zu slices closed and nested, %zu tracks, %zu flows (%zu from async sends), %zu jobs\n",
                events.size(), slices, tracks.size(), flows, sends, jobs);
  return status;
}
