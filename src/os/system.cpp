// SPDX-License-Identifier: MIT
// The system: host name and identification, processors, network
// interfaces, memory and load, shared libraries and random bytes
// (include/phaseloop/os.hpp).

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "os/files.hpp"
#include "phaseloop/behaviour.hpp"
#include "phaseloop/os.hpp"

namespace phaseloop::os {

using detail::bad_text_args;
using detail::copy_out;
using detail::slurp;

// ---- host -----------------------------------------------------------------------

int hostname(char* buffer, std::size_t* size) noexcept {
  if (bad_text_args(buffer, size)) return PHASELOOP_EINVAL;
  // Into a buffer that always fits: gethostname() may cut silently.
  char name[256];
  if (gethostname(name, sizeof name) != 0) return -errno;
  name[sizeof name - 1] = '\0';
  return copy_out(name, strlen(name), buffer, size);
}

int uname(system_name* name) noexcept {
  if (name == nullptr) return PHASELOOP_EINVAL;
  struct utsname u;
  if (::uname(&u) != 0) {
    const int r = -errno;
    name->sysname[0] = name->release[0] = name->version[0] = name->machine[0] = '\0';
    return r;
  }
  // Each utsname field (65 bytes on Linux) fits in 256.
  snprintf(name->sysname, sizeof name->sysname, "%s", u.sysname);
  snprintf(name->release, sizeof name->release, "%s", u.release);
  snprintf(name->version, sizeof name->version, "%s", u.version);
  snprintf(name->machine, sizeof name->machine, "%s", u.machine);
  return 0;
}

// ---- processors -----------------------------------------------------------------

unsigned available_parallelism() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1u : static_cast<unsigned>(n);
}

namespace {

// Number of per-CPU lines ("cpuN ...") after /proc/stat's total line.
int count_cpus(FILE* stat, unsigned* n) {
  char line[1024];
  if (fgets(line, sizeof line, stat) == nullptr) return PHASELOOP_EIO;
  unsigned count = 0;
  while (fgets(line, sizeof line, stat) != nullptr && strncmp(line, "cpu", 3) == 0) count++;
  if (count == 0) return PHASELOOP_EIO;
  *n = count;
  return 0;
}

// Models and clock speeds of the first `n` processors of /proc/cpuinfo;
// processors without a model line get the last model seen ("unknown" when
// there is none).
int read_models(unsigned n, cpu_info* ci) {
  static const char model_tag[] = "model name\t: ";
  static const char speed_tag[] = "cpu MHz\t\t: ";
  unsigned models = 0;
  unsigned speeds = 0;
  FILE* f = fopen("/proc/cpuinfo", "re");
  if (f == nullptr) return -errno;
  char line[1024];
  while (fgets(line, sizeof line, f) != nullptr) {
    if (models < n && strncmp(line, model_tag, sizeof model_tag - 1) == 0) {
      char* m = line + sizeof model_tag - 1;
      m[strcspn(m, "\n")] = '\0';
      if ((ci[models].model = strdup(m)) == nullptr) {
        fclose(f);
        return PHASELOOP_ENOMEM;
      }
      models++;
    } else if (speeds < n && strncmp(line, speed_tag, sizeof speed_tag - 1) == 0) {
      ci[speeds++].speed = atoi(line + sizeof speed_tag - 1);
    }
  }
  fclose(f);
  const char* fill = models > 0 ? ci[models - 1].model : "unknown";
  for (; models < n; models++)
    if ((ci[models].model = strdup(fill)) == nullptr) return PHASELOOP_ENOMEM;
  return 0;
}

// Per-CPU times from /proc/stat, from clock ticks to milliseconds.
int read_times(FILE* stat, unsigned n, cpu_info* ci) {
  const uint64_t ms_per_tick = 1000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
  char line[1024];
  rewind(stat);
  if (fgets(line, sizeof line, stat) == nullptr) return PHASELOOP_EIO;
  for (unsigned i = 0; i < n; i++) {
    uint64_t user, nice, sys, idle, irq;
    if (fgets(line, sizeof line, stat) == nullptr ||
        sscanf(line, "cpu%*u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %*u %" SCNu64, &user, &nice, &sys,
               &idle, &irq) != 5)
      return PHASELOOP_EIO;
    ci[i].times = {user * ms_per_tick, nice * ms_per_tick, sys * ms_per_tick, idle * ms_per_tick,
                   irq * ms_per_tick};
  }
  return 0;
}

// cpufreq's current frequency of CPU `i`, in MHz; 0 when unknown.
int cpufreq_mhz(unsigned i) {
  char path[96];
  char buf[32];
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", i);
  uint64_t khz = 0;
  if (slurp(path, buf, sizeof buf) == 0 && sscanf(buf, "%" SCNu64, &khz) != 1) khz = 0;
  return static_cast<int>(khz / 1000);
}

}  // namespace

