// SPDX-License-Identifier: MIT
/* phaseloop: libuv-compatible C interface.
 *
 * This header lets C and C++ programs written for libuv 1.44.2 build
 * against phaseloop unchanged and be linked with it instead of libuv.  It
 * declares the same functions, constants and types, and every type has
 * libuv's size and alignment on x86-64 Linux.  Members that libuv documents
 * as public carry libuv's names at libuv's offsets, and so do the private
 * members programs are known to use (a handle's `flags`); everything else
 * the library keeps for itself is opaque storage named uv_*private*_ (for
 * example uv_private_, uv_private32_) -- programs must not touch it.  The
 * macros libuv's headers define are defined too
 * (test/layout/check_macros.sh).
 *
 * Layout is verified against the system libuv by test/layout/check.sh.
 */
#ifndef UV_H
#define UV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uv/version.h"
#include "uv/errno.h"
#include "uv/unix.h"

#if defined(__GNUC__) && __GNUC__ >= 4
# define UV_EXTERN __attribute__((visibility("default")))
#else
# define UV_EXTERN /* nothing */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Structures only ever used through pointers here; declared at file scope
 * so that strict ISO modes, where <netdb.h> hides them, stay quiet. */
struct addrinfo;
struct sockaddr;


/* ======================================================================
 * Handle and request kinds
 * ====================================================================== */

/* UV_HANDLE_TYPE_MAP(XX) invokes XX(UPPER, lower) for every handle kind:
 * UV_<UPPER> is its uv_handle_type value, uv_<lower>_t its C type. */
#define UV_HANDLE_TYPE_MAP(XX)                                          \
  XX(ASYNC, async)                                                      \
  XX(CHECK, check)                                                      \
  XX(FS_EVENT, fs_event)                                                \
  XX(FS_POLL, fs_poll)                                                  \
  XX(HANDLE, handle)                                                    \
  XX(IDLE, idle)                                                        \
  XX(NAMED_PIPE, pipe)                                                  \
  XX(POLL, poll)                                                        \
  XX(PREPARE, prepare)                                                  \
  XX(PROCESS, process)                                                  \
  XX(STREAM, stream)                                                    \
  XX(TCP, tcp)                                                          \
  XX(TIMER, timer)                                                      \
  XX(TTY, tty)                                                          \
  XX(UDP, udp)                                                          \
  XX(SIGNAL, signal)                                                    \

/* UV_REQ_TYPE_MAP(XX) does the same for every request kind. */
#define UV_REQ_TYPE_MAP(XX)                                             \
  XX(REQ, req)                                                          \
  XX(CONNECT, connect)                                                  \
  XX(WRITE, write)                                                      \
  XX(SHUTDOWN, shutdown)                                                \
  XX(UDP_SEND, udp_send)                                                \
  XX(FS, fs)                                                            \
  XX(WORK, work)                                                        \
  XX(GETADDRINFO, getaddrinfo)                                          \
  XX(GETNAMEINFO, getnameinfo)                                          \
  XX(RANDOM, random)                                                    \

/* The kind of a handle, stored in uv_handle_t.type. */
typedef enum {
  UV_UNKNOWN_HANDLE = 0,
  UV_ASYNC = 1,
  UV_CHECK = 2,
  UV_FS_EVENT = 3,
  UV_FS_POLL = 4,
  UV_HANDLE = 5,
  UV_IDLE = 6,
  UV_NAMED_PIPE = 7,
  UV_POLL = 8,
  UV_PREPARE = 9,
  UV_PROCESS = 10,
  UV_STREAM = 11,
  UV_TCP = 12,
  UV_TIMER = 13,
  UV_TTY = 14,
  UV_UDP = 15,
  UV_SIGNAL = 16,
  UV_FILE = 17,          /* uv_guess_handle(): a regular file */
  UV_HANDLE_TYPE_MAX = 18
} uv_handle_type;

/* The kind of a request, stored in uv_req_t.type. */
typedef enum {
  UV_UNKNOWN_REQ = 0,
  UV_REQ = 1,
  UV_CONNECT = 2,
  UV_WRITE = 3,
  UV_SHUTDOWN = 4,
  UV_UDP_SEND = 5,
  UV_FS = 6,
  UV_WORK = 7,
  UV_GETADDRINFO = 8,
  UV_GETNAMEINFO = 9,
  UV_RANDOM = 10,
  UV_REQ_TYPE_MAX = 11
} uv_req_type;


/* ======================================================================
 * Type names
 * ====================================================================== */

/* The loop, and handles: long-lived objects registered with a loop. */
typedef struct uv_loop_s uv_loop_t;
typedef struct uv_handle_s uv_handle_t;
typedef struct uv_stream_s uv_stream_t;
typedef struct uv_tcp_s uv_tcp_t;
typedef struct uv_udp_s uv_udp_t;
typedef struct uv_pipe_s uv_pipe_t;
typedef struct uv_tty_s uv_tty_t;
typedef struct uv_poll_s uv_poll_t;
typedef struct uv_timer_s uv_timer_t;
typedef struct uv_prepare_s uv_prepare_t;
typedef struct uv_check_s uv_check_t;
typedef struct uv_idle_s uv_idle_t;
typedef struct uv_async_s uv_async_t;
typedef struct uv_process_s uv_process_t;
typedef struct uv_fs_event_s uv_fs_event_t;
typedef struct uv_fs_poll_s uv_fs_poll_t;
typedef struct uv_signal_s uv_signal_t;

/* Requests: one operation each, completed through a callback. */
typedef struct uv_req_s uv_req_t;
typedef struct uv_getaddrinfo_s uv_getaddrinfo_t;
typedef struct uv_getnameinfo_s uv_getnameinfo_t;
typedef struct uv_shutdown_s uv_shutdown_t;
typedef struct uv_write_s uv_write_t;
typedef struct uv_connect_s uv_connect_t;
typedef struct uv_udp_send_s uv_udp_send_t;
typedef struct uv_fs_s uv_fs_t;
typedef struct uv_work_s uv_work_t;
typedef struct uv_random_s uv_random_t;

/* Plain data. */
typedef struct uv_dir_s uv_dir_t;
typedef struct uv_dirent_s uv_dirent_t;
typedef struct uv_env_item_s uv_env_item_t;
typedef struct uv_cpu_info_s uv_cpu_info_t;
typedef struct uv_interface_address_s uv_interface_address_t;
typedef struct uv_passwd_s uv_passwd_t;
typedef struct uv_utsname_s uv_utsname_t;
typedef struct uv_statfs_s uv_statfs_t;
typedef struct uv_thread_options_s uv_thread_options_t;


/* ======================================================================
 * Enumerations and flag values
 * ====================================================================== */

/* uv_loop_configure() options. */
typedef enum {
  UV_LOOP_BLOCK_SIGNAL = 0,  /* arg: int signum; keep it blocked in the poll */
  UV_METRICS_IDLE_TIME = 1   /* start accounting time spent idle in the poll */
#if UV_VERSION_MINOR >= 49
  ,
  UV_LOOP_USE_IO_URING_SQPOLL = 2  /* file requests through io_uring (no polling thread) */
# define UV_LOOP_USE_IO_URING_SQPOLL UV_LOOP_USE_IO_URING_SQPOLL
#endif
} uv_loop_option;

/* uv_run() modes. */
typedef enum {
  UV_RUN_DEFAULT = 0,  /* run until nothing is active and referenced */
  UV_RUN_ONCE = 1,     /* one iteration, blocking for I/O if needed */
  UV_RUN_NOWAIT = 2    /* one iteration, never blocking */
} uv_run_mode;

/* uv_tcp_bind() flags. */
enum uv_tcp_flags {
  UV_TCP_IPV6ONLY = 1  /* no dual stack for an IPv6 address */
#if UV_VERSION_MINOR >= 49
  ,
  UV_TCP_REUSEPORT = 2  /* set SO_REUSEPORT (1.49) */
#endif
};

/* uv_udp_init_ex()/uv_udp_bind() flags, and flags passed to uv_udp_recv_cb. */
enum uv_udp_flags {
  UV_UDP_IPV6ONLY = 1,       /* no dual stack for an IPv6 address */
  UV_UDP_PARTIAL = 2,        /* recv: datagram truncated to the buffer */
  UV_UDP_REUSEADDR = 4,      /* bind: set SO_REUSEADDR */
  UV_UDP_MMSG_CHUNK = 8,     /* recv: buffer is part of a recvmmsg batch */
  UV_UDP_MMSG_FREE = 16,     /* recv: the batch buffer may now be freed */
  UV_UDP_LINUX_RECVERR = 32, /* bind: set IP_RECVERR / IPV6_RECVERR */
#if UV_VERSION_MINOR >= 49
  UV_UDP_REUSEPORT = 64,     /* bind, uv_udp_open_ex: set SO_REUSEPORT (1.49) */
#endif
  UV_UDP_RECVMMSG = 256      /* init: receive with recvmmsg() */
};

/* uv_udp_set_membership() actions. */
typedef enum {
  UV_LEAVE_GROUP = 0,
  UV_JOIN_GROUP = 1
} uv_membership;

