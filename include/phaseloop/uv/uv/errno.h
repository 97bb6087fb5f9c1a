// SPDX-License-Identifier: MIT
/* phaseloop: error codes of the libuv-compatible interface.
 *
 * Every failing call reports a negative int: the codes of phaseloop's one
 * list (phaseloop/errors.h), under libuv's names.  On Linux an error that
 * has a matching errno is that errno negated (UV_ENOENT == -ENOENT); the
 * few conditions with no errno use fixed numbers below -3000.  The numbers
 * are part of the ABI and equal libuv 1.44.2's on Linux.
 */
#ifndef UV_ERRNO_H_
#define UV_ERRNO_H_

#include "../../errors.h"
#include "version.h"

/* UV_ERRNO_MAP(XX) invokes XX(NAME, "description") once per error code,
 * NAME being the code without its UV_ prefix.  Typical use:
 *   #define XX(name, msg) case UV_##name: return msg;
 * The order and the descriptions are libuv 1.44.2's (uv_strerror() text). */
#define UV_ERRNO_MAP(XX) \
  PHASELOOP_ERRNO_MAP(XX) UV__ERRNO_MAP_45(XX) UV__ERRNO_MAP_46(XX) UV__ERRNO_MAP_50(XX)

/* The codes libuv added after 1.44 (PHASELOOP_ERRNO_MAP_LATER) are in the
 * map for a program built for a version that has them (uv/version.h). */
#if UV_VERSION_MINOR >= 45
# define UV__ERRNO_MAP_45(XX) XX(ENODATA, PHASELOOP_ENODATA_MSG)
# define UV__ENODATA PHASELOOP_ENODATA
#else
# define UV__ERRNO_MAP_45(XX)
#endif
#if UV_VERSION_MINOR >= 46
# define UV__ERRNO_MAP_46(XX) XX(EUNATCH, PHASELOOP_EUNATCH_MSG)
# define UV__EUNATCH PHASELOOP_EUNATCH
#else
# define UV__ERRNO_MAP_46(XX)
#endif
#if UV_VERSION_MINOR >= 50
# define UV__ERRNO_MAP_50(XX) XX(ENOEXEC, PHASELOOP_ENOEXEC_MSG)
# define UV__ENOEXEC PHASELOOP_ENOEXEC
#else
# define UV__ERRNO_MAP_50(XX)
#endif

/* The codes as macros (UV__ plus the name), as libuv's errno.h names them,
 * so that preprocessor code can test them. */
