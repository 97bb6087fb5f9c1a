/* phaseloop: version macros of the libuv-compatible interface.
 *
 * phaseloop implements the API and ABI of libuv 1.44.2, so the numeric
 * version macros report exactly that release; the suffix names the
 * implementation instead.
 */
#ifndef UV_VERSION_H
#define UV_VERSION_H

#define UV_VERSION_MAJOR 1
#define UV_VERSION_MINOR 44
#define UV_VERSION_PATCH 2
#define UV_VERSION_IS_RELEASE 1
#define UV_VERSION_SUFFIX "phaseloop"

/* 0xMMmmpp: one byte each for major, minor and patch (0x012c02). */
#define UV_VERSION_HEX \
  ((UV_VERSION_MAJOR << 16) | (UV_VERSION_MINOR << 8) | UV_VERSION_PATCH)

#endif /* UV_VERSION_H */
