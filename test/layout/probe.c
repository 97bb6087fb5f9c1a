// SPDX-License-Identifier: MIT
/* Layout probe for the libuv-compatible header.
 *
 * Compiled once against the system libuv header and once against
 * phaseloop's include/phaseloop/uv/uv.h (see check.sh); both programs must print exactly
 * the same lines.  Only the header is used: no library function is called.
 *
 * Output lines, in the order of the lists below:
 *   sizeof <type> <n>            alignof <type> <n>
 *   signed <type> <0|1>          (integer and enum types)
 *   offsetof <type>.<field> <n>  fieldsize <type>.<field> <n>
 *   value <constant> <n>
 *   errmap <NAME> <value> "<message>"   handlemap / reqmap <UPPER> <lower>
 *
 * To probe more, add entries to the lists; nothing else needs changing.
 */
#include <uv.h>

#include <stddef.h>
#include <stdio.h>

/* Tag types get typedef names so every probed type is a single token. */
typedef union uv_any_handle union_uv_any_handle;
typedef union uv_any_req union_uv_any_req;
typedef struct uv_cpu_times_s struct_uv_cpu_times_s;
typedef enum uv_tcp_flags enum_uv_tcp_flags;
typedef enum uv_udp_flags enum_uv_udp_flags;
typedef enum uv_poll_event enum_uv_poll_event;
typedef enum uv_process_flags enum_uv_process_flags;
typedef enum uv_fs_event enum_uv_fs_event;
typedef enum uv_fs_event_flags enum_uv_fs_event_flags;

/* UV_HANDLE_FIELDS must work in user structs too.  (libuv's own header
 * leaves UV_STREAM_FIELDS and UV_REQ_FIELDS unusable after inclusion, so
 * they cannot be compared here; compile_c.sh exercises ours.) */
struct probe_handle_like { UV_HANDLE_FIELDS int after; };
typedef struct probe_handle_like macro_UV_HANDLE_FIELDS;


/* ---- Types: sizeof and alignof ------------------------------------- */
#define PROBE_TYPES(T)                                                  \
  /* loop and handles */                                                \
  T(uv_loop_t) T(uv_handle_t) T(uv_stream_t) T(uv_tcp_t) T(uv_udp_t)    \
  T(uv_pipe_t) T(uv_tty_t) T(uv_poll_t) T(uv_timer_t) T(uv_prepare_t)   \
  T(uv_check_t) T(uv_idle_t) T(uv_async_t) T(uv_process_t)              \
  T(uv_fs_event_t) T(uv_fs_poll_t) T(uv_signal_t)                       \
  /* requests */                                                        \
  T(uv_req_t) T(uv_getaddrinfo_t) T(uv_getnameinfo_t) T(uv_shutdown_t)  \
  T(uv_write_t) T(uv_connect_t) T(uv_udp_send_t) T(uv_fs_t)             \
  T(uv_work_t) T(uv_random_t)                                           \
  T(union_uv_any_handle) T(union_uv_any_req)                            \
  /* user structs built from the field macros */                        \
  T(macro_UV_HANDLE_FIELDS)                                             \
  /* plain data */                                                      \
  T(uv_buf_t) T(uv_timespec_t) T(uv_stat_t) T(uv_timeval_t)             \
  T(uv_timeval64_t) T(uv_rusage_t) T(uv_dirent_t) T(uv_dir_t)           \
  T(struct_uv_cpu_times_s) T(uv_cpu_info_t) T(uv_interface_address_t)   \
  T(uv_passwd_t) T(uv_utsname_t) T(uv_statfs_t) T(uv_env_item_t)        \
  T(uv_process_options_t) T(uv_stdio_container_t)                       \
  T(uv_thread_options_t) T(uv_lib_t)                                    \
  /* OS types */                                                        \
  T(uv_file) T(uv_os_sock_t) T(uv_os_fd_t) T(uv_pid_t) T(uv_uid_t)      \
  T(uv_gid_t) T(uv_thread_t) T(uv_mutex_t) T(uv_rwlock_t) T(uv_sem_t)   \
  T(uv_cond_t) T(uv_once_t) T(uv_key_t) T(uv_barrier_t)                 \
  /* enumerations */                                                    \
  PROBE_INTEGER_TYPES(T)

