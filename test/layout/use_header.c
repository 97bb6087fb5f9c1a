// SPDX-License-Identifier: MIT
/* Compile-only exercise of include/phaseloop/uv/uv.h, built by compile.sh as strict C
 * (c99, c11) and, through use_header.cc, as C++.  It also pins the x86-64
 * layout with compile-time assertions, so it is useful even where no system
 * libuv is installed for check.sh to compare against. */
#include <uv.h>

#include <stddef.h>

/* C99 has no static_assert: a negative array size stops the build. */
#define LAYOUT_ASSERT(name, cond) typedef char layout_assert_##name[(cond) ? 1 : -1]
#define SIZE_IS(T_, n) LAYOUT_ASSERT(size_##T_, sizeof(T_) == (n))
#define OFFSET_IS(T_, f_, n) LAYOUT_ASSERT(off_##T_##_##f_, offsetof(T_, f_) == (n))

SIZE_IS(uv_loop_t, 848);
SIZE_IS(uv_handle_t, 96);
SIZE_IS(uv_stream_t, 248);
SIZE_IS(uv_tcp_t, 248);
SIZE_IS(uv_pipe_t, 264);
SIZE_IS(uv_tty_t, 312);
SIZE_IS(uv_udp_t, 216);
SIZE_IS(uv_poll_t, 160);
SIZE_IS(uv_timer_t, 152);
SIZE_IS(uv_prepare_t, 120);
SIZE_IS(uv_check_t, 120);
SIZE_IS(uv_idle_t, 120);
SIZE_IS(uv_async_t, 128);
SIZE_IS(uv_process_t, 136);
SIZE_IS(uv_fs_event_t, 136);
SIZE_IS(uv_fs_poll_t, 104);
SIZE_IS(uv_signal_t, 152);
SIZE_IS(uv_req_t, 64);
SIZE_IS(uv_shutdown_t, 80);
SIZE_IS(uv_write_t, 192);
SIZE_IS(uv_connect_t, 96);
SIZE_IS(uv_udp_send_t, 320);
SIZE_IS(uv_fs_t, 440);
SIZE_IS(uv_work_t, 128);
SIZE_IS(uv_getaddrinfo_t, 160);
SIZE_IS(uv_getnameinfo_t, 1320);
SIZE_IS(uv_random_t, 144);
SIZE_IS(uv_dir_t, 56);
SIZE_IS(uv_stat_t, 160);
SIZE_IS(uv_interface_address_t, 80);
SIZE_IS(uv_process_options_t, 64);
SIZE_IS(uv_rwlock_t, 56);
SIZE_IS(uv_barrier_t, 32);

OFFSET_IS(uv_loop_t, active_handles, 8);
OFFSET_IS(uv_handle_t, type, 16);
OFFSET_IS(uv_stream_t, write_queue_size, 96);
OFFSET_IS(uv_stream_t, read_cb, 112);
OFFSET_IS(uv_pipe_t, ipc, 248);
OFFSET_IS(uv_udp_t, send_queue_count, 104);
OFFSET_IS(uv_process_t, pid, 104);
OFFSET_IS(uv_signal_t, signum, 104);
OFFSET_IS(uv_req_t, reserved, 16);
OFFSET_IS(uv_write_t, handle, 80);
OFFSET_IS(uv_fs_t, statbuf, 112);
OFFSET_IS(uv_getaddrinfo_t, cb, 112);
OFFSET_IS(uv_getaddrinfo_t, addrinfo, 144);
OFFSET_IS(uv_getnameinfo_t, getnameinfo_cb, 112);
OFFSET_IS(uv_getnameinfo_t, host, 252);
OFFSET_IS(uv_getnameinfo_t, service, 1277);

/* User structs built from the field macros keep libuv's offsets. */
struct my_handle { UV_HANDLE_FIELDS int extra; };
struct my_stream { UV_HANDLE_FIELDS UV_STREAM_FIELDS int extra; };
struct my_req { UV_REQ_FIELDS int extra; };
typedef struct my_handle my_handle;
typedef struct my_stream my_stream;
typedef struct my_req my_req;
typedef union uv_any_req uv_any_req_size;
OFFSET_IS(my_handle, extra, 92);
OFFSET_IS(my_stream, extra, 248);
OFFSET_IS(my_req, extra, 64);

/* The X-macro tables expand the way libuv users expect. */
const char* describe_error(int err);
const char* describe_error(int err) {
  switch (err) {
#define XX(name, msg) case UV_##name: return msg;
    UV_ERRNO_MAP(XX)
#undef XX
    default: return "?";
  }
}

size_t largest_handle(void);
size_t largest_handle(void) {
  size_t best = 0;
#define XX(upper, lower)                                         \
  if (uv_handle_size(UV_##upper) > best || sizeof(uv_##lower##_t) > best) \
    best = sizeof(uv_##lower##_t);
  UV_HANDLE_TYPE_MAP(XX)
#undef XX
  return best;
}

size_t largest_req(void);
size_t largest_req(void) {
  size_t best = 0;
#define XX(upper, lower)                                         \
  if ((int)UV_##upper > 0 && sizeof(uv_##lower##_t) > best)      \
    best = sizeof(uv_##lower##_t);
  UV_REQ_TYPE_MAP(XX)
#undef XX
  return best;
}
SIZE_IS(uv_any_req_size, 1320);

/* A few calls through the prototypes (never executed: compile-only). */
int touch_api(uv_loop_t* loop, uv_tcp_t* tcp, uv_write_t* req, char* mem);
int touch_api(uv_loop_t* loop, uv_tcp_t* tcp, uv_write_t* req, char* mem) {
  uv_buf_t buf = uv_buf_init(mem, 16);
  uv_once_t once = UV_ONCE_INIT;
  uv_stdio_container_t stdio[1];
  uv_process_options_t options;
  uv_process_t child;
  (void)once;
  stdio[0].flags = (uv_stdio_flags)(UV_CREATE_PIPE | UV_READABLE_PIPE);
  stdio[0].data.stream = (uv_stream_t*)tcp;
  options.stdio = stdio;
  options.stdio_count = 1;
  options.flags = UV_PROCESS_DETACHED;
  if (uv_loop_init(loop) != 0) return UV_ENOMEM;
  if (uv_tcp_init(loop, tcp) != 0) return UV_EINVAL;
  if (uv_write(req, (uv_stream_t*)tcp, &buf, 1, NULL) != 0) return UV_EOF;
  if (uv_spawn(loop, &child, &options) != 0) return UV_ENOENT;
  uv_close((uv_handle_t*)tcp, NULL);
  return uv_run(loop, UV_RUN_DEFAULT) + UV_VERSION_HEX +
         (int)uv_loop_size() + UV_FS_O_CREAT + UV_PRIORITY_HIGHEST;
}