/* uv_tty_set_mode() modes. */
typedef enum {
  UV_TTY_MODE_NORMAL = 0,  /* cooked, as the terminal started */
  UV_TTY_MODE_RAW = 1,     /* raw input */
  UV_TTY_MODE_IO = 2       /* binary-safe raw mode */
#if UV_VERSION_MINOR >= 51
  ,
  UV_TTY_MODE_RAW_VT = 3   /* raw, with VT sequences (1.51; on Unix as RAW) */
#endif
} uv_tty_mode_t;

/* Virtual terminal support (meaningful on Windows only). */
typedef enum {
  UV_TTY_SUPPORTED = 0,
  UV_TTY_UNSUPPORTED = 1
} uv_tty_vtermstate_t;

/* uv_poll_start() event bits. */
enum uv_poll_event {
  UV_READABLE = 1,
  UV_WRITABLE = 2,
  UV_DISCONNECT = 4,
  UV_PRIORITIZED = 8
};

/* uv_stdio_container_t.flags: how a child's descriptor is set up. */
typedef enum {
  UV_IGNORE = 0x00,          /* leave it closed (or /dev/null for 0-2) */
  UV_CREATE_PIPE = 0x01,     /* connect it to data.stream, a uv_pipe_t */
  UV_INHERIT_FD = 0x02,      /* pass data.fd through */
  UV_INHERIT_STREAM = 0x04,  /* pass data.stream's descriptor through */
  UV_READABLE_PIPE = 0x10,   /* with CREATE_PIPE: the child reads */
  UV_WRITABLE_PIPE = 0x20,   /* with CREATE_PIPE: the child writes */
  UV_NONBLOCK_PIPE = 0x40,   /* with CREATE_PIPE: non-blocking in the child */
  UV_OVERLAPPED_PIPE = 0x40  /* former name of UV_NONBLOCK_PIPE */
} uv_stdio_flags;

/* uv_process_options_t.flags. */
enum uv_process_flags {
  UV_PROCESS_SETUID = 1 << 0,                      /* use options.uid */
  UV_PROCESS_SETGID = 1 << 1,                      /* use options.gid */
  UV_PROCESS_WINDOWS_VERBATIM_ARGUMENTS = 1 << 2,  /* Windows only */
  UV_PROCESS_DETACHED = 1 << 3,                    /* own process group */
  UV_PROCESS_WINDOWS_HIDE = 1 << 4,                /* Windows only */
  UV_PROCESS_WINDOWS_HIDE_CONSOLE = 1 << 5,        /* Windows only */
  UV_PROCESS_WINDOWS_HIDE_GUI = 1 << 6             /* Windows only */
#if UV_VERSION_MINOR >= 48
  ,
  UV_PROCESS_WINDOWS_FILE_PATH_EXACT_NAME = 1 << 7 /* Windows only (1.48) */
#endif
};

/* Event bits passed to uv_fs_event_cb. */
enum uv_fs_event {
  UV_RENAME = 1,
  UV_CHANGE = 2
};

/* uv_fs_event_start() flags. */
enum uv_fs_event_flags {
  UV_FS_EVENT_WATCH_ENTRY = 1,
  UV_FS_EVENT_STAT = 2,
  UV_FS_EVENT_RECURSIVE = 4
};

/* The operation a uv_fs_t performs, in uv_fs_t.fs_type. */
typedef enum {
  UV_FS_UNKNOWN = -1,
  UV_FS_CUSTOM = 0,
  UV_FS_OPEN = 1,
  UV_FS_CLOSE = 2,
  UV_FS_READ = 3,
  UV_FS_WRITE = 4,
  UV_FS_SENDFILE = 5,
  UV_FS_STAT = 6,
  UV_FS_LSTAT = 7,
  UV_FS_FSTAT = 8,
  UV_FS_FTRUNCATE = 9,
  UV_FS_UTIME = 10,
  UV_FS_FUTIME = 11,
  UV_FS_ACCESS = 12,
  UV_FS_CHMOD = 13,
  UV_FS_FCHMOD = 14,
  UV_FS_FSYNC = 15,
  UV_FS_FDATASYNC = 16,
  UV_FS_UNLINK = 17,
  UV_FS_RMDIR = 18,
  UV_FS_MKDIR = 19,
  UV_FS_MKDTEMP = 20,
  UV_FS_RENAME = 21,
  UV_FS_SCANDIR = 22,
  UV_FS_LINK = 23,
  UV_FS_SYMLINK = 24,
  UV_FS_READLINK = 25,
  UV_FS_CHOWN = 26,
  UV_FS_FCHOWN = 27,
  UV_FS_REALPATH = 28,
  UV_FS_COPYFILE = 29,
  UV_FS_LCHOWN = 30,
  UV_FS_OPENDIR = 31,
  UV_FS_READDIR = 32,
  UV_FS_CLOSEDIR = 33,
  UV_FS_STATFS = 34,
  UV_FS_MKSTEMP = 35,
  UV_FS_LUTIME = 36
} uv_fs_type;

/* Directory entry kinds, in uv_dirent_t.type. */
typedef enum {
  UV_DIRENT_UNKNOWN = 0,
  UV_DIRENT_FILE = 1,
  UV_DIRENT_DIR = 2,
  UV_DIRENT_LINK = 3,
  UV_DIRENT_FIFO = 4,
  UV_DIRENT_SOCKET = 5,
  UV_DIRENT_CHAR = 6,
  UV_DIRENT_BLOCK = 7
} uv_dirent_type_t;

/* uv_thread_options_t.flags. */
typedef enum {
  UV_THREAD_NO_FLAGS = 0x00,
  UV_THREAD_HAS_STACK_SIZE = 0x01  /* honour stack_size */
} uv_thread_create_flags;

/* uv_fs_copyfile() flags. */
#define UV_FS_COPYFILE_EXCL 0x0001           /* fail if the target exists */
#define UV_FS_COPYFILE_FICLONE 0x0002        /* try a reflink, else copy */
#define UV_FS_COPYFILE_FICLONE_FORCE 0x0004  /* reflink or fail */

/* uv_fs_symlink() flags (Windows only; ignored elsewhere). */
#define UV_FS_SYMLINK_DIR 0x0001
#define UV_FS_SYMLINK_JUNCTION 0x0002

/* Named priorities for uv_os_setpriority(): Unix nice values. */
#define UV_PRIORITY_LOW 19
#define UV_PRIORITY_BELOW_NORMAL 10
#define UV_PRIORITY_NORMAL 0
#define UV_PRIORITY_ABOVE_NORMAL (-7)
#define UV_PRIORITY_HIGH (-14)
#define UV_PRIORITY_HIGHEST (-20)

/* Buffer size that always fits uv_os_gethostname()'s answer plus NUL. */
#ifdef MAXHOSTNAMELEN
# define UV_MAXHOSTNAMESIZE (MAXHOSTNAMELEN + 1)
#else
# define UV_MAXHOSTNAMESIZE 256
#endif

/* Buffer size that always fits an interface name plus NUL. */
#if defined(IF_NAMESIZE)
# define UV_IF_NAMESIZE (IF_NAMESIZE + 1)
#elif defined(IFNAMSIZ)
# define UV_IF_NAMESIZE (IFNAMSIZ + 1)
#else
# define UV_IF_NAMESIZE 17
#endif


/* ======================================================================
 * Plain data structures (all members public)
 * ====================================================================== */

/* A point in time, or a duration, in seconds plus nanoseconds. */
typedef struct {
  long tv_sec;
  long tv_nsec;
} uv_timespec_t;

/* File status, filled by uv_fs_stat() and friends; all widened to 64 bits. */
typedef struct {
  uint64_t st_dev;             /* device holding the file */
  uint64_t st_mode;            /* type and permission bits */
  uint64_t st_nlink;           /* hard link count */
  uint64_t st_uid;             /* owner */
  uint64_t st_gid;             /* group */
  uint64_t st_rdev;            /* device number, for device files */
  uint64_t st_ino;             /* inode number */
  uint64_t st_size;            /* size in bytes */
  uint64_t st_blksize;         /* preferred I/O block size */
  uint64_t st_blocks;          /* 512-byte blocks allocated */
  uint64_t st_flags;           /* BSD file flags (0 on Linux) */
  uint64_t st_gen;             /* file generation (0 on Linux) */
  uv_timespec_t st_atim;       /* last access */
  uv_timespec_t st_mtim;       /* last modification */
  uv_timespec_t st_ctim;       /* last status change */
  uv_timespec_t st_birthtim;   /* creation, where known */
} uv_stat_t;

/* Seconds plus microseconds, native width. */
typedef struct {
  long tv_sec;
  long tv_usec;
} uv_timeval_t;

/* Seconds plus microseconds, fixed width (uv_gettimeofday()). */
typedef struct {
  int64_t tv_sec;
  int32_t tv_usec;
} uv_timeval64_t;

