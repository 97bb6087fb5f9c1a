/* phaseloop: error codes of the libuv-compatible interface.
 *
 * Every failing call reports a negative int.  On Linux an error that has a
 * matching errno is simply that errno negated (UV_ENOENT == -ENOENT); the
 * few conditions with no errno equivalent use fixed numbers below -3000.
 * The numbers are part of the ABI and equal libuv 1.44.2's on Linux.
 */
#ifndef PHASELOOP_UV_ERRNO_H
#define PHASELOOP_UV_ERRNO_H

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

/* The codes themselves.  Same members as UV_ERRNO_MAP, grouped by origin. */
typedef enum {
  /* Conditions reported by the kernel: the negated Linux errno. */
  UV_E2BIG           = -E2BIG,
  UV_EACCES          = -EACCES,
  UV_EADDRINUSE      = -EADDRINUSE,
  UV_EADDRNOTAVAIL   = -EADDRNOTAVAIL,
  UV_EAFNOSUPPORT    = -EAFNOSUPPORT,
  UV_EAGAIN          = -EAGAIN,
  UV_EALREADY        = -EALREADY,
  UV_EBADF           = -EBADF,
  UV_EBUSY           = -EBUSY,
  UV_ECANCELED       = -ECANCELED,
  UV_ECONNABORTED    = -ECONNABORTED,
  UV_ECONNREFUSED    = -ECONNREFUSED,
  UV_ECONNRESET      = -ECONNRESET,
  UV_EDESTADDRREQ    = -EDESTADDRREQ,
  UV_EEXIST          = -EEXIST,
  UV_EFAULT          = -EFAULT,
  UV_EFBIG           = -EFBIG,
  UV_EHOSTUNREACH    = -EHOSTUNREACH,
  UV_EINTR           = -EINTR,
  UV_EINVAL          = -EINVAL,
  UV_EIO             = -EIO,
  UV_EISCONN         = -EISCONN,
  UV_EISDIR          = -EISDIR,
  UV_ELOOP           = -ELOOP,
  UV_EMFILE          = -EMFILE,
  UV_EMSGSIZE        = -EMSGSIZE,
  UV_ENAMETOOLONG    = -ENAMETOOLONG,
  UV_ENETDOWN        = -ENETDOWN,
  UV_ENETUNREACH     = -ENETUNREACH,
  UV_ENFILE          = -ENFILE,
  UV_ENOBUFS         = -ENOBUFS,
  UV_ENODEV          = -ENODEV,
  UV_ENOENT          = -ENOENT,
  UV_ENOMEM          = -ENOMEM,
  UV_ENONET          = -ENONET,
  UV_ENOPROTOOPT     = -ENOPROTOOPT,
  UV_ENOSPC          = -ENOSPC,
  UV_ENOSYS          = -ENOSYS,
  UV_ENOTCONN        = -ENOTCONN,
  UV_ENOTDIR         = -ENOTDIR,
  UV_ENOTEMPTY       = -ENOTEMPTY,
  UV_ENOTSOCK        = -ENOTSOCK,
  UV_ENOTSUP         = -ENOTSUP,
  UV_EOVERFLOW       = -EOVERFLOW,
  UV_EPERM           = -EPERM,
  UV_EPIPE           = -EPIPE,
  UV_EPROTO          = -EPROTO,
  UV_EPROTONOSUPPORT = -EPROTONOSUPPORT,
  UV_EPROTOTYPE      = -EPROTOTYPE,
  UV_ERANGE          = -ERANGE,
  UV_EROFS           = -EROFS,
  UV_ESHUTDOWN       = -ESHUTDOWN,
  UV_ESPIPE          = -ESPIPE,
  UV_ESRCH           = -ESRCH,
  UV_ETIMEDOUT       = -ETIMEDOUT,
  UV_ETXTBSY         = -ETXTBSY,
  UV_EXDEV           = -EXDEV,
  UV_ENXIO           = -ENXIO,
  UV_EMLINK          = -EMLINK,
  UV_EHOSTDOWN       = -EHOSTDOWN,
  UV_EREMOTEIO       = -EREMOTEIO,
  UV_ENOTTY          = -ENOTTY,
  UV_EILSEQ          = -EILSEQ,
  UV_ESOCKTNOSUPPORT = -ESOCKTNOSUPPORT,

  /* Resolver failures (getaddrinfo()/getnameinfo() EAI_* results). */
  UV_EAI_ADDRFAMILY  = -3000,
  UV_EAI_AGAIN       = -3001,
  UV_EAI_BADFLAGS    = -3002,
  UV_EAI_CANCELED    = -3003,
  UV_EAI_FAIL        = -3004,
  UV_EAI_FAMILY      = -3005,
  UV_EAI_MEMORY      = -3006,
  UV_EAI_NODATA      = -3007,
  UV_EAI_NONAME      = -3008,
  UV_EAI_OVERFLOW    = -3009,
  UV_EAI_SERVICE     = -3010,
  UV_EAI_SOCKTYPE    = -3011,
  UV_EAI_BADHINTS    = -3013,
  UV_EAI_PROTOCOL    = -3014,

  /* Conditions Linux has no errno for. */
  UV_EFTYPE          = -4028,
  UV_ECHARSET        = -4080,
  UV_UNKNOWN         = -4094,
  UV_EOF             = -4095,

  /* One below the lowest code; not an error itself. */
  UV_ERRNO_MAX       = -4096
} uv_errno_t;

#endif /* PHASELOOP_UV_ERRNO_H */
