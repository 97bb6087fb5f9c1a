/* phaseloop: error codes of the libuv-compatible interface.
 *
 * Every failing call reports a negative int.  On Linux an error that has a
 * matching errno is simply that errno negated (UV_ENOENT == -ENOENT); the
 * few conditions with no errno equivalent use fixed numbers below -3000.
 * The numbers are part of the ABI and equal libuv 1.44.2's on Linux.
 */
#ifndef UV_ERRNO_H_
#define UV_ERRNO_H_

#include <errno.h>

#if !defined(__linux__)
# error "phaseloop's uv.h describes the Linux ABI only"
#endif

/* UV_ERRNO_MAP(XX) invokes XX(NAME, "description") once per error code,
 * NAME being the code without its UV_ prefix.  Typical use:
 *   #define XX(name, msg) case UV_##name: return msg;
 * The order and the descriptions match libuv 1.44.2 (uv_strerror() text). */
#define UV_ERRNO_MAP(XX)                                                \
  XX(E2BIG,           "argument list too long")                         \
  XX(EACCES,          "permission denied")                              \
  XX(EADDRINUSE,      "address already in use")                         \
  XX(EADDRNOTAVAIL,   "address not available")                          \
  XX(EAFNOSUPPORT,    "address family not supported")                   \
  XX(EAGAIN,          "resource temporarily unavailable")               \
  XX(EAI_ADDRFAMILY,  "address family not supported")                   \
  XX(EAI_AGAIN,       "temporary failure")                              \
  XX(EAI_BADFLAGS,    "bad ai_flags value")                             \
  XX(EAI_BADHINTS,    "invalid value for hints")                        \
  XX(EAI_CANCELED,    "request canceled")                               \
  XX(EAI_FAIL,        "permanent failure")                              \
  XX(EAI_FAMILY,      "ai_family not supported")                        \
  XX(EAI_MEMORY,      "out of memory")                                  \
  XX(EAI_NODATA,      "no address")                                     \
  XX(EAI_NONAME,      "unknown node or service")                        \
  XX(EAI_OVERFLOW,    "argument buffer overflow")                       \
  XX(EAI_PROTOCOL,    "resolved protocol is unknown")                   \
  XX(EAI_SERVICE,     "service not available for socket type")          \
  XX(EAI_SOCKTYPE,    "socket type not supported")                      \
  XX(EALREADY,        "connection already in progress")                 \
  XX(EBADF,           "bad file descriptor")                            \
  XX(EBUSY,           "resource busy or locked")                        \
  XX(ECANCELED,       "operation canceled")                             \
  XX(ECHARSET,        "invalid Unicode character")                      \
  XX(ECONNABORTED,    "software caused connection abort")               \
  XX(ECONNREFUSED,    "connection refused")                             \
  XX(ECONNRESET,      "connection reset by peer")                       \
  XX(EDESTADDRREQ,    "destination address required")                   \
  XX(EEXIST,          "file already exists")                            \
  XX(EFAULT,          "bad address in system call argument")            \
  XX(EFBIG,           "file too large")                                 \
  XX(EHOSTUNREACH,    "host is unreachable")                            \
  XX(EINTR,           "interrupted system call")                        \
  XX(EINVAL,          "invalid argument")                               \
  XX(EIO,             "i/o error")                                      \
  XX(EISCONN,         "socket is already connected")                    \
  XX(EISDIR,          "illegal operation on a directory")               \
  XX(ELOOP,           "too many symbolic links encountered")            \
  XX(EMFILE,          "too many open files")                            \
  XX(EMSGSIZE,        "message too long")                               \
  XX(ENAMETOOLONG,    "name too long")                                  \
  XX(ENETDOWN,        "network is down")                                \
  XX(ENETUNREACH,     "network is unreachable")                         \
  XX(ENFILE,          "file table overflow")                            \
  XX(ENOBUFS,         "no buffer space available")                      \
  XX(ENODEV,          "no such device")                                 \
  XX(ENOENT,          "no such file or directory")                      \
  XX(ENOMEM,          "not enough memory")                              \
  XX(ENONET,          "machine is not on the network")                  \
  XX(ENOPROTOOPT,     "protocol not available")                         \
  XX(ENOSPC,          "no space left on device")                        \
  XX(ENOSYS,          "function not implemented")                       \
  XX(ENOTCONN,        "socket is not connected")                        \
  XX(ENOTDIR,         "not a directory")                                \
  XX(ENOTEMPTY,       "directory not empty")                            \
  XX(ENOTSOCK,        "socket operation on non-socket")                 \
  XX(ENOTSUP,         "operation not supported on socket")              \
  XX(EOVERFLOW,       "value too large for defined data type")          \
  XX(EPERM,           "operation not permitted")                        \
  XX(EPIPE,           "broken pipe")                                    \
  XX(EPROTO,          "protocol error")                                 \
  XX(EPROTONOSUPPORT, "protocol not supported")                         \
  XX(EPROTOTYPE,      "protocol wrong type for socket")                 \
  XX(ERANGE,          "result too large")                               \
  XX(EROFS,           "read-only file system")                          \
  XX(ESHUTDOWN,       "cannot send after transport endpoint shutdown")  \
  XX(ESPIPE,          "invalid seek")                                   \
  XX(ESRCH,           "no such process")                                \
  XX(ETIMEDOUT,       "connection timed out")                           \
  XX(ETXTBSY,         "text file is busy")                              \
  XX(EXDEV,           "cross-device link not permitted")                \
  XX(UNKNOWN,         "unknown error")                                  \
  XX(EOF,             "end of file")                                    \
  XX(ENXIO,           "no such device or address")                      \
  XX(EMLINK,          "too many links")                                 \
  XX(EHOSTDOWN,       "host is down")                                   \
  XX(EREMOTEIO,       "remote I/O error")                               \
  XX(ENOTTY,          "inappropriate ioctl for device")                 \
  XX(EFTYPE,          "inappropriate file type or format")              \
  XX(EILSEQ,          "illegal byte sequence")                          \
  XX(ESOCKTNOSUPPORT, "socket type not supported")                      \

