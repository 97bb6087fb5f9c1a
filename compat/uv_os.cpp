// What libuv's API tells about the process and the system: the process
// title, environment and user, host and CPU identification, network
// interfaces, memory and resource figures, priorities, shared libraries and
// random bytes. Mostly thin wrappers of Linux interfaces; the rules they
// keep are libuv 1.44's: the size-in/size-out protocol of the string
// getters (on UV_ENOBUFS *size becomes the size needed, NUL included; on
// success the length written, NUL excluded), which /proc and /sys files are
// read and what is reported when they cannot be.

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <mutex>

#include "phaseloop/detail/pool_task.hpp"
#include "phaseloop/request.hpp"
#include "uv.h"
#include "shim.hpp"

namespace pl = phaseloop;
using namespace phaseloop::compat;

extern "C" char** environ;

namespace {

// Reads up to size - 1 bytes of a (small, /proc or /sys) file in one read
// and NUL-terminates them.
int slurp(const char* path, char* buf, std::size_t size) {
  int fd;
  do fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd == -1 && errno == EINTR);
  if (fd == -1) return -errno;
  ssize_t n;
  do n = read(fd, buf, size - 1);
  while (n == -1 && errno == EINTR);
  const int err = errno;
  close(fd);
  if (n == -1) return -err;
  buf[n] = '\0';
  return 0;
}

// The string getters' protocol: copies `s` (of length `len`) when it fits
// with its NUL.
int copy_out(const char* s, std::size_t len, char* buffer, std::size_t* size) {
  if (len >= *size) {
    *size = len + 1;
    return UV_ENOBUFS;
  }
  memcpy(buffer, s, len);
  buffer[len] = '\0';
  *size = len;
  return 0;
}

// ---- process title ----------------------------------------------------------

// uv_setup_args() moves argv's strings to a copy and lends the original
// block (where the kernel reads /proc/PID/cmdline from) to the title.
struct process_title {
  std::mutex mutex;
  char* str = nullptr;   // the original argv[0]: the title is written here
  std::size_t len = 0;   // the current title's length
  std::size_t cap = 0;   // bytes of the original block, NUL included
  char** copy = nullptr; // uv_setup_args()'s result; null until it ran
};

process_title& proc_title() {
  static process_title t;
  return t;
}

// ---- random bytes -----------------------------------------------------------

// From /dev/urandom, for kernels without getrandom(2). As libuv, the first
// use reads one byte of /dev/random, which waits until the kernel's pool is
// seeded.
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
    r = UV_EIO;  // not the kernel's device: someone replaced it
  for (std::size_t pos = 0; r == 0 && pos < len;) {
    const ssize_t n = read(fd, p + pos, len - pos);
    if (n > 0)
      pos += static_cast<std::size_t>(n);
    else if (n == 0)
      r = UV_EIO;
    else if (errno != EINTR)
      r = -errno;
  }
  close(fd);
  return r;
}

int read_urandom(unsigned char* p, std::size_t len) {
  static int seeded = [] {
    unsigned char c;
    return read_random_device("/dev/random", &c, 1);
  }();
  if (seeded != 0) return seeded;
  return read_random_device("/dev/urandom", p, len);
}

int fill_random(void* buf, std::size_t len) {
  auto* p = static_cast<unsigned char*>(buf);
  for (std::size_t pos = 0; pos < len;) {
    // Reads of at most 256 bytes are never interrupted by signals and never
    // come back short, so a large request cannot keep failing with EINTR.
    const ssize_t n = getrandom(p + pos, std::min<std::size_t>(len - pos, 256), 0);
    if (n > 0) {
      pos += static_cast<std::size_t>(n);
      continue;
    }
    if (n == 0) return UV_EIO;
    if (errno == EINTR) continue;
    if (errno == ENOSYS) return read_urandom(p + pos, len - pos);
    return -errno;
  }
  return 0;
}

// uv_random's request, fields in libuv's order; the pool entry takes the
// place of libuv's uv__work.
struct random_req : pl::req {
  random_req(uv_loop_t* l, void* b, std::size_t n, uv_random_cb c) noexcept
      : req(pl::req_type::random), loop(l), buf(b), buflen(n), cb(c) {}

