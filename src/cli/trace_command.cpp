// SPDX-License-Identifier: MIT
// `phaseloop trace`: any program that links libuv.so.1, run on the drop-in
// with PHASELOOP_TRACE and PHASELOOP_STATS set, then where its timelines
// are and its loops' statistics; and `phaseloop trace view`, which turns a
// timeline into one self-contained HTML page (src/cli/trace_view.html).

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "js/runner.hpp"

// The page, with the line @@PHASELOOP_TRACE_DATA@@ where the trace goes
// (trace_view_html.cpp, made from trace_view.html by the build).
extern const char phaseloop_trace_view_html[];

namespace phaseloop::runner {

namespace {

constexpr const char* marker = "@@PHASELOOP_TRACE_DATA@@";

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return !in.bad();
}

std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

std::string html_name(const std::string& json) {
  const std::string_view j(json);
  if (j.size() > 5 && j.substr(j.size() - 5) == ".json") return json.substr(0, json.size() - 5) + ".html";
  return json + ".html";
}

// The program `name` would run as (PATH searched as execvp does), or "".
std::string program_path(const char* name) {
  if (std::strchr(name, '/') != nullptr) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    std::size_t end = dirs.find(':', at);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = (end > at ? dirs.substr(at, end - at) : ".") + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return {};
}

// Whether the ELF file at `path` is a 64-bit program that loads no
// libuv.so.1 (its DT_NEEDED entries), i.e. has libuv built in (as
// nodejs.org's and NodeSource's node have) or none at all. False for
// scripts, other formats and anything unreadable: those may still start a
// program that loads the drop-in.
bool elf_without_libuv(const std::string& path) {
  std::string data;
  if (!read_file(path, data) || data.size() < sizeof(Elf64_Ehdr) || data.compare(0, 4, ELFMAG) != 0 ||
      data[EI_CLASS] != ELFCLASS64) {
    return false;
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, data.data(), sizeof eh);
  const auto phdr = [&](std::size_t k, Elf64_Phdr& ph) {
    const std::size_t at = eh.e_phoff + k * eh.e_phentsize;
    if (eh.e_phentsize < sizeof ph || at + sizeof ph > data.size()) return false;
    std::memcpy(&ph, data.data() + at, sizeof ph);
    return true;
  };
  // A virtual address to a file offset, through the PT_LOAD segments.
  const auto offset_of = [&](Elf64_Addr addr, std::size_t& off) {
    Elf64_Phdr ph;
    for (std::size_t k = 0; k < eh.e_phnum && phdr(k, ph); k++) {
      if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
        off = ph.p_offset + (addr - ph.p_vaddr);
        return off < data.size();
      }
    }
    return false;
  };
  Elf64_Phdr dyn{};
  bool has_dynamic = false;
  for (std::size_t k = 0; k < eh.e_phnum && phdr(k, dyn); k++) {
    if (dyn.p_type == PT_DYNAMIC) {
      has_dynamic = true;
      break;
    }
  }
  if (!has_dynamic) return true;  // statically linked: nothing is loaded
  std::vector<Elf64_Xword> needed;
  Elf64_Addr strtab = 0;
  for (std::size_t at = dyn.p_offset; at + sizeof(Elf64_Dyn) <= data.size() && at < dyn.p_offset + dyn.p_filesz;
       at += sizeof(Elf64_Dyn)) {
    Elf64_Dyn d;
    std::memcpy(&d, data.data() + at, sizeof d);
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
  }
  std::size_t str = 0;
  if (!offset_of(strtab, str)) return false;
  for (const Elf64_Xword n : needed) {
    if (str + n >= data.size()) return false;
    if (std::strcmp(data.c_str() + str + n, "libuv.so.1") == 0) return false;
  }
  return true;
}

int trace_usage() {
  std::fputs(
      "usage: phaseloop trace [-o FILE] [--html] [--profile VERSION] -- COMMAND [ARGS...]\n"
      "       phaseloop trace view FILE.json [-o FILE.html]\n",
      stderr);
  return 2;
}

}  // namespace

namespace {
bool dir_has_dropin(const std::string& dir) { return ::access((dir + "/libuv.so.1").c_str(), R_OK) == 0; }

}  // namespace

// Where the drop-in libuv.so.1 is: $PHASELOOP_DROPIN_DIR; next to this
// program in a build tree (dropin/.libs); else where `make install` puts
// it (PHASELOOP_DROPIN_INSTALL_DIR, $(pkglibdir)).
std::string find_dropin() {
  if (const char* d = std::getenv("PHASELOOP_DROPIN_DIR"); d != nullptr && *d != '\0') return d;
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    std::string dir(exe);
    dir.erase(dir.rfind('/'));
    // A libtool build runs .libs/lt-phaseloop or .libs/phaseloop.
    for (const std::string& cand : {dir + "/dropin/.libs", dir + "/../dropin/.libs"})
      if (dir_has_dropin(cand)) return cand;
  }
#ifdef PHASELOOP_DROPIN_INSTALL_DIR
  if (dir_has_dropin(PHASELOOP_DROPIN_INSTALL_DIR)) return PHASELOOP_DROPIN_INSTALL_DIR;