#define UV__E2BIG             PHASELOOP_E2BIG
#define UV__EACCES            PHASELOOP_EACCES
#define UV__EADDRINUSE        PHASELOOP_EADDRINUSE
#define UV__EADDRNOTAVAIL     PHASELOOP_EADDRNOTAVAIL
#define UV__EAFNOSUPPORT      PHASELOOP_EAFNOSUPPORT
#define UV__EAGAIN            PHASELOOP_EAGAIN
#define UV__EALREADY          PHASELOOP_EALREADY
#define UV__EBADF             PHASELOOP_EBADF
#define UV__EBUSY             PHASELOOP_EBUSY
#define UV__ECANCELED         PHASELOOP_ECANCELED
#define UV__ECONNABORTED      PHASELOOP_ECONNABORTED
#define UV__ECONNREFUSED      PHASELOOP_ECONNREFUSED
#define UV__ECONNRESET        PHASELOOP_ECONNRESET
#define UV__EDESTADDRREQ      PHASELOOP_EDESTADDRREQ
#define UV__EEXIST            PHASELOOP_EEXIST
#define UV__EFAULT            PHASELOOP_EFAULT
#define UV__EFBIG             PHASELOOP_EFBIG
#define UV__EHOSTUNREACH      PHASELOOP_EHOSTUNREACH
#define UV__EINTR             PHASELOOP_EINTR
#define UV__EINVAL            PHASELOOP_EINVAL
#define UV__EIO               PHASELOOP_EIO
#define UV__EISCONN           PHASELOOP_EISCONN
#define UV__EISDIR            PHASELOOP_EISDIR
#define UV__ELOOP             PHASELOOP_ELOOP
#define UV__EMFILE            PHASELOOP_EMFILE
#define UV__EMSGSIZE          PHASELOOP_EMSGSIZE
#define UV__ENAMETOOLONG      PHASELOOP_ENAMETOOLONG
#define UV__ENETDOWN          PHASELOOP_ENETDOWN
#define UV__ENETUNREACH       PHASELOOP_ENETUNREACH
#define UV__ENFILE            PHASELOOP_ENFILE
#define UV__ENOBUFS           PHASELOOP_ENOBUFS
#define UV__ENODEV            PHASELOOP_ENODEV
#define UV__ENOENT            PHASELOOP_ENOENT
#define UV__ENOMEM            PHASELOOP_ENOMEM
#define UV__ENONET            PHASELOOP_ENONET
#define UV__ENOPROTOOPT       PHASELOOP_ENOPROTOOPT
#define UV__ENOSPC            PHASELOOP_ENOSPC
#define UV__ENOSYS            PHASELOOP_ENOSYS
#define UV__ENOTCONN          PHASELOOP_ENOTCONN
#define UV__ENOTDIR           PHASELOOP_ENOTDIR
#define UV__ENOTEMPTY         PHASELOOP_ENOTEMPTY
#define UV__ENOTSOCK          PHASELOOP_ENOTSOCK
#define UV__ENOTSUP           PHASELOOP_ENOTSUP
#define UV__EOVERFLOW         PHASELOOP_EOVERFLOW
#define UV__EPERM             PHASELOOP_EPERM
#define UV__EPIPE             PHASELOOP_EPIPE
#define UV__EPROTO            PHASELOOP_EPROTO
#define UV__EPROTONOSUPPORT   PHASELOOP_EPROTONOSUPPORT
#define UV__EPROTOTYPE        PHASELOOP_EPROTOTYPE
#define UV__ERANGE            PHASELOOP_ERANGE
#define UV__EROFS             PHASELOOP_EROFS
#define UV__ESHUTDOWN         PHASELOOP_ESHUTDOWN
#define UV__ESPIPE            PHASELOOP_ESPIPE
#define UV__ESRCH             PHASELOOP_ESRCH
#define UV__ETIMEDOUT         PHASELOOP_ETIMEDOUT
#define UV__ETXTBSY           PHASELOOP_ETXTBSY
#define UV__EXDEV             PHASELOOP_EXDEV
#define UV__ENXIO             PHASELOOP_ENXIO
#define UV__EMLINK            PHASELOOP_EMLINK
#define UV__EHOSTDOWN         PHASELOOP_EHOSTDOWN
#define UV__EREMOTEIO         PHASELOOP_EREMOTEIO
#define UV__ENOTTY            PHASELOOP_ENOTTY
#define UV__EILSEQ            PHASELOOP_EILSEQ
#define UV__ESOCKTNOSUPPORT   PHASELOOP_ESOCKTNOSUPPORT
#define UV__EAI_ADDRFAMILY    PHASELOOP_EAI_ADDRFAMILY
#define UV__EAI_AGAIN         PHASELOOP_EAI_AGAIN
#define UV__EAI_BADFLAGS      PHASELOOP_EAI_BADFLAGS
#define UV__EAI_CANCELED      PHASELOOP_EAI_CANCELED
#define UV__EAI_FAIL          PHASELOOP_EAI_FAIL
#define UV__EAI_FAMILY        PHASELOOP_EAI_FAMILY
#define UV__EAI_MEMORY        PHASELOOP_EAI_MEMORY
#define UV__EAI_NODATA        PHASELOOP_EAI_NODATA
#define UV__EAI_NONAME        PHASELOOP_EAI_NONAME
#define UV__EAI_OVERFLOW      PHASELOOP_EAI_OVERFLOW
#define UV__EAI_SERVICE       PHASELOOP_EAI_SERVICE
#define UV__EAI_SOCKTYPE      PHASELOOP_EAI_SOCKTYPE
#define UV__EAI_BADHINTS      PHASELOOP_EAI_BADHINTS
#define UV__EAI_PROTOCOL      PHASELOOP_EAI_PROTOCOL
#if UV_VERSION_MINOR >= 53
# define UV__EFTYPE           PHASELOOP_EFTYPE_1_53
#else
# define UV__EFTYPE           PHASELOOP_EFTYPE
#endif
#define UV__ECHARSET          PHASELOOP_ECHARSET
#define UV__UNKNOWN           PHASELOOP_UNKNOWN
#define UV__EOF               PHASELOOP_EOF

/* The codes themselves, one per UV_ERRNO_MAP entry. */
typedef enum {
#define UV_ERRNO_ENUM_XX_(name, msg) UV_##name = UV__##name,
  UV_ERRNO_MAP(UV_ERRNO_ENUM_XX_)
#undef UV_ERRNO_ENUM_XX_
  /* One below the lowest code; not an error itself. */
  UV_ERRNO_MAX = PHASELOOP_EOF - 1
} uv_errno_t;

#endif /* UV_ERRNO_H_ */
