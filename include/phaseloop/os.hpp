// SPDX-License-Identifier: MIT
#pragma once
/// What the process and the system tell: the process title, environment
/// and user, host and processors, network interfaces, memory, time and
/// resource figures, priorities, pipes, shared libraries and random bytes.
/// libuv's uv_os_* and friends; the answers are libuv 1.44's on Linux (which
/// /proc and /sys files are read, what is reported when they cannot be).
///
/// Every function returns 0 or a negative error code (errors.h), unless it
/// says otherwise. Functions that return text follow one protocol, libuv's:
/// `*size` is the buffer's size on entry; on success the text and its NUL
/// are written and `*size` becomes its length (NUL excluded); when it does
/// not fit, PHASELOOP_ENOBUFS is returned and `*size` becomes the size
/// needed (NUL included). A null buffer or size, or a size of 0, is
/// PHASELOOP_EINVAL.
///
/// The structs have the layout of libuv's (uv_cpu_info_t, ...), so that the
/// C API hands them out as they are. What a function allocates, its free_*
/// partner releases.
///
/// Threads: any thread, unless a function says otherwise. The process title
/// is guarded by a lock; the environment is the C library's (setenv and
/// getenv on different threads at once are not safe, as in C).

#include <netinet/in.h>

#include <cstddef>
#include <cstdint>

#include "phaseloop/errors.h"
#include "phaseloop/types.hpp"