/* Resource usage of the calling process (uv_getrusage()). */
typedef struct {
  uv_timeval_t ru_utime;  /* CPU time in user mode */
  uv_timeval_t ru_stime;  /* CPU time in the kernel */
  uint64_t ru_maxrss;     /* peak resident set, KiB */
  uint64_t ru_ixrss;      /* shared text size integral */
  uint64_t ru_idrss;      /* unshared data size integral */
  uint64_t ru_isrss;      /* unshared stack size integral */
  uint64_t ru_minflt;     /* page faults served without I/O */
  uint64_t ru_majflt;     /* page faults that needed I/O */
  uint64_t ru_nswap;      /* times swapped out */
  uint64_t ru_inblock;    /* block reads */
  uint64_t ru_oublock;    /* block writes */
  uint64_t ru_msgsnd;     /* IPC messages sent */
  uint64_t ru_msgrcv;     /* IPC messages received */
  uint64_t ru_nsignals;   /* signals delivered */
  uint64_t ru_nvcsw;      /* voluntary context switches */
  uint64_t ru_nivcsw;     /* preemptions */
} uv_rusage_t;

/* Accumulated CPU time of one processor, in milliseconds. */
struct uv_cpu_times_s {
  uint64_t user;  /* ordinary user code */
  uint64_t nice;  /* niced user code */
  uint64_t sys;   /* kernel */
  uint64_t idle;  /* nothing to run */
  uint64_t irq;   /* interrupt handling */
};

/* One processor, as reported by uv_cpu_info(). */
struct uv_cpu_info_s {
#if UV_VERSION_MINOR >= 53
  const char* model;               /* model name */
#else
  char* model;                     /* model name */
#endif
  int speed;                       /* clock in MHz */
  struct uv_cpu_times_s cpu_times; /* time spent per mode */
};

/* One address of one network interface (uv_interface_addresses()). */
struct uv_interface_address_s {
  char* name;           /* interface name */
  char phys_addr[6];    /* MAC address */
  int is_internal;      /* non-zero for loopback */
  union {
    struct sockaddr_in address4;
    struct sockaddr_in6 address6;
  } address;            /* the address; family says which member */
  union {
    struct sockaddr_in netmask4;
    struct sockaddr_in6 netmask6;
  } netmask;            /* its network mask */
};

/* A user account (uv_os_get_passwd()). */
struct uv_passwd_s {
  char* username;
  unsigned long uid;
  unsigned long gid;
  char* shell;    /* NULL when unknown */
  char* homedir;
};

/* System identification (uv_os_uname()), NUL-terminated strings. */
struct uv_utsname_s {
  char sysname[256];
  char release[256];
  char version[256];
  char machine[256];
};

/* File system statistics (uv_fs_statfs()). */
struct uv_statfs_s {
  uint64_t f_type;    /* file system magic number */
  uint64_t f_bsize;   /* block size */
  uint64_t f_blocks;  /* total blocks */
  uint64_t f_bfree;   /* free blocks */
  uint64_t f_bavail;  /* free blocks available to unprivileged users */
  uint64_t f_files;   /* total inodes */
  uint64_t f_ffree;   /* free inodes */
#if UV_VERSION_MINOR >= 52
  uint64_t f_frsize;  /* fragment size (1.52) */
  uint64_t f_spare[3];
#else
  uint64_t f_spare[4];
#endif
};

/* One directory entry (uv_fs_scandir_next(), uv_fs_readdir()). */
struct uv_dirent_s {
  const char* name;
  uv_dirent_type_t type;
};

/* One environment variable (uv_os_environ()). */
struct uv_env_item_s {
  char* name;
  char* value;
};

/* uv_thread_create_ex() options. */
struct uv_thread_options_s {
  unsigned int flags;  /* uv_thread_create_flags */
  size_t stack_size;   /* with UV_THREAD_HAS_STACK_SIZE; 0 = default */
};

/* An open directory stream (uv_fs_opendir()).  The user sets dirents and
 * nentries before each uv_fs_readdir(). */
struct uv_dir_s {
  uv_dirent_t* dirents;  /* caller-supplied entry array */
  size_t nentries;       /* its capacity, then the count read */
  void* reserved[4];
  UV_DIR_PRIVATE_FIELDS
};


/* ======================================================================
 * Callback types
 * ====================================================================== */

typedef void* (*uv_malloc_func)(size_t size);
typedef void* (*uv_realloc_func)(void* ptr, size_t size);
typedef void* (*uv_calloc_func)(size_t count, size_t size);
typedef void (*uv_free_func)(void* ptr);

/* Asked for a read buffer of about suggested_size bytes. */
typedef void (*uv_alloc_cb)(uv_handle_t* handle, size_t suggested_size,
                            uv_buf_t* buf);
/* Data arrived (nread > 0), nothing yet (0), or an error / UV_EOF (< 0). */
typedef void (*uv_read_cb)(uv_stream_t* stream, ssize_t nread,
                           const uv_buf_t* buf);
typedef void (*uv_write_cb)(uv_write_t* req, int status);
typedef void (*uv_connect_cb)(uv_connect_t* req, int status);
typedef void (*uv_shutdown_cb)(uv_shutdown_t* req, int status);
typedef void (*uv_connection_cb)(uv_stream_t* server, int status);
typedef void (*uv_close_cb)(uv_handle_t* handle);
typedef void (*uv_poll_cb)(uv_poll_t* handle, int status, int events);
typedef void (*uv_timer_cb)(uv_timer_t* handle);
typedef void (*uv_async_cb)(uv_async_t* handle);
typedef void (*uv_prepare_cb)(uv_prepare_t* handle);
typedef void (*uv_check_cb)(uv_check_t* handle);
typedef void (*uv_idle_cb)(uv_idle_t* handle);
typedef void (*uv_exit_cb)(uv_process_t* process, int64_t exit_status,
                           int term_signal);
typedef void (*uv_walk_cb)(uv_handle_t* handle, void* arg);
typedef void (*uv_fs_cb)(uv_fs_t* req);
typedef void (*uv_work_cb)(uv_work_t* req);
typedef void (*uv_after_work_cb)(uv_work_t* req, int status);
typedef void (*uv_getaddrinfo_cb)(uv_getaddrinfo_t* req, int status,
                                  struct addrinfo* res);
typedef void (*uv_getnameinfo_cb)(uv_getnameinfo_t* req, int status,
                                  const char* hostname, const char* service);
typedef void (*uv_random_cb)(uv_random_t* req, int status, void* buf,
                             size_t buflen);
typedef void (*uv_fs_event_cb)(uv_fs_event_t* handle, const char* filename,
                               int events, int status);
typedef void (*uv_fs_poll_cb)(uv_fs_poll_t* handle, int status,
                              const uv_stat_t* prev, const uv_stat_t* curr);
typedef void (*uv_signal_cb)(uv_signal_t* handle, int signum);
typedef void (*uv_udp_send_cb)(uv_udp_send_t* req, int status);
typedef void (*uv_udp_recv_cb)(uv_udp_t* handle, ssize_t nread,
                               const uv_buf_t* buf,
                               const struct sockaddr* addr, unsigned flags);
typedef void (*uv_thread_cb)(void* arg);


/* ======================================================================
 * Child process options
 * ====================================================================== */

/* How one descriptor of a child is provided (see uv_stdio_flags). */
typedef struct uv_stdio_container_s {
  uv_stdio_flags flags;
  union {
    uv_stream_t* stream;  /* for CREATE_PIPE / INHERIT_STREAM */
    int fd;               /* for INHERIT_FD */
  } data;
} uv_stdio_container_t;

/* Everything uv_spawn() needs to start a child. */
typedef struct uv_process_options_s {
  uv_exit_cb exit_cb;            /* run once the child has exited */
  const char* file;              /* program to execute */
  char** args;                   /* argv, NULL-terminated, args[0] = program */
  char** env;                    /* environ for the child; NULL = inherit */
  const char* cwd;               /* working directory; NULL = inherit */
  unsigned int flags;            /* enum uv_process_flags */
  int stdio_count;               /* entries in stdio */
  uv_stdio_container_t* stdio;   /* descriptor 0, 1, 2, ... of the child */
  uv_uid_t uid;                  /* with UV_PROCESS_SETUID */
  uv_gid_t gid;                  /* with UV_PROCESS_SETGID */
} uv_process_options_t;


/* ======================================================================
 * Requests
 *
 * Every request starts with UV_REQ_FIELDS (64 bytes), so any request may
 * be passed where a uv_req_t* is expected.
 * ====================================================================== */

#if UV_VERSION_MINOR >= 53
/* libuv 1.53 keeps a write's byte count in the last reserved slot. */
struct uv__req_write_extra_s {
  size_t nwritten;
};
# define UV__REQ_RESERVED                                               \
  void* reserved[5];                                                    \
  union {                                                               \
    void* reserved2[1];                                                 \
    struct uv__req_write_extra_s write_extra;                           \
  };
#else
# define UV__REQ_RESERVED void* reserved[6];  /* reserved for future use */
#endif
#define UV_REQ_FIELDS                                                   \
  void* data;                 /* free for the user */                   \
  uv_req_type type;           /* request kind (read-only) */            \
  unsigned int uv_req_private32_;                                       \
  UV__REQ_RESERVED                                                      \

/* What the requests that run on the thread pool add: the loop their
 * callback runs on, and their place in the pool's queue. */
#define UV_POOL_REQ_FIELDS                                              \
  uv_loop_t* loop;            /* loop the callback runs on */           \
  uint64_t uv_private_[5];                                              \