  uv_loop_t* loop;  // offset 64, public
  int status = 0;   // the pool thread's result
  void* buf;
  std::size_t buflen;
  uv_random_cb cb;
  pl::detail::pool_task task;

  static random_req& of(pl::detail::pool_task& t) noexcept {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    return pl::detail::task_owner<random_req>(t, offsetof(random_req, task));
#pragma GCC diagnostic pop
  }
  static const pl::detail::pool_ops ops;
};

static_assert(fits<uv_random_t, random_req>());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(random_req, loop) == offsetof(uv_random_t, loop));
#pragma GCC diagnostic pop

const pl::detail::pool_ops random_req::ops = {
    [](pl::detail::pool_task& t) {
      random_req& r = of(t);
      r.status = fill_random(r.buf, r.buflen);
    },
    [](pl::detail::pool_task& t) -> pl::loop& { return L(of(t).loop); },
    [](pl::detail::pool_task& t, int status) {
      random_req& r = of(t);
      // The callback may free the request; nothing touches it afterwards.
      r.cb(reinterpret_cast<uv_random_t*>(&r), status != 0 ? status : r.status, r.buf, r.buflen);
    },
};

// ---- CPUs -------------------------------------------------------------------

// Number of per-CPU lines ("cpuN ...") after /proc/stat's total line.
int count_cpus(FILE* stat, unsigned* n) {
  char line[1024];
  if (fgets(line, sizeof line, stat) == nullptr) return UV_EIO;
  unsigned count = 0;
  while (fgets(line, sizeof line, stat) != nullptr && strncmp(line, "cpu", 3) == 0) count++;
  if (count == 0) return UV_EIO;
  *n = count;
  return 0;
}

// Models and clock speeds of the first `n` processors of /proc/cpuinfo;
// processors without a model line get the last model seen ("unknown" when
// there is none).
int read_models(unsigned n, uv_cpu_info_t* ci) {
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
        return UV_ENOMEM;
      }
      models++;
    } else if (speeds < n && strncmp(line, speed_tag, sizeof speed_tag - 1) == 0) {
      ci[speeds++].speed = atoi(line + sizeof speed_tag - 1);
    }
  }
  fclose(f);
  const char* fill = models > 0 ? ci[models - 1].model : "unknown";
  for (; models < n; models++)
    if ((ci[models].model = strdup(fill)) == nullptr) return UV_ENOMEM;
  return 0;
}

