// SPDX-License-Identifier: MIT
// Names of phases, handle types and request types (libuv's spellings for
// the last two, as uv_handle_type_name / uv_req_type_name return them).

#include "phaseloop/hooks.hpp"
#include "phaseloop/types.hpp"

namespace phaseloop {

const char* phase_name(phase p) noexcept {
  switch (p) {
    case phase::timers: return "timers";
    case phase::pending: return "pending";
    case phase::idle: return "idle";
    case phase::prepare: return "prepare";
    case phase::poll: return "poll";
    case phase::check: return "check";
    case phase::closing: return "closing";
  }
  return "?";
}

const char* handle_type_name(handle_type t) noexcept {
  switch (t) {
    case handle_type::async: return "async";
    case handle_type::check: return "check";
    case handle_type::fs_event: return "fs_event";
    case handle_type::fs_poll: return "fs_poll";
    case handle_type::generic: return "handle";
    case handle_type::idle: return "idle";
    case handle_type::named_pipe: return "pipe";
    case handle_type::poll: return "poll";
    case handle_type::prepare: return "prepare";
    case handle_type::process: return "process";
    case handle_type::stream: return "stream";
    case handle_type::tcp: return "tcp";
    case handle_type::timer: return "timer";
    case handle_type::tty: return "tty";
    case handle_type::udp: return "udp";
    case handle_type::signal: return "signal";
    case handle_type::file: return "file";
    case handle_type::unknown: break;
  }
  return nullptr;
}

const char* req_type_name(req_type t) noexcept {
  switch (t) {
    case req_type::generic: return "req";
    case req_type::connect: return "connect";
    case req_type::write: return "write";
    case req_type::shutdown: return "shutdown";
    case req_type::udp_send: return "udp_send";
    case req_type::fs: return "fs";
    case req_type::work: return "work";
    case req_type::getaddrinfo: return "getaddrinfo";
    case req_type::getnameinfo: return "getnameinfo";
    case req_type::random: return "random";
    case req_type::unknown: break;
  }
  return nullptr;
}

const char* callback_kind_name(callback_kind k) noexcept {
  switch (k) {
    case callback_kind::timer: return "timer";
    case callback_kind::idle: return "idle";
    case callback_kind::prepare: return "prepare";
    case callback_kind::check: return "check";
    case callback_kind::async: return "async";
    case callback_kind::signal: return "signal";
    case callback_kind::close: return "close";
    case callback_kind::work_done: return "work done";
    case callback_kind::pending: return "pending";
    case callback_kind::io: return "io";
    case callback_kind::fs: return "fs";
    case callback_kind::dns: return "dns";
    case callback_kind::random: return "random";
  }
  return "?";
}

}  // namespace phaseloop
