// SPDX-License-Identifier: MIT
/* phaseloop's error codes: the one list of them, for C and C++.
 *
 * Every failing call reports a negative int.  On Linux an error with a
 * matching errno is that errno negated (PHASELOOP_ENOENT == -ENOENT); the
 * conditions Linux has no errno for use fixed numbers below -3000.  The
 * numbers, names and descriptions are libuv 1.44.2's on Linux: the C API
 * (uv/errno.h) names them UV_*, the C++ API's error_name() and
 * error_message() read them from here.
 *
 * C-compatible: included by the libuv-compatible uv.h as well.
 */
#ifndef PHASELOOP_ERRORS_H_
#define PHASELOOP_ERRORS_H_

#include <errno.h>

#if !defined(__linux__)
# error "phaseloop describes the Linux ABI only"
#endif

/* The codes, grouped by origin: a Linux errno negated, then resolver
 * failures, then conditions Linux has no errno for. */
#define PHASELOOP_E2BIG            (-E2BIG)
#define PHASELOOP_EACCES           (-EACCES)
#define PHASELOOP_EADDRINUSE       (-EADDRINUSE)
#define PHASELOOP_EADDRNOTAVAIL    (-EADDRNOTAVAIL)
#define PHASELOOP_EAFNOSUPPORT     (-EAFNOSUPPORT)
#define PHASELOOP_EAGAIN           (-EAGAIN)
#define PHASELOOP_EALREADY         (-EALREADY)
#define PHASELOOP_EBADF            (-EBADF)
#define PHASELOOP_EBUSY            (-EBUSY)
#define PHASELOOP_ECANCELED        (-ECANCELED)
#define PHASELOOP_ECONNABORTED     (-ECONNABORTED)
#define PHASELOOP_ECONNREFUSED     (-ECONNREFUSED)
#define PHASELOOP_ECONNRESET       (-ECONNRESET)
#define PHASELOOP_EDESTADDRREQ     (-EDESTADDRREQ)
#define PHASELOOP_EEXIST           (-EEXIST)
#define PHASELOOP_EFAULT           (-EFAULT)
#define PHASELOOP_EFBIG            (-EFBIG)
#define PHASELOOP_EHOSTUNREACH     (-EHOSTUNREACH)
#define PHASELOOP_EINTR            (-EINTR)
#define PHASELOOP_EINVAL           (-EINVAL)
#define PHASELOOP_EIO              (-EIO)
#define PHASELOOP_EISCONN          (-EISCONN)
#define PHASELOOP_EISDIR           (-EISDIR)
#define PHASELOOP_ELOOP            (-ELOOP)
#define PHASELOOP_EMFILE           (-EMFILE)
#define PHASELOOP_EMSGSIZE         (-EMSGSIZE)
#define PHASELOOP_ENAMETOOLONG     (-ENAMETOOLONG)
#define PHASELOOP_ENETDOWN         (-ENETDOWN)
#define PHASELOOP_ENETUNREACH      (-ENETUNREACH)
#define PHASELOOP_ENFILE           (-ENFILE)
#define PHASELOOP_ENOBUFS          (-ENOBUFS)
#define PHASELOOP_ENODEV           (-ENODEV)
#define PHASELOOP_ENOENT           (-ENOENT)
#define PHASELOOP_ENOMEM           (-ENOMEM)
#define PHASELOOP_ENONET           (-ENONET)
#define PHASELOOP_ENOPROTOOPT      (-ENOPROTOOPT)
#define PHASELOOP_ENOSPC           (-ENOSPC)
#define PHASELOOP_ENOSYS           (-ENOSYS)
#define PHASELOOP_ENOTCONN         (-ENOTCONN)
#define PHASELOOP_ENOTDIR          (-ENOTDIR)
#define PHASELOOP_ENOTEMPTY        (-ENOTEMPTY)
#define PHASELOOP_ENOTSOCK         (-ENOTSOCK)
#define PHASELOOP_ENOTSUP          (-ENOTSUP)
#define PHASELOOP_EOVERFLOW        (-EOVERFLOW)
#define PHASELOOP_EPERM            (-EPERM)
#define PHASELOOP_EPIPE            (-EPIPE)
#define PHASELOOP_EPROTO           (-EPROTO)
#define PHASELOOP_EPROTONOSUPPORT  (-EPROTONOSUPPORT)
#define PHASELOOP_EPROTOTYPE       (-EPROTOTYPE)
#define PHASELOOP_ERANGE           (-ERANGE)
#define PHASELOOP_EROFS            (-EROFS)
#define PHASELOOP_ESHUTDOWN        (-ESHUTDOWN)
#define PHASELOOP_ESPIPE           (-ESPIPE)
#define PHASELOOP_ESRCH            (-ESRCH)
#define PHASELOOP_ETIMEDOUT        (-ETIMEDOUT)
#define PHASELOOP_ETXTBSY          (-ETXTBSY)
#define PHASELOOP_EXDEV            (-EXDEV)
#define PHASELOOP_ENXIO            (-ENXIO)
#define PHASELOOP_EMLINK           (-EMLINK)
#define PHASELOOP_EHOSTDOWN        (-EHOSTDOWN)
#define PHASELOOP_EREMOTEIO        (-EREMOTEIO)
#define PHASELOOP_ENOTTY           (-ENOTTY)
#define PHASELOOP_EILSEQ           (-EILSEQ)
#define PHASELOOP_ESOCKTNOSUPPORT  (-ESOCKTNOSUPPORT)
#define PHASELOOP_ENODATA          (-ENODATA)
#define PHASELOOP_EUNATCH          (-EUNATCH)
#define PHASELOOP_ENOEXEC          (-ENOEXEC)
#define PHASELOOP_EAI_ADDRFAMILY   (-3000)
#define PHASELOOP_EAI_AGAIN        (-3001)
#define PHASELOOP_EAI_BADFLAGS     (-3002)
#define PHASELOOP_EAI_CANCELED     (-3003)
#define PHASELOOP_EAI_FAIL         (-3004)
#define PHASELOOP_EAI_FAMILY       (-3005)
#define PHASELOOP_EAI_MEMORY       (-3006)
#define PHASELOOP_EAI_NODATA       (-3007)
#define PHASELOOP_EAI_NONAME       (-3008)
#define PHASELOOP_EAI_OVERFLOW     (-3009)
#define PHASELOOP_EAI_SERVICE      (-3010)
#define PHASELOOP_EAI_SOCKTYPE     (-3011)
#define PHASELOOP_EAI_BADHINTS     (-3013)
#define PHASELOOP_EAI_PROTOCOL     (-3014)
#define PHASELOOP_EFTYPE           (-4028)
/* libuv 1.53 gives EFTYPE Linux's number (7.2) instead. */
#define PHASELOOP_EFTYPE_1_53      (-134)
#define PHASELOOP_ECHARSET         (-4080)
#define PHASELOOP_UNKNOWN          (-4094)
#define PHASELOOP_EOF              (-4095)

