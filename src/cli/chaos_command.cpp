// SPDX-License-Identifier: MIT
// `phaseloop chaos`: a program that links libuv.so.1 (or `phaseloop run`)
// run on the drop-in under chaos mode (PHASELOOP_CHAOS), one seed after
// another; the seeds whose run failed (a non-zero status, a signal, or no
// end within the timeout) are listed, and the first failure is shrunk: the
// kinds of choice it does not need are dropped, then the perturbations it
// does not need (PHASELOOP_CHAOS's limit), so that what is left is the
// fewest choices that still make it fail. See docs/chaos.md.

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "js/runner.hpp"
#include "phaseloop/chaos.hpp"
#include "phaseloop/loop.hpp"

namespace phaseloop::runner {

namespace {

int chaos_usage() {
  std::fputs(
      "usage: phaseloop chaos [--seed N] [--runs K] [--kinds LIST] [--timeout SECONDS] [--no-shrink]\n"
      "                       [--profile VERSION] -- COMMAND [ARGS...]\n",
      stderr);
  return 2;
}

struct outcome {
  bool failed = false;
  std::string why;     // "exit status 1", "signal 6", "timed out after 60 s"
  std::string output;  // what it printed (stdout and stderr, interleaved)
};

struct settings {
  std::string dropin;
  std::string profile;
  double timeout_s = 60;
  char** command = nullptr;
  std::string scratch;  // a file for the output of one run
};

// One run of the command under `o`: its output goes to a scratch file; a
// run past the timeout is killed with its process group.
outcome run_once(const settings& s, const chaos_options& o) {
  outcome r;
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.failed = true;
    r.why = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    const char* old = std::getenv("LD_LIBRARY_PATH");
    const std::string path = old != nullptr && *old != '\0' ? s.dropin + ":" + old : s.dropin;
    ::setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    ::setenv("PHASELOOP_CHAOS", format_chaos(o).c_str(), 1);
    if (!s.profile.empty()) ::setenv("PHASELOOP_PROFILE", s.profile.c_str(), 1);
    std::FILE* out = std::fopen(s.scratch.c_str(), "w");
    if (out != nullptr) {
      ::dup2(::fileno(out), 1);
      ::dup2(::fileno(out), 2);
    }
    ::execvp(s.command[0], s.command);
    std::fprintf(stderr, "phaseloop chaos: cannot run %s: %s\n", s.command[0], std::strerror(errno));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  const std::uint64_t deadline = loop::hrtime() + static_cast<std::uint64_t>(s.timeout_s * 1e9);
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (loop::hrtime() > deadline) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.failed = true;
      char text[64];
      std::snprintf(text, sizeof text, "no end within %g s", s.timeout_s);
      r.why = text;
      break;
    }
    const timespec pause{0, 2000000};
    ::nanosleep(&pause, nullptr);
  }
  if (r.why.empty()) {
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
      r.failed = true;
      r.why = "exit status " + std::to_string(WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
      r.failed = true;
      r.why = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
              ::strsignal(WTERMSIG(status)) + ")";
    }
  }
  std::ifstream in(s.scratch, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  r.output = text.str();
  return r;
}

// The last `n` lines of `text`, each indented.
std::string tail(const std::string& text, int n) {
  std::size_t at = text.size();
  if (at > 0 && text[at - 1] == '\n') at--;
  for (int k = 0; k < n && at > 0; k++) {
    const std::size_t nl = text.rfind('\n', at - 1);
    at = nl == std::string::npos ? 0 : nl;
    if (nl == std::string::npos) break;
  }
  std::string out;
  std::istringstream lines(text.substr(at == 0 ? 0 : at + 1));
  for (std::string line; std::getline(lines, line);) out += "    " + line + "\n";
  return out;
}

bool parse_count(std::string_view v, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out, 10);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size();
}