// Per-CPU times from /proc/stat, converted from clock ticks to milliseconds.
int read_times(FILE* stat, unsigned n, uv_cpu_info_t* ci) {
  const uint64_t ms_per_tick = 1000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
  char line[1024];
  rewind(stat);
  if (fgets(line, sizeof line, stat) == nullptr) return UV_EIO;
  for (unsigned i = 0; i < n; i++) {
    uint64_t user, nice, sys, idle, irq;
    if (fgets(line, sizeof line, stat) == nullptr ||
        sscanf(line, "cpu%*u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %*u %" SCNu64, &user, &nice, &sys,
               &idle, &irq) != 5)
      return UV_EIO;
    ci[i].cpu_times.user = user * ms_per_tick;
    ci[i].cpu_times.nice = nice * ms_per_tick;
    ci[i].cpu_times.sys = sys * ms_per_tick;
    ci[i].cpu_times.idle = idle * ms_per_tick;
    ci[i].cpu_times.irq = irq * ms_per_tick;
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

// ---- memory -----------------------------------------------------------------

// A "Name: N kB" line of /proc/meminfo, in bytes; 0 when absent.
uint64_t meminfo(const char* name) {
  char buf[4096];
  if (slurp("/proc/meminfo", buf, sizeof buf) != 0) return 0;
  const char* p = strstr(buf, name);
  uint64_t kib = 0;
  if (p == nullptr || sscanf(p + strlen(name), "%" SCNu64 " kB", &kib) != 1) return 0;
  return kib * 1024;
}

// ---- network interfaces -----------------------------------------------------

// The interfaces uv_interface_addresses() reports: up and running, with an
// address. Link-layer (AF_PACKET) entries only lend their hardware address.
bool usable(const ifaddrs* a) {
  return (a->ifa_flags & IFF_UP) != 0 && (a->ifa_flags & IFF_RUNNING) != 0 && a->ifa_addr != nullptr;
}

// ---- descriptors and libraries -------------------------------------------

// SO_SNDBUF / SO_RCVBUF of a TCP, pipe or UDP handle: *value 0 reads the
// size into it, anything else sets it.
int socket_buffer(uv_handle_t* handle, int option, int* value) {
  if (handle == nullptr || value == nullptr) return UV_EINVAL;
  if (handle->type != UV_TCP && handle->type != UV_NAMED_PIPE && handle->type != UV_UDP) return UV_ENOTSUP;
  uv_os_fd_t fd;
  if (const int r = uv_fileno(handle, &fd); r != 0) return r;
  socklen_t len = sizeof *value;
  const int r = *value == 0 ? getsockopt(fd, SOL_SOCKET, option, value, &len)
                            : setsockopt(fd, SOL_SOCKET, option, value, len);
  return r == 0 ? 0 : -errno;
}

// Keeps dlerror()'s message (or none) in the library object.
int keep_dlerror(uv_lib_t* lib) {
  free(lib->errmsg);
  const char* msg = dlerror();
  lib->errmsg = msg != nullptr ? strdup(msg) : nullptr;
  return msg != nullptr ? -1 : 0;
}

}  // namespace

namespace phaseloop::compat {

int cancel_random(uv_random_t* req) noexcept {
  random_req& r = as<random_req>(req);
  return pl::detail::pool_cancel(L(r.loop), r.task);
}

}  // namespace phaseloop::compat

extern "C" {

// ---- process title ----------------------------------------------------------

char** uv_setup_args(int argc, char** argv) {
  if (argc <= 0 || argv == nullptr || argv[0] == nullptr) return argv;
  std::size_t bytes = (static_cast<std::size_t>(argc) + 1) * sizeof(char*);
  for (int i = 0; i < argc; i++) bytes += strlen(argv[i]) + 1;
  auto** copy = static_cast<char**>(malloc(bytes));
  if (copy == nullptr) return argv;
  char* s = reinterpret_cast<char*>(copy + argc + 1);
  for (int i = 0; i < argc; i++) {
    const std::size_t n = strlen(argv[i]) + 1;
    memcpy(s, argv[i], n);
    copy[i] = s;
    s += n;
  }
  copy[argc] = nullptr;

  // The title may use the strings that follow argv[0] back to back, as
  // the kernel lays them out. (libuv assumes they always do.)
  std::size_t cap = strlen(argv[0]) + 1;
  for (int i = 1; i < argc && argv[i] == argv[0] + cap; i++) cap += strlen(argv[i]) + 1;

  process_title& t = proc_title();
  std::lock_guard<std::mutex> lock(t.mutex);
  // An earlier copy stays allocated: the caller may still be using it.
  t.copy = copy;
  t.str = argv[0];
  t.len = strlen(argv[0]);
  t.cap = cap;
  return copy;
}

int uv_set_process_title(const char* title) {
  if (title == nullptr) return UV_EINVAL;
  process_title& t = proc_title();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.copy == nullptr) return UV_ENOBUFS;  // uv_setup_args() did not run
  // Cut to what fits in the block, which is then zero-filled so that no
  // old argument shows through.
  const std::size_t len = std::min(strlen(title), t.cap - 1);
  memcpy(t.str, title, len);
  memset(t.str + len, 0, t.cap - len);
  t.len = len;
  prctl(PR_SET_NAME, t.str);  // the kernel keeps the first 15 bytes
  return 0;
}

int uv_get_process_title(char* buffer, size_t size) {
  if (buffer == nullptr || size == 0) return UV_EINVAL;
  process_title& t = proc_title();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.copy == nullptr || size <= t.len) return UV_ENOBUFS;
  memcpy(buffer, t.str, t.len);
  buffer[t.len] = '\0';
  return 0;
}

