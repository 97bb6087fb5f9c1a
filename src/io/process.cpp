// SPDX-License-Identifier: MIT
// Child processes: spawning, the child's set-up before it runs the
// program, and reaping on SIGCHLD.
//
// spawn() starts the child as the profile's libuv does: with posix_spawn
// (1.53), whose file actions and attributes set it up, or with fork
// (older profiles, and whenever the child's user or group must change).
// After a fork the parent may have other threads, whose locks the child
// inherits held, so between fork and exec the child makes only
// async-signal-safe calls and allocates nothing: what it needs (the buffer
// for PATH candidates, the argv of the /bin/sh fallback) is made before the
// fork. An error the child meets is written as a negative errno to a
// close-on-exec pipe, and the child exits. The parent reads that pipe until
// end of file (the exec closed it) or a code arrives (then it reaps the
// child and returns the code). Either way spawn() returns only once the
// pid runs the program: a kill() made right after it reaches the program,
// never a half-set-up copy of the parent.

#include "phaseloop/process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>

#include "core/fatal.hpp"
#include "core/internal.hpp"
#include "phaseloop/stream.hpp"

extern char** environ;

namespace phaseloop {

namespace {

constexpr unsigned known_flags =
    process_options::set_uid | process_options::set_gid | process_options::windows_verbatim_arguments |
    process_options::detached | process_options::windows_hide | process_options::windows_hide_console |
    process_options::windows_hide_gui | process_options::windows_file_path_exact_name;

constexpr int stdio_kind_mask =
    stdio_container::create_pipe | stdio_container::inherit_fd | stdio_container::inherit_stream;

// The two ways a program is looked up and run. execvp's (glibc's, to the
// letter where it shows): its default search path, the errors that move on
// to the next PATH entry, EACCES remembered, and a file the kernel cannot
// execute handed to /bin/sh. libuv 1.53's, which runs posix_spawn on each
// candidate itself: another default path, fewer errors passed over, an
// empty name searched like any other (every candidate "DIR/" is a
// directory: EACCES), and a file without "#!" refused (ENOEXEC).
constexpr const char execvp_search[] = "/bin:/usr/bin";
constexpr const char libuv_search[] = "/usr/bin:/bin";
constexpr const char shell[] = "/bin/sh";

// Everything needed to find and run the program, made before the child is.
struct exec_plan {
  const char* file = nullptr;
  std::size_t file_len = 0;
  char* const* argv = nullptr;
  char** env = nullptr;             // null: the environment at exec time
  const char* search = nullptr;     // PATH, or null when `file` has a '/'
  std::size_t entry_limit = 0;      // PATH entries this long or longer are skipped
  bool libuv_rules = false;         // libuv 1.53's lookup, not execvp's
  std::unique_ptr<char[]> buffer;   // one candidate path
  std::unique_ptr<char*[]> script;  // /bin/sh, the candidate, args[1...], null

  int make(const process_options& o, bool libuv_lookup) noexcept {
    static char* const no_args[] = {nullptr};
    libuv_rules = libuv_lookup;
    file = o.file;
    file_len = std::strlen(file);
    argv = o.args != nullptr ? o.args : no_args;
    env = o.env;
    const char* candidate = file;
    if ((file_len != 0 || libuv_rules) && std::strchr(file, '/') == nullptr) {
      // PATH comes from the environment the child gets.
      search = env != nullptr ? find_path(env) : find_path(environ);
      if (search == nullptr) search = libuv_rules ? libuv_search : execvp_search;
      entry_limit = strnlen(search, PATH_MAX - 1) + 1;
      buffer.reset(new (std::nothrow) char[entry_limit + file_len + 2]);
      if (!buffer) return errc::no_memory;
      candidate = buffer.get();
    }
    std::size_t argc = 0;
    while (argv[argc] != nullptr) argc++;
    script.reset(new (std::nothrow) char*[(argc > 1 ? argc : 1) + 2]);
    if (!script) return errc::no_memory;
    script[0] = const_cast<char*>(shell);
    script[1] = const_cast<char*>(candidate);
    std::size_t n = 2;
    for (std::size_t i = 1; i < argc; i++) script[n++] = argv[i];
    script[n] = nullptr;
    return 0;
  }

  char** envp() const noexcept { return env != nullptr ? env : environ; }

  static const char* find_path(char** env) noexcept {
    for (char** e = env; *e != nullptr; e++)
      if (std::strncmp(*e, "PATH=", 5) == 0) return *e + 5;
    return nullptr;
  }

