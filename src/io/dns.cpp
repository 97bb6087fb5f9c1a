// SPDX-License-Identifier: MIT
// DNS lookups (libuv's uv_getaddrinfo and uv_getnameinfo), answered by
// the C library, as libuv's are: every answer is glibc's own, from every
// source /etc/nsswitch.conf names, sorted by its rules (gai.conf), so a
// program behaves the same on phaseloop and on libuv.
//
// Three paths, all ending in the loop's completion queue in the poll phase
// (a lookup's callback never runs inside start()):
//
// 1. What needs no name server -- a numeric address, a null node, the
//    checks of hints and service -- is answered at start by glibc itself
//    (AI_NUMERICHOST / NI_NUMERICHOST, which never leave the process).
// 2. A name whose answer came from /etc/hosts before is answered at start
//    from the answer cache (below), which holds glibc's answers for
//    hosts-file names until anything they depend on changes.
// 3. Anything else runs glibc's getaddrinfo/getnameinfo on a pool thread,
//    as libuv does, as "slow" pool work (at most half the threads at once).
//
// Paths 1 and 2 still pass through the pool, as a task with nothing to do:
// libuv runs every lookup there, so a request waits behind pool work as
// libuv's does, uv_cancel acts on it as on a pool request, and its
// callback keeps libuv's place among the pool's completions.
//
// A lookup without a callback runs the same steps on the calling thread.
//
// A program (or a preloaded library) may define getaddrinfo, getnameinfo
// or freeaddrinfo itself: a test suite's mock resolver, say. libuv calls
// getaddrinfo (getnameinfo) once per request, with the caller's hints, on
// a pool thread, and such a program relies on it. Then paths 1 and 2 are
// left out, and every request makes that one call (resolver_interposed).

#include "phaseloop/dns.hpp"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <poll.h>
#include <pthread.h>
#include <resolv.h>
#include <strings.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/internal.hpp"
#include "io/idna.hpp"

