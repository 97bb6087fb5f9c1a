// SPDX-License-Identifier: MIT
// libuv's process and system functions over phaseloop/os.hpp: the structs
// are the same bytes (checked below), the calls forward.

#include <cstddef>

#include "phaseloop/os.hpp"
#include "phaseloop/random.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
namespace os = phaseloop::os;
using namespace phaseloop::compat;

namespace {

// Same layout, so that the library's results are handed out as they are.
static_assert(same_shape<uv_env_item_t, os::env_item>());
static_assert(offsetof(uv_env_item_t, value) == offsetof(os::env_item, value));
static_assert(same_shape<uv_passwd_t, os::passwd_entry>());
static_assert(offsetof(uv_passwd_t, uid) == offsetof(os::passwd_entry, uid));
static_assert(offsetof(uv_passwd_t, gid) == offsetof(os::passwd_entry, gid));
static_assert(offsetof(uv_passwd_t, shell) == offsetof(os::passwd_entry, shell));
static_assert(offsetof(uv_passwd_t, homedir) == offsetof(os::passwd_entry, homedir));
static_assert(same_shape<uv_utsname_t, os::system_name>());
static_assert(offsetof(uv_utsname_t, machine) == offsetof(os::system_name, machine));
static_assert(same_shape<uv_cpu_info_t, os::cpu_info>());
static_assert(offsetof(uv_cpu_info_t, speed) == offsetof(os::cpu_info, speed));
static_assert(offsetof(uv_cpu_info_t, cpu_times) == offsetof(os::cpu_info, times));
static_assert(same_shape<uv_interface_address_t, os::interface_address>());
static_assert(offsetof(uv_interface_address_t, phys_addr) == offsetof(os::interface_address, phys_addr));
static_assert(offsetof(uv_interface_address_t, is_internal) == offsetof(os::interface_address, is_internal));
static_assert(offsetof(uv_interface_address_t, address) == offsetof(os::interface_address, address));
static_assert(offsetof(uv_interface_address_t, netmask) == offsetof(os::interface_address, netmask));
static_assert(same_shape<uv_timeval64_t, os::timeval64>());
static_assert(offsetof(uv_timeval64_t, tv_usec) == offsetof(os::timeval64, usec));
static_assert(same_shape<uv_rusage_t, os::resource_usage>());
static_assert(offsetof(uv_rusage_t, ru_stime) == offsetof(os::resource_usage, system_time));
static_assert(offsetof(uv_rusage_t, ru_nivcsw) == offsetof(os::resource_usage, nivcsw));
static_assert(same_shape<uv_lib_t, os::library>());
static_assert(same_shape<uv_group_t, os::group_entry>());
static_assert(offsetof(uv_group_t, gid) == offsetof(os::group_entry, gid));
static_assert(offsetof(uv_group_t, members) == offsetof(os::group_entry, members));
static_assert(same_shape<uv_timespec64_t, os::timespec64>());
static_assert(offsetof(uv_timespec64_t, tv_nsec) == offsetof(os::timespec64, nsec));
static_assert(offsetof(uv_lib_t, errmsg) == offsetof(os::library, errmsg));

static_assert(fits<uv_random_t, pl::random_req>());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(uv_random_t, loop) == 64);
#pragma GCC diagnostic pop

}  // namespace