// Drops the kinds the failure does not need, then the perturbations: the
// smallest limit that still fails (each candidate run once: a failure
// that comes and goes may leave more than it needs).
chaos_options shrink(const settings& s, chaos_options o, outcome& last) {
  std::fprintf(stderr, "phaseloop chaos: shrinking seed %llu\n", static_cast<unsigned long long>(o.seed));
  for (unsigned k = 0; k < chaos_kinds; k++) {
    if (!(o.kinds & (1u << k)) || (o.kinds & ~(1u << k)) == 0) continue;
    chaos_options fewer = o;
    fewer.kinds &= ~(1u << k);
    outcome r = run_once(s, fewer);
    std::fprintf(stderr, "  without %-7s %s\n", chaos_kind_name(static_cast<chaos_kind>(k)),
                 r.failed ? "still fails" : "passes: needed");
    if (r.failed) {
      o = fewer;
      last = r;
    }
  }
  // The smallest limit that fails: doubling until one does, then halving
  // the gap.
  const auto fails_with = [&](std::uint64_t limit) {
    chaos_options c = o;
    c.limit = limit;
    outcome r = run_once(s, c);
    std::fprintf(stderr, "  limit=%-8llu %s\n", static_cast<unsigned long long>(limit), r.failed ? "fails" : "passes");
    if (r.failed) last = r;
    return r.failed;
  };
  std::uint64_t good = 0, bad = 0;  // a limit that passed; one that failed (0: none yet)
  for (std::uint64_t limit = 1; limit <= (std::uint64_t{1} << 40) && bad == 0; limit *= 2) {
    if (fails_with(limit)) bad = limit;
    else good = limit;
  }
  if (bad == 0) return o;  // fails only with no limit (or not at all again)
  while (bad - good > 1) {
    const std::uint64_t mid = good + (bad - good) / 2;
    if (fails_with(mid)) bad = mid;
    else good = mid;
  }
  o.limit = bad;
  return o;
}

}  // namespace