/* ---- Integer and enum types: also signedness ------------------------ */
#define PROBE_INTEGER_TYPES(T)                                          \
  T(uv_errno_t) T(uv_handle_type) T(uv_req_type) T(uv_run_mode)         \
  T(uv_loop_option) T(uv_membership) T(uv_tty_mode_t)                   \
  T(uv_tty_vtermstate_t) T(uv_stdio_flags) T(uv_fs_type)                \
  T(uv_dirent_type_t) T(uv_thread_create_flags) T(enum_uv_tcp_flags)    \
  T(enum_uv_udp_flags) T(enum_uv_poll_event) T(enum_uv_process_flags)   \
  T(enum_uv_fs_event) T(enum_uv_fs_event_flags)

#define PROBE_SIGNED_TYPES(T)                                           \
  T(uv_file) T(uv_os_sock_t) T(uv_os_fd_t) T(uv_pid_t) T(uv_uid_t)      \
  T(uv_gid_t) T(uv_once_t) T(uv_key_t)                                  \
  PROBE_INTEGER_TYPES(T)


/* ---- Fields: offsetof and size -------------------------------------- */
/* Public head shared by all handles / all requests. */
#define HANDLE_HEAD(F, T_) F(T_, data) F(T_, loop) F(T_, type)
#define STREAM_HEAD(F, T_)                                              \
  HANDLE_HEAD(F, T_)                                                    \
  F(T_, write_queue_size) F(T_, alloc_cb) F(T_, read_cb)
#define REQ_HEAD(F, T_) F(T_, data) F(T_, type) F(T_, reserved)

#define PROBE_FIELDS(F)                                                 \
  F(uv_loop_t, data) F(uv_loop_t, active_handles)                       \
  HANDLE_HEAD(F, uv_handle_t)                                           \
  STREAM_HEAD(F, uv_stream_t)                                           \
  STREAM_HEAD(F, uv_tcp_t)                                              \
  STREAM_HEAD(F, uv_pipe_t) F(uv_pipe_t, ipc)                           \
  STREAM_HEAD(F, uv_tty_t)                                              \
  HANDLE_HEAD(F, uv_udp_t)                                              \
  F(uv_udp_t, send_queue_size) F(uv_udp_t, send_queue_count)            \
  HANDLE_HEAD(F, uv_poll_t) F(uv_poll_t, poll_cb)                       \
  HANDLE_HEAD(F, uv_timer_t)                                            \
  HANDLE_HEAD(F, uv_prepare_t)                                          \
  HANDLE_HEAD(F, uv_check_t)                                            \
  HANDLE_HEAD(F, uv_idle_t)                                             \
  HANDLE_HEAD(F, uv_async_t)                                            \
  HANDLE_HEAD(F, uv_process_t)                                          \
  F(uv_process_t, exit_cb) F(uv_process_t, pid)                         \
  HANDLE_HEAD(F, uv_fs_event_t) F(uv_fs_event_t, path)                  \
  HANDLE_HEAD(F, uv_fs_poll_t)                                          \
  HANDLE_HEAD(F, uv_signal_t)                                           \
  F(uv_signal_t, signal_cb) F(uv_signal_t, signum)                      \
  HANDLE_HEAD(F, macro_UV_HANDLE_FIELDS)                                \
  F(macro_UV_HANDLE_FIELDS, after)                                      \
  REQ_HEAD(F, uv_req_t)                                                 \
  REQ_HEAD(F, uv_shutdown_t)                                            \
  F(uv_shutdown_t, handle) F(uv_shutdown_t, cb)                         \
  REQ_HEAD(F, uv_write_t)                                               \
  F(uv_write_t, cb) F(uv_write_t, send_handle) F(uv_write_t, handle)    \
  REQ_HEAD(F, uv_connect_t)                                             \
  F(uv_connect_t, cb) F(uv_connect_t, handle)                           \
  REQ_HEAD(F, uv_udp_send_t)                                            \
  F(uv_udp_send_t, handle) F(uv_udp_send_t, cb)                         \
  REQ_HEAD(F, uv_fs_t)                                                  \
  F(uv_fs_t, fs_type) F(uv_fs_t, loop) F(uv_fs_t, cb) F(uv_fs_t, result) \
  F(uv_fs_t, ptr) F(uv_fs_t, path) F(uv_fs_t, statbuf)                  \
  REQ_HEAD(F, uv_work_t)                                                \
  F(uv_work_t, loop) F(uv_work_t, work_cb) F(uv_work_t, after_work_cb)  \
  REQ_HEAD(F, uv_getaddrinfo_t)                                         \
  F(uv_getaddrinfo_t, loop) F(uv_getaddrinfo_t, cb)                     \
  F(uv_getaddrinfo_t, addrinfo)                                         \
  REQ_HEAD(F, uv_getnameinfo_t)                                         \
  F(uv_getnameinfo_t, loop) F(uv_getnameinfo_t, getnameinfo_cb)         \
  F(uv_getnameinfo_t, host) F(uv_getnameinfo_t, service)                \
  REQ_HEAD(F, uv_random_t) F(uv_random_t, loop)                         \
  PROBE_PLAIN_FIELDS(F)

