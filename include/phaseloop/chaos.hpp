// SPDX-License-Identifier: MIT
#pragma once
/// Chaos mode: the loop takes, from a seeded generator, choices that libuv
/// on a Linux kernel may also make but that a quiet machine almost never
/// shows -- the order of one poll batch, the order threadpool requests
/// complete in, short reads and writes, late timers, spurious EAGAIN --
/// so that code that silently relies on one order fails now, and fails the
/// same way again from the same seed (docs/chaos.md).
///
/// PHASELOOP_CHAOS=SPEC turns it on for every loop of a process (the
/// drop-in libuv.so.1 included); loop::set_chaos() for one loop.

#include <cstdint>
#include <string>
#include <string_view>

namespace phaseloop {

class handle;

/// The kinds of choice chaos mode takes; each can be on or off.
enum class chaos_kind : std::uint8_t {
  batch,   ///< a poll batch's callbacks in another order; a ready fd left to the next iteration
  pool,    ///< threadpool completions in another order; a worker slow to start a request
  reads,   ///< a stream read gets fewer bytes than are there (the rest comes next)
  writes,  ///< a stream write takes fewer bytes than asked (the rest waits for writability)
  timers,  ///< a due timer waits an iteration; poll sleeps longer than the timer asks
  eagain,  ///< accept, read and write say EAGAIN once although they could go on
};
inline constexpr unsigned chaos_kinds = 6;
/// Every kind.
inline constexpr unsigned chaos_all = (1u << chaos_kinds) - 1;

/// "batch", "pool", "reads", "writes", "timers", "eagain".
const char* chaos_kind_name(chaos_kind k) noexcept;

/// What chaos mode does on a loop.
struct chaos_options {
  std::uint64_t seed = 0;
  unsigned kinds = chaos_all;  ///< bit (1 << kind) per kind that is on
  /// Only the first `limit` perturbations are made; later choices that
  /// would perturb leave things as they are (shrinking a failure).
  std::uint64_t limit = UINT64_MAX;
  bool on(chaos_kind k) const noexcept { return kinds & (1u << static_cast<unsigned>(k)); }
};

/// Parses a PHASELOOP_CHAOS value: "SEED", then optionally ",KIND" items
/// (only those kinds; "all" for every one) and ",limit=N". SEED is a
/// decimal number. False, with `error` saying what is wrong, for anything
/// else.
bool parse_chaos(std::string_view text, chaos_options& out, std::string& error);
/// The same options as text parse_chaos() reads back: "17,reads,writes,limit=3".
std::string format_chaos(const chaos_options& o);

/// What a hook is told of each perturbation (hook::chaos_choice).
struct chaos_event {
  chaos_kind kind;
  std::uint64_t number;     ///< 1, 2, ... in the order the loop made them
  std::uint64_t iteration;  ///< the loop's iteration
  phaseloop::handle* handle;  ///< the handle concerned, or null
  /// What was chosen, by kind: batch: events in the batch and how many
  /// were left to the next iteration; pool: completions reordered, or 0
  /// and the worker's delay (us); reads/writes: bytes offered and bytes
  /// allowed; timers: 0 and the lag (ms) for a due timer kept waiting, 1
  /// and the extra sleep (ms) for a late poll; eagain: 1 accept, 2 read,
  /// 3 write.
  std::int64_t a, b;
};

/// What a perturbation did, in words: "a read of up to 65536 bytes cut to
/// 17", "3 events in the batch, 1 left for the next poll", ...
std::string chaos_choice_text(chaos_kind kind, std::int64_t a, std::int64_t b);

}  // namespace phaseloop