/* PHASELOOP_ERRNO_MAP(XX) invokes XX(NAME, "description") once per code,
 * NAME being the code without its PHASELOOP_ prefix (and libuv's name
 * without UV_).  Typical use:
 *   #define XX(name, msg) case PHASELOOP_##name: return msg;
 * The order and the descriptions are libuv 1.44.2's (uv_strerror()). */
#define PHASELOOP_ERRNO_MAP(XX)                                         \
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

/* The codes libuv added after 1.44, in libuv's order after those above:
 * PHASELOOP_ERRNO_MAP_LATER(X, A) invokes X(A, NAME, minor version,
 * "description") once per code (A passes through, for a caller's macro). */
#define PHASELOOP_ERRNO_MAP_LATER(X, A)                                 \
  X(A, ENODATA,         45, PHASELOOP_ENODATA_MSG)                      \
  X(A, EUNATCH,         46, PHASELOOP_EUNATCH_MSG)                      \
  X(A, ENOEXEC,         50, PHASELOOP_ENOEXEC_MSG)                      \

#define PHASELOOP_ENODATA_MSG "no data available"
#define PHASELOOP_EUNATCH_MSG "protocol driver not attached"
#define PHASELOOP_ENOEXEC_MSG "exec format error"

#endif /* PHASELOOP_ERRORS_H_ */