namespace phaseloop {

namespace {

// Returned by the local steps when only a lookup can answer.
constexpr int need_lookup = 1;

// True when getaddrinfo, getnameinfo or freeaddrinfo, as this library's
// calls reach them, are not the C library's own: defined by the program
// or by a preloaded library. A sanitizer's runtime, which wraps them and
// calls the C library's, does not count.
bool resolver_interposed() noexcept {
  static const bool interposed = [] {
    void* libc = ::dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    if (libc == nullptr) return true;  // cannot tell: make the calls libuv makes
    bool own = true;
    for (const char* name : {"getaddrinfo", "getnameinfo", "freeaddrinfo"}) {
      void* reached = ::dlsym(RTLD_DEFAULT, name);
      if (reached == ::dlsym(libc, name)) continue;
      Dl_info info{};
      const char* file = ::dladdr(reached, &info) != 0 && info.dli_fname != nullptr ? info.dli_fname : "";
      if (std::strstr(file, "/libasan.so") == nullptr && std::strstr(file, "/libubsan.so") == nullptr &&
          std::strstr(file, "/libtsan.so") == nullptr)
        own = false;
    }
    ::dlclose(libc);
    return !own;
  }();
  return interposed;
}

// The fields of `text` separated by any of `separators`, empty ones dropped.
// (No iostreams here: they would pull libstdc++'s locale machinery into the
// drop-in libuv.so.1, which by default holds libstdc++ inside.)
void split(std::string_view text, std::string_view separators, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t at = 0;
  while ((at = text.find_first_not_of(separators, at)) != std::string_view::npos) {
    const std::size_t end = text.find_first_of(separators, at);
    out.push_back(text.substr(at, end - at));
    if (end == std::string_view::npos) break;
    at = end;
  }
}

// Calls fn(words) for each line of the file at `path`, words being the
// blank-separated fields before any '#'. Nothing when the file cannot be read.
template <class F>
void for_each_line(const char* path, F&& fn) {
  std::FILE* f = std::fopen(path, "re");
  if (f == nullptr) return;
  char* line = nullptr;
  std::size_t cap = 0;
  std::vector<std::string_view> words;
  while (::getline(&line, &cap, f) >= 0) {
    std::string_view text(line);
    split(text.substr(0, text.find('#')), " \t\r\n\v\f", words);
    fn(words);
  }
  std::free(line);
  std::fclose(f);
}

// libuv's uv__getaddrinfo_translate_error, for the C library's EAI_* codes.
int from_glibc(int e) noexcept {
  switch (e) {
    case 0: return 0;
    case EAI_ADDRFAMILY: return eai::addrfamily;
    case EAI_AGAIN: return eai::again;
    case EAI_BADFLAGS: return eai::badflags;
    case EAI_CANCELED: return eai::canceled;
    case EAI_FAIL: return eai::fail;
    case EAI_FAMILY: return eai::family;
    case EAI_MEMORY: return eai::memory;
    case EAI_NODATA: return eai::nodata;
    case EAI_NONAME: return eai::noname;
    case EAI_OVERFLOW: return eai::overflow;
    case EAI_SERVICE: return eai::service;
    case EAI_SOCKTYPE: return eai::socktype;
    case EAI_SYSTEM: return errno != 0 ? -errno : eai::fail;
  }
  return eai::fail;  // libuv aborts on a code it does not know
}

// ---- the local steps (no name server) ------------------------------------

// The hints glibc applies: its defaults for null hints (AI_V4MAPPED |
// AI_ADDRCONFIG, any family), else the caller's, whose list fields glibc
// ignores anyway.
addrinfo effective_hints(const addrinfo* hints) noexcept {
  addrinfo h{};
  if (hints == nullptr) {
    h.ai_flags = AI_V4MAPPED | AI_ADDRCONFIG;
    h.ai_family = AF_UNSPEC;
  } else {
    h.ai_flags = hints->ai_flags;
    h.ai_family = hints->ai_family;
    h.ai_socktype = hints->ai_socktype;
    h.ai_protocol = hints->ai_protocol;
  }
  return h;
}

// Entries made by a call with extra flags show the caller's, as glibc's own.
void set_flags(addrinfo* list, int flags) noexcept {
  for (; list != nullptr; list = list->ai_next) list->ai_flags = flags;
}

// Everything glibc answers before it would look a name up: the whole
// answer for a null node or a numeric address, or the error that hints or
// service would give. need_lookup when a name server must be asked.
int local_addrinfo(const char* node, const char* service, const addrinfo* hints, const addrinfo& h,
                   addrinfo** out) noexcept {
  if (node == nullptr) return from_glibc(::getaddrinfo(nullptr, service, hints, out));
  // Only what inet_aton or an IPv6 parser could read is worth asking as an
  // address: with AI_ADDRCONFIG glibc lists the interfaces (a netlink
  // dump) before it even parses the node.
  in_addr ignored;
  int r = EAI_NONAME;
  if (inet_aton(node, &ignored) != 0 || std::strchr(node, ':') != nullptr || (h.ai_flags & AI_NUMERICHOST)) {
    addrinfo numeric = h;
    numeric.ai_flags |= AI_NUMERICHOST;
    r = ::getaddrinfo(node, service, &numeric, out);
  }
  if (r != EAI_NONAME) {
    if (r == 0) set_flags(*out, h.ai_flags);
    return from_glibc(r);
  }
  if (h.ai_flags & AI_NUMERICHOST) return eai::noname;
  // Not an address. glibc checks the hints and the service before the name:
  // ask it the same with an address that always parses. AI_ADDRCONFIG is
  // left out (it could rule that address's family out, not the name's).
  addrinfo probe = h;
  probe.ai_flags = (h.ai_flags & ~(AI_CANONNAME | AI_ADDRCONFIG)) | AI_NUMERICHOST;
  addrinfo* dummy = nullptr;
  r = ::getaddrinfo(h.ai_family == AF_INET ? "0.0.0.0" : "::", service, &probe, &dummy);
  if (dummy != nullptr) ::freeaddrinfo(dummy);
  if (r != 0) return from_glibc(r);
  if (*node == '\0') return eai::noname;
  return need_lookup;
}

// getnameinfo without a name server: the whole answer with NI_NUMERICHOST,
// else the flags checked, the numeric host (kept if no name is found) and
// the service, and need_lookup.
int local_nameinfo(const sockaddr* sa, socklen_t len, int flags, char* host, char* service) noexcept {
  if (flags & NI_NUMERICHOST)
    return from_glibc(::getnameinfo(sa, len, host, NI_MAXHOST, service, NI_MAXSERV, flags));
  const int r = ::getnameinfo(sa, len, host, NI_MAXHOST, service, NI_MAXSERV,
                              (flags | NI_NUMERICHOST) & ~NI_NAMEREQD);
  return r != 0 ? from_glibc(r) : need_lookup;
}


// ---- where a loop's lookups go ---------------------------------------------

// Resolver settings: name servers (IPv4, as glibc's _res holds them), the
// seconds to wait and the rounds. Empty: the system's (/etc/resolv.conf).
struct settings {
  std::vector<sockaddr_in> servers;
  int timeout_ms = 0;
  int tries = 0;

