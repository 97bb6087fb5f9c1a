// SPDX-License-Identifier: MIT
/* phaseloop: operating-system glue of the libuv-compatible interface.
 *
 * Pulls in the POSIX headers that libuv users traditionally receive through
 * <uv.h>, and defines the types whose representation is simply the
 * platform's own: descriptors, ids, thread primitives, I/O vectors.
 * Target: Linux (glibc), x86-64.
 */
#ifndef UV_UNIX_H
#define UV_UNIX_H

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <fcntl.h>
#include <dirent.h>
#include <termios.h>
#include <pwd.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

/* getnameinfo() buffer sizes, for compilation modes that hide them. */
#ifndef NI_MAXHOST
# define NI_MAXHOST 1025
#endif
#ifndef NI_MAXSERV
# define NI_MAXSERV 32
#endif

/* One scatter/gather element.  Same layout as struct iovec, so an array of
 * uv_buf_t can be handed to readv()/writev() unchanged. */
typedef struct uv_buf_t {
  char* base;  /* start of the memory */
  size_t len;  /* number of bytes at base */
} uv_buf_t;

typedef int uv_file;        /* a file descriptor as used by uv_fs_*() */
typedef int uv_os_sock_t;   /* a socket descriptor */
typedef int uv_os_fd_t;     /* any descriptor (uv_fileno() result) */
typedef pid_t uv_pid_t;     /* a process id */
typedef uid_t uv_uid_t;     /* a user id (uv_spawn(), uv_fs_chown()) */
typedef gid_t uv_gid_t;     /* a group id */

/* Thread primitives are the pthread objects themselves. */
typedef pthread_t uv_thread_t;
typedef pthread_key_t uv_key_t;
typedef pthread_once_t uv_once_t;
typedef pthread_mutex_t uv_mutex_t;
typedef pthread_cond_t uv_cond_t;
/* The semaphore type (the platform's own, named as libuv's headers name it). */
#ifndef UV_PLATFORM_SEM_T
# define UV_PLATFORM_SEM_T sem_t
#endif
typedef UV_PLATFORM_SEM_T uv_sem_t;

/* Static initializer for a uv_once_t. */
#define UV_ONCE_INIT PTHREAD_ONCE_INIT

/* Strict ISO modes (-std=c99, -std=c11) make glibc hide the rwlock and
 * barrier types.  Those programs still get objects of the right size and
 * alignment, just not under the pthread names. */
#if defined(PTHREAD_RWLOCK_INITIALIZER)
typedef pthread_rwlock_t uv_rwlock_t;
#else
typedef union {
# ifdef __SIZEOF_PTHREAD_RWLOCK_T
  char storage_[__SIZEOF_PTHREAD_RWLOCK_T];
# else
  char storage_[56];
# endif
  long align_;
} uv_rwlock_t;
#endif

#if defined(PTHREAD_BARRIER_SERIAL_THREAD)
typedef pthread_barrier_t uv_barrier_t;
#else
typedef union {
# ifdef __SIZEOF_PTHREAD_BARRIER_T
  char storage_[__SIZEOF_PTHREAD_BARRIER_T];
# else
  char storage_[32];
# endif
  long align_;
} uv_barrier_t;
#endif

/* A shared library opened by uv_dlopen(). */
typedef struct {
  void* handle;  /* dlopen() result */
  char* errmsg;  /* last error text, owned by the library object */
} uv_lib_t;

/* A directory entry as the system's readdir() gives it (libuv's name;
 * code built with libuv's internal header uv-common.h uses it). */
typedef struct dirent uv__dirent_t;

/* glibc's readdir() reports each entry's type, so uv_fs_scandir() and
 * uv_fs_readdir() fill uv_dirent_t.type; HAVE_DIRENT_TYPES says so to
 * programs (libuv's own tests test it), and UV__DT_* name the d_type
 * value behind each UV_DIRENT_* kind. */
#if defined(DT_UNKNOWN)
# define HAVE_DIRENT_TYPES
# define UV__DT_DIR DT_DIR
# define UV__DT_FILE DT_REG
# define UV__DT_LINK DT_LNK
# define UV__DT_FIFO DT_FIFO
# define UV__DT_SOCKET DT_SOCK
# define UV__DT_CHAR DT_CHR
# define UV__DT_BLOCK DT_BLK
#endif

#include "uv/threadpool.h"
#include "uv/linux.h"

/* The private parts of the structs in uv.h, under the macro names libuv's
 * headers give them, so that code which mirrors a libuv struct with these
 * macros gets phaseloop's sizes.  Their members are phaseloop's own bytes
 * (opaque), except those programs are known to read, which carry libuv's
 * names at libuv's offsets: a handle's `flags` (libuv's state bits, at
 * offset 88) and `next_closing`, a pipe's `pipe_fname`, and a file system
 * request's private fields (`new_path`, `bufs` ...; libuv's own tests read
 * them). */
#define UV_IO_PRIVATE_PLATFORM_FIELDS /* empty */
#define UV_STREAM_PRIVATE_PLATFORM_FIELDS /* empty */
#define UV_PRIVATE_REQ_TYPES /* empty */
#define UV_HANDLE_PRIVATE_FIELDS                                        \
  uv_handle_t* next_closing;                                            \
  unsigned int flags;                                                   \