/* Plain structs: every member. */
#define PROBE_PLAIN_FIELDS(F)                                           \
  F(uv_buf_t, base) F(uv_buf_t, len)                                    \
  F(uv_timespec_t, tv_sec) F(uv_timespec_t, tv_nsec)                    \
  F(uv_stat_t, st_dev) F(uv_stat_t, st_mode) F(uv_stat_t, st_nlink)     \
  F(uv_stat_t, st_uid) F(uv_stat_t, st_gid) F(uv_stat_t, st_rdev)       \
  F(uv_stat_t, st_ino) F(uv_stat_t, st_size) F(uv_stat_t, st_blksize)   \
  F(uv_stat_t, st_blocks) F(uv_stat_t, st_flags) F(uv_stat_t, st_gen)   \
  F(uv_stat_t, st_atim) F(uv_stat_t, st_mtim) F(uv_stat_t, st_ctim)     \
  F(uv_stat_t, st_birthtim)                                             \
  F(uv_stat_t, st_atim.tv_sec) F(uv_stat_t, st_birthtim.tv_nsec)        \
  F(uv_timeval_t, tv_sec) F(uv_timeval_t, tv_usec)                      \
  F(uv_timeval64_t, tv_sec) F(uv_timeval64_t, tv_usec)                  \
  F(uv_rusage_t, ru_utime) F(uv_rusage_t, ru_stime)                     \
  F(uv_rusage_t, ru_maxrss) F(uv_rusage_t, ru_ixrss)                    \
  F(uv_rusage_t, ru_idrss) F(uv_rusage_t, ru_isrss)                     \
  F(uv_rusage_t, ru_minflt) F(uv_rusage_t, ru_majflt)                   \
  F(uv_rusage_t, ru_nswap) F(uv_rusage_t, ru_inblock)                   \
  F(uv_rusage_t, ru_oublock) F(uv_rusage_t, ru_msgsnd)                  \
  F(uv_rusage_t, ru_msgrcv) F(uv_rusage_t, ru_nsignals)                 \
  F(uv_rusage_t, ru_nvcsw) F(uv_rusage_t, ru_nivcsw)                    \
  F(uv_dirent_t, name) F(uv_dirent_t, type)                             \
  F(uv_dir_t, dirents) F(uv_dir_t, nentries) F(uv_dir_t, reserved)      \
  F(struct_uv_cpu_times_s, user) F(struct_uv_cpu_times_s, nice)         \
  F(struct_uv_cpu_times_s, sys) F(struct_uv_cpu_times_s, idle)          \
  F(struct_uv_cpu_times_s, irq)                                         \
  F(uv_cpu_info_t, model) F(uv_cpu_info_t, speed)                       \
  F(uv_cpu_info_t, cpu_times) F(uv_cpu_info_t, cpu_times.irq)           \
  F(uv_interface_address_t, name) F(uv_interface_address_t, phys_addr) \
  F(uv_interface_address_t, is_internal)                                \
  F(uv_interface_address_t, address)                                    \
  F(uv_interface_address_t, address.address4)                           \
  F(uv_interface_address_t, address.address6)                           \
  F(uv_interface_address_t, netmask)                                    \
  F(uv_interface_address_t, netmask.netmask4)                           \
  F(uv_interface_address_t, netmask.netmask6)                           \
  F(uv_passwd_t, username) F(uv_passwd_t, uid) F(uv_passwd_t, gid)      \
  F(uv_passwd_t, shell) F(uv_passwd_t, homedir)                         \
  F(uv_utsname_t, sysname) F(uv_utsname_t, release)                     \
  F(uv_utsname_t, version) F(uv_utsname_t, machine)                     \
  F(uv_statfs_t, f_type) F(uv_statfs_t, f_bsize) F(uv_statfs_t, f_blocks) \
  F(uv_statfs_t, f_bfree) F(uv_statfs_t, f_bavail)                      \
  F(uv_statfs_t, f_files) F(uv_statfs_t, f_ffree) F(uv_statfs_t, f_spare) \
  F(uv_env_item_t, name) F(uv_env_item_t, value)                        \
  F(uv_process_options_t, exit_cb) F(uv_process_options_t, file)        \
  F(uv_process_options_t, args) F(uv_process_options_t, env)            \
  F(uv_process_options_t, cwd) F(uv_process_options_t, flags)           \
  F(uv_process_options_t, stdio_count) F(uv_process_options_t, stdio)   \
  F(uv_process_options_t, uid) F(uv_process_options_t, gid)             \
  F(uv_stdio_container_t, flags) F(uv_stdio_container_t, data)          \
  F(uv_stdio_container_t, data.stream) F(uv_stdio_container_t, data.fd) \
  F(uv_thread_options_t, flags) F(uv_thread_options_t, stack_size)      \
  F(uv_lib_t, handle) F(uv_lib_t, errmsg)


