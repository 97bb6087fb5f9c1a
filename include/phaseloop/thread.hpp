// SPDX-License-Identifier: MIT
#pragma once
/// Threads and the primitives threads share: libuv's uv_thread_*,
/// uv_mutex_*, uv_rwlock_*, uv_sem_*, uv_cond_*, uv_barrier_*, uv_once and
/// uv_key_*, over POSIX threads.
///
/// Each class holds exactly its POSIX object, so that it can live inside
/// the C API's uv_mutex_t (and the others): it is initialised and destroyed
/// explicitly with init()/destroy(), never by a constructor, and must not be
/// moved or copied once initialised. As libuv, an operation that cannot fail
/// in a correct program (locking an initialised mutex, ...) aborts the
/// process when it fails.
///
/// Errors: 0 or a negative code (errors.h).

#include <pthread.h>
#include <semaphore.h>

#include <cstddef>
#include <cstdint>

namespace phaseloop::os {

using thread_id = pthread_t;

/// Starts `entry(arg)` on a new thread. `stack_size` 0 is the default;
/// otherwise it is rounded up to whole pages and to at least PTHREAD_STACK_MIN.
int thread_create(thread_id* tid, void (*entry)(void*), void* arg, std::size_t stack_size = 0) noexcept;
/// Waits for the thread to end.
int thread_join(thread_id tid) noexcept;
thread_id thread_self() noexcept;
bool thread_equal(thread_id a, thread_id b) noexcept;
/// Lets the thread's resources go when it ends; it cannot be joined then.
int thread_detach(thread_id tid) noexcept;

/// Bytes of a CPU mask (one per CPU, non-zero: allowed): CPU_SETSIZE.
int cpumask_size() noexcept;
/// The CPUs `tid` may run on, into `mask` (at least cpumask_size() bytes,
/// else PHASELOOP_EINVAL).
int thread_getaffinity(thread_id tid, char* mask, std::size_t size) noexcept;
/// Restricts `tid` to the CPUs of `mask`; the old mask goes to `old` when
/// it is not null.
int thread_setaffinity(thread_id tid, const char* mask, char* old, std::size_t size) noexcept;
/// The CPU the calling thread runs on.
int thread_getcpu() noexcept;
/// Names the calling thread (the kernel keeps 15 bytes; longer names are
/// cut).
int thread_setname(const char* name) noexcept;
/// `tid`'s name, cut to `size` - 1 bytes and NUL-terminated.
int thread_getname(thread_id tid, char* name, std::size_t size) noexcept;
/// Thread priorities -2 (lowest) to 2 (highest), libuv's. For the calling
/// thread under the normal policy they are nice values (priority * -2);
/// otherwise the scheduler's priority range, split in five.
int thread_getpriority(thread_id tid, int* priority) noexcept;
int thread_setpriority(thread_id tid, int priority) noexcept;

class mutex {
 public:
  /// `recursive`: the owner may lock it again (and unlock as often).
  int init(bool recursive = false) noexcept;
  void destroy() noexcept;
  void lock() noexcept;
  /// 0, or PHASELOOP_EBUSY when another thread holds it.
  int try_lock() noexcept;
  void unlock() noexcept;
  pthread_mutex_t* native() noexcept { return &m_; }

 private:
  pthread_mutex_t m_;
};

class rwlock {
 public:
  int init() noexcept;
  void destroy() noexcept;
  void read_lock() noexcept;
  /// 0, or PHASELOOP_EBUSY.
  int try_read_lock() noexcept;
  void read_unlock() noexcept;
  void write_lock() noexcept;
  /// 0, or PHASELOOP_EBUSY.
  int try_write_lock() noexcept;
  void write_unlock() noexcept;

 private:
  pthread_rwlock_t l_;
};

class semaphore {
 public:
  int init(unsigned value) noexcept;
  void destroy() noexcept;
  void post() noexcept;
  /// Waits, resuming after signals.
  void wait() noexcept;
  /// 0, or PHASELOOP_EAGAIN when the count is 0.
  int try_wait() noexcept;

 private:
  sem_t s_;
};

/// A condition variable whose timed waits measure the monotonic clock.
class condition {
 public:
  int init() noexcept;
  void destroy() noexcept;
  void signal() noexcept;
  void broadcast() noexcept;
  void wait(mutex& m) noexcept;
  /// Waits at most `timeout_ns`: 0, or PHASELOOP_ETIMEDOUT.
  int timed_wait(mutex& m, std::uint64_t timeout_ns) noexcept;

 private:
  pthread_cond_t c_;
};

class barrier {
 public:
  int init(unsigned count) noexcept;
  void destroy() noexcept;
  /// true in exactly one of the threads released together.
  bool wait() noexcept;

 private:
  pthread_barrier_t b_;
};

/// Runs `fn` once per guard, whichever thread comes first.
void call_once(pthread_once_t* guard, void (*fn)()) noexcept;

/// A thread-local slot.
class thread_key {
 public:
  int create() noexcept;
  void destroy() noexcept;
  void* get() const noexcept;
  void set(void* value) noexcept;

 private:
  pthread_key_t k_;
};

}  // namespace phaseloop::os