/* The common part of all requests. */
struct uv_req_s {
  UV_REQ_FIELDS
};

/* uv_shutdown(): end the write side once queued writes are done. */
struct uv_shutdown_s {
  UV_REQ_FIELDS
  uv_stream_t* handle;        /* the stream being shut down */
  uv_shutdown_cb cb;          /* completion callback */
  UV_SHUTDOWN_PRIVATE_FIELDS
};

/* uv_write() / uv_write2(). */
struct uv_write_s {
  UV_REQ_FIELDS
  uv_write_cb cb;             /* completion callback */
  uv_stream_t* send_handle;   /* handle passed over an IPC pipe, or NULL */
  uv_stream_t* handle;        /* the stream written to */
  UV_WRITE_PRIVATE_FIELDS
};

/* uv_tcp_connect() / uv_pipe_connect(). */
struct uv_connect_s {
  UV_REQ_FIELDS
  uv_connect_cb cb;           /* completion callback */
  uv_stream_t* handle;        /* the stream being connected */
  UV_CONNECT_PRIVATE_FIELDS
};

/* uv_udp_send(). */
struct uv_udp_send_s {
  UV_REQ_FIELDS
  uv_udp_t* handle;           /* the sending socket */
  uv_udp_send_cb cb;          /* completion callback */
  UV_UDP_SEND_PRIVATE_FIELDS
};

/* A file system operation (uv_fs_*()). */
struct uv_fs_s {
  UV_REQ_FIELDS
  uv_fs_type fs_type;         /* which operation */
  unsigned int uv_private32_;
  uv_loop_t* loop;            /* loop it runs on */
  uv_fs_cb cb;                /* completion callback; NULL = synchronous */
  ssize_t result;             /* >= 0 on success, else an error code */
  void* ptr;                  /* operation-specific result data */
  const char* path;           /* path argument, where there is one */
  uv_stat_t statbuf;          /* result of the stat family */
  UV_FS_PRIVATE_FIELDS
};

/* uv_queue_work(): run work_cb on the thread pool. */
struct uv_work_s {
  UV_REQ_FIELDS
  uv_loop_t* loop;            /* loop after_work_cb runs on */
  uv_work_cb work_cb;         /* runs on a pool thread */
  uv_after_work_cb after_work_cb; /* runs on the loop thread afterwards */
  uint64_t uv_private_[5];
};

/* uv_getaddrinfo(). */
struct uv_getaddrinfo_s {
  UV_REQ_FIELDS
  UV_POOL_REQ_FIELDS
  uv_getaddrinfo_cb cb;       /* completion callback */
  uint64_t uv_private2_[3];
  struct addrinfo* addrinfo;  /* result list (free with uv_freeaddrinfo()) */
  uint64_t uv_private3_[1];
};

/* uv_getnameinfo(). */
struct uv_getnameinfo_s {
  UV_REQ_FIELDS
  UV_POOL_REQ_FIELDS
  uv_getnameinfo_cb getnameinfo_cb; /* completion callback */
  uint64_t uv_private2_[16];
  unsigned int uv_private32_;
  char host[1025];            /* resolved host name (NI_MAXHOST bytes) */
  char service[32];           /* resolved service name (NI_MAXSERV bytes) */
  unsigned int uv_private3_[2];
};

/* uv_random(). */
struct uv_random_s {
  UV_REQ_FIELDS
  uv_loop_t* loop;            /* loop the callback runs on */
  uint64_t uv_private_[9];
};


/* ======================================================================
 * Handles
 *
 * Every handle starts with UV_HANDLE_FIELDS (96 bytes) and every stream
 * (TCP, pipe, TTY) continues with UV_STREAM_FIELDS, so a uv_tcp_t* may be
 * used as a uv_stream_t* and as a uv_handle_t*.
 * ====================================================================== */

/* libuv's member names at libuv's offsets.  `flags` (offset 88) holds
 * libuv 1.44's handle state bits (closing 0x1, closed 0x2, active 0x4,
 * ref 0x8, readable 0x4000, writable 0x8000, ...), kept in step with the
 * handle's state; the other private members are phaseloop's own bytes. */
#define UV_HANDLE_FIELDS                                                \
  void* data;                 /* free for the user */                   \
  uv_loop_t* loop;            /* owning loop (read-only) */             \
  uv_handle_type type;        /* handle kind (read-only) */             \
  uv_close_cb close_cb;       /* from uv_close() (private) */           \
  UV__QUEUE(handle_queue);    /* private */                             \
  union {                                                               \
    int fd;                                                             \
    void* reserved[4];                                                  \
  } u;                        /* private */                             \
  UV_HANDLE_PRIVATE_FIELDS                                              \

#define UV_STREAM_FIELDS                                                \
  size_t write_queue_size;    /* bytes queued but not yet written */    \
  uv_alloc_cb alloc_cb;       /* from uv_read_start() */                \
  uv_read_cb read_cb;         /* from uv_read_start() */                \
  uint64_t uv_stream_private_[16];                                      \

/* The common part of all handles. */
struct uv_handle_s {
  UV_HANDLE_FIELDS
};

/* The common part of TCP, pipe and TTY handles. */
struct uv_stream_s {
  UV_HANDLE_FIELDS
  UV_STREAM_FIELDS
};

/* A TCP socket, listening or connected. */
struct uv_tcp_s {
  UV_HANDLE_FIELDS
  UV_STREAM_FIELDS
};

/* A Unix domain socket or a pipe. */
struct uv_pipe_s {
  UV_HANDLE_FIELDS
  UV_STREAM_FIELDS
  int ipc;                    /* non-zero: may carry handles */
  unsigned int uv_private32_;
  UV_PIPE_PRIVATE_FIELDS
};

/* A terminal. */
struct uv_tty_s {
  UV_HANDLE_FIELDS
  UV_STREAM_FIELDS
  UV_TTY_PRIVATE_FIELDS
};

/* A UDP socket. */
struct uv_udp_s {
  UV_HANDLE_FIELDS
  size_t send_queue_size;     /* bytes waiting to be sent (read-only) */
  size_t send_queue_count;    /* send requests waiting (read-only) */
  UV_UDP_PRIVATE_FIELDS
};

/* Readiness notification for a foreign descriptor. */
struct uv_poll_s {
  UV_HANDLE_FIELDS
  uv_poll_cb poll_cb;         /* from uv_poll_start() */
  UV_POLL_PRIVATE_FIELDS
};

/* Runs its callback right before the loop blocks for I/O. */
struct uv_prepare_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[3];
};

/* Runs its callback right after the loop polled for I/O. */
struct uv_check_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[3];
};

/* Runs its callback on every iteration, keeping the poll non-blocking. */
struct uv_idle_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[3];
};

/* Wakes the loop up from any thread (uv_async_send()). */
struct uv_async_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[4];
};

/* A one-shot or repeating timer. */
struct uv_timer_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[7];
};

/* A child process started by uv_spawn(). */
struct uv_process_s {
  UV_HANDLE_FIELDS
  uv_exit_cb exit_cb;         /* from the spawn options */
  int pid;                    /* the child's process id */
  UV_PROCESS_PRIVATE_FIELDS
};

/* File system change notification. */
struct uv_fs_event_s {
  UV_HANDLE_FIELDS
  char* path;                 /* watched path (prefer uv_fs_event_getpath()) */
  uint64_t uv_private_[4];
};

/* File change detection by periodic stat(). */
struct uv_fs_poll_s {
  UV_HANDLE_FIELDS
  uint64_t uv_private_[1];
};

/* Signal delivery on the loop thread. */
struct uv_signal_s {
  UV_HANDLE_FIELDS
  uv_signal_cb signal_cb;     /* from uv_signal_start() */
  int signum;                 /* the watched signal */
  unsigned int uv_private32_;
  uint64_t uv_private_[5];
};


/* ======================================================================
 * The event loop
 * ====================================================================== */

struct uv_loop_s {
  void* data;                   /* free for the user */
  unsigned int active_handles;  /* active referenced handles (read-only) */
  unsigned int uv_private32_;
  uint64_t uv_private_[104];
};

/* Unions as large as the largest handle / request: handy for pools. */
union uv_any_handle {
  uv_async_t async;
  uv_check_t check;
  uv_fs_event_t fs_event;
  uv_fs_poll_t fs_poll;
  uv_handle_t handle;
  uv_idle_t idle;
  uv_pipe_t pipe;
  uv_poll_t poll;
  uv_prepare_t prepare;
  uv_process_t process;
  uv_stream_t stream;
  uv_tcp_t tcp;
  uv_timer_t timer;
  uv_tty_t tty;
  uv_udp_t udp;
  uv_signal_t signal;
};

union uv_any_req {
  uv_req_t req;
  uv_connect_t connect;
  uv_write_t write;
  uv_shutdown_t shutdown;
  uv_udp_send_t udp_send;
  uv_fs_t fs;
  uv_work_t work;
  uv_getaddrinfo_t getaddrinfo;
  uv_getnameinfo_t getnameinfo;
  uv_random_t random;
};


/* ======================================================================
 * Functions
 * ====================================================================== */

