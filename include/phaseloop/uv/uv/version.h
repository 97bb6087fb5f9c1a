/* phaseloop: version macros of the libuv-compatible interface.
 *
 * By default phaseloop gives the API, ABI and behaviour of libuv 1.44.2, so
 * the numeric version macros report exactly that release; the suffix names
 * the implementation instead.  A program built for phaseloop behaving as
 * another version (PHASELOOP_PROFILE=libuv-1.50.0 at run time) says so
 * with -DPHASELOOP_UV_VERSION_MINOR=50 -DPHASELOOP_UV_VERSION_PATCH=0, so
 * that uv_version() and UV_VERSION_HEX agree as they do on that libuv.
 */
#ifndef UV_VERSION_H
#define UV_VERSION_H

/* The version phaseloop gives by default (phaseloop::default_version). */
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