// ---- environment and user ---------------------------------------------------

int uv_os_getenv(const char* name, char* buffer, size_t* size) {
  if (name == nullptr || buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  const char* v = getenv(name);
  if (v == nullptr) return UV_ENOENT;
  return copy_out(v, strlen(v), buffer, size);
}

int uv_os_setenv(const char* name, const char* value) {
  if (name == nullptr || value == nullptr) return UV_EINVAL;
  return setenv(name, value, 1) == 0 ? 0 : -errno;
}

int uv_os_unsetenv(const char* name) {
  if (name == nullptr) return UV_EINVAL;
  return unsetenv(name) == 0 ? 0 : -errno;
}

// Entries without '=' are skipped. Each name is one allocation holding
// "name\0value".
int uv_os_environ(uv_env_item_t** envitems, int* count) {
  if (envitems == nullptr || count == nullptr) return UV_EINVAL;
  *envitems = nullptr;
  *count = 0;
  std::size_t n = 0;
  while (environ[n] != nullptr) n++;
  auto* items = static_cast<uv_env_item_t*>(calloc(n, sizeof(uv_env_item_t)));
  if (items == nullptr && n > 0) return UV_ENOMEM;
  int used = 0;
  for (std::size_t i = 0; i < n; i++) {
    if (strchr(environ[i], '=') == nullptr) continue;
    char* copy = strdup(environ[i]);
    if (copy == nullptr) {
      uv_os_free_environ(items, used);
      return UV_ENOMEM;
    }
    char* eq = strchr(copy, '=');
    *eq = '\0';
    items[used].name = copy;
    items[used].value = eq + 1;
    used++;
  }
  *envitems = items;
  *count = used;
  return 0;
}

void uv_os_free_environ(uv_env_item_t* envitems, int count) {
  for (int i = 0; i < count; i++) free(envitems[i].name);
  free(envitems);
}

// The effective user's entry of the user database. The three strings share
// one allocation, owned by `username`.
int uv_os_get_passwd(uv_passwd_t* pwd) {
  if (pwd == nullptr) return UV_EINVAL;
  passwd pw;
  passwd* found = nullptr;
  char* scratch = nullptr;
  int r;
  for (std::size_t size = 2000;; size *= 2) {
    scratch = static_cast<char*>(malloc(size));
    if (scratch == nullptr) return UV_ENOMEM;
    do r = getpwuid_r(geteuid(), &pw, scratch, size, &found);
    while (r == EINTR);
    if (r != ERANGE) break;
    free(scratch);
  }
  if (r != 0 || found == nullptr) {
    free(scratch);
    return r != 0 ? -r : UV_ENOENT;
  }
  const std::size_t name = strlen(pw.pw_name) + 1;
  const std::size_t home = strlen(pw.pw_dir) + 1;
  const std::size_t shell = strlen(pw.pw_shell) + 1;
  char* block = static_cast<char*>(malloc(name + home + shell));
  if (block == nullptr) {
    free(scratch);
    return UV_ENOMEM;
  }
  pwd->username = static_cast<char*>(memcpy(block, pw.pw_name, name));
  pwd->homedir = static_cast<char*>(memcpy(block + name, pw.pw_dir, home));
  pwd->shell = static_cast<char*>(memcpy(block + name + home, pw.pw_shell, shell));
  pwd->uid = pw.pw_uid;
  pwd->gid = pw.pw_gid;
  free(scratch);
  return 0;
}

void uv_os_free_passwd(uv_passwd_t* pwd) {
  if (pwd == nullptr) return;
  free(pwd->username);
  pwd->username = nullptr;
  pwd->shell = nullptr;
  pwd->homedir = nullptr;
}

// $HOME as it is (a trailing slash stays), else the user database.
int uv_os_homedir(char* buffer, size_t* size) {
  const int r = uv_os_getenv("HOME", buffer, size);  // also checks the arguments
  if (r != UV_ENOENT) return r;
  uv_passwd_t pwd;
  if (const int e = uv_os_get_passwd(&pwd); e != 0) return e;
  const int c = copy_out(pwd.homedir, strlen(pwd.homedir), buffer, size);
  uv_os_free_passwd(&pwd);
  return c;
}

// The first of $TMPDIR, $TMP, $TEMP, $TEMPDIR that is set, else "/tmp",
// without a trailing slash. The size check is made before the slash is
// dropped, so the answer needs room for it.
int uv_os_tmpdir(char* buffer, size_t* size) {
  if (buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  const char* dir = nullptr;
  for (const char* var : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"})
    if ((dir = getenv(var)) != nullptr) break;
  if (dir == nullptr) dir = "/tmp";
  std::size_t len = strlen(dir);
  if (len >= *size) {
    *size = len + 1;
    return UV_ENOBUFS;
  }
  if (len > 1 && dir[len - 1] == '/') len--;
  return copy_out(dir, len, buffer, size);
}

// ---- host and processors ----------------------------------------------------

int uv_os_gethostname(char* buffer, size_t* size) {
  if (buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  // Into a buffer that always fits: gethostname() may cut silently.
  char name[UV_MAXHOSTNAMESIZE];
  if (gethostname(name, sizeof name) != 0) return -errno;
  name[sizeof name - 1] = '\0';
  return copy_out(name, strlen(name), buffer, size);
}

int uv_os_uname(uv_utsname_t* buffer) {
  if (buffer == nullptr) return UV_EINVAL;
  struct utsname u;
  if (uname(&u) != 0) {
    const int r = -errno;
    buffer->sysname[0] = buffer->release[0] = buffer->version[0] = buffer->machine[0] = '\0';
    return r;
  }
  // Each utsname field (65 bytes on Linux) fits in the 256 of uv_utsname_t.
  snprintf(buffer->sysname, sizeof buffer->sysname, "%s", u.sysname);
  snprintf(buffer->release, sizeof buffer->release, "%s", u.release);
  snprintf(buffer->version, sizeof buffer->version, "%s", u.version);
  snprintf(buffer->machine, sizeof buffer->machine, "%s", u.machine);
  return 0;
}

// Unlike the other string getters, a path longer than the buffer is cut to
// fit (readlink's behaviour); there is no UV_ENOBUFS.
int uv_exepath(char* buffer, size_t* size) {
  if (buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  ssize_t n = 0;
  if (*size > 1 && (n = readlink("/proc/self/exe", buffer, *size - 1)) == -1) return -errno;
  buffer[n] = '\0';
  *size = static_cast<std::size_t>(n);
  return 0;
}

// The CPUs this thread may run on, else the online ones; at least 1.
unsigned int uv_available_parallelism(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1u : static_cast<unsigned>(n);
}

// One entry per CPU line of /proc/stat (the online CPUs), with the model and
// speed of the same-numbered processor of /proc/cpuinfo, or cpufreq's
// current frequency when cpuinfo gives no speed.
int uv_cpu_info(uv_cpu_info_t** cpu_infos, int* count) {
  if (cpu_infos == nullptr || count == nullptr) return UV_EINVAL;
  *cpu_infos = nullptr;
  *count = 0;
  FILE* stat = fopen("/proc/stat", "re");
  if (stat == nullptr) return -errno;
  unsigned n = 0;
  int r = count_cpus(stat, &n);
  uv_cpu_info_t* ci = nullptr;
  if (r == 0 && (ci = static_cast<uv_cpu_info_t*>(calloc(n, sizeof(uv_cpu_info_t)))) == nullptr) r = UV_ENOMEM;
  if (r == 0) r = read_models(n, ci);
  if (r == 0) r = read_times(stat, n, ci);
  fclose(stat);
  if (r != 0) {
    if (ci != nullptr) uv_free_cpu_info(ci, static_cast<int>(n));
    return r;
  }
  if (ci[0].speed == 0)
    for (unsigned i = 0; i < n; i++) ci[i].speed = cpufreq_mhz(i);
  *cpu_infos = ci;
  *count = static_cast<int>(n);
  return 0;
}

void uv_free_cpu_info(uv_cpu_info_t* cpu_infos, int count) {
  for (int i = 0; i < count; i++) free(cpu_infos[i].model);
  free(cpu_infos);
}

// ---- network interfaces -----------------------------------------------------

// Every address of every interface that is up and running, in getifaddrs()
// order, each with its interface's hardware address (aliases "eth0:1" share
// eth0's). No interface: 0 with a null array.
int uv_interface_addresses(uv_interface_address_t** addresses, int* count) {
  if (addresses == nullptr || count == nullptr) return UV_EINVAL;
  *addresses = nullptr;
  *count = 0;
  ifaddrs* list;
  if (getifaddrs(&list) != 0) return -errno;
  int n = 0;
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next)
    if (usable(a) && a->ifa_addr->sa_family != AF_PACKET) n++;
  if (n == 0) {
    freeifaddrs(list);
    return 0;
  }
  auto* out = static_cast<uv_interface_address_t*>(calloc(static_cast<std::size_t>(n), sizeof(uv_interface_address_t)));
  if (out == nullptr) {
    freeifaddrs(list);
    return UV_ENOMEM;
  }
  int i = 0;
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (!usable(a) || a->ifa_addr->sa_family == AF_PACKET) continue;
    uv_interface_address_t& e = out[i++];
    if ((e.name = strdup(a->ifa_name)) == nullptr) {
      uv_free_interface_addresses(out, n);
      freeifaddrs(list);
      return UV_ENOMEM;
    }
    if (a->ifa_addr->sa_family == AF_INET6)
      memcpy(&e.address.address6, a->ifa_addr, sizeof e.address.address6);
    else
      memcpy(&e.address.address4, a->ifa_addr, sizeof e.address.address4);
    if (a->ifa_netmask != nullptr && a->ifa_netmask->sa_family == AF_INET6)
      memcpy(&e.netmask.netmask6, a->ifa_netmask, sizeof e.netmask.netmask6);
    else if (a->ifa_netmask != nullptr)
      memcpy(&e.netmask.netmask4, a->ifa_netmask, sizeof e.netmask.netmask4);
    e.is_internal = (a->ifa_flags & IFF_LOOPBACK) != 0;
  }
  for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
    if (!usable(a) || a->ifa_addr->sa_family != AF_PACKET) continue;
    const std::size_t len = strlen(a->ifa_name);
    const auto* ll = reinterpret_cast<const sockaddr_ll*>(a->ifa_addr);
    for (int j = 0; j < n; j++)
      if (strncmp(out[j].name, a->ifa_name, len) == 0 && (out[j].name[len] == '\0' || out[j].name[len] == ':'))
        memcpy(out[j].phys_addr, ll->sll_addr, sizeof out[j].phys_addr);
  }
  freeifaddrs(list);
  *addresses = out;
  *count = n;
  return 0;
}

void uv_free_interface_addresses(uv_interface_address_t* addresses, int count) {
  for (int i = 0; i < count; i++) free(addresses[i].name);
  free(addresses);
}

int uv_if_indextoname(unsigned int ifindex, char* buffer, size_t* size) {
  if (buffer == nullptr || size == nullptr || *size == 0) return UV_EINVAL;
  char name[UV_IF_NAMESIZE];
  if (if_indextoname(ifindex, name) == nullptr) return -errno;
  return copy_out(name, strnlen(name, sizeof name), buffer, size);
}

// On Unix an IPv6 scope id is the interface name.
int uv_if_indextoiid(unsigned int ifindex, char* buffer, size_t* size) {
  return uv_if_indextoname(ifindex, buffer, size);
}

// ---- memory and resource usage ----------------------------------------------

// /proc/meminfo's figures (the kernel's estimate of available memory, not
// just the free pages), else sysinfo(2)'s.
uint64_t uv_get_free_memory(void) {
  if (const uint64_t m = meminfo("MemAvailable:"); m != 0) return m;
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.freeram) * si.mem_unit : 0;
}

uint64_t uv_get_total_memory(void) {
  if (const uint64_t m = meminfo("MemTotal:"); m != 0) return m;
  struct sysinfo si;
  return sysinfo(&si) == 0 ? static_cast<uint64_t>(si.totalram) * si.mem_unit : 0;
}

// The cgroup v1 memory controller's limit (libuv 1.44 reads no other
// place); 0, meaning "unknown", when there is none.
uint64_t uv_get_constrained_memory(void) {
  char buf[32];
  uint64_t limit = 0;
  if (slurp("/sys/fs/cgroup/memory/memory.limit_in_bytes", buf, sizeof buf) == 0 &&
      sscanf(buf, "%" SCNu64, &limit) != 1)
    limit = 0;
  return limit;
}

// Field 24 of /proc/self/stat (resident pages), in bytes.
int uv_resident_set_memory(size_t* rss) {
  if (rss == nullptr) return UV_EINVAL;
  char buf[1024];
  if (const int r = slurp("/proc/self/stat", buf, sizeof buf); r != 0) return r;
  // The command name (field 2) is in parentheses and may hold spaces and
  // parentheses itself: count fields from the last ')'.
  const char* s = strrchr(buf, ')');
  for (int field = 2; s != nullptr && field < 24; field++) s = strchr(s + 1, ' ');
  if (s == nullptr) return UV_EINVAL;
  errno = 0;
  const long pages = strtol(s, nullptr, 10);
  if (errno != 0 || pages < 0) return UV_EINVAL;
  *rss = static_cast<std::size_t>(pages) * static_cast<std::size_t>(getpagesize());
  return 0;
}

int uv_getrusage(uv_rusage_t* rusage) {
  if (rusage == nullptr) return UV_EINVAL;
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u) != 0) return -errno;
  rusage->ru_utime.tv_sec = u.ru_utime.tv_sec;
  rusage->ru_utime.tv_usec = u.ru_utime.tv_usec;
  rusage->ru_stime.tv_sec = u.ru_stime.tv_sec;
  rusage->ru_stime.tv_usec = u.ru_stime.tv_usec;
  rusage->ru_maxrss = static_cast<uint64_t>(u.ru_maxrss);
  rusage->ru_ixrss = static_cast<uint64_t>(u.ru_ixrss);
  rusage->ru_idrss = static_cast<uint64_t>(u.ru_idrss);
  rusage->ru_isrss = static_cast<uint64_t>(u.ru_isrss);
  rusage->ru_minflt = static_cast<uint64_t>(u.ru_minflt);
  rusage->ru_majflt = static_cast<uint64_t>(u.ru_majflt);
  rusage->ru_nswap = static_cast<uint64_t>(u.ru_nswap);
  rusage->ru_inblock = static_cast<uint64_t>(u.ru_inblock);
  rusage->ru_oublock = static_cast<uint64_t>(u.ru_oublock);
  rusage->ru_msgsnd = static_cast<uint64_t>(u.ru_msgsnd);
  rusage->ru_msgrcv = static_cast<uint64_t>(u.ru_msgrcv);
  rusage->ru_nsignals = static_cast<uint64_t>(u.ru_nsignals);
  rusage->ru_nvcsw = static_cast<uint64_t>(u.ru_nvcsw);
  rusage->ru_nivcsw = static_cast<uint64_t>(u.ru_nivcsw);
  return 0;
}