extern "C" {

// ---- process ------------------------------------------------------------------

char** uv_setup_args(int argc, char** argv) { return os::setup_args(argc, argv); }
int uv_set_process_title(const char* title) { return os::set_process_title(title); }
int uv_get_process_title(char* buffer, size_t size) { return os::process_title(buffer, size); }

int uv_os_getenv(const char* name, char* buffer, size_t* size) { return os::getenv(name, buffer, size); }
int uv_os_setenv(const char* name, const char* value) { return os::setenv(name, value); }
int uv_os_unsetenv(const char* name) { return os::unsetenv(name); }

int uv_os_environ(uv_env_item_t** envitems, int* count) {
  return os::environment(as_ptr<os::env_item*>(envitems), count);
}
void uv_os_free_environ(uv_env_item_t* envitems, int count) {
  os::free_environment(as_ptr<os::env_item>(envitems), count);
}

int uv_os_get_passwd(uv_passwd_t* pwd) { return os::get_passwd(as_ptr<os::passwd_entry>(pwd)); }
int uv_os_get_passwd2(uv_passwd_t* pwd, uv_uid_t uid) { return os::get_passwd(as_ptr<os::passwd_entry>(pwd), uid); }
int uv_os_get_group(uv_group_t* grp, uv_uid_t gid) { return os::get_group(as_ptr<os::group_entry>(grp), gid); }
void uv_os_free_group(uv_group_t* grp) { os::free_group(as_ptr<os::group_entry>(grp)); }
void uv_os_free_passwd(uv_passwd_t* pwd) { os::free_passwd(as_ptr<os::passwd_entry>(pwd)); }
int uv_os_homedir(char* buffer, size_t* size) { return os::homedir(buffer, size); }
int uv_os_tmpdir(char* buffer, size_t* size) { return os::tmpdir(buffer, size); }
int uv_cwd(char* buffer, size_t* size) { return os::cwd(buffer, size); }
int uv_chdir(const char* dir) { return os::chdir(dir); }
int uv_exepath(char* buffer, size_t* size) { return os::exepath(buffer, size); }

uv_pid_t uv_os_getpid(void) { return os::pid(); }
uv_pid_t uv_os_getppid(void) { return os::parent_pid(); }
int uv_os_getpriority(uv_pid_t pid, int* priority) { return os::get_priority(pid, priority); }
int uv_os_setpriority(uv_pid_t pid, int priority) { return os::set_priority(pid, priority); }

void uv_sleep(unsigned int msec) { os::sleep_ms(msec); }
int uv_gettimeofday(uv_timeval64_t* tv) { return os::gettimeofday(as_ptr<os::timeval64>(tv)); }
int uv_getrusage(uv_rusage_t* rusage) { return os::resource_usage_of_self(as_ptr<os::resource_usage>(rusage)); }
int uv_getrusage_thread(uv_rusage_t* rusage) { return os::resource_usage_of_thread(as_ptr<os::resource_usage>(rusage)); }

int uv_clock_gettime(uv_clock_id clock_id, uv_timespec64_t* ts) {
  if (ts == nullptr) return UV_EFAULT;
  if (clock_id != UV_CLOCK_MONOTONIC && clock_id != UV_CLOCK_REALTIME) return UV_EINVAL;
  return os::clock_time(clock_id == UV_CLOCK_REALTIME, as_ptr<os::timespec64>(ts));
}

// ---- descriptors --------------------------------------------------------------

// On Unix the OS handle of a descriptor is the descriptor.
uv_os_fd_t uv_get_osfhandle(int fd) { return fd; }
int uv_open_osfhandle(uv_os_fd_t os_fd) { return os_fd; }
void uv_disable_stdio_inheritance(void) { os::disable_stdio_inheritance(); }

int uv_pipe(uv_file fds[2], int read_flags, int write_flags) {
  return os::make_pipe(fds, (read_flags & UV_NONBLOCK_PIPE) != 0, (write_flags & UV_NONBLOCK_PIPE) != 0);
}

int uv_socketpair(int type, int protocol, uv_os_sock_t fds[2], int flags0, int flags1) {
  return os::make_socketpair(type, protocol, fds, (flags0 & UV_NONBLOCK_PIPE) != 0, (flags1 & UV_NONBLOCK_PIPE) != 0);
}

int uv_send_buffer_size(uv_handle_t* handle, int* value) {
  return handle == nullptr ? UV_EINVAL : as<pl::handle>(handle).socket_buffer_size(true, value);
}
int uv_recv_buffer_size(uv_handle_t* handle, int* value) {
  return handle == nullptr ? UV_EINVAL : as<pl::handle>(handle).socket_buffer_size(false, value);
}

// ---- system -------------------------------------------------------------------

int uv_os_gethostname(char* buffer, size_t* size) { return os::hostname(buffer, size); }
int uv_os_uname(uv_utsname_t* buffer) { return os::uname(as_ptr<os::system_name>(buffer)); }
unsigned int uv_available_parallelism(void) { return os::available_parallelism(); }

int uv_cpu_info(uv_cpu_info_t** cpu_infos, int* count) {
  return os::cpu_infos(as_ptr<os::cpu_info*>(cpu_infos), count);
}
void uv_free_cpu_info(uv_cpu_info_t* cpu_infos, int count) { os::free_cpu_infos(as_ptr<os::cpu_info>(cpu_infos), count); }

int uv_interface_addresses(uv_interface_address_t** addresses, int* count) {
  return os::interface_addresses(as_ptr<os::interface_address*>(addresses), count);
}
void uv_free_interface_addresses(uv_interface_address_t* addresses, int count) {
  os::free_interface_addresses(as_ptr<os::interface_address>(addresses), count);
}

int uv_if_indextoname(unsigned int ifindex, char* buffer, size_t* size) {
  return os::interface_name(ifindex, buffer, size);
}
// On Unix an IPv6 scope id is the interface name.
int uv_if_indextoiid(unsigned int ifindex, char* buffer, size_t* size) {
  return os::interface_name(ifindex, buffer, size);
}

uint64_t uv_get_free_memory(void) { return os::free_memory(); }
uint64_t uv_get_total_memory(void) { return os::total_memory(); }
uint64_t uv_get_constrained_memory(void) { return os::constrained_memory(c_profile()); }
uint64_t uv_get_available_memory(void) { return os::available_memory(); }
int uv_resident_set_memory(size_t* rss) { return os::resident_set_memory(rss); }
int uv_uptime(double* uptime) { return os::uptime(uptime); }
void uv_loadavg(double avg[3]) { os::loadavg(avg); }

// ---- shared libraries ---------------------------------------------------------

int uv_dlopen(const char* filename, uv_lib_t* lib) { return os::open_library(filename, as_ptr<os::library>(lib)); }
void uv_dlclose(uv_lib_t* lib) { os::close_library(as_ptr<os::library>(lib)); }
int uv_dlsym(uv_lib_t* lib, const char* name, void** ptr) {
  return os::library_symbol(as_ptr<os::library>(lib), name, ptr);
}
const char* uv_dlerror(const uv_lib_t* lib) {
  return os::library_error(as_ptr<const os::library>(lib));
}

// ---- random bytes -------------------------------------------------------------

int uv_random(uv_loop_t* loop, uv_random_t* req, void* buf, size_t buflen, unsigned flags, uv_random_cb cb) {
  if (cb == nullptr) return pl::random_req().start(nullptr, buf, buflen, flags, nullptr);
  if (loop == nullptr || req == nullptr) return UV_EINVAL;
  pl::random_req* r = construct<pl::random_req>(req);
  return r->start(&L(loop), buf, buflen, flags, cb_cast<pl::random_cb>(cb));
}

}  // extern "C"