/* --- Library ---------------------------------------------------------- */
UV_EXTERN unsigned int uv_version(void);
UV_EXTERN const char* uv_version_string(void);
UV_EXTERN void uv_library_shutdown(void);
UV_EXTERN int uv_replace_allocator(uv_malloc_func malloc_func,
                                   uv_realloc_func realloc_func,
                                   uv_calloc_func calloc_func,
                                   uv_free_func free_func);

/* --- Errors ----------------------------------------------------------- */
UV_EXTERN int uv_translate_sys_error(int sys_errno);
UV_EXTERN const char* uv_strerror(int err);
UV_EXTERN char* uv_strerror_r(int err, char* buf, size_t buflen);
UV_EXTERN const char* uv_err_name(int err);
UV_EXTERN char* uv_err_name_r(int err, char* buf, size_t buflen);

/* --- Loop ------------------------------------------------------------- */
UV_EXTERN uv_loop_t* uv_default_loop(void);
UV_EXTERN int uv_loop_init(uv_loop_t* loop);
UV_EXTERN int uv_loop_close(uv_loop_t* loop);
UV_EXTERN uv_loop_t* uv_loop_new(void);           /* deprecated */
UV_EXTERN void uv_loop_delete(uv_loop_t* loop);   /* deprecated */
UV_EXTERN size_t uv_loop_size(void);
UV_EXTERN int uv_loop_alive(const uv_loop_t* loop);
UV_EXTERN int uv_loop_configure(uv_loop_t* loop, uv_loop_option option, ...);
UV_EXTERN int uv_loop_fork(uv_loop_t* loop);
UV_EXTERN int uv_run(uv_loop_t* loop, uv_run_mode mode);
UV_EXTERN void uv_stop(uv_loop_t* loop);
UV_EXTERN void uv_update_time(uv_loop_t* loop);
UV_EXTERN uint64_t uv_now(const uv_loop_t* loop);
UV_EXTERN int uv_backend_fd(const uv_loop_t* loop);
UV_EXTERN int uv_backend_timeout(const uv_loop_t* loop);
UV_EXTERN void uv_walk(uv_loop_t* loop, uv_walk_cb walk_cb, void* arg);
UV_EXTERN void* uv_loop_get_data(const uv_loop_t* loop);
UV_EXTERN void uv_loop_set_data(uv_loop_t* loop, void* data);
UV_EXTERN uint64_t uv_metrics_idle_time(uv_loop_t* loop);
/* Debugging aids; output format not stable. */
UV_EXTERN void uv_print_all_handles(uv_loop_t* loop, FILE* stream);
UV_EXTERN void uv_print_active_handles(uv_loop_t* loop, FILE* stream);

/* --- Handles in general ----------------------------------------------- */
UV_EXTERN void uv_ref(uv_handle_t* handle);
UV_EXTERN void uv_unref(uv_handle_t* handle);
UV_EXTERN int uv_has_ref(const uv_handle_t* handle);
UV_EXTERN int uv_is_active(const uv_handle_t* handle);
UV_EXTERN int uv_is_closing(const uv_handle_t* handle);
UV_EXTERN void uv_close(uv_handle_t* handle, uv_close_cb close_cb);
UV_EXTERN size_t uv_handle_size(uv_handle_type type);
UV_EXTERN uv_handle_type uv_handle_get_type(const uv_handle_t* handle);
UV_EXTERN const char* uv_handle_type_name(uv_handle_type type);
UV_EXTERN void* uv_handle_get_data(const uv_handle_t* handle);
UV_EXTERN uv_loop_t* uv_handle_get_loop(const uv_handle_t* handle);
UV_EXTERN void uv_handle_set_data(uv_handle_t* handle, void* data);
UV_EXTERN int uv_send_buffer_size(uv_handle_t* handle, int* value);
UV_EXTERN int uv_recv_buffer_size(uv_handle_t* handle, int* value);
UV_EXTERN int uv_fileno(const uv_handle_t* handle, uv_os_fd_t* fd);

/* --- Requests in general ---------------------------------------------- */
UV_EXTERN size_t uv_req_size(uv_req_type type);
UV_EXTERN void* uv_req_get_data(const uv_req_t* req);
UV_EXTERN void uv_req_set_data(uv_req_t* req, void* data);
UV_EXTERN uv_req_type uv_req_get_type(const uv_req_t* req);
UV_EXTERN const char* uv_req_type_name(uv_req_type type);
UV_EXTERN int uv_cancel(uv_req_t* req);

/* --- Buffers and descriptors ------------------------------------------ */
UV_EXTERN uv_buf_t uv_buf_init(char* base, unsigned int len);
UV_EXTERN int uv_pipe(uv_file fds[2], int read_flags, int write_flags);
UV_EXTERN int uv_socketpair(int type, int protocol,
                            uv_os_sock_t socket_vector[2],
                            int flags0, int flags1);
UV_EXTERN uv_handle_type uv_guess_handle(uv_file file);
UV_EXTERN uv_os_fd_t uv_get_osfhandle(int fd);
UV_EXTERN int uv_open_osfhandle(uv_os_fd_t os_fd);

/* --- Streams ---------------------------------------------------------- */
UV_EXTERN int uv_shutdown(uv_shutdown_t* req, uv_stream_t* handle,
                          uv_shutdown_cb cb);
UV_EXTERN size_t uv_stream_get_write_queue_size(const uv_stream_t* stream);
UV_EXTERN int uv_listen(uv_stream_t* stream, int backlog, uv_connection_cb cb);
UV_EXTERN int uv_accept(uv_stream_t* server, uv_stream_t* client);
UV_EXTERN int uv_read_start(uv_stream_t* stream, uv_alloc_cb alloc_cb,
                            uv_read_cb read_cb);
UV_EXTERN int uv_read_stop(uv_stream_t* stream);
UV_EXTERN int uv_write(uv_write_t* req, uv_stream_t* handle,
                       const uv_buf_t bufs[], unsigned int nbufs,
                       uv_write_cb cb);
UV_EXTERN int uv_write2(uv_write_t* req, uv_stream_t* handle,
                        const uv_buf_t bufs[], unsigned int nbufs,
                        uv_stream_t* send_handle, uv_write_cb cb);
UV_EXTERN int uv_try_write(uv_stream_t* handle, const uv_buf_t bufs[],
                           unsigned int nbufs);
UV_EXTERN int uv_try_write2(uv_stream_t* handle, const uv_buf_t bufs[],
                            unsigned int nbufs, uv_stream_t* send_handle);
UV_EXTERN int uv_is_readable(const uv_stream_t* handle);
UV_EXTERN int uv_is_writable(const uv_stream_t* handle);
UV_EXTERN int uv_stream_set_blocking(uv_stream_t* handle, int blocking);

/* --- TCP -------------------------------------------------------------- */
UV_EXTERN int uv_tcp_init(uv_loop_t* loop, uv_tcp_t* handle);
UV_EXTERN int uv_tcp_init_ex(uv_loop_t* loop, uv_tcp_t* handle,
                             unsigned int flags);
UV_EXTERN int uv_tcp_open(uv_tcp_t* handle, uv_os_sock_t sock);
UV_EXTERN int uv_tcp_nodelay(uv_tcp_t* handle, int enable);
UV_EXTERN int uv_tcp_keepalive(uv_tcp_t* handle, int enable,
                               unsigned int delay);
UV_EXTERN int uv_tcp_simultaneous_accepts(uv_tcp_t* handle, int enable);
UV_EXTERN int uv_tcp_bind(uv_tcp_t* handle, const struct sockaddr* addr,
                          unsigned int flags);
UV_EXTERN int uv_tcp_getsockname(const uv_tcp_t* handle,
                                 struct sockaddr* name, int* namelen);
UV_EXTERN int uv_tcp_getpeername(const uv_tcp_t* handle,
                                 struct sockaddr* name, int* namelen);
UV_EXTERN int uv_tcp_close_reset(uv_tcp_t* handle, uv_close_cb close_cb);
UV_EXTERN int uv_tcp_connect(uv_connect_t* req, uv_tcp_t* handle,
                             const struct sockaddr* addr, uv_connect_cb cb);

/* --- UDP -------------------------------------------------------------- */
UV_EXTERN int uv_udp_init(uv_loop_t* loop, uv_udp_t* handle);
UV_EXTERN int uv_udp_init_ex(uv_loop_t* loop, uv_udp_t* handle,
                             unsigned int flags);
UV_EXTERN int uv_udp_open(uv_udp_t* handle, uv_os_sock_t sock);
UV_EXTERN int uv_udp_bind(uv_udp_t* handle, const struct sockaddr* addr,
                          unsigned int flags);
UV_EXTERN int uv_udp_connect(uv_udp_t* handle, const struct sockaddr* addr);
UV_EXTERN int uv_udp_getpeername(const uv_udp_t* handle,
                                 struct sockaddr* name, int* namelen);
UV_EXTERN int uv_udp_getsockname(const uv_udp_t* handle,
                                 struct sockaddr* name, int* namelen);
UV_EXTERN int uv_udp_set_membership(uv_udp_t* handle,
                                    const char* multicast_addr,
                                    const char* interface_addr,
                                    uv_membership membership);