#endif
  return {};
}

// Says so when the program `name` loads no libuv.so.1: `command`'s
// drop-in cannot reach its loops, only those of programs it starts.
void warn_if_libuv_built_in(const char* name, const char* command) {
  const std::string path = program_path(name);
  if (path.empty() || !elf_without_libuv(path)) return;
  std::fprintf(stderr,
               "phaseloop %s: %s does not load libuv.so.1 (a libuv built in, as nodejs.org's and NodeSource's node\n"
               "  have): the drop-in cannot reach its loops, only those of programs it starts that load libuv.so.1.\n"
               "  Use a build linked to the system's libuv (Debian's nodejs, a libuv program built with -luv).\n",
               command, path.c_str());
}

int write_trace_html(const std::string& json_path, const std::string& html_path) {
  std::string data;
  if (!read_file(json_path, data)) {
    std::fprintf(stderr, "phaseloop: cannot read %s: %s\n", json_path.c_str(), std::strerror(errno));
    return 1;
  }
  // The page parses the data, so only well-formed JSON gets that far: a
  // quick look at its first character catches the wrong file.
  const std::size_t first = data.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (data[first] != '{' && data[first] != '[')) {
    std::fprintf(stderr, "phaseloop: %s is not a trace (Chrome Trace Event JSON)\n", json_path.c_str());
    return 1;
  }
  // Inside <script>, "</" could end the element: JSON lets it be "<\/".
  std::string safe;
  safe.reserve(data.size() + 16);
  for (std::size_t i = 0; i < data.size(); i++) {
    safe += data[i];
    if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/') safe += '\\';
  }
  const std::string_view page(phaseloop_trace_view_html);
  const std::size_t at = page.find(marker);
  if (at == std::string_view::npos) {
    std::fputs("phaseloop: the trace page template has no data marker\n", stderr);
    return 1;
  }
  std::FILE* f = std::fopen(html_path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "phaseloop: cannot write %s: %s\n", html_path.c_str(), std::strerror(errno));
    return 1;
  }
  const std::string_view before = page.substr(0, at), after = page.substr(at + std::strlen(marker));
  bool ok = std::fwrite(before.data(), 1, before.size(), f) == before.size() &&
            std::fwrite(safe.data(), 1, safe.size(), f) == safe.size() &&
            std::fwrite(after.data(), 1, after.size(), f) == after.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::fprintf(stderr, "phaseloop: cannot write %s: %s\n", html_path.c_str(), std::strerror(errno));
    return 1;
  }
  return 0;
}

namespace {

int view_command(int argc, char** argv, int i) {
  std::string in, out;
  for (; i < argc; i++) {
    const std::string_view a = argv[i];
    if ((a == "-o" || a == "--output") && i + 1 < argc) out = argv[++i];
    else if (a.substr(0, 9) == "--output=") out = std::string(a.substr(9));
    else if (!a.empty() && a[0] == '-') return trace_usage();
    else if (in.empty()) in = argv[i];
    else return trace_usage();
  }
  if (in.empty()) return trace_usage();
  if (out.empty()) out = html_name(in);
  if (int r = write_trace_html(in, out); r != 0) return r;
  std::fprintf(stderr, "phaseloop trace: wrote %s\n", out.c_str());
  return 0;
}

// The trace files a run wrote: FILE and FILE.<pid> of its children, those
// modified since `since` (older ones are from earlier runs).
std::vector<std::string> written_files(const std::string& file, time_t since) {
  std::vector<std::string> out;
  struct stat st;
  if (::stat(file.c_str(), &st) == 0 && st.st_mtime >= since) out.push_back(file);
  const std::string dir = file.substr(0, file.rfind('/'));
  const std::string base = file.substr(file.rfind('/') + 1) + ".";
  if (auto* d = ::opendir(dir.c_str())) {
    std::vector<std::string> children;
    while (auto* e = ::readdir(d)) {
      const std::string_view n = e->d_name;
      if (n.size() <= base.size() || n.substr(0, base.size()) != base) continue;
      const std::string_view rest = n.substr(base.size());
      if (rest.find_first_not_of("0123456789") != std::string_view::npos) continue;
      const std::string path = dir + "/" + std::string(n);
      if (::stat(path.c_str(), &st) == 0 && st.st_mtime >= since) children.push_back(path);
    }
    ::closedir(d);
    std::sort(children.begin(), children.end());
    out.insert(out.end(), children.begin(), children.end());
  }
  return out;
}

}  // namespace