  bool custom() const noexcept { return !servers.empty() || timeout_ms > 0 || tries > 0; }
  bool operator==(const settings& o) const noexcept {
    if (timeout_ms != o.timeout_ms || tries != o.tries || servers.size() != o.servers.size()) return false;
    for (std::size_t i = 0; i < servers.size(); i++)
      if (servers[i].sin_port != o.servers[i].sin_port || servers[i].sin_addr.s_addr != o.servers[i].sin_addr.s_addr)
        return false;
    return true;
  }
};

// Parses "a.b.c.d[:port],..." (at most MAXNS servers, glibc's limit).
// False for anything else.
bool parse_servers(const char* text, std::vector<sockaddr_in>& out) {
  out.clear();
  std::vector<std::string_view> items;
  split(text, ",", items);
  for (std::string_view field : items) {
    const std::size_t first = field.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    std::string item(field.substr(first, field.find_last_not_of(" \t") + 1 - first));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    const std::size_t colon = item.find(':');
    if (colon != std::string::npos) {
      const std::string port = item.substr(colon + 1);
      char* end = nullptr;
      const long p = std::strtol(port.c_str(), &end, 10);
      if (port.empty() || *end != '\0' || p <= 0 || p > 65535) return false;
      a.sin_port = htons(static_cast<std::uint16_t>(p));
      item.resize(colon);
    }
    if (inet_pton(AF_INET, item.c_str(), &a.sin_addr) != 1) return false;
    if (out.size() == MAXNS) return false;
    out.push_back(a);
  }
  return !out.empty();
}

// The settings a lookup of loop `l` uses: the loop's own, else
// $PHASELOOP_DNS_SERVERS, else the system's.
settings settings_for(const settings* loop_settings) {
  if (loop_settings != nullptr && loop_settings->custom()) return *loop_settings;
  settings s;
  if (const char* env = std::getenv("PHASELOOP_DNS_SERVERS"); env != nullptr && *env != '\0')
    if (!parse_servers(env, s.servers)) s.servers.clear();  // unreadable: the system's
  return s;
}

// Points this thread's resolver state (glibc's _res, which getaddrinfo
// reads) at `s`. glibc keeps a program's changes to _res as long as
// /etc/resolv.conf does not change; res_init() returns to the system's.
void apply_on_this_thread(const settings& s) noexcept {
  thread_local bool custom = false;
  thread_local settings applied;
  if (!s.custom()) {
    if (custom) {
      res_init();
      custom = false;
    }
    return;
  }
  if (custom && applied == s) return;
  res_init();
  custom = false;
  if (!s.servers.empty()) {
    _res.nscount = static_cast<int>(s.servers.size());
    for (std::size_t i = 0; i < s.servers.size(); i++) _res.nsaddr_list[i] = s.servers[i];
  }
  if (s.timeout_ms > 0) _res.retrans = std::max(1, (s.timeout_ms + 999) / 1000);
  if (s.tries > 0) _res.retry = s.tries;
  try {
    applied = s;
    custom = true;
  } catch (...) {
    // Not remembered: the next lookup on this thread applies its settings
    // afresh, and one with the system's starts from res_init() too.
    custom = true;
    applied = settings{};
  }
}

// ---- the answer cache --------------------------------------------------------

// glibc answers a name in /etc/hosts from the file, on every call: it
// opens and reads the file, and with AI_ADDRCONFIG (the default) dumps the
// interface addresses over netlink. The cache keeps its answers for such
// names and gives copies until something they depend on changes: a file
// in /etc (hosts, nsswitch.conf, gai.conf, host.conf, resolv.conf), an
// interface address or a route (which order and AI_ADDRCONFIG follow). An
// inotify descriptor and a netlink socket report those changes; one
// poll(2) on both, at each use, tells whether a cached answer still holds.
//
// An answer is kept only if glibc must have taken it from the file:
// nsswitch.conf's hosts line starts with "files" (with no action after
// it), the name is on a line of /etc/hosts, and every address of the
// answer is one of that name's there. A name a server answers is never
// kept (server answers have lifetimes). Process-wide, shared by all loops
// and threads; a forked child starts its own.
class answer_cache {
 public:
  static answer_cache& get() {
    static answer_cache* c = [] {
      pthread_atfork(nullptr, nullptr, &answer_cache::in_child);
      return new answer_cache;  // never destroyed: pool threads may use it at exit
    }();
    return *c;
  }