UV_EXTERN int uv_udp_set_source_membership(uv_udp_t* handle,
                                           const char* multicast_addr,
                                           const char* interface_addr,
                                           const char* source_addr,
                                           uv_membership membership);
UV_EXTERN int uv_udp_set_multicast_loop(uv_udp_t* handle, int on);
UV_EXTERN int uv_udp_set_multicast_ttl(uv_udp_t* handle, int ttl);
UV_EXTERN int uv_udp_set_multicast_interface(uv_udp_t* handle,
                                             const char* interface_addr);
UV_EXTERN int uv_udp_set_broadcast(uv_udp_t* handle, int on);
UV_EXTERN int uv_udp_set_ttl(uv_udp_t* handle, int ttl);
UV_EXTERN int uv_udp_send(uv_udp_send_t* req, uv_udp_t* handle,
                          const uv_buf_t bufs[], unsigned int nbufs,
                          const struct sockaddr* addr,
                          uv_udp_send_cb send_cb);
UV_EXTERN int uv_udp_try_send(uv_udp_t* handle, const uv_buf_t bufs[],
                              unsigned int nbufs,
                              const struct sockaddr* addr);
UV_EXTERN int uv_udp_recv_start(uv_udp_t* handle, uv_alloc_cb alloc_cb,
                                uv_udp_recv_cb recv_cb);
UV_EXTERN int uv_udp_using_recvmmsg(const uv_udp_t* handle);
UV_EXTERN int uv_udp_recv_stop(uv_udp_t* handle);
UV_EXTERN size_t uv_udp_get_send_queue_size(const uv_udp_t* handle);
UV_EXTERN size_t uv_udp_get_send_queue_count(const uv_udp_t* handle);

/* --- TTY -------------------------------------------------------------- */
UV_EXTERN int uv_tty_init(uv_loop_t* loop, uv_tty_t* tty, uv_file fd,
                          int readable);
UV_EXTERN int uv_tty_set_mode(uv_tty_t* tty, uv_tty_mode_t mode);
UV_EXTERN int uv_tty_reset_mode(void);
UV_EXTERN int uv_tty_get_winsize(uv_tty_t* tty, int* width, int* height);
UV_EXTERN void uv_tty_set_vterm_state(uv_tty_vtermstate_t state);
UV_EXTERN int uv_tty_get_vterm_state(uv_tty_vtermstate_t* state);

/* --- Pipes ------------------------------------------------------------ */
UV_EXTERN int uv_pipe_init(uv_loop_t* loop, uv_pipe_t* handle, int ipc);
UV_EXTERN int uv_pipe_open(uv_pipe_t* handle, uv_file file);
UV_EXTERN int uv_pipe_bind(uv_pipe_t* handle, const char* name);
UV_EXTERN void uv_pipe_connect(uv_connect_t* req, uv_pipe_t* handle,
                               const char* name, uv_connect_cb cb);
UV_EXTERN int uv_pipe_getsockname(const uv_pipe_t* handle, char* buffer,
                                  size_t* size);
UV_EXTERN int uv_pipe_getpeername(const uv_pipe_t* handle, char* buffer,
                                  size_t* size);
UV_EXTERN void uv_pipe_pending_instances(uv_pipe_t* handle, int count);
UV_EXTERN int uv_pipe_pending_count(uv_pipe_t* handle);
UV_EXTERN uv_handle_type uv_pipe_pending_type(uv_pipe_t* handle);
UV_EXTERN int uv_pipe_chmod(uv_pipe_t* handle, int flags);

/* --- Poll ------------------------------------------------------------- */
UV_EXTERN int uv_poll_init(uv_loop_t* loop, uv_poll_t* handle, int fd);
UV_EXTERN int uv_poll_init_socket(uv_loop_t* loop, uv_poll_t* handle,
                                  uv_os_sock_t socket);
UV_EXTERN int uv_poll_start(uv_poll_t* handle, int events, uv_poll_cb cb);
UV_EXTERN int uv_poll_stop(uv_poll_t* handle);

/* --- Prepare, check, idle --------------------------------------------- */
UV_EXTERN int uv_prepare_init(uv_loop_t* loop, uv_prepare_t* prepare);
UV_EXTERN int uv_prepare_start(uv_prepare_t* prepare, uv_prepare_cb cb);
UV_EXTERN int uv_prepare_stop(uv_prepare_t* prepare);
UV_EXTERN int uv_check_init(uv_loop_t* loop, uv_check_t* check);
UV_EXTERN int uv_check_start(uv_check_t* check, uv_check_cb cb);
UV_EXTERN int uv_check_stop(uv_check_t* check);
UV_EXTERN int uv_idle_init(uv_loop_t* loop, uv_idle_t* idle);
UV_EXTERN int uv_idle_start(uv_idle_t* idle, uv_idle_cb cb);
UV_EXTERN int uv_idle_stop(uv_idle_t* idle);

/* --- Async ------------------------------------------------------------ */
UV_EXTERN int uv_async_init(uv_loop_t* loop, uv_async_t* async,
                            uv_async_cb async_cb);
UV_EXTERN int uv_async_send(uv_async_t* async);

/* --- Timers ----------------------------------------------------------- */
UV_EXTERN int uv_timer_init(uv_loop_t* loop, uv_timer_t* handle);
UV_EXTERN int uv_timer_start(uv_timer_t* handle, uv_timer_cb cb,
                             uint64_t timeout, uint64_t repeat);
UV_EXTERN int uv_timer_stop(uv_timer_t* handle);
UV_EXTERN int uv_timer_again(uv_timer_t* handle);
UV_EXTERN void uv_timer_set_repeat(uv_timer_t* handle, uint64_t repeat);
UV_EXTERN uint64_t uv_timer_get_repeat(const uv_timer_t* handle);
UV_EXTERN uint64_t uv_timer_get_due_in(const uv_timer_t* handle);

/* --- DNS -------------------------------------------------------------- */
UV_EXTERN int uv_getaddrinfo(uv_loop_t* loop, uv_getaddrinfo_t* req,
                             uv_getaddrinfo_cb getaddrinfo_cb,
                             const char* node, const char* service,
                             const struct addrinfo* hints);
UV_EXTERN void uv_freeaddrinfo(struct addrinfo* ai);
UV_EXTERN int uv_getnameinfo(uv_loop_t* loop, uv_getnameinfo_t* req,
                             uv_getnameinfo_cb getnameinfo_cb,
                             const struct sockaddr* addr, int flags);

/* --- Processes -------------------------------------------------------- */
UV_EXTERN int uv_spawn(uv_loop_t* loop, uv_process_t* handle,
                       const uv_process_options_t* options);
UV_EXTERN int uv_process_kill(uv_process_t* process, int signum);
UV_EXTERN int uv_kill(int pid, int signum);
UV_EXTERN uv_pid_t uv_process_get_pid(const uv_process_t* process);
UV_EXTERN void uv_disable_stdio_inheritance(void);

/* --- Thread pool ------------------------------------------------------ */
UV_EXTERN int uv_queue_work(uv_loop_t* loop, uv_work_t* req,
                            uv_work_cb work_cb,
                            uv_after_work_cb after_work_cb);

/* --- File system ------------------------------------------------------ */
UV_EXTERN uv_fs_type uv_fs_get_type(const uv_fs_t* req);
UV_EXTERN ssize_t uv_fs_get_result(const uv_fs_t* req);
UV_EXTERN int uv_fs_get_system_error(const uv_fs_t* req);
UV_EXTERN void* uv_fs_get_ptr(const uv_fs_t* req);
UV_EXTERN const char* uv_fs_get_path(const uv_fs_t* req);
UV_EXTERN uv_stat_t* uv_fs_get_statbuf(uv_fs_t* req);
UV_EXTERN void uv_fs_req_cleanup(uv_fs_t* req);
UV_EXTERN int uv_fs_close(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                          uv_fs_cb cb);
UV_EXTERN int uv_fs_open(uv_loop_t* loop, uv_fs_t* req, const char* path,
                         int flags, int mode, uv_fs_cb cb);
UV_EXTERN int uv_fs_read(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                         const uv_buf_t bufs[], unsigned int nbufs,
                         int64_t offset, uv_fs_cb cb);
UV_EXTERN int uv_fs_write(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                          const uv_buf_t bufs[], unsigned int nbufs,
                          int64_t offset, uv_fs_cb cb);
UV_EXTERN int uv_fs_unlink(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           uv_fs_cb cb);
UV_EXTERN int uv_fs_copyfile(uv_loop_t* loop, uv_fs_t* req,
                             const char* path, const char* new_path,
                             int flags, uv_fs_cb cb);
UV_EXTERN int uv_fs_mkdir(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          int mode, uv_fs_cb cb);
UV_EXTERN int uv_fs_mkdtemp(uv_loop_t* loop, uv_fs_t* req, const char* tpl,
                            uv_fs_cb cb);
UV_EXTERN int uv_fs_mkstemp(uv_loop_t* loop, uv_fs_t* req, const char* tpl,
                            uv_fs_cb cb);
UV_EXTERN int uv_fs_rmdir(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          uv_fs_cb cb);
UV_EXTERN int uv_fs_scandir(uv_loop_t* loop, uv_fs_t* req, const char* path,
                            int flags, uv_fs_cb cb);