  // Tries the candidates in turn with `start(path, argv)`, which returns 0
  // once the program runs or the errno value of the attempt. Returns 0 or
  // the errno value of the lookup. Allocates nothing and makes only the
  // calls `start` makes (the fork path runs it in the child).
  template <class Start>
  int run(Start&& start) const noexcept {
    auto attempt = [&](const char* path) {
      int e = start(path, argv);
      if (e == ENOEXEC && !libuv_rules) e = start(shell, script.get());
      return e;
    };
    if (search == nullptr) return file_len == 0 ? ENOENT : attempt(file);
    if (file_len > NAME_MAX) return ENAMETOOLONG;
    bool denied = false;
    int e = ENOENT;
    for (const char* entry = search;;) {
      const char* end = entry;
      while (*end != '\0' && *end != ':') end++;
      const auto len = static_cast<std::size_t>(end - entry);
      // An entry too long for the buffer is passed over as glibc does:
      // the scan restarts at its ':', which reads as an empty entry.
      if (len >= entry_limit) {
        if (*end == '\0') break;
        entry = end;
        continue;
      }
      // An empty entry stands for the working directory.
      char* p = buffer.get();
      std::memcpy(p, entry, len);
      p[len] = '/';
      std::memcpy(p + len + (len != 0), file, file_len + 1);
      e = attempt(p);
      switch (e) {
        case 0: return 0;
        case EACCES: denied = true; break;
        case ENOENT:
        case ENOTDIR: break;
        case ESTALE:
        case ENODEV:
        case ETIMEDOUT:
          if (libuv_rules) return e;
          break;
        default: return e;  // found, but it failed to run
      }
      if (*end == '\0') break;
      entry = end + 1;
    }
    return denied ? EACCES : e;
  }
};

// The child's descriptors: theirs[i] becomes its descriptor i (-1: none);
// ours[i] is the parent's end of a pipe made for it (-1: none).
struct stdio_fds {
  int count = 0;
  int* theirs = nullptr;
  int* ours = nullptr;
  int small[2][8];
  std::unique_ptr<int[]> big;

  int make(int n) noexcept {
    count = n;
    if (n <= 8) {
      theirs = small[0];
      ours = small[1];
    } else {
      big.reset(new (std::nothrow) int[2 * static_cast<std::size_t>(n)]);
      if (!big) return errc::no_memory;
      theirs = big.get();
      ours = big.get() + n;
    }
    for (int i = 0; i < n; i++) theirs[i] = ours[i] = -1;
    return 0;
  }

