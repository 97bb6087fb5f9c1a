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
#include <cstdint>
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

// What the dynamic linker reads of one ELF object: its DT_NEEDED names and
// its run paths (DT_RUNPATH, else DT_RPATH), read with pread (a libnode is
// 80 MB). `dynamic` is false for a static program; the call fails for
// scripts, other formats, 32-bit objects and anything unreadable.
struct elf_deps {
  bool dynamic = false;
  std::vector<std::string> needed;
  std::string runpath;
};

bool read_elf_deps(const std::string& path, elf_deps& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct closer {
    int fd;
    ~closer() { ::close(fd); }
  } close_fd{fd};
  const auto at = [&](std::uint64_t off, void* buf, std::size_t len) {
    return ::pread(fd, buf, len, static_cast<off_t>(off)) == static_cast<ssize_t>(len);
  };
  Elf64_Ehdr eh;
  if (!at(0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize < sizeof(Elf64_Phdr) || eh.e_phnum > 4096) {
    return false;
  }
  std::vector<Elf64_Phdr> ph(eh.e_phnum);
  for (std::size_t k = 0; k < ph.size(); k++)
    if (!at(eh.e_phoff + k * eh.e_phentsize, &ph[k], sizeof ph[k])) return false;
  // A virtual address to a file offset, through the PT_LOAD segments.
  const auto offset_of = [&](Elf64_Addr addr, std::uint64_t& off) {
    for (const Elf64_Phdr& p : ph) {
      if (p.p_type == PT_LOAD && addr >= p.p_vaddr && addr < p.p_vaddr + p.p_filesz) {
        off = p.p_offset + (addr - p.p_vaddr);
        return true;
      }
    }
    return false;
  };
  const auto dyn = std::find_if(ph.begin(), ph.end(), [](const Elf64_Phdr& p) { return p.p_type == PT_DYNAMIC; });
  out = {};
  if (dyn == ph.end()) return true;
  out.dynamic = true;
  std::vector<Elf64_Xword> needed;
  Elf64_Xword runpath = 0, rpath = 0;
  bool has_runpath = false, has_rpath = false;
  Elf64_Addr strtab = 0;
  for (std::uint64_t off = dyn->p_offset; off + sizeof(Elf64_Dyn) <= dyn->p_offset + dyn->p_filesz;
       off += sizeof(Elf64_Dyn)) {
    Elf64_Dyn d;
    if (!at(off, &d, sizeof d)) return false;
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
    if (d.d_tag == DT_RUNPATH) runpath = d.d_un.d_val, has_runpath = true;
    if (d.d_tag == DT_RPATH) rpath = d.d_un.d_val, has_rpath = true;
  }
  std::uint64_t str = 0;
  if (!offset_of(strtab, str)) return false;
  const auto string_at = [&](Elf64_Xword n, std::string& s) {
    char buf[PATH_MAX];
    const ssize_t got = ::pread(fd, buf, sizeof buf, static_cast<off_t>(str + n));
    if (got <= 0) return false;
    const void* end = std::memchr(buf, '\0', static_cast<std::size_t>(got));
    if (end == nullptr) return false;
    s.assign(buf, static_cast<std::size_t>(static_cast<const char*>(end) - buf));
    return true;
  };
  for (const Elf64_Xword n : needed) {
    std::string name;
    if (!string_at(n, name)) return false;
    out.needed.push_back(std::move(name));
  }
  if ((has_runpath && !string_at(runpath, out.runpath)) || (!has_runpath && has_rpath && !string_at(rpath, out.runpath)))
    return false;
  return true;
}

// The directories the dynamic linker searches after LD_LIBRARY_PATH and an
// object's run path: those /etc/ld.so.conf names (following its include
// globs two levels deep, as Debian's ld.so.conf.d needs one), then the
// default ones of amd64.
std::vector<std::string> system_library_dirs() {
  std::vector<std::string> dirs;
  const auto read_conf = [&](const std::string& file, auto& self, int depth) -> void {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      line.erase(0, line.find_first_not_of(" \t"));
      if (line.empty() || line[0] == '#') continue;
      if (line.rfind("include", 0) == 0 && depth < 2) {
        std::string pattern = line.substr(7);
        pattern.erase(0, pattern.find_first_not_of(" \t"));
        const std::string::size_type slash = pattern.rfind('/');
        if (slash == std::string::npos) continue;
        const std::string dir = pattern.substr(0, slash);
        const std::string tail = pattern.substr(slash + 1);  // "*.conf"
        const std::string suffix = tail.rfind('*', 0) == 0 ? tail.substr(1) : tail;
        std::vector<std::string> files;
        if (DIR* d = ::opendir(dir.c_str()); d != nullptr) {
          while (const dirent* e = ::readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 && n[0] != '.')
              files.push_back(dir + "/" + n);
          }
          ::closedir(d);
        }
        std::sort(files.begin(), files.end());
        for (const std::string& f : files) self(f, self, depth + 1);
        continue;
      }
      line.erase(line.find_last_not_of(" \t\r") + 1);
      if (line[0] == '/') dirs.push_back(line);
    }
  };
  read_conf("/etc/ld.so.conf", read_conf, 0);
  for (const char* d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
    dirs.emplace_back(d);
  return dirs;
}