  // A copy of the answer for (node, service, hints), or null. `*gen` gets
  // the generation the answer (or its absence) belongs to.
  addrinfo* find(const char* node, const char* service, const addrinfo& h, std::uint64_t* gen) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!ready_locked()) {
      *gen = UINT64_MAX;
      return nullptr;
    }
    *gen = generation_;
    try {
      auto it = answers_.find(key(node, service, h));
      return it == answers_.end() ? nullptr : copy(it->second);
    } catch (...) {
      return nullptr;  // no memory for the key: ask glibc
    }
  }

  // Keeps `list`, glibc's answer for (node, service, hints), if it came
  // from /etc/hosts and nothing changed since generation `gen`.
  void offer(const char* node, const char* service, const addrinfo& h, const addrinfo* list, std::uint64_t gen) {
    if (node == nullptr || list == nullptr || gen == UINT64_MAX) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!ready_locked() || gen != generation_ || !from_hosts_file_locked(node, list)) return;
    try {
      answers_[key(node, service, h)] = entries(list);
    } catch (...) {
      // No memory: the answer is simply not kept.
    }
  }

 private:
  struct entry {
    int flags, family, socktype, protocol;
    socklen_t addrlen;
    sockaddr_storage addr;
    std::string canonname;
    bool has_canonname;
  };

  answer_cache() = default;

  static std::string key(const char* node, const char* service, const addrinfo& h) {
    std::string k(node);
    k += '\0';
    if (service != nullptr) k += service;
    k += service != nullptr ? '\0' : '\1';
    const int fields[] = {h.ai_flags, h.ai_family, h.ai_socktype, h.ai_protocol};
    k.append(reinterpret_cast<const char*>(fields), sizeof fields);
    return k;
  }

  static std::vector<entry> entries(const addrinfo* list) {
    std::vector<entry> v;
    for (const addrinfo* a = list; a != nullptr; a = a->ai_next) {
      entry e{a->ai_flags, a->ai_family, a->ai_socktype, a->ai_protocol, a->ai_addrlen, {}, {}, false};
      if (a->ai_addrlen > sizeof e.addr) throw std::bad_alloc();
      std::memcpy(&e.addr, a->ai_addr, a->ai_addrlen);
      if (a->ai_canonname != nullptr) {
        e.canonname = a->ai_canonname;
        e.has_canonname = true;
      }
      v.push_back(std::move(e));
    }
    return v;
  }

  // A list laid out as glibc lays out its own (each entry and its address
  // in one block, the canonical name apart), so that freeaddrinfo frees it.
  static addrinfo* copy(const std::vector<entry>& v) noexcept {
    addrinfo* head = nullptr;
    addrinfo** tail = &head;
    for (const entry& e : v) {
      auto* a = static_cast<addrinfo*>(std::calloc(1, sizeof(addrinfo) + e.addrlen));
      char* canon = e.has_canonname ? ::strdup(e.canonname.c_str()) : nullptr;
      if (a == nullptr || (e.has_canonname && canon == nullptr)) {
        std::free(a);
        std::free(canon);
        if (head != nullptr) ::freeaddrinfo(head);
        return nullptr;
      }
      a->ai_flags = e.flags;
      a->ai_family = e.family;
      a->ai_socktype = e.socktype;
      a->ai_protocol = e.protocol;
      a->ai_addrlen = e.addrlen;
      a->ai_addr = reinterpret_cast<sockaddr*>(a + 1);
      std::memcpy(a->ai_addr, &e.addr, e.addrlen);
      a->ai_canonname = canon;
      *tail = a;
      tail = &a->ai_next;
    }
    return head;
  }

  // Opens the change reports on first use and reads what they say. False
  // when the cache cannot work here (then every lookup asks glibc).
  bool ready_locked() noexcept {
    if (broken_) return false;
    if (inotify_ < 0 && !open_locked()) {
      broken_ = true;
      close_locked();
      return false;
    }
    pollfd fds[2] = {{inotify_, POLLIN, 0}, {netlink_, POLLIN, 0}};
    if (::poll(fds, 2, 0) > 0) {
      drain(inotify_);
      drain(netlink_);
      forget_locked();
      watch_files_locked();  // a replaced file needs a new watch
    }
    return true;
  }

  static void drain(int fd) noexcept {
    char buf[4096];
    while (::read(fd, buf, sizeof buf) > 0) {
    }
  }

  static constexpr const char* watched_[] = {"/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf",
                                             "/etc/host.conf", "/etc/resolv.conf"};

  bool open_locked() noexcept {
    // HOSTALIASES changes what a name means to glibc: keep nothing then.
    if (std::getenv("HOSTALIASES") != nullptr) return false;
    inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (inotify_ < 0) return false;
    if (inotify_add_watch(inotify_, "/etc",
                          IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
                              IN_MOVED_TO) < 0)
      return false;
    watch_files_locked();
    netlink_ = ::socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (netlink_ < 0) return false;
    sockaddr_nl nl{};
    nl.nl_family = AF_NETLINK;
    nl.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;
    return ::bind(netlink_, reinterpret_cast<sockaddr*>(&nl), sizeof nl) == 0;
  }

  // The files themselves too: /etc/hosts may be a link to elsewhere.
  void watch_files_locked() noexcept {
    for (const char* f : watched_)
      (void)inotify_add_watch(inotify_, f, IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF);
  }

  void close_locked() noexcept {
    if (inotify_ >= 0) ::close(inotify_);
    if (netlink_ >= 0) ::close(netlink_);
    inotify_ = netlink_ = -1;
  }

  void forget_locked() noexcept {
    answers_.clear();
    hosts_.clear();
    hosts_read_ = false;
    generation_++;
  }

  // /etc/hosts as glibc reads it: address, then names; '#' starts a comment.
  void read_hosts_locked() {
    hosts_read_ = true;
    files_first_ = false;
    // The last "hosts:" line counts, as for glibc.
    for_each_line("/etc/nsswitch.conf", [this](const std::vector<std::string_view>& w) {
      if (w.empty() || w[0] != "hosts:") return;
      files_first_ = w.size() > 1 && w[1] == "files" && !(w.size() > 2 && w[2][0] == '[');
    });
    if (!files_first_) return;
    for_each_line("/etc/hosts", [this](const std::vector<std::string_view>& w) {
      if (w.empty()) return;
      sockaddr_storage a{};
      if (!parse_address(std::string(w[0]).c_str(), a)) return;
      for (std::size_t i = 1; i < w.size(); i++) {
        std::string name(w[i]);
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        hosts_[name].push_back(a);
      }
    });
  }

  static bool parse_address(const char* text, sockaddr_storage& a) noexcept {
    auto* in4 = reinterpret_cast<sockaddr_in*>(&a);
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&a);
    if (inet_pton(AF_INET, text, &in4->sin_addr) == 1) {
      a.ss_family = AF_INET;
      return true;
    }
    if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
      a.ss_family = AF_INET6;
      return true;
    }
    return false;
  }

  // Whether `a` (an answer's address; a v4-mapped one stands for its IPv4
  // address) is one of `known`.
  static bool listed(const sockaddr* a, const std::vector<sockaddr_storage>& known) noexcept {
    in_addr v4{};
    const in6_addr* v6 = nullptr;
    if (a->sa_family == AF_INET) {
      v4 = reinterpret_cast<const sockaddr_in*>(a)->sin_addr;
    } else if (a->sa_family == AF_INET6) {
      v6 = &reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr;
      if (IN6_IS_ADDR_V4MAPPED(v6)) {
        std::memcpy(&v4, &v6->s6_addr[12], 4);
        v6 = nullptr;
      }
    } else {
      return false;
    }
    for (const sockaddr_storage& k : known) {
      if (v6 == nullptr && k.ss_family == AF_INET &&
          reinterpret_cast<const sockaddr_in&>(k).sin_addr.s_addr == v4.s_addr)
        return true;
      if (v6 != nullptr && k.ss_family == AF_INET6 &&
          std::memcmp(&reinterpret_cast<const sockaddr_in6&>(k).sin6_addr, v6, sizeof *v6) == 0)
        return true;
    }
    return false;
  }

  bool from_hosts_file_locked(const char* node, const addrinfo* list) noexcept {
    try {
      if (!hosts_read_) read_hosts_locked();
      std::string name(node);
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto it = hosts_.find(name);
      if (!files_first_ || it == hosts_.end()) return false;
      for (const addrinfo* a = list; a != nullptr; a = a->ai_next)
        if (a->ai_addr == nullptr || !listed(a->ai_addr, it->second)) return false;
      return true;
    } catch (...) {
      return false;
    }
  }

  // A forked child shares the parent's descriptors: reading the change
  // reports would steal them from the parent. It drops them, and its
  // answers, and opens its own on first use.
  static void in_child() {
    answer_cache& c = get();
    new (&c.mutex_) std::mutex;  // it may have been held at fork time
    c.close_locked();
    c.broken_ = false;
    c.forget_locked();
  }

  std::mutex mutex_;
  int inotify_ = -1;
  int netlink_ = -1;
  bool broken_ = false;
  std::uint64_t generation_ = 0;
  std::unordered_map<std::string, std::vector<entry>> answers_;
  bool hosts_read_ = false;
  bool files_first_ = false;
  std::unordered_map<std::string, std::vector<sockaddr_storage>> hosts_;
};