/* ---- Constants ------------------------------------------------------- */
#define PROBE_VALUES(V)                                                 \
  /* version (UV_VERSION_SUFFIX deliberately differs) */                \
  V(UV_VERSION_MAJOR) V(UV_VERSION_MINOR) V(UV_VERSION_PATCH)           \
  V(UV_VERSION_IS_RELEASE) V(UV_VERSION_HEX)                            \
  /* error codes */                                                     \
  V(UV_E2BIG) V(UV_EACCES) V(UV_EADDRINUSE) V(UV_EADDRNOTAVAIL)         \
  V(UV_EAFNOSUPPORT) V(UV_EAGAIN) V(UV_EAI_ADDRFAMILY) V(UV_EAI_AGAIN)  \
  V(UV_EAI_BADFLAGS) V(UV_EAI_BADHINTS) V(UV_EAI_CANCELED)              \
  V(UV_EAI_FAIL) V(UV_EAI_FAMILY) V(UV_EAI_MEMORY) V(UV_EAI_NODATA)     \
  V(UV_EAI_NONAME) V(UV_EAI_OVERFLOW) V(UV_EAI_PROTOCOL)                \
  V(UV_EAI_SERVICE) V(UV_EAI_SOCKTYPE) V(UV_EALREADY) V(UV_EBADF)       \
  V(UV_EBUSY) V(UV_ECANCELED) V(UV_ECHARSET) V(UV_ECONNABORTED)         \
  V(UV_ECONNREFUSED) V(UV_ECONNRESET) V(UV_EDESTADDRREQ) V(UV_EEXIST)   \
  V(UV_EFAULT) V(UV_EFBIG) V(UV_EHOSTUNREACH) V(UV_EINTR) V(UV_EINVAL)  \
  V(UV_EIO) V(UV_EISCONN) V(UV_EISDIR) V(UV_ELOOP) V(UV_EMFILE)         \
  V(UV_EMSGSIZE) V(UV_ENAMETOOLONG) V(UV_ENETDOWN) V(UV_ENETUNREACH)    \
  V(UV_ENFILE) V(UV_ENOBUFS) V(UV_ENODEV) V(UV_ENOENT) V(UV_ENOMEM)     \
  V(UV_ENONET) V(UV_ENOPROTOOPT) V(UV_ENOSPC) V(UV_ENOSYS)              \
  V(UV_ENOTCONN) V(UV_ENOTDIR) V(UV_ENOTEMPTY) V(UV_ENOTSOCK)           \
  V(UV_ENOTSUP) V(UV_EOVERFLOW) V(UV_EPERM) V(UV_EPIPE) V(UV_EPROTO)    \
  V(UV_EPROTONOSUPPORT) V(UV_EPROTOTYPE) V(UV_ERANGE) V(UV_EROFS)       \
  V(UV_ESHUTDOWN) V(UV_ESPIPE) V(UV_ESRCH) V(UV_ETIMEDOUT)              \
  V(UV_ETXTBSY) V(UV_EXDEV) V(UV_UNKNOWN) V(UV_EOF) V(UV_ENXIO)         \
  V(UV_EMLINK) V(UV_EHOSTDOWN) V(UV_EREMOTEIO) V(UV_ENOTTY)             \
  V(UV_EFTYPE) V(UV_EILSEQ) V(UV_ESOCKTNOSUPPORT) V(UV_ERRNO_MAX)       \
  /* handle kinds */                                                    \
  V(UV_UNKNOWN_HANDLE) V(UV_ASYNC) V(UV_CHECK) V(UV_FS_EVENT)           \
  V(UV_FS_POLL) V(UV_HANDLE) V(UV_IDLE) V(UV_NAMED_PIPE) V(UV_POLL)     \
  V(UV_PREPARE) V(UV_PROCESS) V(UV_STREAM) V(UV_TCP) V(UV_TIMER)        \
  V(UV_TTY) V(UV_UDP) V(UV_SIGNAL) V(UV_FILE) V(UV_HANDLE_TYPE_MAX)     \
  /* request kinds */                                                   \
  V(UV_UNKNOWN_REQ) V(UV_REQ) V(UV_CONNECT) V(UV_WRITE) V(UV_SHUTDOWN)  \
  V(UV_UDP_SEND) V(UV_FS) V(UV_WORK) V(UV_GETADDRINFO)                  \
  V(UV_GETNAMEINFO) V(UV_RANDOM) V(UV_REQ_TYPE_MAX)                     \
  /* loop */                                                            \
  V(UV_RUN_DEFAULT) V(UV_RUN_ONCE) V(UV_RUN_NOWAIT)                     \
  V(UV_LOOP_BLOCK_SIGNAL) V(UV_METRICS_IDLE_TIME)                       \
  /* sockets, ttys, polling */                                          \
  V(UV_TCP_IPV6ONLY)                                                    \
  V(UV_UDP_IPV6ONLY) V(UV_UDP_PARTIAL) V(UV_UDP_REUSEADDR)              \
  V(UV_UDP_MMSG_CHUNK) V(UV_UDP_MMSG_FREE) V(UV_UDP_LINUX_RECVERR)      \
  V(UV_UDP_RECVMMSG)                                                    \
  V(UV_LEAVE_GROUP) V(UV_JOIN_GROUP)                                    \
  V(UV_TTY_MODE_NORMAL) V(UV_TTY_MODE_RAW) V(UV_TTY_MODE_IO)            \
  V(UV_TTY_SUPPORTED) V(UV_TTY_UNSUPPORTED)                             \
  V(UV_READABLE) V(UV_WRITABLE) V(UV_DISCONNECT) V(UV_PRIORITIZED)      \
  /* processes */                                                       \
  V(UV_IGNORE) V(UV_CREATE_PIPE) V(UV_INHERIT_FD) V(UV_INHERIT_STREAM)  \
  V(UV_READABLE_PIPE) V(UV_WRITABLE_PIPE) V(UV_NONBLOCK_PIPE)           \
  V(UV_OVERLAPPED_PIPE)                                                 \
  V(UV_PROCESS_SETUID) V(UV_PROCESS_SETGID)                             \
  V(UV_PROCESS_WINDOWS_VERBATIM_ARGUMENTS) V(UV_PROCESS_DETACHED)       \
  V(UV_PROCESS_WINDOWS_HIDE) V(UV_PROCESS_WINDOWS_HIDE_CONSOLE)         \
  V(UV_PROCESS_WINDOWS_HIDE_GUI)                                        \
  V(UV_PRIORITY_LOW) V(UV_PRIORITY_BELOW_NORMAL) V(UV_PRIORITY_NORMAL)  \
  V(UV_PRIORITY_ABOVE_NORMAL) V(UV_PRIORITY_HIGH) V(UV_PRIORITY_HIGHEST) \
  /* file system */                                                     \
  V(UV_RENAME) V(UV_CHANGE)                                             \
  V(UV_FS_EVENT_WATCH_ENTRY) V(UV_FS_EVENT_STAT) V(UV_FS_EVENT_RECURSIVE) \
  V(UV_FS_UNKNOWN) V(UV_FS_CUSTOM) V(UV_FS_OPEN) V(UV_FS_CLOSE)         \
  V(UV_FS_READ) V(UV_FS_WRITE) V(UV_FS_SENDFILE) V(UV_FS_STAT)          \
  V(UV_FS_LSTAT) V(UV_FS_FSTAT) V(UV_FS_FTRUNCATE) V(UV_FS_UTIME)       \
  V(UV_FS_FUTIME) V(UV_FS_ACCESS) V(UV_FS_CHMOD) V(UV_FS_FCHMOD)        \
  V(UV_FS_FSYNC) V(UV_FS_FDATASYNC) V(UV_FS_UNLINK) V(UV_FS_RMDIR)      \
  V(UV_FS_MKDIR) V(UV_FS_MKDTEMP) V(UV_FS_RENAME) V(UV_FS_SCANDIR)      \
  V(UV_FS_LINK) V(UV_FS_SYMLINK) V(UV_FS_READLINK) V(UV_FS_CHOWN)       \
  V(UV_FS_FCHOWN) V(UV_FS_REALPATH) V(UV_FS_COPYFILE) V(UV_FS_LCHOWN)   \
  V(UV_FS_OPENDIR) V(UV_FS_READDIR) V(UV_FS_CLOSEDIR) V(UV_FS_STATFS)   \
  V(UV_FS_MKSTEMP) V(UV_FS_LUTIME)                                      \
  V(UV_DIRENT_UNKNOWN) V(UV_DIRENT_FILE) V(UV_DIRENT_DIR)               \
  V(UV_DIRENT_LINK) V(UV_DIRENT_FIFO) V(UV_DIRENT_SOCKET)               \
  V(UV_DIRENT_CHAR) V(UV_DIRENT_BLOCK)                                  \
  V(UV_FS_O_APPEND) V(UV_FS_O_CREAT) V(UV_FS_O_DIRECT)                  \
  V(UV_FS_O_DIRECTORY) V(UV_FS_O_DSYNC) V(UV_FS_O_EXCL)                 \
  V(UV_FS_O_EXLOCK) V(UV_FS_O_NOATIME) V(UV_FS_O_NOCTTY)                \
  V(UV_FS_O_NOFOLLOW) V(UV_FS_O_NONBLOCK) V(UV_FS_O_RDONLY)             \
  V(UV_FS_O_RDWR) V(UV_FS_O_SYMLINK) V(UV_FS_O_SYNC) V(UV_FS_O_TRUNC)   \
  V(UV_FS_O_WRONLY) V(UV_FS_O_FILEMAP) V(UV_FS_O_RANDOM)                \
  V(UV_FS_O_SHORT_LIVED) V(UV_FS_O_SEQUENTIAL) V(UV_FS_O_TEMPORARY)     \
  V(UV_FS_COPYFILE_EXCL) V(UV_FS_COPYFILE_FICLONE)                      \
  V(UV_FS_COPYFILE_FICLONE_FORCE)                                       \
  V(UV_FS_SYMLINK_DIR) V(UV_FS_SYMLINK_JUNCTION)                        \
  /* threads, sizes */                                                  \
  V(UV_THREAD_NO_FLAGS) V(UV_THREAD_HAS_STACK_SIZE)                     \
  V(UV_IF_NAMESIZE) V(UV_MAXHOSTNAMESIZE) V(NI_MAXHOST) V(NI_MAXSERV)


