// SPDX-License-Identifier: MIT
// The process: its title, environment, user, directories, identity,
// priority, clocks and descriptors (include/phaseloop/os.hpp).

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "os/files.hpp"
#include "phaseloop/os.hpp"

extern "C" char** environ;

namespace phaseloop::os {

using detail::bad_text_args;
using detail::copy_out;

namespace detail {

int slurp(const char* path, char* buf, std::size_t size) noexcept {
  int fd;
  do fd = ::open(path, O_RDONLY | O_CLOEXEC);
  while (fd == -1 && errno == EINTR);
  if (fd == -1) return -errno;
  ssize_t n;
  do n = ::read(fd, buf, size - 1);
  while (n == -1 && errno == EINTR);
  const int err = errno;
  ::close(fd);
  if (n == -1) return -err;
  buf[n] = '\0';
  return 0;
}

int copy_out(const char* s, std::size_t len, char* buffer, std::size_t* size) noexcept {
  if (len >= *size) {
    *size = len + 1;
    return PHASELOOP_ENOBUFS;
  }
  memcpy(buffer, s, len);
  buffer[len] = '\0';
  *size = len;
  return 0;
}

}  // namespace detail

namespace {

// setup_args() moves argv's strings to a copy and lends the original block
// to the title.
struct process_title_state {
  std::mutex mutex;
  char* str = nullptr;    // the original argv[0]: the title is written here
  std::size_t len = 0;    // the current title's length
  std::size_t cap = 0;    // bytes of the original block, NUL included
  char** copy = nullptr;  // setup_args()'s result; null until it ran
};

process_title_state& title_state() {
  static process_title_state t;
  return t;
}

int fail(int r) noexcept { return r == 0 ? 0 : -errno; }

}  // namespace

// ---- process title ------------------------------------------------------------

char** setup_args(int argc, char** argv) noexcept {
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

  // The title may use the strings that follow argv[0] back to back, as the
  // kernel lays them out. (libuv assumes they always do.)
  std::size_t cap = strlen(argv[0]) + 1;
  for (int i = 1; i < argc && argv[i] == argv[0] + cap; i++) cap += strlen(argv[i]) + 1;

  process_title_state& t = title_state();
  std::lock_guard<std::mutex> lock(t.mutex);
  // An earlier copy stays allocated: the caller may still be using it.
  t.copy = copy;
  t.str = argv[0];
  t.len = strlen(argv[0]);
  t.cap = cap;
  return copy;
}

int set_process_title(const char* title) noexcept {
  if (title == nullptr) return PHASELOOP_EINVAL;
  process_title_state& t = title_state();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.copy == nullptr) return PHASELOOP_ENOBUFS;
  // Cut to what fits in the block, which is then zero-filled so that no old
  // argument shows through.
  const std::size_t len = std::min(strlen(title), t.cap - 1);
  memcpy(t.str, title, len);
  memset(t.str + len, 0, t.cap - len);
  t.len = len;
  prctl(PR_SET_NAME, t.str);
  return 0;
}

int process_title(char* buffer, std::size_t size) noexcept {
  if (buffer == nullptr || size == 0) return PHASELOOP_EINVAL;
  process_title_state& t = title_state();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.copy == nullptr || size <= t.len) return PHASELOOP_ENOBUFS;
  memcpy(buffer, t.str, t.len);
  buffer[t.len] = '\0';
  return 0;
}

// ---- environment and user -----------------------------------------------------

int getenv(const char* name, char* buffer, std::size_t* size) noexcept {
  if (name == nullptr || bad_text_args(buffer, size)) return PHASELOOP_EINVAL;
  const char* v = ::getenv(name);
  if (v == nullptr) return PHASELOOP_ENOENT;
  return copy_out(v, strlen(v), buffer, size);
}

int setenv(const char* name, const char* value) noexcept {
  if (name == nullptr || value == nullptr) return PHASELOOP_EINVAL;
  return fail(::setenv(name, value, 1));
}

int unsetenv(const char* name) noexcept {
  if (name == nullptr) return PHASELOOP_EINVAL;
  return fail(::unsetenv(name));
}