int cpu_infos(cpu_info** infos, int* count) noexcept {
  if (infos == nullptr || count == nullptr) return PHASELOOP_EINVAL;
  *infos = nullptr;
  *count = 0;
  FILE* stat = fopen("/proc/stat", "re");
  if (stat == nullptr) return -errno;
  unsigned n = 0;
  int r = count_cpus(stat, &n);
  cpu_info* ci = nullptr;
  if (r == 0 && (ci = static_cast<cpu_info*>(calloc(n, sizeof(cpu_info)))) == nullptr) r = PHASELOOP_ENOMEM;
  if (r == 0) r = read_models(n, ci);
  if (r == 0) r = read_times(stat, n, ci);
  fclose(stat);
  if (r != 0) {
    if (ci != nullptr) free_cpu_infos(ci, static_cast<int>(n));
    return r;
  }
  if (ci[0].speed == 0)
    for (unsigned i = 0; i < n; i++) ci[i].speed = cpufreq_mhz(i);
  *infos = ci;
  *count = static_cast<int>(n);
  return 0;
}

void free_cpu_infos(cpu_info* infos, int count) noexcept {
  for (int i = 0; i < count; i++) free(infos[i].model);
  free(infos);
}

// ---- network interfaces ---------------------------------------------------------

namespace {

// Up and running, with an address. Link-layer (AF_PACKET) entries only lend
// their hardware address.
bool usable(const ifaddrs* a) {
  return (a->ifa_flags & IFF_UP) != 0 && (a->ifa_flags & IFF_RUNNING) != 0 && a->ifa_addr != nullptr;
}

bool listed(const ifaddrs* a) { return usable(a) && a->ifa_addr->sa_family != AF_PACKET; }

void fill(interface_address& e, const ifaddrs* a) {
  if (a->ifa_addr->sa_family == AF_INET6)
    memcpy(&e.address.in6, a->ifa_addr, sizeof e.address.in6);
  else
    memcpy(&e.address.in4, a->ifa_addr, sizeof e.address.in4);
  if (a->ifa_netmask != nullptr && a->ifa_netmask->sa_family == AF_INET6)
    memcpy(&e.netmask.in6, a->ifa_netmask, sizeof e.netmask.in6);
  else if (a->ifa_netmask != nullptr)
    memcpy(&e.netmask.in4, a->ifa_netmask, sizeof e.netmask.in4);
  e.is_internal = (a->ifa_flags & IFF_LOOPBACK) != 0;
}

// Each entry gets its interface's hardware address (aliases "eth0:1" share
// eth0's).
void add_hardware_addresses(const ifaddrs* list, interface_address* out, int n) {
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (!usable(a) || a->ifa_addr->sa_family != AF_PACKET) continue;
    const std::size_t len = strlen(a->ifa_name);
    const auto* ll = reinterpret_cast<const sockaddr_ll*>(a->ifa_addr);
    for (int j = 0; j < n; j++)
      if (strncmp(out[j].name, a->ifa_name, len) == 0 && (out[j].name[len] == '\0' || out[j].name[len] == ':'))
        memcpy(out[j].phys_addr, ll->sll_addr, sizeof out[j].phys_addr);
  }
}

}  // namespace