/* ---- Printers -------------------------------------------------------- */
#define PRINT_TYPE(T_)                                                  \
  printf("sizeof %s %zu\n", #T_, sizeof(T_));                           \
  printf("alignof %s %zu\n", #T_, (size_t)_Alignof(T_));

/* (T)-1 is either -1 or the type's maximum. */
#define PRINT_SIGNED(T_)                                                \
  printf("signed %s %d\n", #T_, (T_)-1 < (T_)1);

#define PRINT_FIELD(T_, f_)                                             \
  printf("offsetof %s.%s %zu\n", #T_, #f_, offsetof(T_, f_));           \
  printf("fieldsize %s.%s %zu\n", #T_, #f_, sizeof(((T_*)0)->f_));

#define PRINT_VALUE(name) printf("value %s %lld\n", #name, (long long)(name));

#define PRINT_ERRMAP(name, msg)                                         \
  printf("errmap %s %d \"%s\"\n", #name, (int)UV_##name, msg);

#define PRINT_HANDLEMAP(upper, lower)                                   \
  printf("handlemap %s %s %d %zu\n", #upper, #lower, (int)UV_##upper,   \
         sizeof(uv_##lower##_t));

#define PRINT_REQMAP(upper, lower)                                      \
  printf("reqmap %s %s %d %zu\n", #upper, #lower, (int)UV_##upper,      \
         sizeof(uv_##lower##_t));

int main(void) {
  uv_once_t once = UV_ONCE_INIT;

  PROBE_TYPES(PRINT_TYPE)
  PROBE_SIGNED_TYPES(PRINT_SIGNED)
  PROBE_FIELDS(PRINT_FIELD)
  PROBE_VALUES(PRINT_VALUE)
  printf("value UV_ONCE_INIT %lld\n", (long long)once);
  UV_ERRNO_MAP(PRINT_ERRMAP)
  UV_HANDLE_TYPE_MAP(PRINT_HANDLEMAP)
  UV_REQ_TYPE_MAP(PRINT_REQMAP)
  return 0;
}