  // Closes the pipes made for the child (inherited descriptors are the
  // caller's).
  void close_pipes() noexcept {
    for (int i = 0; i < count; i++)
      if (ours[i] != -1) {
        ::close(ours[i]);
        ::close(theirs[i]);
        ours[i] = theirs[i] = -1;
      }
  }
};

int check_stdio(const stdio_container& c) noexcept {
  switch (c.flags & stdio_kind_mask) {
    case stdio_container::ignore: return 0;
    case stdio_container::create_pipe:
      if (c.data.stream == nullptr || c.data.stream->type() != handle_type::named_pipe) return errc::invalid;
      return c.data.stream->fd() == -1 ? 0 : -EBUSY;
    case stdio_container::inherit_fd: return c.data.fd == -1 ? errc::invalid : 0;
    case stdio_container::inherit_stream:
      return c.data.stream == nullptr || c.data.stream->fd() == -1 ? errc::invalid : 0;
    default: return errc::invalid;
  }
}

// ---- the child ------------------------------------------------------------

[[noreturn]] void report(int fd, int code) noexcept {
  ssize_t r;
  do r = ::write(fd, &code, sizeof code);
  while (r < 0 && errno == EINTR);
  // If the parent is gone there is nobody to tell: exit all the same.
  _exit(127);
}

[[noreturn]] void report_errno(int fd) noexcept { report(fd, -errno); }

void set_blocking(int fd) noexcept {
  const int fl = fcntl(fd, F_GETFL);
  if (fl != -1 && (fl & O_NONBLOCK)) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

// Runs in the child: async-signal-safe calls only.
[[noreturn]] void child_main(const process_options& o, const exec_plan& plan, int* theirs, int count,
                             int error_fd) noexcept {
  // Default dispositions for the classic signals (handlers are gone with
  // the exec anyway, ignored signals would stay ignored). The real-time
  // ones belong to libc.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int n = 1; n < 32; n++) {
    if (n == SIGKILL || n == SIGSTOP) continue;
    if (sigaction(n, &dfl, nullptr) != 0) report_errno(error_fd);
  }

  if (o.flags & process_options::detached) setsid();

  // A descriptor meant for a higher slot could be overwritten while the
  // lower slots are filled (think of swapping stdout and stderr): move
  // every such one above the slots first.
  for (int fd = 0; fd < count; fd++) {
    const int use = theirs[fd];
    if (use < 0 || use >= fd) continue;
    theirs[fd] = fcntl(use, F_DUPFD_CLOEXEC, count);
    if (theirs[fd] == -1) report_errno(error_fd);
  }

  for (int fd = 0; fd < count; fd++) {
    int use = theirs[fd];
    bool null_dev = false;
    if (use < 0) {
      if (fd >= 3) continue;
      // 0-2 are never left closed: a program would take the next file it
      // opens for its input or output.
      ::close(fd);
      use = ::open("/dev/null", fd == 0 ? O_RDONLY : O_RDWR);
      if (use < 0) report_errno(error_fd);
      null_dev = true;
    }
    if (use == fd) {
      if (!null_dev && ioctl(fd, FIONCLEX) != 0) report_errno(error_fd);
    } else if (dup2(use, fd) < 0) {
      report_errno(error_fd);
    }
    // The descriptor is shared with whoever gave it; programs expect
    // blocking standard descriptors.
    if (fd <= 2 && !null_dev) set_blocking(fd);
    if (null_dev && use >= count) ::close(use);
  }

  if (o.cwd != nullptr && chdir(o.cwd) != 0) report_errno(error_fd);

  if (o.flags & (process_options::set_uid | process_options::set_gid)) {
    // Drops supplementary groups when root gives up its privileges; fails
    // harmlessly otherwise.
    const int saved = errno;
    setgroups(0, nullptr);
    errno = saved;
  }
  if ((o.flags & process_options::set_gid) && setgid(o.gid) != 0) report_errno(error_fd);
  if ((o.flags & process_options::set_uid) && setuid(o.uid) != 0) report_errno(error_fd);

  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  char** envp = plan.envp();
  report(error_fd, -plan.run([envp](const char* path, char* const* argv) {
    execve(path, argv, envp);
    return errno;
  }));
}

// libuv 1.53's check that vfork() shares the parent's memory, made once
// per process, by the first spawn: a child that sets a flag and exits at
// once, waited for here.
bool vfork_shares_memory() noexcept {
  static std::once_flag once;
  static volatile bool shares = false;
  std::call_once(once, [] {
    const pid_t pid = vfork();
    if (pid == 0) {
      shares = true;
      _exit(0);
    }
    if (pid > 0) {
      int status;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  });
  return shares;
}

// PHASELOOP_SPAWN: how children start whatever the profile -- "fork"
// (fork and exec, as libuv up to 1.52) or "posix_spawn" (as libuv 1.53,
// keeping the profile's lookup); unset or anything else: as the profile's
// libuv. Read at each spawn.
enum class spawn_choice { profile, fork, posix_spawn };
spawn_choice spawn_asked() noexcept {
  const char* v = std::getenv("PHASELOOP_SPAWN");
  if (v == nullptr) return spawn_choice::profile;
  if (std::strcmp(v, "fork") == 0) return spawn_choice::fork;
  if (std::strcmp(v, "posix_spawn") == 0) return spawn_choice::posix_spawn;
  return spawn_choice::profile;
}

// Closes the parent's copy of a pipe end the child holds too, whose
// closing is awaited (the end of file that says the child ran its
// program, or that it closed its output). Linux releases a descriptor
// whatever close() returns, and a failed close() is not tried again as a
// rule: the number may be another thread's by then. The exception is an
// fd that still names the same pipe afterwards -- nothing else in the
// process holds that end, so the close did not happen (only an injector
// that fails close() without making it does that) -- and the wait would
// never end: it is closed again.
void close_shared_end(int fd) noexcept {
  struct stat before;
  const bool known = fstat(fd, &before) == 0;
  for (int tries = 0; tries < detail::transient_tries; tries++) {
    if (::close(fd) == 0 || errno == EBADF || !known) return;
    struct stat now;
    if (fstat(fd, &now) != 0 || now.st_ino != before.st_ino || now.st_dev != before.st_dev) return;
  }
}

// Forks and waits for the child to exec. 0 with *pid set, or the error.
int fork_child(const process_options& o, const exec_plan& plan, stdio_fds& fds, int* pid) noexcept {
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) return -errno;
  // The child fills its slots 0..count-1 before it could report an error:
  // keep the pipe's write end out of their way.
  if (err_pipe[1] < fds.count) {
    const int moved = fcntl(err_pipe[1], F_DUPFD_CLOEXEC, fds.count);
    const int e = errno;
    ::close(err_pipe[1]);
    if (moved < 0) {
      ::close(err_pipe[0]);
      return -e;
    }
    err_pipe[1] = moved;
  }

  // The child starts with signals blocked, so that no handler of the
  // parent's runs in it before the dispositions are reset, except the ones
  // that report a crash (they must still kill it).
  sigset_t block, saved;
  sigfillset(&block);
  for (int s : {SIGKILL, SIGSTOP, SIGTRAP, SIGSEGV, SIGBUS, SIGILL, SIGSYS, SIGABRT}) sigdelset(&block, s);
  pthread_sigmask(SIG_BLOCK, &block, &saved);
  const pid_t child = ::fork();
  if (child == 0) child_main(o, plan, fds.theirs, fds.count, err_pipe[1]);
  const int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  close_shared_end(err_pipe[1]);
  if (child < 0) {
    ::close(err_pipe[0]);
    return -fork_errno;
  }

  int code;
  ssize_t r;
  do r = ::read(err_pipe[0], &code, sizeof code);
  while (r < 0 && errno == EINTR);
  ::close(err_pipe[0]);
  if (r == 0) {
    *pid = child;
    return 0;
  }
  // The child failed before the exec: it gets no exit callback, so it is
  // reaped here.
  int status;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return r == static_cast<ssize_t>(sizeof code) ? code : -EPIPE;
}

// Starts the child with posix_spawn (glibc: clone with CLONE_VM and
// CLONE_VFORK, so nothing of the parent is copied, and the call returns
// once the program runs or with the error that stopped it; a child that
// failed is reaped by glibc). The child ends up as the fork path leaves
// it: dispositions and mask reset, detached in a session of its own,
// descriptors in place, in `cwd`. `newest`: as libuv 1.53 calls it
// (every signal reset, every standard descriptor made blocking, the
// descriptors given for them closed in the child once copied).
int posix_spawn_child(const process_options& o, const exec_plan& plan, const stdio_fds& fds, bool newest,
                      int* pid) noexcept {
  const int count = fds.count;
  const int* given = fds.theirs;
  // src[fd]: what becomes the child's descriptor fd. A descriptor meant
  // for a higher slot would be overwritten while the lower slots are
  // filled (think of swapping stdout and stderr): such ones are copied
  // above the slots first, here, close-on-exec, and the copies closed
  // again once the child runs.
  struct state {
    posix_spawnattr_t a;
    posix_spawn_file_actions_t f;
    bool have_a = false, have_f = false;
    int small[8];
    std::unique_ptr<int[]> big;
    int* src = small;
    const int* given = nullptr;
    int count = 0;
    ~state() {
      if (have_f) posix_spawn_file_actions_destroy(&f);
      if (have_a) posix_spawnattr_destroy(&a);
      for (int fd = 0; fd < count; fd++)
        if (src[fd] != given[fd]) ::close(src[fd]);
    }
  } s;
  if (count > 8) {
    s.big.reset(new (std::nothrow) int[static_cast<std::size_t>(count)]);
    if (!s.big) return errc::no_memory;
    s.src = s.big.get();
  }
  std::memcpy(s.src, given, sizeof(int) * static_cast<std::size_t>(count));
  s.given = given;
  s.count = count;

  int e = posix_spawnattr_init(&s.a);
  if (e != 0) return -e;
  s.have_a = true;
  e = posix_spawn_file_actions_init(&s.f);
  if (e != 0) return -e;
  s.have_f = true;

  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (o.flags & process_options::detached) flags |= POSIX_SPAWN_SETSID;
  sigset_t set;
  if (newest) {
    sigfillset(&set);
  } else {
    sigemptyset(&set);
    for (int n = 1; n < 32; n++)
      if (n != SIGKILL && n != SIGSTOP) sigaddset(&set, n);
  }
  if ((e = posix_spawnattr_setflags(&s.a, flags)) != 0 || (e = posix_spawnattr_setsigdefault(&s.a, &set)) != 0)
    return -e;
  sigemptyset(&set);
  if ((e = posix_spawnattr_setsigmask(&s.a, &set)) != 0) return -e;

  if (o.cwd != nullptr && (e = posix_spawn_file_actions_addchdir_np(&s.f, o.cwd)) != 0) return -e;

  for (int fd = 0; fd < count; fd++) {
    if (s.src[fd] < 0 || s.src[fd] >= fd) continue;
    const int copy = fcntl(s.src[fd], F_DUPFD_CLOEXEC, count);
    if (copy < 0) return -errno;
    s.src[fd] = copy;
  }
  for (int fd = 0; fd < count; fd++) {
    const int src = s.src[fd];
    if (src < 0) {
      if (fd >= 3) continue;
      // 0-2 are never left closed: a program would take the next file it
      // opens for its input or output.
      e = posix_spawn_file_actions_addopen(&s.f, fd, "/dev/null", fd == 0 ? O_RDONLY : O_RDWR, 0);
    } else {
      // glibc's dup2 action onto the same number clears close-on-exec.
      e = posix_spawn_file_actions_adddup2(&s.f, src, fd);
      // Shared with whoever gave it; programs expect blocking standard
      // descriptors.
      if (fd <= 2 || newest) set_blocking(src);
    }
    if (e != 0) return -e;
  }
  if (newest) {
    // libuv 1.53 also closes, in the child, what it was given above the
    // slots (the fork path leaves those open).
    for (int fd = 0; fd < count; fd++) {
      const int u = given[fd];
      if (u < count) continue;
      bool seen = false;
      for (int j = 0; j < fd && !seen; j++) seen = given[j] == u;
      if (!seen && (e = posix_spawn_file_actions_addclose(&s.f, u)) != 0) return -e;
    }
  }

  char** envp = plan.envp();
  return -plan.run([&](const char* path, char* const* argv) {
    int r;
    do r = posix_spawn(pid, path, &s.f, &s.a, argv, envp);
    while (r == EINTR);
    return r;
  });
}

}  // namespace

process::process(phaseloop::loop& l) noexcept : handle(l, handle_type::process) {}

// A loop's running children, in spawn order: a part of the loop (see
// src/core/internal.hpp), made by its first spawn.
struct process::children final : detail::loop_part {
  static constexpr char tag = 0;
  explicit children(phaseloop::loop& l) noexcept : loop_part(l) {}
  list running;
};

int process::spawn(const process_options& o) noexcept {
  if (is_active() || is_closing() || pid_ != 0) return errc::invalid;
  const int r = start_child_(o);
  // libuv >= 1.52 takes a handle whose spawn failed off the loop's list:
  // uv_walk no longer sees it (it may still be closed).
  if (r != 0 && loop_->behaves().failed_spawn_unlisted) detail::loop_seam::unlist(*loop_, *this);
  return r;
}

int process::start_child_(const process_options& o) noexcept {
  if (o.file == nullptr || (o.flags & ~known_flags) != 0 || (o.stdio_count > 0 && o.stdio == nullptr))
    return errc::invalid;
  children* kids = detail::loop_seam::part<children>(*loop_);
  if (kids == nullptr) return errc::no_memory;
  const int given = o.stdio_count > 0 ? o.stdio_count : 0;
  for (int i = 0; i < given; i++) {
    if (int r = check_stdio(o.stdio[i]); r != 0) return r;
    // One stream cannot take two pipes.
    if ((o.stdio[i].flags & stdio_kind_mask) == stdio_container::create_pipe)
      for (int j = 0; j < i; j++)
        if ((o.stdio[j].flags & stdio_kind_mask) == stdio_container::create_pipe &&
            o.stdio[j].data.stream == o.stdio[i].data.stream)
          return -EBUSY;
  }

  // As libuv 1.53, children start with posix_spawn, which copies nothing
  // of this process, unless the child's user or group must change
  // (posix_spawn cannot). libuv 1.53 first checks, once, that vfork
  // shares memory (a child that exits at once; its SIGCHLD wakes the loop
  // for an iteration that reports no exit), and forks where it does not
  // (QEMU, WSL 1); its lookup of the program is its own. Older libuv
  // forks, which programs may rely on: pthread_atfork handlers run for a
  // spawn (uvloop runs a subprocess's preexec_fn from one). PHASELOOP_SPAWN
  // overrides (the posix_spawn path keeps an older profile's execvp
  // lookup).
  loop& l = *loop_;
  const bool newest = l.behaves().children_by_posix_spawn;
  const spawn_choice asked = spawn_asked();
  bool use_spawn = (o.flags & (process_options::set_uid | process_options::set_gid)) == 0 &&
                   (asked == spawn_choice::posix_spawn || (asked == spawn_choice::profile && newest));
  stdio_fds fds;
  if (int r = fds.make(given < 3 ? 3 : given); r != 0) return r;
  for (int i = 0; i < given; i++) {
    const stdio_container& c = o.stdio[i];
    switch (c.flags & stdio_kind_mask) {
      case stdio_container::create_pipe: {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
          const int e = -errno;
          fds.close_pipes();
          return e;
        }
        fds.ours[i] = pair[0];
        fds.theirs[i] = pair[1];
        break;
      }
      case stdio_container::inherit_fd: fds.theirs[i] = c.data.fd; break;
      case stdio_container::inherit_stream: fds.theirs[i] = c.data.stream->fd(); break;
      default: break;
    }
  }