namespace phaseloop::os {

// ---- process ----------------------------------------------------------------

/// Keeps a copy of argv's strings and returns it; the original block
/// (where the kernel reads /proc/PID/cmdline) is lent to the process title.
/// Returns argv itself when there is nothing to copy or no memory. Call once,
/// early, before anything else reads argv.
char** setup_args(int argc, char** argv) noexcept;
/// Writes `title` over the original argv block, cut to what fits, and names
/// the main thread (the kernel keeps 15 bytes). PHASELOOP_ENOBUFS when
/// setup_args() did not run.
int set_process_title(const char* title) noexcept;
/// The current title. PHASELOOP_ENOBUFS when setup_args() did not run or
/// `size` is not larger than the title (`size` is not updated).
int process_title(char* buffer, std::size_t size) noexcept;

/// One environment variable, name and value in one allocation owned by name.
struct env_item {
  char* name;
  char* value;
};
/// An environment variable's value (text protocol); PHASELOOP_ENOENT when
/// unset.
int getenv(const char* name, char* buffer, std::size_t* size) noexcept;
int setenv(const char* name, const char* value) noexcept;
int unsetenv(const char* name) noexcept;
/// A copy of the environment; entries without '=' are skipped.
int environment(env_item** items, int* count) noexcept;
void free_environment(env_item* items, int count) noexcept;

/// The effective user's entry of the user database. The three strings share
/// one allocation, owned by `username`.
struct passwd_entry {
  char* username;
  unsigned long uid;
  unsigned long gid;
  char* shell;
  char* homedir;
};
int get_passwd(passwd_entry* pwd) noexcept;
/// The entry of user `uid` (PHASELOOP_ENOENT when there is none).
int get_passwd(passwd_entry* pwd, unsigned long uid) noexcept;
void free_passwd(passwd_entry* pwd) noexcept;

/// A group of the group database: name, id and the member names
/// (null-terminated). One allocation, owned by `members`.
struct group_entry {
  char* groupname;
  unsigned long gid;
  char** members;
};
/// The group `gid` (PHASELOOP_ENOENT when there is none).
int get_group(group_entry* group, unsigned long gid) noexcept;
void free_group(group_entry* group) noexcept;
/// $HOME as it is, else the user database's home (text protocol).
int homedir(char* buffer, std::size_t* size) noexcept;
/// The first of $TMPDIR, $TMP, $TEMP, $TEMPDIR that is set, else "/tmp",
/// without a trailing slash (text protocol; the size check counts the
/// slash, as libuv's).
int tmpdir(char* buffer, std::size_t* size) noexcept;
/// The working directory without a trailing slash (text protocol).
int cwd(char* buffer, std::size_t* size) noexcept;
int chdir(const char* dir) noexcept;
/// The running program's path, cut to fit (readlink's way; never ENOBUFS).
int exepath(char* buffer, std::size_t* size) noexcept;

int pid() noexcept;
int parent_pid() noexcept;
/// Nice values; on Linux they belong to threads (pid 0: the calling one).
int get_priority(int pid, int* priority) noexcept;
/// `priority` from -20 (highest) to 19 (lowest), else PHASELOOP_EINVAL.
int set_priority(int pid, int priority) noexcept;

/// Sleeps the calling thread, resuming after signals.
void sleep_ms(unsigned int msec) noexcept;

/// Wall-clock time, as libuv's uv_timeval64_t.
struct timeval64 {
  std::int64_t sec;
  std::int32_t usec;
};
int gettimeofday(timeval64* tv) noexcept;

/// A clock's time, as libuv's uv_timespec64_t.
struct timespec64 {
  std::int64_t sec;
  std::int32_t nsec;
};
/// CLOCK_MONOTONIC, or CLOCK_REALTIME when `realtime`.
int clock_time(bool realtime, timespec64* ts) noexcept;

/// getrusage(RUSAGE_SELF), as libuv's uv_rusage_t.
struct resource_usage {
  struct timeval {
    long sec;
    long usec;
  };
  timeval user_time;
  timeval system_time;
  std::uint64_t maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock, msgsnd, msgrcv,
      nsignals, nvcsw, nivcsw;
};
int resource_usage_of_self(resource_usage* usage) noexcept;
/// The same for the calling thread (RUSAGE_THREAD).
int resource_usage_of_thread(resource_usage* usage) noexcept;

/// Marks every open descriptor close-on-exec: the first 16 in any case,
/// then up to the first that is not open.
void disable_stdio_inheritance() noexcept;

/// A pipe (socketpair: an AF_UNIX pair of `type`), both ends close-on-exec,
/// each non-blocking when its flag says so. On failure nothing stays open.
int make_pipe(int fds[2], bool nonblock0, bool nonblock1) noexcept;
int make_socketpair(int type, int protocol, int fds[2], bool nonblock0, bool nonblock1) noexcept;

/// SO_SNDBUF (`send`) or SO_RCVBUF of socket `fd`: *value 0 reads the size
/// into it, anything else sets it.
int socket_buffer_size(int fd, bool send, int* value) noexcept;

/// Fills `buf` from the kernel's random source (getrandom, else
/// /dev/urandom once /dev/random is seeded). May block until the kernel's
/// pool is seeded, early after boot.
int random_bytes(void* buf, std::size_t len) noexcept;

/// Writes "phaseloop: " and the printf-formatted message, with a newline,
/// to stderr: for misuse that has no error code to return.
void warn(const char* format, ...) noexcept __attribute__((format(printf, 1, 2)));

// ---- system -----------------------------------------------------------------

/// The host name (text protocol).
int hostname(char* buffer, std::size_t* size) noexcept;

/// uname(2), as libuv's uv_utsname_t.
struct system_name {
  char sysname[256];
  char release[256];
  char version[256];
  char machine[256];
};
int uname(system_name* name) noexcept;

/// The CPUs this thread may run on, else the online ones; at least 1.
unsigned available_parallelism() noexcept;

/// Time one processor spent per mode, in milliseconds.
struct cpu_times {
  std::uint64_t user, nice, sys, idle, irq;
};
/// One processor: model, clock in MHz, times.
struct cpu_info {
  char* model;
  int speed;
  cpu_times times;
};
/// One entry per online CPU of /proc/stat, with the model and speed of the
/// same-numbered processor of /proc/cpuinfo (or cpufreq's frequency).
int cpu_infos(cpu_info** infos, int* count) noexcept;
void free_cpu_infos(cpu_info* infos, int count) noexcept;

/// One address of one network interface.
struct interface_address {
  char* name;
  char phys_addr[6];
  int is_internal;
  union {
    sockaddr_in in4;
    sockaddr_in6 in6;
  } address;
  union {
    sockaddr_in in4;
    sockaddr_in6 in6;
  } netmask;
};
/// Every address of every interface that is up and running, with its
/// interface's hardware address. None: 0 with a null array.
int interface_addresses(interface_address** addresses, int* count) noexcept;
void free_interface_addresses(interface_address* addresses, int count) noexcept;
/// An interface's name from its index (text protocol).
int interface_name(unsigned index, char* buffer, std::size_t* size) noexcept;

/// Bytes: available (MemAvailable), total, the resident set of this process.
std::uint64_t free_memory() noexcept;
std::uint64_t total_memory() noexcept;
/// The memory limit set on this process, as libuv of profile `p` reads it;
/// 0 when it knows none. libuv 1.44 reads the root cgroup v1 memory
/// controller's limit. From 1.45 the process's own cgroup: v2's memory.max
/// and memory.high, or v1's hard and soft limit (the root controller's when
/// the own ones cannot be read); a value meaning "no limit" is UINT64_MAX,
/// and the smaller of the two counts, 0 when either is unknown. From 1.52
/// also RLIMIT_AS and RLIMIT_DATA: the smallest limit set.
std::uint64_t constrained_memory(profile p) noexcept;
/// The memory this process may still use (libuv >= 1.45): its cgroup's
/// limit less its cgroup's usage (0 when over), else free_memory().
std::uint64_t available_memory() noexcept;
int resident_set_memory(std::size_t* rss) noexcept;
/// Seconds since boot.
int uptime(double* seconds) noexcept;
/// 1, 5 and 15 minute load averages; left as they were when unknown.
void loadavg(double avg[3]) noexcept;

// ---- shared libraries -------------------------------------------------------

/// A shared library and the message of its last failure (libuv's uv_lib_t).
struct library {
  void* handle;
  char* errmsg;
};
/// Failures return -1 (not an error code) with the loader's message kept in
/// `lib`, until the next failure or close_library().
int open_library(const char* filename, library* lib) noexcept;
void close_library(library* lib) noexcept;
/// A symbol whose value is null is found (0) with *ptr null.
int library_symbol(library* lib, const char* name, void** ptr) noexcept;
/// The last failure's message, or "no error".
const char* library_error(const library* lib) noexcept;

}  // namespace phaseloop::os