int interface_addresses(interface_address** addresses, int* count) noexcept {
  if (addresses == nullptr || count == nullptr) return PHASELOOP_EINVAL;
  *addresses = nullptr;
  *count = 0;
  ifaddrs* list;
  if (getifaddrs(&list) != 0) return -errno;
  int n = 0;
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next)
    if (listed(a)) n++;
  if (n == 0) {
    freeifaddrs(list);
    return 0;
  }
  auto* out = static_cast<interface_address*>(calloc(static_cast<std::size_t>(n), sizeof(interface_address)));
  if (out == nullptr) {
    freeifaddrs(list);
    return PHASELOOP_ENOMEM;
  }
  int i = 0;
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (!listed(a)) continue;
    interface_address& e = out[i++];
    if ((e.name = strdup(a->ifa_name)) == nullptr) {
      free_interface_addresses(out, n);
      freeifaddrs(list);
      return PHASELOOP_ENOMEM;
    }
    fill(e, a);
  }
  add_hardware_addresses(list, out, n);
  freeifaddrs(list);
  *addresses = out;
  *count = n;
  return 0;
}

void free_interface_addresses(interface_address* addresses, int count) noexcept {
  for (int i = 0; i < count; i++) free(addresses[i].name);
  free(addresses);
}

int interface_name(unsigned index, char* buffer, std::size_t* size) noexcept {
  if (bad_text_args(buffer, size)) return PHASELOOP_EINVAL;
  char name[IF_NAMESIZE];
  if (if_indextoname(index, name) == nullptr) return -errno;
  return copy_out(name, strnlen(name, sizeof name), buffer, size);
}

// ---- memory and load ------------------------------------------------------------

namespace {

// A "Name: N kB" line of /proc/meminfo, in bytes; 0 when absent.
uint64_t meminfo(const char* name) {
  char buf[4096];
  if (slurp("/proc/meminfo", buf, sizeof buf) != 0) return 0;
  const char* p = strstr(buf, name);
  uint64_t kib = 0;
  if (p == nullptr || sscanf(p + strlen(name), "%" SCNu64 " kB", &kib) != 1) return 0;
  return kib * 1024;
}

}  // namespace

// /proc/meminfo's figures (the kernel's estimate of available memory, not
// just the free pages), else sysinfo(2)'s.
std::uint64_t free_memory() noexcept {
  if (const uint64_t m = meminfo("MemAvailable:"); m != 0) return m;
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.freeram) * si.mem_unit : 0;
}

std::uint64_t total_memory() noexcept {
  if (const uint64_t m = meminfo("MemTotal:"); m != 0) return m;
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.totalram) * si.mem_unit : 0;
}

namespace {

// A number in a small cgroup file: 0 when unreadable, UINT64_MAX for "max".
uint64_t read_u64(const char* path) {
  char buf[32];
  uint64_t v = 0;
  if (slurp(path, buf, sizeof buf) == 0 && sscanf(buf, "%" SCNu64, &v) != 1)
    v = strcmp(buf, "max\n") == 0 ? UINT64_MAX : 0;
  return v;
}

// The process's cgroups (/proc/self/cgroup): true when readable.
bool own_cgroups(char (&buf)[1024]) { return slurp("/proc/self/cgroup", buf, sizeof buf) == 0; }

// cgroup v2 lists one line, "0::/path".
bool is_v2(const char* cgroups) { return strncmp(cgroups, "0::/", 4) == 0; }

// The path of the v1 memory controller's cgroup (after ":memory:/"), with
// its length; null when there is none.
const char* v1_memory_path(const char* cgroups, int* len) {
  for (const char* p = strchr(cgroups, ':'); p != nullptr;) {
    if (strncmp(p, ":memory:/", 9) == 0) {
      *len = static_cast<int>(strcspn(p + 9, "\n"));
      return p + 9;
    }
    p = strchr(p, '\n');
    if (p != nullptr) p = strchr(p, ':');
  }
  return nullptr;
}

// A file of the process's own cgroup: v2 under /sys/fs/cgroup/PATH, v1
// under the memory controller's PATH; false when there is none.
bool own_file(const char* cgroups, const char* name, char* path, std::size_t size) {
  if (is_v2(cgroups)) {
    const char* p = cgroups + 4;
    snprintf(path, size, "/sys/fs/cgroup/%.*s/%s", static_cast<int>(strcspn(p, "\n")), p, name);
    return true;
  }
  int n = 0;
  const char* p = v1_memory_path(cgroups, &n);
  if (p == nullptr) return false;
  snprintf(path, size, "/sys/fs/cgroup/memory/%.*s/%s", n, p, name);
  return true;
}

// libuv >= 1.45's cgroup limit: the smaller of the soft and the hard one,
// 0 when either is unknown.
uint64_t cgroup_limit(const char* cgroups) {
  char path[4200];
  uint64_t high = 0, max = 0;
  if (is_v2(cgroups)) {
    own_file(cgroups, "memory.max", path, sizeof path);
    max = read_u64(path);
    own_file(cgroups, "memory.high", path, sizeof path);
    high = read_u64(path);
  } else {
    if (own_file(cgroups, "memory.soft_limit_in_bytes", path, sizeof path)) {
      high = read_u64(path);
      own_file(cgroups, "memory.limit_in_bytes", path, sizeof path);
      max = read_u64(path);
    }
    if (high == 0 || max == 0) {  // the own controller is not mounted
      high = read_u64("/sys/fs/cgroup/memory/memory.soft_limit_in_bytes");
      max = read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    }
    // v1 says "no limit" with the largest page-aligned long.
    const uint64_t none = static_cast<uint64_t>(LONG_MAX) & ~(static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) - 1);
    if (high == none) high = UINT64_MAX;
    if (max == none) max = UINT64_MAX;
  }
  if (high == 0 || max == 0) return 0;
  return std::min(high, max);
}

