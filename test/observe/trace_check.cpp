// trace_check FILE [--phases a,b,...] [--kinds x,y,...] [--tracks N] [--flows N]
// Checks a trace file against the rules of the Chrome Trace Event format
// as phaseloop writes it: JSON with a traceEvents array; every event has a
// phase type, and all but metadata a pid, tid and timestamp; per track the
// timestamps never go back, every "E" closes the innermost open "B" of the
// same name, nothing is left open, and every callback slice lies inside a
// phase slice; every flow ("s" then "f", same id) starts once and ends
// once, later, right before a callback slice begins on its track.
// --phases and --kinds name phases and callback kinds that must appear;
// --tracks the least number of tracks, --flows of flows. Exit 0 when it
// holds.

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
  std::vector<std::pair<std::string, std::string>> open;  // (cat, name)
};

int fail(std::size_t i, const std::string& why) {
  std::printf("FAIL: event %zu: %s\n", i, why.c_str());
  return 1;
}

// Applies one event to its track; an empty string when it keeps the rules.
std::string step(track_state& t, const json& e, std::set<std::string>& phases, std::set<std::string>& kinds,
                 std::size_t& slices) {
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
    }
    t.open.emplace_back(cat, name);
  } else if (ph == "E") {
    if (t.open.empty()) return "\"E\" of \"" + name + "\" with nothing open";
    if (t.open.back().second != name) return "\"E\" of \"" + name + "\" closes \"" + t.open.back().second + "\"";
    t.open.pop_back();
    slices++;
  } else if (ph != "C" && ph != "i" && ph != "X" && ph != "s" && ph != "f") {
    return "unknown phase type \"" + ph + "\"";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: trace_check FILE [--phases a,b] [--kinds x,y] [--tracks N]\n");
    return 2;
  }
  std::set<std::string> want_phases, want_kinds;
  std::size_t want_tracks = 1, want_flows = 0;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string opt = argv[i];
    if (opt == "--phases") want_phases = split(argv[i + 1]);
    else if (opt == "--kinds") want_kinds = split(argv[i + 1]);
    else if (opt == "--tracks") want_tracks = std::stoul(argv[i + 1]);
    else if (opt == "--flows") want_flows = std::stoul(argv[i + 1]);
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
  std::set<std::string> phases, kinds;
  std::size_t slices = 0, flows = 0;
  std::map<std::uint64_t, double> flow_open;  // id -> start ts
  std::set<std::uint64_t> flow_done;
  const json& events = doc["traceEvents"];
  for (std::size_t i = 0; i < events.size(); i++) {
    const json& e = events[i];
    if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) return fail(i, "no \"ph\"");
    if (e["ph"] == "M") continue;
    if (!e.contains("ts") || !e["ts"].is_number() || !e.contains("pid") || !e.contains("tid"))
      return fail(i, "no ts, pid or tid");
    track_state& t = tracks[{e["pid"].get<long>(), e["tid"].get<long>()}];
    if (const std::string why = step(t, e, phases, kinds, slices); !why.empty()) return fail(i, why);
    if (e["ph"] == "s" || e["ph"] == "f") {
      if (!e.contains("id") || !e["id"].is_number_unsigned()) return fail(i, "a flow event without a numeric id");
      const std::uint64_t id = e["id"];
      if (e["ph"] == "s") {
        if (flow_open.count(id) || flow_done.count(id)) return fail(i, "flow " + std::to_string(id) + " starts twice");
        flow_open[id] = e["ts"].get<double>();
      } else {
        const auto o = flow_open.find(id);
        if (o == flow_open.end()) return fail(i, "flow " + std::to_string(id) + " ends without a start");
        if (e["ts"].get<double>() < o->second) return fail(i, "flow " + std::to_string(id) + " ends before it starts");
        // It binds to the next slice: the next event is a callback's "B".
        const json& next = i + 1 < events.size() ? events[i + 1] : json();
        if (!next.is_object() || next.value("ph", "") != "B" || next.value("cat", "") != "callback")
          return fail(i, "flow " + std::to_string(id) + " does not end at a callback");
        flow_open.erase(o);
        flow_done.insert(id);
        flows++;
      }
    }
  }
  if (!flow_open.empty()) return std::printf("FAIL: %zu flows never end\n", flow_open.size()), 1;
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
  if (tracks.size() < want_tracks) status = 1, std::printf("FAIL: %zu tracks, wanted %zu\n", tracks.size(), want_tracks);
  if (flows < want_flows) status = 1, std::printf("FAIL: %zu flows, wanted %zu\n", flows, want_flows);
  if (status == 0)
    std::printf("ok: %zu events, %zu slices closed and nested, %zu tracks, %zu flows\n", events.size(), slices,
                tracks.size(), flows);
  return status;
}
