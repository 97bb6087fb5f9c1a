// SPDX-License-Identifier: MIT
/* phaseloop: the Linux-specific private parts of uv.h's structs.
 *
 * libuv keeps its inotify state in the loop and in each fs_event handle
 * under these two macro names.  In phaseloop those bytes are opaque: the
 * loop's whole private part is one array in uv.h, and an fs_event handle's
 * private array likewise; the macros exist so that code
 * written against libuv's headers finds them, and expand to nothing.
 */
#ifndef UV_LINUX_H
#define UV_LINUX_H

#define UV_PLATFORM_LOOP_FIELDS /* empty: inside the loop's private array */
#define UV_PLATFORM_FS_EVENT_FIELDS /* empty: inside the handle's private array */

#endif /* UV_LINUX_H */