// The smallest of RLIMIT_AS and RLIMIT_DATA that is set; 0 for none.
uint64_t rlimit_limit() {
  uint64_t least = 0;
  for (int which : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit rl;
    if (getrlimit(which, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
    const auto v = static_cast<uint64_t>(rl.rlim_cur);
    if (least == 0 || v < least) least = v;
  }
  return least;
}

}  // namespace

std::uint64_t constrained_memory(profile p) noexcept {
  const behaviour& b = behaviour_of(p);
  if (!b.memory_from_own_cgroup) {
    const uint64_t v = read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    return v == UINT64_MAX ? 0 : v;
  }
  char cgroups[1024];
  const uint64_t cgroup = own_cgroups(cgroups) ? cgroup_limit(cgroups) : 0;
  if (!b.memory_from_rlimits) return cgroup;
  const uint64_t rl = rlimit_limit();
  if (cgroup == 0) return rl;
  if (rl == 0) return cgroup;
  return std::min(cgroup, rl);
}

std::uint64_t available_memory() noexcept {
  char cgroups[1024];
  if (!own_cgroups(cgroups)) return 0;
  const uint64_t limit = cgroup_limit(cgroups);
  if (limit == 0 || limit > total_memory()) return free_memory();
  char path[4200];
  uint64_t used = 0;
  if (is_v2(cgroups)) {
    own_file(cgroups, "memory.current", path, sizeof path);
    used = read_u64(path);
  } else {
    if (own_file(cgroups, "memory.usage_in_bytes", path, sizeof path)) used = read_u64(path);
    if (used == 0) used = read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  return limit < used ? 0 : limit - used;
}

// Field 24 of /proc/self/stat (resident pages), in bytes.
int resident_set_memory(std::size_t* rss) noexcept {
  if (rss == nullptr) return PHASELOOP_EINVAL;
  char buf[1024];
  if (const int r = slurp("/proc/self/stat", buf, sizeof buf); r != 0) return r;
  // The command name (field 2) is in parentheses and may hold spaces and
  // parentheses itself: count fields from the last ')'.
  const char* s = strrchr(buf, ')');
  for (int field = 2; s != nullptr && field < 24; field++) s = strchr(s + 1, ' ');
  if (s == nullptr) return PHASELOOP_EINVAL;
  errno = 0;
  const long pages = strtol(s, nullptr, 10);
  if (errno != 0 || pages < 0) return PHASELOOP_EINVAL;
  *rss = static_cast<std::size_t>(pages) * static_cast<std::size_t>(getpagesize());
  return 0;
}

// /proc/uptime (with its fraction), else whole seconds of CLOCK_BOOTTIME.
int uptime(double* seconds) noexcept {
  if (seconds == nullptr) return PHASELOOP_EINVAL;
  char buf[128];
  if (slurp("/proc/uptime", buf, sizeof buf) == 0 && sscanf(buf, "%lf", seconds) == 1) return 0;
  timespec t;
  if (clock_gettime(CLOCK_BOOTTIME, &t) != 0) return -errno;
  *seconds = static_cast<double>(t.tv_sec);
  return 0;
}

// /proc/loadavg, else sysinfo(2).
void loadavg(double avg[3]) noexcept {
  char buf[128];
  if (slurp("/proc/loadavg", buf, sizeof buf) == 0 && sscanf(buf, "%lf %lf %lf", &avg[0], &avg[1], &avg[2]) == 3)
    return;
  struct sysinfo si;
  if (sysinfo(&si) != 0) return;
  for (int i = 0; i < 3; i++) avg[i] = static_cast<double>(si.loads[i]) / 65536.0;
}

// ---- shared libraries -----------------------------------------------------------

namespace {

// Keeps dlerror()'s message (or none) in the library object.
int keep_dlerror(library* lib) {
  free(lib->errmsg);
  const char* msg = dlerror();
  lib->errmsg = msg != nullptr ? strdup(msg) : nullptr;
  return msg != nullptr ? -1 : 0;
}

}  // namespace

int open_library(const char* filename, library* lib) noexcept {
  if (lib == nullptr) return PHASELOOP_EINVAL;
  dlerror();  // clear a message left by someone else
  lib->errmsg = nullptr;
  lib->handle = dlopen(filename, RTLD_LAZY);
  return lib->handle != nullptr ? 0 : keep_dlerror(lib);
}

void close_library(library* lib) noexcept {
  if (lib == nullptr) return;
  free(lib->errmsg);
  lib->errmsg = nullptr;
  if (lib->handle != nullptr) {
    dlclose(lib->handle);  // a failure has nowhere to go
    lib->handle = nullptr;
  }
}

// A success keeps the previous failure's message.
int library_symbol(library* lib, const char* name, void** ptr) noexcept {
  if (lib == nullptr || name == nullptr || ptr == nullptr) return PHASELOOP_EINVAL;
  dlerror();
  *ptr = dlsym(lib->handle, name);
  return *ptr != nullptr ? 0 : keep_dlerror(lib);
}

const char* library_error(const library* lib) noexcept {
  return lib != nullptr && lib->errmsg != nullptr ? lib->errmsg : "no error";
}

// ---- random bytes ---------------------------------------------------------------

namespace {

// From a random device. Not the kernel's character device: someone replaced
// it, and EIO.
int read_random_device(const char* path, unsigned char* p, std::size_t len) {
  int fd;
  do fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd == -1 && errno == EINTR);
  if (fd == -1) return -errno;
  struct stat s;
  int r = 0;
  if (fstat(fd, &s) != 0)
    r = -errno;
  else if (!S_ISCHR(s.st_mode))
    r = PHASELOOP_EIO;
  for (std::size_t pos = 0; r == 0 && pos < len;) {
    const ssize_t n = read(fd, p + pos, len - pos);
    if (n > 0)
      pos += static_cast<std::size_t>(n);
    else if (n == 0)
      r = PHASELOOP_EIO;
    else if (errno != EINTR)
      r = -errno;
  }
  close(fd);
  return r;
}

// For kernels without getrandom(2). As libuv, the first use reads one byte
// of /dev/random, which waits until the kernel's pool is seeded.
int read_urandom(unsigned char* p, std::size_t len) {
  static int seeded = [] {
    unsigned char c;
    return read_random_device("/dev/random", &c, 1);
  }();
  if (seeded != 0) return seeded;
  return read_random_device("/dev/urandom", p, len);
}

}  // namespace

int random_bytes(void* buf, std::size_t len) noexcept {
  auto* p = static_cast<unsigned char*>(buf);
  for (std::size_t pos = 0; pos < len;) {
    // Reads of at most 256 bytes are never interrupted by signals and never
    // come back short, so a large request cannot keep failing with EINTR.
    const ssize_t n = getrandom(p + pos, std::min<std::size_t>(len - pos, 256), 0);
    if (n > 0) {
      pos += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return PHASELOOP_EIO;
    if (errno == EINTR) continue;
    if (errno == ENOSYS) return read_urandom(p + pos, len - pos);
    return -errno;
  }
  return 0;
}

}  // namespace phaseloop::os