// glibc's getaddrinfo with `s` applied, keeping a hosts-file answer.
int lookup_addrinfo(const settings& s, const char* node, const char* service, const addrinfo& h,
                    std::uint64_t gen, addrinfo** out) noexcept {
  apply_on_this_thread(s);
  errno = 0;
  const int r = from_glibc(::getaddrinfo(node, service, &h, out));
  if (r == 0) answer_cache::get().offer(node, service, h, *out, gen);
  return r;
}

// The one call libuv makes, with the caller's hints (null or not).
int plain_addrinfo(const settings& s, const char* node, const char* service, const addrinfo* hints,
                   addrinfo** out) noexcept {
  apply_on_this_thread(s);
  errno = 0;
  return from_glibc(::getaddrinfo(node, service, hints, out));
}

int lookup_nameinfo(const settings& s, const sockaddr* sa, socklen_t len, int flags, char* host,
                    char* service) noexcept {
  apply_on_this_thread(s);
  errno = 0;
  return from_glibc(::getnameinfo(sa, len, host, NI_MAXHOST, service, NI_MAXSERV, flags));
}

}  // namespace

// ---- one lookup ----------------------------------------------------------

// What the threadpool and the loop's completion queue hold for one
// asynchronous request.
struct detail::dns_query {
  pool_task task;            // the pool's queue, the completion queue; first member
  resolver* res = nullptr;
  dns_req* owner = nullptr;  // the request served
  bool lookup = false;       // the pool thread must ask glibc
  int status = 0;
  addrinfo* list = nullptr;  // getaddrinfo's result until delivered
  addrinfo hints{};          // getaddrinfo's effective hints (the caller's when plain)
  bool plain = false;        // one call, as libuv makes it (resolver_interposed)
  bool null_hints = false;   // plain, and the caller gave no hints
  char* node = nullptr;      // getaddrinfo's name and service (copies)
  char* service = nullptr;
  socklen_t addrlen = 0;     // getnameinfo's address length
  std::uint64_t generation = 0;  // the answer cache's, at start
  settings config;           // where the lookup goes