int trace_command(int argc, char** argv) {
  int i = 2;
  if (i < argc && std::strcmp(argv[i], "view") == 0) return view_command(argc, argv, i + 1);
  std::string file = "phaseloop-trace.json", profile;
  bool html = false;
  for (; i < argc; i++) {
    const std::string_view a = argv[i];
    if (a == "--") {
      i++;
      break;
    }
    if ((a == "-o" || a == "--output") && i + 1 < argc) file = argv[++i];
    else if (a.substr(0, 9) == "--output=") file = std::string(a.substr(9));
    else if (a == "--html") html = true;
    else if (a == "--profile" && i + 1 < argc) profile = argv[++i];
    else if (a.substr(0, 10) == "--profile=") profile = std::string(a.substr(10));
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "phaseloop: unknown option %s\n", argv[i]);
      return trace_usage();
    } else {
      break;  // the command
    }
  }
  if (i >= argc) return trace_usage();
  if (phaseloop::libuv_version v{};
      !profile.empty() && (!phaseloop::parse_libuv_version(profile.c_str(), v) || !phaseloop::known_libuv_version(v))) {
    std::fprintf(stderr,
                 "phaseloop: --profile %s is no libuv version phaseloop behaves as: 1.44 to 1.53 (1.50, 1.50.0, "
                 "libuv-1.53.0, ...)\n",
                 profile.c_str());
    return 2;
  }
  // -o PAGE.html: the page there, the timeline beside it as PAGE.json.
  if (const std::string_view f(file); f.size() > 5 && f.substr(f.size() - 5) == ".html") {
    file = file.substr(0, file.size() - 5) + ".json";
    html = true;
  }
  warn_if_libuv_built_in(argv[i], "trace");
  const std::string dropin = find_dropin();
  if (dropin.empty()) {
    std::fputs("phaseloop: cannot find the drop-in libuv.so.1 (set PHASELOOP_DROPIN_DIR to its directory)\n", stderr);
    return 2;
  }
  file = absolute(file);
  const char* tmpdir = std::getenv("TMPDIR");
  std::string stats = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/phaseloop-stats.XXXXXX";
  const int sfd = ::mkstemp(stats.data());
  if (sfd < 0) {
    std::fprintf(stderr, "phaseloop: cannot make a file for the statistics: %s\n", std::strerror(errno));
    return 2;
  }
  ::close(sfd);
  // The claim file: the first libuv process to create it writes FILE, the
  // others FILE.<pid> (src/observe/env.cpp).
  std::string claim_dir = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/phaseloop-claim.XXXXXX";
  if (::mkdtemp(claim_dir.data()) == nullptr) {
    std::fprintf(stderr, "phaseloop: cannot make a scratch directory: %s\n", std::strerror(errno));
    ::unlink(stats.c_str());
    return 2;
  }
  const std::string claim = claim_dir + "/claim";

  const time_t start = ::time(nullptr);
  // The program gets the terminal's signals; this process waits them out
  // and reports.
  struct sigaction ignore {}, old_int {}, old_term {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGTERM, &ignore, &old_term);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "phaseloop: fork: %s\n", std::strerror(errno));
    ::unlink(stats.c_str());
    ::rmdir(claim_dir.c_str());
    return 2;
  }
  if (pid == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    const char* old = std::getenv("LD_LIBRARY_PATH");
    const std::string path = old != nullptr && *old != '\0' ? dropin + ":" + old : dropin;
    ::setenv("LD_LIBRARY_PATH", path.c_str(), 1);
    ::setenv("PHASELOOP_TRACE", file.c_str(), 1);
    ::unsetenv("PHASELOOP_TRACE_PID");  // the first libuv process claims FILE
    ::setenv("PHASELOOP_TRACE_CLAIM", claim.c_str(), 1);
    ::setenv("PHASELOOP_STATS", stats.c_str(), 1);
    if (!profile.empty()) ::setenv("PHASELOOP_PROFILE", profile.c_str(), 1);
    ::execvp(argv[i], argv + i);
    std::fprintf(stderr, "phaseloop: cannot run %s: %s\n", argv[i], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::string table;
  read_file(stats, table);
  ::unlink(stats.c_str());
  ::unlink(claim.c_str());
  ::rmdir(claim_dir.c_str());
  const std::vector<std::string> files = written_files(file, start);
  if (code == 127 && files.empty()) return code;  // it did not start (said above)
  std::fprintf(stderr, "\nphaseloop trace: %s %s %d\n", argv[i], WIFEXITED(status) ? "exited with status" : "was killed by signal",
               WIFEXITED(status) ? code : WTERMSIG(status));
  if (files.empty()) {
    std::fprintf(stderr,
                 "phaseloop trace: no trace was written: %s opened no loop on the drop-in libuv.so.1 (%s), or\n"
                 "  it does not load libuv.so.1 (linked statically, or a runtime path of its own wins)\n",
                 argv[i], dropin.c_str());
    return code;
  }
  for (const std::string& f : files) {
    struct stat st;
    const long long size = ::stat(f.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : 0;
    std::fprintf(stderr,
                 "phaseloop trace: timeline %s (%lld bytes; open it in https://ui.perfetto.dev, or as a page: "
                 "phaseloop trace view)\n",
                 f.c_str(), size);
    if (html) {
      const std::string page = html_name(f);
      if (write_trace_html(f, page) == 0) std::fprintf(stderr, "phaseloop trace: page %s\n", page.c_str());
    }
  }
  if (!table.empty()) std::fprintf(stderr, "\n%s", table.c_str());
  return code;
}

}  // namespace phaseloop::runner