  // Started before the child (and before 1.53's check), so that no exit
  // can go unnoticed.
  detail::loop_seam::child_watcher(l).start(&process::reap_, SIGCHLD);
  if (use_spawn && newest) use_spawn = vfork_shares_memory();

  exec_plan plan;
  int child = 0;
  int result = plan.make(o, use_spawn && newest);
  if (result == 0)
    result = use_spawn ? posix_spawn_child(o, plan, fds, newest, &child) : fork_child(o, plan, fds, &child);
  if (result == 0) {
    pid_ = child;
    cb_ = o.on_exit;
    kids->running.push_back(*this);
    start_();
  }

  // The parent's ends go to their streams even when the exec failed (as
  // libuv does; Node relies on it): reading them gives end of file.
  for (int i = 0; i < given; i++) {
    if (fds.ours[i] == -1) continue;
    close_shared_end(fds.theirs[i]);
    fds.theirs[i] = -1;
    const int fd = fds.ours[i];
    fds.ours[i] = -1;
    const int on = 1;
    ioctl(fd, FIONBIO, &on);
    std::uint32_t f = 0;
    if (o.stdio[i].flags & stdio_container::writable_pipe) f |= stream::readable_flag;
    if (o.stdio[i].flags & stdio_container::readable_pipe) f |= stream::writable_flag;
    // check_stdio() made sure the stream has no descriptor, so this
    // succeeds; were it to fail, the descriptor would not leak.
    if (o.stdio[i].data.stream->open_(fd, f) != 0) ::close(fd);
  }
  return result;
}