UV_EXTERN int uv_fs_scandir_next(uv_fs_t* req, uv_dirent_t* ent);
UV_EXTERN int uv_fs_opendir(uv_loop_t* loop, uv_fs_t* req, const char* path,
                            uv_fs_cb cb);
UV_EXTERN int uv_fs_readdir(uv_loop_t* loop, uv_fs_t* req, uv_dir_t* dir,
                            uv_fs_cb cb);
UV_EXTERN int uv_fs_closedir(uv_loop_t* loop, uv_fs_t* req, uv_dir_t* dir,
                             uv_fs_cb cb);
UV_EXTERN int uv_fs_stat(uv_loop_t* loop, uv_fs_t* req, const char* path,
                         uv_fs_cb cb);
UV_EXTERN int uv_fs_fstat(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                          uv_fs_cb cb);
UV_EXTERN int uv_fs_rename(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           const char* new_path, uv_fs_cb cb);
UV_EXTERN int uv_fs_fsync(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                          uv_fs_cb cb);
UV_EXTERN int uv_fs_fdatasync(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                              uv_fs_cb cb);
UV_EXTERN int uv_fs_ftruncate(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                              int64_t offset, uv_fs_cb cb);
UV_EXTERN int uv_fs_sendfile(uv_loop_t* loop, uv_fs_t* req, uv_file out_fd,
                             uv_file in_fd, int64_t in_offset, size_t length,
                             uv_fs_cb cb);
UV_EXTERN int uv_fs_access(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           int mode, uv_fs_cb cb);
UV_EXTERN int uv_fs_chmod(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          int mode, uv_fs_cb cb);
UV_EXTERN int uv_fs_utime(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          double atime, double mtime, uv_fs_cb cb);
UV_EXTERN int uv_fs_lutime(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           double atime, double mtime, uv_fs_cb cb);
UV_EXTERN int uv_fs_futime(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                           double atime, double mtime, uv_fs_cb cb);
UV_EXTERN int uv_fs_lstat(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          uv_fs_cb cb);
UV_EXTERN int uv_fs_link(uv_loop_t* loop, uv_fs_t* req, const char* path,
                         const char* new_path, uv_fs_cb cb);
UV_EXTERN int uv_fs_symlink(uv_loop_t* loop, uv_fs_t* req, const char* path,
                            const char* new_path, int flags, uv_fs_cb cb);
UV_EXTERN int uv_fs_readlink(uv_loop_t* loop, uv_fs_t* req, const char* path,
                             uv_fs_cb cb);
UV_EXTERN int uv_fs_realpath(uv_loop_t* loop, uv_fs_t* req, const char* path,
                             uv_fs_cb cb);
UV_EXTERN int uv_fs_fchmod(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                           int mode, uv_fs_cb cb);
UV_EXTERN int uv_fs_chown(uv_loop_t* loop, uv_fs_t* req, const char* path,
                          uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb);
UV_EXTERN int uv_fs_fchown(uv_loop_t* loop, uv_fs_t* req, uv_file file,
                           uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb);
UV_EXTERN int uv_fs_lchown(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb);
UV_EXTERN int uv_fs_statfs(uv_loop_t* loop, uv_fs_t* req, const char* path,
                           uv_fs_cb cb);

/* --- File system watchers --------------------------------------------- */
UV_EXTERN int uv_fs_event_init(uv_loop_t* loop, uv_fs_event_t* handle);
UV_EXTERN int uv_fs_event_start(uv_fs_event_t* handle, uv_fs_event_cb cb,
                                const char* path, unsigned int flags);
UV_EXTERN int uv_fs_event_stop(uv_fs_event_t* handle);
UV_EXTERN int uv_fs_event_getpath(uv_fs_event_t* handle, char* buffer, size_t* size);
UV_EXTERN int uv_fs_poll_init(uv_loop_t* loop, uv_fs_poll_t* handle);
UV_EXTERN int uv_fs_poll_start(uv_fs_poll_t* handle, uv_fs_poll_cb poll_cb,
                               const char* path, unsigned int interval);
UV_EXTERN int uv_fs_poll_stop(uv_fs_poll_t* handle);
UV_EXTERN int uv_fs_poll_getpath(uv_fs_poll_t* handle, char* buffer, size_t* size);

/* --- Signals ---------------------------------------------------------- */
UV_EXTERN int uv_signal_init(uv_loop_t* loop, uv_signal_t* handle);
UV_EXTERN int uv_signal_start(uv_signal_t* handle, uv_signal_cb signal_cb,
                              int signum);
UV_EXTERN int uv_signal_start_oneshot(uv_signal_t* handle,
                                      uv_signal_cb signal_cb, int signum);
UV_EXTERN int uv_signal_stop(uv_signal_t* handle);

/* --- Addresses -------------------------------------------------------- */
UV_EXTERN int uv_ip4_addr(const char* ip, int port, struct sockaddr_in* addr);
UV_EXTERN int uv_ip6_addr(const char* ip, int port,
                          struct sockaddr_in6* addr);
UV_EXTERN int uv_ip4_name(const struct sockaddr_in* src, char* dst,
                          size_t size);
UV_EXTERN int uv_ip6_name(const struct sockaddr_in6* src, char* dst,
                          size_t size);
UV_EXTERN int uv_ip_name(const struct sockaddr* src, char* dst, size_t size);
UV_EXTERN int uv_inet_ntop(int af, const void* src, char* dst, size_t size);
UV_EXTERN int uv_inet_pton(int af, const char* src, void* dst);
UV_EXTERN int uv_if_indextoname(unsigned int ifindex, char* buffer,
                                size_t* size);
UV_EXTERN int uv_if_indextoiid(unsigned int ifindex, char* buffer,
                               size_t* size);
UV_EXTERN int uv_interface_addresses(uv_interface_address_t** addresses,
                                     int* count);
UV_EXTERN void uv_free_interface_addresses(uv_interface_address_t* addresses,
                                           int count);

/* --- Randomness ------------------------------------------------------- */
UV_EXTERN int uv_random(uv_loop_t* loop, uv_random_t* req, void* buf,
                        size_t buflen, unsigned flags, uv_random_cb cb);

/* --- Process and system information ----------------------------------- */
UV_EXTERN char** uv_setup_args(int argc, char** argv);
UV_EXTERN int uv_get_process_title(char* buffer, size_t size);
UV_EXTERN int uv_set_process_title(const char* title);
UV_EXTERN int uv_resident_set_memory(size_t* rss);
UV_EXTERN int uv_uptime(double* uptime);
UV_EXTERN int uv_getrusage(uv_rusage_t* rusage);
UV_EXTERN int uv_os_homedir(char* buffer, size_t* size);
UV_EXTERN int uv_os_tmpdir(char* buffer, size_t* size);
UV_EXTERN int uv_os_get_passwd(uv_passwd_t* pwd);
UV_EXTERN void uv_os_free_passwd(uv_passwd_t* pwd);
UV_EXTERN uv_pid_t uv_os_getpid(void);
UV_EXTERN uv_pid_t uv_os_getppid(void);
UV_EXTERN int uv_os_getpriority(uv_pid_t pid, int* priority);
UV_EXTERN int uv_os_setpriority(uv_pid_t pid, int priority);
UV_EXTERN unsigned int uv_available_parallelism(void);
UV_EXTERN int uv_cpu_info(uv_cpu_info_t** cpu_infos, int* count);
UV_EXTERN void uv_free_cpu_info(uv_cpu_info_t* cpu_infos, int count);
UV_EXTERN int uv_os_environ(uv_env_item_t** envitems, int* count);
UV_EXTERN void uv_os_free_environ(uv_env_item_t* envitems, int count);
UV_EXTERN int uv_os_getenv(const char* name, char* buffer, size_t* size);
UV_EXTERN int uv_os_setenv(const char* name, const char* value);
UV_EXTERN int uv_os_unsetenv(const char* name);
UV_EXTERN int uv_os_gethostname(char* buffer, size_t* size);
UV_EXTERN int uv_os_uname(uv_utsname_t* buffer);
UV_EXTERN void uv_loadavg(double avg[3]);
UV_EXTERN int uv_exepath(char* buffer, size_t* size);
UV_EXTERN int uv_cwd(char* buffer, size_t* size);
UV_EXTERN int uv_chdir(const char* dir);
UV_EXTERN uint64_t uv_get_free_memory(void);
UV_EXTERN uint64_t uv_get_total_memory(void);
UV_EXTERN uint64_t uv_get_constrained_memory(void);
UV_EXTERN uint64_t uv_hrtime(void);
UV_EXTERN void uv_sleep(unsigned int msec);
UV_EXTERN int uv_gettimeofday(uv_timeval64_t* tv);

/* --- Shared libraries ------------------------------------------------- */
UV_EXTERN int uv_dlopen(const char* filename, uv_lib_t* lib);
UV_EXTERN void uv_dlclose(uv_lib_t* lib);
UV_EXTERN int uv_dlsym(uv_lib_t* lib, const char* name, void** ptr);
UV_EXTERN const char* uv_dlerror(const uv_lib_t* lib);

