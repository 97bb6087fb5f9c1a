// SPDX-License-Identifier: MIT
// C++ build of use_header.c, plus what only C++ offers.
#include "use_header.c"

#include <type_traits>

// Plain C types: trivially copyable, standard layout, so that the C++
// implementation may reinterpret user memory as them and back.
#define CXX_PLAIN(T_)                                                    \
  static_assert(std::is_standard_layout<T_>::value, #T_);                \
  static_assert(std::is_trivially_copyable<T_>::value, #T_);
CXX_PLAIN(uv_loop_t)
CXX_PLAIN(uv_handle_t)
CXX_PLAIN(uv_stream_t)
CXX_PLAIN(uv_tcp_t)
CXX_PLAIN(uv_pipe_t)
CXX_PLAIN(uv_tty_t)
CXX_PLAIN(uv_udp_t)
CXX_PLAIN(uv_timer_t)
CXX_PLAIN(uv_req_t)
CXX_PLAIN(uv_write_t)
CXX_PLAIN(uv_fs_t)
CXX_PLAIN(uv_getnameinfo_t)

// libuv's header lets C++ pass a tty mode as int.
int set_raw(uv_tty_t* tty);
int set_raw(uv_tty_t* tty) { return uv_tty_set_mode(tty, 1); }