int chaos_command(int argc, char** argv) {
  settings s;
  chaos_options base;
  base.seed = 1;
  std::uint64_t runs = 20;
  bool do_shrink = true;
  int i = 2;
  for (; i < argc; i++) {
    const std::string_view a = argv[i];
    if (a == "--") {
      i++;
      break;
    }
    std::string_view value;
    const auto opt = [&](std::string_view name) {
      if (a == name && i + 1 < argc) {
        value = argv[++i];
        return true;
      }
      if (a.size() > name.size() && a.substr(0, name.size()) == name && a[name.size()] == '=') {
        value = a.substr(name.size() + 1);
        return true;
      }
      return false;
    };
    if (opt("--seed")) {
      if (!parse_count(value, base.seed)) {
        std::fprintf(stderr, "phaseloop chaos: --seed %.*s is not a decimal number\n", static_cast<int>(value.size()),
                     value.data());
        return 2;
      }
    } else if (opt("--runs")) {
      if (!parse_count(value, runs) || runs == 0) {
        std::fprintf(stderr, "phaseloop chaos: --runs %.*s is not a number above 0\n", static_cast<int>(value.size()),
                     value.data());
        return 2;
      }
    } else if (opt("--kinds")) {
      chaos_options k;
      std::string error, text = "0," + std::string(value);
      for (char& c : text) c = c == '+' ? ',' : c;
      if (!parse_chaos(text, k, error)) {
        std::fprintf(stderr, "phaseloop chaos: --kinds %.*s: %s\n", static_cast<int>(value.size()), value.data(),
                     error.c_str());
        return 2;
      }
      base.kinds = k.kinds;
    } else if (opt("--timeout")) {
      char* end = nullptr;
      const std::string v(value);
      s.timeout_s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(s.timeout_s > 0)) {
        std::fprintf(stderr, "phaseloop chaos: --timeout %s is not a number of seconds above 0\n", v.c_str());
        return 2;
      }
    } else if (opt("--profile")) {
      libuv_version v{};
      s.profile = std::string(value);
      if (!parse_libuv_version(s.profile.c_str(), v) || !known_libuv_version(v)) {
        std::fprintf(stderr, "phaseloop chaos: --profile %s is no libuv version phaseloop behaves as (1.44 to 1.53)\n",
                     s.profile.c_str());
        return 2;
      }
    } else if (a == "--no-shrink") {
      do_shrink = false;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "phaseloop chaos: unknown option %s\n", argv[i]);
      return chaos_usage();
    } else {
      break;
    }
  }
  if (i >= argc) return chaos_usage();
  s.command = argv + i;
  warn_if_libuv_built_in(argv[i], "chaos");
  s.dropin = find_dropin();
  if (s.dropin.empty()) {
    std::fputs("phaseloop chaos: cannot find the drop-in libuv.so.1 (set PHASELOOP_DROPIN_DIR to its directory)\n",
               stderr);
    return 2;
  }
  const char* tmpdir = std::getenv("TMPDIR");
  s.scratch = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/phaseloop-chaos.XXXXXX";
  const int fd = ::mkstemp(s.scratch.data());
  if (fd < 0) {
    std::fprintf(stderr, "phaseloop chaos: cannot make a scratch file: %s\n", std::strerror(errno));
    return 2;
  }
  ::close(fd);

  std::vector<std::uint64_t> failed;
  outcome first;
  for (std::uint64_t n = 0; n < runs; n++) {
    chaos_options o = base;
    o.seed = base.seed + n;
    outcome r = run_once(s, o);
    if (r.why.rfind("fork:", 0) == 0 || (r.why == "exit status 127" && n == 0 && r.output.find("cannot run") != std::string::npos)) {
      std::fputs(r.output.c_str(), stderr);
      ::unlink(s.scratch.c_str());
      return 2;
    }
    std::fprintf(stderr, "phaseloop chaos: seed %llu: %s\n", static_cast<unsigned long long>(o.seed),
                 r.failed ? ("FAILED (" + r.why + ")").c_str() : "passed");
    if (r.failed) {
      if (failed.empty()) first = r;
      failed.push_back(o.seed);
    }
  }
  std::fprintf(stderr, "\nphaseloop chaos: %llu runs, %zu failed", static_cast<unsigned long long>(runs), failed.size());
  for (std::size_t k = 0; k < failed.size(); k++)
    std::fprintf(stderr, "%s%llu", k == 0 ? " (seeds " : ", ", static_cast<unsigned long long>(failed[k]));
  std::fputs(failed.empty() ? "\n" : ")\n", stderr);
  if (failed.empty()) {
    ::unlink(s.scratch.c_str());
    return 0;
  }
  chaos_options worst = base;
  worst.seed = failed[0];
  std::fprintf(stderr, "phaseloop chaos: seed %llu (%s) ended with:\n%s", static_cast<unsigned long long>(worst.seed),
               first.why.c_str(), tail(first.output, 12).c_str());
  chaos_options none = worst;
  none.limit = 0;
  if (const outcome r = run_once(s, none); r.failed) {
    std::fprintf(stderr,
                 "phaseloop chaos: it fails without any chaos choice too (%s): not an order chaos mode chose\n",
                 r.why.c_str());
    ::unlink(s.scratch.c_str());
    return 1;
  }
  if (do_shrink) {
    outcome last = first;
    worst = shrink(s, worst, last);
    std::fprintf(stderr, "phaseloop chaos: the fewest choices found that still fail: PHASELOOP_CHAOS=%s (%s)\n",
                 format_chaos(worst).c_str(), last.why.c_str());
  }
  std::fprintf(stderr,
               "phaseloop chaos: to repeat it: PHASELOOP_CHAOS=%s LD_LIBRARY_PATH=%s %s ...\n"
               "  and to see each choice on the timeline: PHASELOOP_CHAOS=%s phaseloop trace -- %s ...\n",
               format_chaos(worst).c_str(), s.dropin.c_str(), s.command[0], format_chaos(worst).c_str(),
               s.command[0]);
  ::unlink(s.scratch.c_str());
  return 1;
}

}  // namespace phaseloop::runner