// /proc/uptime (with its fraction), else whole seconds of CLOCK_BOOTTIME.
int uv_uptime(double* uptime) {
  if (uptime == nullptr) return UV_EINVAL;
  char buf[128];
  if (slurp("/proc/uptime", buf, sizeof buf) == 0 && sscanf(buf, "%lf", uptime) == 1) return 0;
  timespec t;
  if (clock_gettime(CLOCK_BOOTTIME, &t) != 0) return -errno;
  *uptime = static_cast<double>(t.tv_sec);
  return 0;
}

// /proc/loadavg, else sysinfo(2); left as it was when both fail.
void uv_loadavg(double avg[3]) {
  char buf[128];
  if (slurp("/proc/loadavg", buf, sizeof buf) == 0 && sscanf(buf, "%lf %lf %lf", &avg[0], &avg[1], &avg[2]) == 3)
    return;
  struct sysinfo si;
  if (sysinfo(&si) != 0) return;
  for (int i = 0; i < 3; i++) avg[i] = static_cast<double>(si.loads[i]) / 65536.0;
}

// ---- scheduling priority ------------------------------------------------------

// Nice values. On Linux they belong to threads: pid 0 is the calling thread.
int uv_os_getpriority(uv_pid_t pid, int* priority) {
  if (priority == nullptr) return UV_EINVAL;
  errno = 0;  // -1 is also a valid priority
  const int r = getpriority(PRIO_PROCESS, static_cast<id_t>(pid));
  if (r == -1 && errno != 0) return -errno;
  *priority = r;
  return 0;
}