  ~dns_query() {
    if (list != nullptr) ::freeaddrinfo(list);
    std::free(node);
    std::free(service);
  }
};

// One loop's resolver: its settings and its count of lookups in flight; a
// part of the loop (src/core/internal.hpp), made by its first lookup.
struct detail::resolver final : loop_part {
  static constexpr char tag = 0;
  explicit resolver(loop& owner) noexcept : loop_part(owner), l(owner) {}

  loop& l;
  settings config;
  unsigned requests = 0;  // asynchronous requests whose callback has not run

  static resolver* of(loop& l) noexcept { return loop_seam::part<resolver>(l); }

  static const settings* settings_of(loop* l) noexcept {
    const resolver* r = l != nullptr ? loop_seam::find<resolver>(*l) : nullptr;
    return r != nullptr ? &r->config : nullptr;
  }

  // The pool trip (see the top of this file). The request is in flight
  // from here until its callback.
  int submit(dns_query& q, dns_req& r) noexcept {
    q.res = this;
    q.owner = &r;
    requests++;
    if (int e = pool_submit(l, q.task, ops); e != 0) {
      r.query_ = nullptr;
      delete &q;
      requests--;
      return e;
    }
    loop_seam::started(l, r, nullptr);
    return 0;
  }

  // On a pool thread: glibc answers, unless the answer was known at start.
  static void run(pool_task& t) {
    auto& q = reinterpret_cast<dns_query&>(t);
    if (!q.lookup) return;
    if (q.owner->type() == req_type::getaddrinfo) {
      q.status = q.plain ? plain_addrinfo(q.config, q.node, q.service, q.null_hints ? nullptr : &q.hints, &q.list)
                         : lookup_addrinfo(q.config, q.node, q.service, q.hints, q.generation, &q.list);
    } else {
      auto& r = static_cast<getnameinfo_req&>(*q.owner);
      q.status = lookup_nameinfo(q.config, reinterpret_cast<const sockaddr*>(&r.storage_), q.addrlen, r.flags_,
                                 r.host_, r.service_);
    }
  }