#define UV_SHUTDOWN_PRIVATE_FIELDS /* empty */
#define UV_WRITE_PRIVATE_FIELDS uint64_t uv_private_[13];
#define UV_CONNECT_PRIVATE_FIELDS uint64_t uv_private_[2];
#define UV_UDP_SEND_PRIVATE_FIELDS uint64_t uv_private_[30];
#define UV_FS_PRIVATE_FIELDS                                            \
  const char* new_path;                                                 \
  uv_file file;                                                         \
  int flags;                                                            \
  mode_t mode;                                                          \
  unsigned int nbufs;                                                   \
  uv_buf_t* bufs;                                                       \
  off_t off;                                                            \
  uv_uid_t uid;                                                         \
  uv_gid_t gid;                                                         \
  double atime;                                                         \
  double mtime;                                                         \
  struct uv__work work_req;                                             \
  uv_buf_t bufsml[4];                                                   \

#define UV_UDP_PRIVATE_FIELDS uint64_t uv_private_[13];
/* The bound name, as libuv keeps it (a copy, removed at close; NULL when
 * nothing is bound or the name is abstract): libuv's own tests read it. */
#define UV_PIPE_PRIVATE_FIELDS const char* pipe_fname;
#define UV_POLL_PRIVATE_FIELDS uint64_t uv_private_[7];
#define UV_TTY_PRIVATE_FIELDS uint64_t uv_private_[8];
#define UV_PROCESS_PRIVATE_FIELDS                                       \
  unsigned int uv_private32_;                                           \
  uint64_t uv_private_[3];                                              \

#define UV_DIR_PRIVATE_FIELDS uint64_t uv_private_[1];

/* Historical marker; expands to nothing. */
#define UV_DYNAMIC /* nothing */

/* open(2) flags for uv_fs_open().  Each is the platform's own O_ value when
 * the current compilation mode exposes it, 0 otherwise (libuv's rule). */
#ifdef O_APPEND
# define UV_FS_O_APPEND O_APPEND
#else
# define UV_FS_O_APPEND 0
#endif
#ifdef O_CREAT
# define UV_FS_O_CREAT O_CREAT
#else
# define UV_FS_O_CREAT 0
#endif
/* O_DIRECT is only visible under _GNU_SOURCE; its x86-64 value is fixed. */
#if defined(__x86_64__)
# define UV_FS_O_DIRECT 0x04000
#elif defined(O_DIRECT)
# define UV_FS_O_DIRECT O_DIRECT
#else
# define UV_FS_O_DIRECT 0
#endif
#ifdef O_DIRECTORY
# define UV_FS_O_DIRECTORY O_DIRECTORY
#else
# define UV_FS_O_DIRECTORY 0
#endif
#ifdef O_DSYNC
# define UV_FS_O_DSYNC O_DSYNC
#else
# define UV_FS_O_DSYNC 0
#endif
#ifdef O_EXCL
# define UV_FS_O_EXCL O_EXCL
#else
# define UV_FS_O_EXCL 0
#endif
#ifdef O_EXLOCK
# define UV_FS_O_EXLOCK O_EXLOCK
#else
# define UV_FS_O_EXLOCK 0
#endif
#ifdef O_NOATIME
# define UV_FS_O_NOATIME O_NOATIME
#else
# define UV_FS_O_NOATIME 0
#endif
#ifdef O_NOCTTY
# define UV_FS_O_NOCTTY O_NOCTTY
#else
# define UV_FS_O_NOCTTY 0
#endif
#ifdef O_NOFOLLOW
# define UV_FS_O_NOFOLLOW O_NOFOLLOW
#else
# define UV_FS_O_NOFOLLOW 0
#endif
#ifdef O_NONBLOCK
# define UV_FS_O_NONBLOCK O_NONBLOCK
#else
# define UV_FS_O_NONBLOCK 0
#endif
#ifdef O_RDONLY
# define UV_FS_O_RDONLY O_RDONLY
#else
# define UV_FS_O_RDONLY 0
#endif
#ifdef O_RDWR
# define UV_FS_O_RDWR O_RDWR
#else
# define UV_FS_O_RDWR 0
#endif
#ifdef O_SYMLINK
# define UV_FS_O_SYMLINK O_SYMLINK
#else
# define UV_FS_O_SYMLINK 0
#endif
#ifdef O_SYNC
# define UV_FS_O_SYNC O_SYNC
#else
# define UV_FS_O_SYNC 0
#endif
#ifdef O_TRUNC
# define UV_FS_O_TRUNC O_TRUNC
#else
# define UV_FS_O_TRUNC 0
#endif
#ifdef O_WRONLY
# define UV_FS_O_WRONLY O_WRONLY
#else
# define UV_FS_O_WRONLY 0
#endif
/* Windows-only open hints; accepted and ignored here. */
#define UV_FS_O_FILEMAP     0
#define UV_FS_O_RANDOM      0
#define UV_FS_O_SHORT_LIVED 0
#define UV_FS_O_SEQUENTIAL  0
#define UV_FS_O_TEMPORARY   0

#endif /* UV_UNIX_H */