void split_path_list(const std::string& list, const std::string& origin, std::vector<std::string>& out) {
  for (std::size_t at = 0; at <= list.size();) {
    std::size_t end = list.find(':', at);
    if (end == std::string::npos) end = list.size();
    std::string dir = list.substr(at, end - at);
    for (const char* o : {"${ORIGIN}", "$ORIGIN"}) {
      if (const std::size_t p = dir.find(o); p != std::string::npos) dir.replace(p, std::strlen(o), origin);
    }
    if (!dir.empty()) out.push_back(dir);
    at = end + 1;
  }
}

// Whether the ELF program at `path` is sure to load no libuv.so.1: neither
// it nor any library it needs, found as the dynamic linker finds them
// (LD_LIBRARY_PATH, the needing object's run path, ld.so.conf, the default
// directories), names libuv.so.1 -- it has libuv built in (as nodejs.org's
// and NodeSource's node have) or none at all. False when it or a library
// it needs does (Debian's node: node -> libnode.so -> libuv.so.1), and
// whenever that cannot be told: scripts, other formats, a library not
// found. Those may still load the drop-in.
bool elf_without_libuv(const std::string& path) {
  const char* env = std::getenv("LD_LIBRARY_PATH");
  std::vector<std::string> env_dirs;
  if (env != nullptr) split_path_list(env, "", env_dirs);
  const std::vector<std::string> sys_dirs = system_library_dirs();
  std::vector<std::string> todo{path};
  std::vector<std::string> seen_names;
  for (std::size_t objects = 0; !todo.empty(); objects++) {
    if (objects > 512) return false;
    const std::string object = todo.back();
    todo.pop_back();
    elf_deps deps;
    if (!read_elf_deps(object, deps)) return false;
    if (!deps.dynamic) continue;
    const std::string origin = object.substr(0, object.rfind('/') == std::string::npos ? 0 : object.rfind('/'));
    std::vector<std::string> dirs = env_dirs;
    split_path_list(deps.runpath, origin.empty() ? "." : origin, dirs);
    dirs.insert(dirs.end(), sys_dirs.begin(), sys_dirs.end());
    for (const std::string& name : deps.needed) {
      if (name == "libuv.so.1") return false;
      if (std::find(seen_names.begin(), seen_names.end(), name) != seen_names.end()) continue;
      seen_names.push_back(name);
      std::string found;
      if (name.find('/') != std::string::npos) {
        found = name;
      } else {
        for (const std::string& dir : dirs) {
          if (::access((dir + "/" + name).c_str(), R_OK) == 0) {
            found = dir + "/" + name;
            break;
          }
        }
      }
      if (found.empty()) return false;  // not found: cannot tell
      todo.push_back(found);
    }
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
