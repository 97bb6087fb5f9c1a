// SPDX-License-Identifier: MIT
/* phaseloop: version macros of the libuv-compatible interface.
 *
 * uv.h gives the API and ABI of one libuv version, and the numeric version
 * macros report exactly that release; the suffix names the implementation
 * instead.  The version is the one the library behaves as by default:
 * `make install` writes configure's --with-profile version (by default the
 * system's libuv) into the defaults below; in the source tree they are
 * 1.44.2.  A program built for another version (and run with
 * PHASELOOP_PROFILE=libuv-1.50.0) says so with
 * -DPHASELOOP_UV_VERSION_MINOR=50 -DPHASELOOP_UV_VERSION_PATCH=0, so that
 * uv_version() and UV_VERSION_HEX agree as they do on that libuv.
 */
#ifndef UV_VERSION_H
#define UV_VERSION_H

/* The version the library behaves as by default (phaseloop::configured_version;
 * the install writes these two lines). */
#define PHASELOOP_UV_DEFAULT_MINOR 44
#define PHASELOOP_UV_DEFAULT_PATCH 2

#define UV_VERSION_MAJOR 1
#ifdef PHASELOOP_UV_VERSION_MINOR
# define UV_VERSION_MINOR PHASELOOP_UV_VERSION_MINOR
#else
# define UV_VERSION_MINOR PHASELOOP_UV_DEFAULT_MINOR
#endif
#ifdef PHASELOOP_UV_VERSION_PATCH
# define UV_VERSION_PATCH PHASELOOP_UV_VERSION_PATCH
#else
# define UV_VERSION_PATCH PHASELOOP_UV_DEFAULT_PATCH
#endif
#define UV_VERSION_IS_RELEASE 1
#define UV_VERSION_SUFFIX "phaseloop"

/* 0xMMmmpp: one byte each for major, minor and patch (0x012c02). */
#define UV_VERSION_HEX \
  ((UV_VERSION_MAJOR << 16) | (UV_VERSION_MINOR << 8) | UV_VERSION_PATCH)

#endif /* UV_VERSION_H */