/* The codes as macros (UV__ plus the name), as libuv's errno.h names them,
 * so that preprocessor code can test them.  Grouped by origin: a Linux
 * errno negated, then resolver failures, then conditions Linux has no
 * errno for. */
#define UV__E2BIG            (-E2BIG)
#define UV__EACCES           (-EACCES)
#define UV__EADDRINUSE       (-EADDRINUSE)
#define UV__EADDRNOTAVAIL    (-EADDRNOTAVAIL)
#define UV__EAFNOSUPPORT     (-EAFNOSUPPORT)
#define UV__EAGAIN           (-EAGAIN)
#define UV__EALREADY         (-EALREADY)
#define UV__EBADF            (-EBADF)
#define UV__EBUSY            (-EBUSY)
#define UV__ECANCELED        (-ECANCELED)
#define UV__ECONNABORTED     (-ECONNABORTED)
#define UV__ECONNREFUSED     (-ECONNREFUSED)
#define UV__ECONNRESET       (-ECONNRESET)
#define UV__EDESTADDRREQ     (-EDESTADDRREQ)
#define UV__EEXIST           (-EEXIST)
#define UV__EFAULT           (-EFAULT)
#define UV__EFBIG            (-EFBIG)
#define UV__EHOSTUNREACH     (-EHOSTUNREACH)
#define UV__EINTR            (-EINTR)
#define UV__EINVAL           (-EINVAL)
#define UV__EIO              (-EIO)
#define UV__EISCONN          (-EISCONN)
#define UV__EISDIR           (-EISDIR)
#define UV__ELOOP            (-ELOOP)
#define UV__EMFILE           (-EMFILE)
#define UV__EMSGSIZE         (-EMSGSIZE)
#define UV__ENAMETOOLONG     (-ENAMETOOLONG)
#define UV__ENETDOWN         (-ENETDOWN)
#define UV__ENETUNREACH      (-ENETUNREACH)
#define UV__ENFILE           (-ENFILE)
#define UV__ENOBUFS          (-ENOBUFS)
#define UV__ENODEV           (-ENODEV)
#define UV__ENOENT           (-ENOENT)
#define UV__ENOMEM           (-ENOMEM)
#define UV__ENONET           (-ENONET)
#define UV__ENOPROTOOPT      (-ENOPROTOOPT)
#define UV__ENOSPC           (-ENOSPC)
#define UV__ENOSYS           (-ENOSYS)
#define UV__ENOTCONN         (-ENOTCONN)
#define UV__ENOTDIR          (-ENOTDIR)
#define UV__ENOTEMPTY        (-ENOTEMPTY)
#define UV__ENOTSOCK         (-ENOTSOCK)
#define UV__ENOTSUP          (-ENOTSUP)
#define UV__EOVERFLOW        (-EOVERFLOW)
#define UV__EPERM            (-EPERM)
#define UV__EPIPE            (-EPIPE)
#define UV__EPROTO           (-EPROTO)
#define UV__EPROTONOSUPPORT  (-EPROTONOSUPPORT)
#define UV__EPROTOTYPE       (-EPROTOTYPE)
#define UV__ERANGE           (-ERANGE)
#define UV__EROFS            (-EROFS)
#define UV__ESHUTDOWN        (-ESHUTDOWN)
#define UV__ESPIPE           (-ESPIPE)
#define UV__ESRCH            (-ESRCH)
#define UV__ETIMEDOUT        (-ETIMEDOUT)
#define UV__ETXTBSY          (-ETXTBSY)
#define UV__EXDEV            (-EXDEV)
#define UV__ENXIO            (-ENXIO)
#define UV__EMLINK           (-EMLINK)
#define UV__EHOSTDOWN        (-EHOSTDOWN)
#define UV__EREMOTEIO        (-EREMOTEIO)
#define UV__ENOTTY           (-ENOTTY)
#define UV__EILSEQ           (-EILSEQ)
#define UV__ESOCKTNOSUPPORT  (-ESOCKTNOSUPPORT)
#define UV__EAI_ADDRFAMILY   (-3000)
#define UV__EAI_AGAIN        (-3001)
#define UV__EAI_BADFLAGS     (-3002)
#define UV__EAI_CANCELED     (-3003)
#define UV__EAI_FAIL         (-3004)
#define UV__EAI_FAMILY       (-3005)
#define UV__EAI_MEMORY       (-3006)
#define UV__EAI_NODATA       (-3007)
#define UV__EAI_NONAME       (-3008)
#define UV__EAI_OVERFLOW     (-3009)
#define UV__EAI_SERVICE      (-3010)
#define UV__EAI_SOCKTYPE     (-3011)
#define UV__EAI_BADHINTS     (-3013)
#define UV__EAI_PROTOCOL     (-3014)
#define UV__EFTYPE           (-4028)
#define UV__ECHARSET         (-4080)
#define UV__UNKNOWN          (-4094)
#define UV__EOF              (-4095)

/* The codes themselves, one per UV_ERRNO_MAP entry. */
typedef enum {
#define UV_ERRNO_ENUM_XX_(name, msg) UV_##name = UV__##name,
  UV_ERRNO_MAP(UV_ERRNO_ENUM_XX_)
#undef UV_ERRNO_ENUM_XX_
  /* One below the lowest code; not an error itself. */
  UV_ERRNO_MAX = UV__EOF - 1
} uv_errno_t;

#endif /* UV_ERRNO_H_ */