int environment(env_item** items, int* count) noexcept {
  if (items == nullptr || count == nullptr) return PHASELOOP_EINVAL;
  *items = nullptr;
  *count = 0;
  std::size_t n = 0;
  while (environ[n] != nullptr) n++;
  auto* out = static_cast<env_item*>(calloc(n, sizeof(env_item)));
  if (out == nullptr && n > 0) return PHASELOOP_ENOMEM;
  int used = 0;
  for (std::size_t i = 0; i < n; i++) {
    if (strchr(environ[i], '=') == nullptr) continue;
    char* copy = strdup(environ[i]);
    if (copy == nullptr) {
      free_environment(out, used);
      return PHASELOOP_ENOMEM;
    }
    char* eq = strchr(copy, '=');
    *eq = '\0';
    out[used].name = copy;
    out[used].value = eq + 1;
    used++;
  }
  *items = out;
  *count = used;
  return 0;
}

void free_environment(env_item* items, int count) noexcept {
  for (int i = 0; i < count; i++) free(items[i].name);
  free(items);
}

namespace {

// Calls `lookup(buffer, size)` (a getpwuid_r/getgrgid_r) with a growing
// scratch buffer until it fits; the buffer stays with the caller (free()).
template <class F>
int with_scratch(char** scratch, F lookup) {
  int r;
  for (std::size_t size = 2000;; size *= 2) {
    *scratch = static_cast<char*>(malloc(size));
    if (*scratch == nullptr) return ENOMEM;
    do r = lookup(*scratch, size);
    while (r == EINTR);
    if (r != ERANGE) return r;
    free(*scratch);
  }
}

}  // namespace

int get_passwd(passwd_entry* pwd) noexcept { return get_passwd(pwd, geteuid()); }

int get_passwd(passwd_entry* pwd, unsigned long uid) noexcept {
  if (pwd == nullptr) return PHASELOOP_EINVAL;
  passwd pw;
  passwd* found = nullptr;
  char* scratch = nullptr;
  const int r = with_scratch(&scratch, [&](char* buf, std::size_t size) {
    return getpwuid_r(static_cast<uid_t>(uid), &pw, buf, size, &found);
  });
  if (r != 0 || found == nullptr) {
    free(scratch);
    return r != 0 ? -r : PHASELOOP_ENOENT;
  }
  const std::size_t name = strlen(pw.pw_name) + 1;
  const std::size_t home = strlen(pw.pw_dir) + 1;
  const std::size_t shell = strlen(pw.pw_shell) + 1;
  char* block = static_cast<char*>(malloc(name + home + shell));
  if (block == nullptr) {
    free(scratch);
    return PHASELOOP_ENOMEM;
  }
  pwd->username = static_cast<char*>(memcpy(block, pw.pw_name, name));
  pwd->homedir = static_cast<char*>(memcpy(block + name, pw.pw_dir, home));
  pwd->shell = static_cast<char*>(memcpy(block + name + home, pw.pw_shell, shell));
  pwd->uid = pw.pw_uid;
  pwd->gid = pw.pw_gid;
  free(scratch);
  return 0;
}

int get_group(group_entry* group, unsigned long gid) noexcept {
  if (group == nullptr) return PHASELOOP_EINVAL;
  struct group gr;
  struct group* found = nullptr;
  char* scratch = nullptr;
  const int r = with_scratch(&scratch, [&](char* buf, std::size_t size) {
    return getgrgid_r(static_cast<gid_t>(gid), &gr, buf, size, &found);
  });
  if (r != 0 || found == nullptr) {
    free(scratch);
    return r != 0 ? -r : PHASELOOP_ENOENT;
  }
  // One block: the member pointers, then the member names, then the name.
  std::size_t count = 0;
  std::size_t bytes = strlen(gr.gr_name) + 1;
  for (char** m = gr.gr_mem; *m != nullptr; m++, count++) bytes += strlen(*m) + 1;
  char** members = static_cast<char**>(malloc((count + 1) * sizeof(char*) + bytes));
  if (members == nullptr) {
    free(scratch);
    return PHASELOOP_ENOMEM;
  }
  char* text = reinterpret_cast<char*>(members + count + 1);
  for (std::size_t i = 0; i < count; i++) {
    const std::size_t n = strlen(gr.gr_mem[i]) + 1;
    members[i] = static_cast<char*>(memcpy(text, gr.gr_mem[i], n));
    text += n;
  }
  members[count] = nullptr;
  group->groupname = static_cast<char*>(memcpy(text, gr.gr_name, strlen(gr.gr_name) + 1));
  group->members = members;
  group->gid = gr.gr_gid;
  free(scratch);
  return 0;
}