int process::kill(int signum) noexcept {
  if (pid_ == 0 || (flags_ & reaped_flag)) return errc::no_such_process;
  return phaseloop::kill(pid_, signum);
}

void process::close_() noexcept {
  list::unlink(*this);
  stop_();
  loop& l = *loop_;
  const children* kids = detail::loop_seam::find<children>(l);
  if (kids == nullptr || kids->running.empty()) detail::loop_seam::child_watcher(l).stop();
}

void process::reap_(phaseloop::signal* s, int) {
  loop& l = s->owner();
  // Every exited child is moved aside first, then reported in spawn order.
  // An exit callback that closes a process still waiting here unlinks it,
  // and that one is not reported.
  list exited;
  children* kids = detail::loop_seam::find<children>(l);
  if (kids == nullptr) return;
  for (process* p = kids->running.front(); p != nullptr;) {
    process* next = kids->running.next(*p);
    int status;
    pid_t r;
    do r = waitpid(p->pid_, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    // 0: still running. -1 (ECHILD): somebody else reaped it; as in libuv
    // it stays on the list, active, and is never reported.
    if (r > 0) {
      p->status_ = status;
      // libuv >= 1.53 marks the pid as gone (kill() then reports ESRCH).
      if (l.behaves().reaped_bit) p->flags_ |= reaped_flag;
      kids->running.erase(*p);
      exited.push_back(*p);
    }
    p = next;
  }
  while (process* p = exited.pop_front()) {
    p->stop_();
    if (p->cb_ == nullptr) continue;
    const std::int64_t code = WIFEXITED(p->status_) ? WEXITSTATUS(p->status_) : 0;
    const int sig = WIFSIGNALED(p->status_) ? WTERMSIG(p->status_) : 0;
    detail::loop_seam::complete(l, callback_kind::signal, p, nullptr, [p, code, sig] { p->cb_(p, code, sig); });
  }
}

int kill(int pid, int signum) noexcept { return ::kill(pid, signum) == 0 ? 0 : -errno; }

}  // namespace phaseloop