  // As a pool request: only while no thread has taken it (then libuv says
  // UV_EBUSY too, its thread being inside getaddrinfo).
  static int cancel(dns_query* q) noexcept {
    if (q == nullptr || q->res == nullptr) return errc::busy;
    return pool_cancel(q->res->l, q->task);
  }

  // From the loop's completion queue in the poll phase (the loop stopped
  // counting the request just before).
  static void done(pool_task& t, int pool_status) {
    auto& q = reinterpret_cast<dns_query&>(t);
    resolver& r = *q.res;
    if (pool_status == errc::canceled) {
      q.status = eai::canceled;
      if (q.list != nullptr) ::freeaddrinfo(q.list);
      q.list = nullptr;
    }
    dns_req& owner = *q.owner;
    const int status = q.status;
    addrinfo* list = q.list;
    q.list = nullptr;
    r.requests--;
    delete &q;
    owner.query_ = nullptr;
    if (owner.type() == req_type::getaddrinfo) {
      auto& g = static_cast<getaddrinfo_req&>(owner);
      g.retcode_ = status;
      g.addrinfo_ = list;
      // The callback may free the request: nothing touches it afterwards.
      if (getaddrinfo_cb cb = g.cb_)
        loop_seam::complete(r.l, callback_kind::dns, nullptr, &g, [cb, &g, status, list] { cb(&g, status, list); });
    } else {
      auto& n = static_cast<getnameinfo_req&>(owner);
      n.retcode_ = status;
      const char* host = status == 0 ? n.host_ : nullptr;
      const char* service = status == 0 ? n.service_ : nullptr;
      if (getnameinfo_cb cb = n.cb_)
        loop_seam::complete(r.l, callback_kind::dns, nullptr, &n, [cb, &n, status, host, service] {
          cb(&n, status, host, service);
        });
    }
  }

  static const pool_ops ops;

  // A query for a request on loop `l`, and `l`'s resolver (made on first
  // use); null when there is no memory for either.
  static dns_query* new_query(phaseloop::loop& l, resolver*& res) noexcept {
    res = of(l);
    return res != nullptr ? new (std::nothrow) dns_query : nullptr;
  }

  // The resolver's settings, copied into a query that looks up; false for
  // want of memory.
  static bool take_config(dns_query& q, const resolver& res) noexcept {
    try {
      q.config = settings_for(&res.config);
      return true;
    } catch (...) {
      return false;
    }
  }

  static int getaddrinfo(getaddrinfo_req& req, const char* node, const char* service,
                         const addrinfo* hints) noexcept {
    const bool plain = resolver_interposed();
    const addrinfo h = plain ? (hints != nullptr ? *hints : addrinfo{}) : effective_hints(hints);
    addrinfo* list = nullptr;
    std::uint64_t gen = UINT64_MAX;
    int r = need_lookup;
    if (!plain) {
      r = local_addrinfo(node, service, hints, h, &list);
      if (r == need_lookup && (list = answer_cache::get().find(node, service, h, &gen)) != nullptr) r = 0;
    }
    if (req.cb_ == nullptr) {
      if (r == need_lookup) {
        try {
          const settings s = settings_for(settings_of(req.loop_));
          r = plain ? plain_addrinfo(s, node, service, hints, &list) : lookup_addrinfo(s, node, service, h, gen, &list);
        } catch (...) {
          r = errc::no_memory;
        }
      }
      req.addrinfo_ = list;
      req.retcode_ = r;
      return r;
    }
    resolver* res = nullptr;
    dns_query* q = new_query(*req.loop_, res);
    if (q == nullptr) {
      if (list != nullptr) ::freeaddrinfo(list);
      return errc::no_memory;
    }
    q->hints = h;
    q->plain = plain;
    q->null_hints = plain && hints == nullptr;
    q->list = list;
    q->status = r;
    q->lookup = r == need_lookup;
    q->generation = gen;
    if (q->lookup) {
      q->node = node != nullptr ? ::strdup(node) : nullptr;
      q->service = service != nullptr ? ::strdup(service) : nullptr;
      const bool copied = (node == nullptr || q->node != nullptr) && (service == nullptr || q->service != nullptr);
      if (!copied || !take_config(*q, *res)) {
        delete q;
        return errc::no_memory;
      }
    }
    req.query_ = q;
    return res->submit(*q, req);
  }