int uv_os_setpriority(uv_pid_t pid, int priority) {
  if (priority < UV_PRIORITY_HIGHEST || priority > UV_PRIORITY_LOW) return UV_EINVAL;
  return setpriority(PRIO_PROCESS, static_cast<id_t>(pid), priority) == 0 ? 0 : -errno;
}

// ---- descriptors ------------------------------------------------------------

// On Unix the OS handle of a descriptor is the descriptor.
uv_os_fd_t uv_get_osfhandle(int fd) { return fd; }
int uv_open_osfhandle(uv_os_fd_t os_fd) { return os_fd; }

// Marks every open descriptor close-on-exec: the first 16 in any case (some
// may be closed), then up to the first that is not open.
void uv_disable_stdio_inheritance(void) {
  for (int fd = 0;; fd++)
    if (ioctl(fd, FIOCLEX) != 0 && fd > 15) break;
}

int uv_send_buffer_size(uv_handle_t* handle, int* value) { return socket_buffer(handle, SO_SNDBUF, value); }
int uv_recv_buffer_size(uv_handle_t* handle, int* value) { return socket_buffer(handle, SO_RCVBUF, value); }

// ---- shared libraries -------------------------------------------------------

// Failures return -1 (not an error code); uv_dlerror() then has dlerror()'s
// text, which the library object owns until the next failure or
// uv_dlclose().
int uv_dlopen(const char* filename, uv_lib_t* lib) {
  if (lib == nullptr) return UV_EINVAL;
  dlerror();  // clear a message left by someone else
  lib->errmsg = nullptr;
  lib->handle = dlopen(filename, RTLD_LAZY);
  return lib->handle != nullptr ? 0 : keep_dlerror(lib);
}

