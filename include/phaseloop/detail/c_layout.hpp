// SPDX-License-Identifier: MIT
#pragma once
/// Where each class keeps the fields libuv's structs show (its c_layout()),
/// for compat to check against uv.h. offsetof of a class that is not
/// standard-layout is one GCC and Clang define ("conditionally
/// supported"), with a warning that is off for these definitions only.

#include <cstddef>

#include "phaseloop/dns.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/fs_event.hpp"
#include "phaseloop/handle.hpp"
#include "phaseloop/loop.hpp"
#include "phaseloop/pipe.hpp"
#include "phaseloop/poll.hpp"
#include "phaseloop/process.hpp"
#include "phaseloop/request.hpp"
#include "phaseloop/signal.hpp"
#include "phaseloop/stream.hpp"
#include "phaseloop/udp.hpp"
#include "phaseloop/work.hpp"

namespace phaseloop {

// PHASELOOP_C_LAYOUT(T, at(m1), at(m2), ...) defines T::c_layout(): the
// offsets of T's members m1, m2, ... in the order of T::c_fields.
#define PHASELOOP_C_LAYOUT(T, ...)           \
  constexpr T::c_fields T::c_layout() noexcept { \
    using self = T;                              \
    return {__VA_ARGS__};                        \
  }
#define at(member) offsetof(self, member)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
PHASELOOP_C_LAYOUT(getaddrinfo_req, at(loop_), at(cb_), at(copies_), at(addrinfo_), at(retcode_))
PHASELOOP_C_LAYOUT(getnameinfo_req, at(loop_), at(cb_), at(storage_), at(flags_), at(host_), at(service_),
                   at(retcode_))
PHASELOOP_C_LAYOUT(fs_dir, at(dirents), at(nentries), at(stream_))
PHASELOOP_C_LAYOUT(fs_req, at(fs_type_), at(loop_), at(cb_), at(result_), at(ptr_), at(path_), at(statbuf_),
                   at(new_path_), at(file_), at(nbufs_), at(bufs_), at(off_), at(task_), at(bufsml_))
PHASELOOP_C_LAYOUT(fs_event, at(path_))
PHASELOOP_C_LAYOUT(handle, at(data), at(loop_), at(type_), at(close_cb_), at(next_closing_), at(flags_))
PHASELOOP_C_LAYOUT(loop, at(data), at(active_handles_))
PHASELOOP_C_LAYOUT(pipe, at(ipc_), at(path_))
PHASELOOP_C_LAYOUT(poll, at(cb_))
PHASELOOP_C_LAYOUT(process, at(cb_), at(pid_))
PHASELOOP_C_LAYOUT(req, at(data), at(type_), at(reserved_))
PHASELOOP_C_LAYOUT(signal, at(signum_), at(cb_))
PHASELOOP_C_LAYOUT(write_req, at(cb_), at(send_handle_), at(handle_))
PHASELOOP_C_LAYOUT(connect_req, at(cb_), at(handle_))
PHASELOOP_C_LAYOUT(shutdown_req, at(handle_), at(cb_))
PHASELOOP_C_LAYOUT(stream, at(write_queue_size_), at(alloc_cb_), at(read_cb_))
PHASELOOP_C_LAYOUT(udp_send, at(handle_), at(cb_))
PHASELOOP_C_LAYOUT(udp, at(send_queue_size_), at(send_queue_count_))
PHASELOOP_C_LAYOUT(work, at(loop_), at(work_cb_), at(after_cb_))
#pragma GCC diagnostic pop

#undef at
#undef PHASELOOP_C_LAYOUT

}  // namespace phaseloop