/* --- Threads and synchronisation -------------------------------------- */
UV_EXTERN int uv_thread_create(uv_thread_t* tid, uv_thread_cb entry,
                               void* arg);
UV_EXTERN int uv_thread_create_ex(uv_thread_t* tid,
                                  const uv_thread_options_t* params,
                                  uv_thread_cb entry, void* arg);
UV_EXTERN uv_thread_t uv_thread_self(void);
UV_EXTERN int uv_thread_join(uv_thread_t* tid);
UV_EXTERN int uv_thread_equal(const uv_thread_t* t1, const uv_thread_t* t2);

UV_EXTERN int uv_mutex_init(uv_mutex_t* handle);
UV_EXTERN int uv_mutex_init_recursive(uv_mutex_t* handle);
UV_EXTERN void uv_mutex_destroy(uv_mutex_t* handle);
UV_EXTERN void uv_mutex_lock(uv_mutex_t* handle);
UV_EXTERN int uv_mutex_trylock(uv_mutex_t* handle);
UV_EXTERN void uv_mutex_unlock(uv_mutex_t* handle);

UV_EXTERN int uv_rwlock_init(uv_rwlock_t* rwlock);
UV_EXTERN void uv_rwlock_destroy(uv_rwlock_t* rwlock);
UV_EXTERN void uv_rwlock_rdlock(uv_rwlock_t* rwlock);
UV_EXTERN int uv_rwlock_tryrdlock(uv_rwlock_t* rwlock);
UV_EXTERN void uv_rwlock_rdunlock(uv_rwlock_t* rwlock);
UV_EXTERN void uv_rwlock_wrlock(uv_rwlock_t* rwlock);
UV_EXTERN int uv_rwlock_trywrlock(uv_rwlock_t* rwlock);
UV_EXTERN void uv_rwlock_wrunlock(uv_rwlock_t* rwlock);

UV_EXTERN int uv_sem_init(uv_sem_t* sem, unsigned int value);
UV_EXTERN void uv_sem_destroy(uv_sem_t* sem);
UV_EXTERN void uv_sem_post(uv_sem_t* sem);
UV_EXTERN void uv_sem_wait(uv_sem_t* sem);
UV_EXTERN int uv_sem_trywait(uv_sem_t* sem);

UV_EXTERN int uv_cond_init(uv_cond_t* cond);
UV_EXTERN void uv_cond_destroy(uv_cond_t* cond);
UV_EXTERN void uv_cond_signal(uv_cond_t* cond);
UV_EXTERN void uv_cond_broadcast(uv_cond_t* cond);
UV_EXTERN void uv_cond_wait(uv_cond_t* cond, uv_mutex_t* mutex);
UV_EXTERN int uv_cond_timedwait(uv_cond_t* cond, uv_mutex_t* mutex,
                                uint64_t timeout);

UV_EXTERN int uv_barrier_init(uv_barrier_t* barrier, unsigned int count);
UV_EXTERN void uv_barrier_destroy(uv_barrier_t* barrier);
UV_EXTERN int uv_barrier_wait(uv_barrier_t* barrier);

UV_EXTERN void uv_once(uv_once_t* guard, void (*callback)(void));

UV_EXTERN int uv_key_create(uv_key_t* key);
UV_EXTERN void uv_key_delete(uv_key_t* key);
UV_EXTERN void* uv_key_get(uv_key_t* key);
UV_EXTERN void uv_key_set(uv_key_t* key, void* value);

/* ======================================================================
 * The API libuv added after 1.44, each part declared when the program is
 * built for the version that has it (UV_VERSION_MINOR; by default 44, so
 * that a program written for 1.44 sees exactly 1.44's API).  The drop-in
 * libuv.so.1 exports all of it.
 * ====================================================================== */

#if UV_VERSION_MINOR >= 45
typedef enum {
  UV_CLOCK_MONOTONIC,
  UV_CLOCK_REALTIME
} uv_clock_id;

typedef struct {
  int64_t tv_sec;
  int32_t tv_nsec;
} uv_timespec64_t;

typedef struct uv_group_s uv_group_t;
typedef struct uv_metrics_s uv_metrics_t;

/* A group of the group database (uv_os_get_group()). */
struct uv_group_s {
  char* groupname;
  unsigned long gid;
  char** members;  /* NULL-terminated */
};

/* Counters of a loop (uv_metrics_info()). */
struct uv_metrics_s {
  uint64_t loop_count;      /* iterations */
  uint64_t events;          /* events the poll phase handled */
  uint64_t events_waiting;  /* ... of them found waiting (UV_METRICS_IDLE_TIME) */
  uint64_t* reserved[13];
};

UV_EXTERN int uv_clock_gettime(uv_clock_id clock_id, uv_timespec64_t* ts);
UV_EXTERN uint64_t uv_get_available_memory(void);
UV_EXTERN int uv_os_get_passwd2(uv_passwd_t* pwd, uv_uid_t uid);
UV_EXTERN int uv_os_get_group(uv_group_t* grp, uv_uid_t gid);
UV_EXTERN void uv_os_free_group(uv_group_t* grp);
UV_EXTERN int uv_cpumask_size(void);
UV_EXTERN int uv_thread_setaffinity(uv_thread_t* tid,
                                    char* cpumask,
                                    char* oldmask,
                                    size_t mask_size);
UV_EXTERN int uv_thread_getaffinity(uv_thread_t* tid,
                                    char* cpumask,
                                    size_t mask_size);
UV_EXTERN int uv_thread_getcpu(void);
UV_EXTERN int uv_metrics_info(uv_loop_t* loop, uv_metrics_t* metrics);
#endif

#if UV_VERSION_MINOR >= 46
enum {
  UV_PIPE_NO_TRUNCATE = 1u << 0  /* uv_pipe_bind2/connect2: refuse a long name */
};

UV_EXTERN int uv_pipe_bind2(uv_pipe_t* handle,
                            const char* name,
                            size_t namelen,
                            unsigned int flags);
UV_EXTERN int uv_pipe_connect2(uv_connect_t* req,
                               uv_pipe_t* handle,
                               const char* name,
                               size_t namelen,
                               unsigned int flags,
                               uv_connect_cb cb);
#endif

#if UV_VERSION_MINOR >= 47
UV_EXTERN size_t uv_utf16_length_as_wtf8(const uint16_t* utf16,
                                         ssize_t utf16_len);
UV_EXTERN int uv_utf16_to_wtf8(const uint16_t* utf16,
                               ssize_t utf16_len,
                               char** wtf8_ptr,
                               size_t* wtf8_len_ptr);
UV_EXTERN ssize_t uv_wtf8_length_as_utf16(const char* wtf8);
UV_EXTERN void uv_wtf8_to_utf16(const char* wtf8,
                                uint16_t* utf16,
                                size_t utf16_len);
#endif

#if UV_VERSION_MINOR >= 48
enum {
  UV_THREAD_PRIORITY_HIGHEST = 2,
  UV_THREAD_PRIORITY_ABOVE_NORMAL = 1,
  UV_THREAD_PRIORITY_NORMAL = 0,
  UV_THREAD_PRIORITY_BELOW_NORMAL = -1,
  UV_THREAD_PRIORITY_LOWEST = -2
};

UV_EXTERN int uv_thread_getpriority(uv_thread_t tid, int* priority);
UV_EXTERN int uv_thread_setpriority(uv_thread_t tid, int priority);
#endif

#if UV_VERSION_MINOR >= 50
UV_EXTERN int uv_getrusage_thread(uv_rusage_t* rusage);
UV_EXTERN int uv_thread_detach(uv_thread_t* tid);
UV_EXTERN int uv_thread_setname(const char* name);
UV_EXTERN int uv_thread_getname(uv_thread_t* tid, char* name, size_t size);
UV_EXTERN int uv_udp_try_send2(uv_udp_t* handle,
                               unsigned int count,
                               uv_buf_t* bufs[/*count*/],
                               unsigned int nbufs[/*count*/],
                               struct sockaddr* addrs[/*count*/],
                               unsigned int flags);
#endif

#if UV_VERSION_MINOR >= 51
/* uv_fs_utime() and friends: set a time to now, or leave it as it is. */
# include <math.h>
# define UV_FS_UTIME_NOW  (INFINITY)
# define UV_FS_UTIME_OMIT (NAN)
#endif

#if UV_VERSION_MINOR >= 52
UV_EXTERN int uv_tcp_keepalive_ex(uv_tcp_t* handle,
                                  int on,
                                  unsigned int idle,
                                  unsigned int intvl,
                                  unsigned int cnt);
UV_EXTERN int uv_udp_open_ex(uv_udp_t* handle,
                             uv_os_sock_t sock,
                             unsigned int flags);
#endif

#if UV_VERSION_MINOR >= 53
UV_EXTERN size_t uv_write_nwritten(const uv_write_t* req);
#endif

#ifdef __cplusplus
} /* extern "C" */

/* C++ callers may pass the mode as a plain int. */
inline int uv_tty_set_mode(uv_tty_t* tty, int mode) {
  return uv_tty_set_mode(tty, static_cast<uv_tty_mode_t>(mode));
}
#endif

#endif /* UV_H */