void uv_dlclose(uv_lib_t* lib) {
  if (lib == nullptr) return;
  free(lib->errmsg);
  lib->errmsg = nullptr;
  if (lib->handle != nullptr) {
    dlclose(lib->handle);  // a failure has nowhere to go
    lib->handle = nullptr;
  }
}

// A symbol whose value is NULL is found (0) with *ptr NULL. A success keeps
// the previous failure's message.
int uv_dlsym(uv_lib_t* lib, const char* name, void** ptr) {
  if (lib == nullptr || name == nullptr || ptr == nullptr) return UV_EINVAL;
  dlerror();
  *ptr = dlsym(lib->handle, name);
  return *ptr != nullptr ? 0 : keep_dlerror(lib);
}

const char* uv_dlerror(const uv_lib_t* lib) {
  return lib != nullptr && lib->errmsg != nullptr ? lib->errmsg : "no error";
}

// ---- random bytes -----------------------------------------------------------

// Without a callback: fills `buf` now and returns the result. With one:
// fills it on the threadpool; the callback runs in the poll phase, and the
// request keeps the loop alive until then. At most INT32_MAX bytes; no
// flags are defined yet.
int uv_random(uv_loop_t* loop, uv_random_t* req, void* buf, size_t buflen, unsigned flags, uv_random_cb cb) {
  if (buflen > 0x7FFFFFFFu) return UV_E2BIG;
  if (flags != 0) return UV_EINVAL;
  if (cb == nullptr) return fill_random(buf, buflen);
  if (loop == nullptr || req == nullptr) return UV_EINVAL;
  random_req* r = construct<random_req>(req, loop, buf, buflen, cb);
  return pl::detail::pool_submit(L(loop), r->task, random_req::ops);
}

}  // extern "C"