  static int getnameinfo(getnameinfo_req& req, socklen_t len) noexcept {
    const auto* sa = reinterpret_cast<const sockaddr*>(&req.storage_);
    int r = resolver_interposed() ? need_lookup : local_nameinfo(sa, len, req.flags_, req.host_, req.service_);
    if (req.cb_ == nullptr) {
      if (r == need_lookup) {
        try {
          r = lookup_nameinfo(settings_for(settings_of(req.loop_)), sa, len, req.flags_, req.host_, req.service_);
        } catch (...) {
          r = errc::no_memory;
        }
      }
      req.retcode_ = r;
      return r;
    }
    resolver* res = nullptr;
    dns_query* q = new_query(*req.loop_, res);
    if (q == nullptr) return errc::no_memory;
    q->status = r;
    q->lookup = r == need_lookup;
    q->addrlen = len;
    if (q->lookup && !take_config(*q, *res)) {
      delete q;
      return errc::no_memory;
    }
    req.query_ = q;
    return res->submit(*q, req);
  }

  static int configure(loop& l, const resolver_config& c) noexcept {
    if (c.timeout_ms < 0 || c.tries < 0) return errc::invalid;
    resolver* r = of(l);
    if (r == nullptr) return errc::no_memory;
    if (r->requests != 0) return errc::busy;
    try {
      settings s;
      if (c.servers != nullptr && *c.servers != '\0' && !parse_servers(c.servers, s.servers)) return errc::invalid;
      s.timeout_ms = c.timeout_ms;
      s.tries = c.tries;
      r->config = std::move(s);
    } catch (...) {
      return errc::no_memory;
    }
    return 0;
  }
};

const detail::pool_ops detail::resolver::ops = {
    &resolver::run,
    [](detail::pool_task& t) -> loop& { return reinterpret_cast<dns_query&>(t).res->l; },
    &resolver::done,
    true,  // slow: a lookup may wait for a name server
    [](detail::pool_task& t) -> const req* { return reinterpret_cast<dns_query&>(t).owner; },
};

// ---- public entry points -------------------------------------------------

void free_addrinfo(struct addrinfo* ai) noexcept {
  if (ai != nullptr) ::freeaddrinfo(ai);
}

int getaddrinfo_req::start(loop* l, getaddrinfo_cb cb, const char* node, const char* service,
                           const struct addrinfo* hints) noexcept {
  if (query_ != nullptr) return errc::busy;
  if ((node == nullptr && service == nullptr) || (cb != nullptr && l == nullptr)) return errc::invalid;
  char ascii[256];
  if (node != nullptr) {
    if (int r = detail::idna_to_ascii(node, ascii); r != 0) return r;
    node = ascii;
  }
  loop_ = l;
  cb_ = cb;
  addrinfo_ = nullptr;
  retcode_ = 0;
  return detail::resolver::getaddrinfo(*this, node, service, hints);
}

int dns_req::cancel() noexcept { return detail::resolver::cancel(query_); }

int getnameinfo_req::start(loop* l, getnameinfo_cb cb, const struct sockaddr* addr, int flags) noexcept {
  if (query_ != nullptr) return errc::busy;
  if (addr == nullptr || (cb != nullptr && l == nullptr)) return errc::invalid;
  socklen_t len;
  if (addr->sa_family == AF_INET)
    len = sizeof(sockaddr_in);
  else if (addr->sa_family == AF_INET6)
    len = sizeof(sockaddr_in6);
  else
    return errc::invalid;
  std::memcpy(&storage_, addr, len);
  loop_ = l;
  cb_ = cb;
  flags_ = flags;
  retcode_ = 0;
  return detail::resolver::getnameinfo(*this, len);
}

int configure_resolver(loop& l, const resolver_config& config) noexcept {
  return detail::resolver::configure(l, config);
}

}  // namespace phaseloop