void free_group(group_entry* group) noexcept {
  if (group == nullptr) return;
  free(group->members);
  group->members = nullptr;
  group->groupname = nullptr;
}

void free_passwd(passwd_entry* pwd) noexcept {
  if (pwd == nullptr) return;
  free(pwd->username);
  pwd->username = nullptr;
  pwd->shell = nullptr;
  pwd->homedir = nullptr;
}

int homedir(char* buffer, std::size_t* size) noexcept {
  const int r = getenv("HOME", buffer, size);  // also checks the arguments
  if (r != PHASELOOP_ENOENT) return r;
  passwd_entry pwd;
  if (const int e = get_passwd(&pwd); e != 0) return e;
  const int c = copy_out(pwd.homedir, strlen(pwd.homedir), buffer, size);
  free_passwd(&pwd);
  return c;
}

int tmpdir(char* buffer, std::size_t* size) noexcept {
  if (bad_text_args(buffer, size)) return PHASELOOP_EINVAL;
  const char* dir = nullptr;
  for (const char* var : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"})
    if ((dir = ::getenv(var)) != nullptr) break;
  if (dir == nullptr) dir = "/tmp";
  std::size_t len = strlen(dir);
  if (len >= *size) {
    *size = len + 1;
    return PHASELOOP_ENOBUFS;
  }
  if (len > 1 && dir[len - 1] == '/') len--;
  return copy_out(dir, len, buffer, size);
}

int cwd(char* buffer, std::size_t* size) noexcept {
  if (buffer == nullptr || size == nullptr) return PHASELOOP_EINVAL;
  if (getcwd(buffer, *size) == nullptr) {
    if (errno != ERANGE) return -errno;
    char scratch[4096 + 1];
    if (getcwd(scratch, sizeof scratch) == nullptr) return -errno;
    *size = strlen(scratch) + 1;
    return PHASELOOP_ENOBUFS;
  }
  *size = strlen(buffer);
  if (*size > 1 && buffer[*size - 1] == '/') buffer[--*size] = '\0';
  return 0;
}

int chdir(const char* dir) noexcept { return fail(::chdir(dir)); }

int exepath(char* buffer, std::size_t* size) noexcept {
  if (bad_text_args(buffer, size)) return PHASELOOP_EINVAL;
  ssize_t n = 0;
  if (*size > 1 && (n = readlink("/proc/self/exe", buffer, *size - 1)) == -1) return -errno;
  buffer[n] = '\0';
  *size = static_cast<std::size_t>(n);
  return 0;
}

// ---- identity, priority, clocks -----------------------------------------------

int pid() noexcept { return ::getpid(); }
int parent_pid() noexcept { return ::getppid(); }

int get_priority(int pid, int* priority) noexcept {
  if (priority == nullptr) return PHASELOOP_EINVAL;
  errno = 0;  // -1 is also a valid priority
  const int r = getpriority(PRIO_PROCESS, static_cast<id_t>(pid));
  if (r == -1 && errno != 0) return -errno;
  *priority = r;
  return 0;
}

int set_priority(int pid, int priority) noexcept {
  if (priority < -20 || priority > 19) return PHASELOOP_EINVAL;
  return fail(setpriority(PRIO_PROCESS, static_cast<id_t>(pid), priority));
}

void sleep_ms(unsigned int msec) noexcept {
  timespec t;
  t.tv_sec = msec / 1000;
  t.tv_nsec = static_cast<long>(msec % 1000) * 1000000;
  while (nanosleep(&t, &t) == -1 && errno == EINTR) {
  }
}

int gettimeofday(timeval64* tv) noexcept {
  if (tv == nullptr) return PHASELOOP_EINVAL;
  timeval t;
  if (::gettimeofday(&t, nullptr) != 0) return -errno;
  tv->sec = t.tv_sec;
  tv->usec = static_cast<std::int32_t>(t.tv_usec);
  return 0;
}

namespace {

int resource_usage_of(int who, resource_usage* usage) noexcept {
  if (usage == nullptr) return PHASELOOP_EINVAL;
  struct rusage u;
  if (getrusage(who, &u) != 0) return -errno;
  auto u64 = [](long v) { return static_cast<std::uint64_t>(v); };
  usage->user_time = {u.ru_utime.tv_sec, u.ru_utime.tv_usec};
  usage->system_time = {u.ru_stime.tv_sec, u.ru_stime.tv_usec};
  usage->maxrss = u64(u.ru_maxrss);
  usage->ixrss = u64(u.ru_ixrss);
  usage->idrss = u64(u.ru_idrss);
  usage->isrss = u64(u.ru_isrss);
  usage->minflt = u64(u.ru_minflt);
  usage->majflt = u64(u.ru_majflt);
  usage->nswap = u64(u.ru_nswap);
  usage->inblock = u64(u.ru_inblock);
  usage->oublock = u64(u.ru_oublock);
  usage->msgsnd = u64(u.ru_msgsnd);
  usage->msgrcv = u64(u.ru_msgrcv);
  usage->nsignals = u64(u.ru_nsignals);
  usage->nvcsw = u64(u.ru_nvcsw);
  usage->nivcsw = u64(u.ru_nivcsw);
  return 0;
}

}  // namespace

int resource_usage_of_self(resource_usage* usage) noexcept { return resource_usage_of(RUSAGE_SELF, usage); }
int resource_usage_of_thread(resource_usage* usage) noexcept { return resource_usage_of(RUSAGE_THREAD, usage); }

int clock_time(bool realtime, timespec64* ts) noexcept {
  if (ts == nullptr) return PHASELOOP_EFAULT;
  timespec t;
  if (::clock_gettime(realtime ? CLOCK_REALTIME : CLOCK_MONOTONIC, &t) != 0) return -errno;
  ts->sec = t.tv_sec;
  ts->nsec = static_cast<std::int32_t>(t.tv_nsec);
  return 0;
}

void warn(const char* format, ...) noexcept {
  std::va_list args;
  va_start(args, format);
  std::fputs("phaseloop: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

// ---- descriptors ----------------------------------------------------------------

void disable_stdio_inheritance() noexcept {
  for (int fd = 0;; fd++)
    if (ioctl(fd, FIOCLEX) != 0 && fd > 15) break;
}

namespace {

// Makes each end non-blocking when asked, then hands both over, or closes
// both.
int hand_over(int temp[2], bool nonblock0, bool nonblock1, int fds[2]) noexcept {
  int on = 1;
  if ((nonblock0 && ioctl(temp[0], FIONBIO, &on) != 0) || (nonblock1 && ioctl(temp[1], FIONBIO, &on) != 0)) {
    const int err = -errno;
    ::close(temp[0]);
    ::close(temp[1]);
    return err;
  }
  fds[0] = temp[0];
  fds[1] = temp[1];
  return 0;
}

}  // namespace

int make_pipe(int fds[2], bool nonblock0, bool nonblock1) noexcept {
  int temp[2];
  if (pipe2(temp, O_CLOEXEC) != 0) return -errno;
  return hand_over(temp, nonblock0, nonblock1, fds);
}

int make_socketpair(int type, int protocol, int fds[2], bool nonblock0, bool nonblock1) noexcept {
  int temp[2];
  if (::socketpair(AF_UNIX, type | SOCK_CLOEXEC, protocol, temp) != 0) return -errno;
  return hand_over(temp, nonblock0, nonblock1, fds);
}

int socket_buffer_size(int fd, bool send, int* value) noexcept {
  if (value == nullptr) return PHASELOOP_EINVAL;
  const int option = send ? SO_SNDBUF : SO_RCVBUF;
  socklen_t len = sizeof *value;
  return fail(*value == 0 ? getsockopt(fd, SOL_SOCKET, option, value, &len)
                          : setsockopt(fd, SOL_SOCKET, option, value, len));
}

}  // namespace phaseloop::os
