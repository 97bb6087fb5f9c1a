// SPDX-License-Identifier: MIT
// Threads and their primitives over POSIX threads
// (include/phaseloop/thread.hpp).

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <new>

#include "phaseloop/errors.h"
#include "phaseloop/thread.hpp"

namespace phaseloop::os {

namespace {

int err(int e) { return e == 0 ? 0 : -e; }

void check(int r) {
  if (r != 0) std::abort();
}

// A try-lock's answer: held elsewhere is EBUSY, anything else a bug.
int busy_or_abort(int r) {
  if (r == 0) return 0;
  if (r == EBUSY || r == EAGAIN) return PHASELOOP_EBUSY;
  std::abort();
}

struct start_ctx {
  void (*entry)(void*);
  void* arg;
  std::atomic<bool> taken{false};
};

// What a new thread starts with lives in one of a few static slots, taken
// by the creating thread and given back by the new one once it has read
// it. A context on the heap would be freed by the new thread, and a
// thread's first free sets up glibc's per-thread cache of small blocks
// (and tears it down at exit): about a thousand instructions per thread
// that a thread which never allocates would not spend. When every slot is
// taken (more than this many threads starting at once), the heap.
start_ctx start_slots[16];

start_ctx* take_slot() noexcept {
  for (start_ctx& s : start_slots) {
    if (!s.taken.load(std::memory_order_relaxed) && !s.taken.exchange(true, std::memory_order_acquire)) return &s;
  }
  return nullptr;
}

bool is_slot(const start_ctx* c) noexcept { return c >= std::begin(start_slots) && c < std::end(start_slots); }

void* trampoline(void* p) {
  auto* ctx = static_cast<start_ctx*>(p);
  const auto entry = ctx->entry;
  void* const arg = ctx->arg;
  if (is_slot(ctx)) ctx->taken.store(false, std::memory_order_release);
  else delete ctx;
  entry(arg);
  return nullptr;
}

}  // namespace

int thread_create(thread_id* tid, void (*entry)(void*), void* arg, std::size_t stack_size) noexcept {
  pthread_attr_t attr;
  pthread_attr_t* attrp = nullptr;
  if (stack_size != 0) {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::size_t size = (stack_size + page - 1) / page * page;
    if (size < static_cast<std::size_t>(PTHREAD_STACK_MIN)) size = static_cast<std::size_t>(PTHREAD_STACK_MIN);
    if (pthread_attr_init(&attr) != 0) return PHASELOOP_ENOMEM;
    attrp = &attr;
    if (pthread_attr_setstacksize(attrp, size) != 0) {
      pthread_attr_destroy(attrp);
      return PHASELOOP_EINVAL;
    }
  }
  start_ctx* ctx = take_slot();
  if (ctx == nullptr) ctx = new (std::nothrow) start_ctx;
  if (ctx == nullptr) {
    if (attrp != nullptr) pthread_attr_destroy(attrp);
    return PHASELOOP_ENOMEM;
  }
  ctx->entry = entry;
  ctx->arg = arg;
  const int r = pthread_create(tid, attrp, trampoline, ctx);
  if (attrp != nullptr) pthread_attr_destroy(attrp);
  if (r != 0) {
    if (is_slot(ctx)) ctx->taken.store(false, std::memory_order_release);
    else delete ctx;
  }
  return err(r);
}

int thread_join(thread_id tid) noexcept { return err(pthread_join(tid, nullptr)); }
thread_id thread_self() noexcept { return pthread_self(); }
bool thread_equal(thread_id a, thread_id b) noexcept { return pthread_equal(a, b) != 0; }
int thread_detach(thread_id tid) noexcept { return err(pthread_detach(tid)); }

// ---- affinity, name, priority -----------------------------------------------------

int cpumask_size() noexcept { return CPU_SETSIZE; }

int thread_getaffinity(thread_id tid, char* mask, std::size_t size) noexcept {
  if (mask == nullptr || size < static_cast<std::size_t>(CPU_SETSIZE)) return PHASELOOP_EINVAL;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (const int r = pthread_getaffinity_np(tid, sizeof set, &set); r != 0) return err(r);
  for (int i = 0; i < CPU_SETSIZE; i++) mask[i] = CPU_ISSET(i, &set) ? 1 : 0;
  return 0;
}

int thread_setaffinity(thread_id tid, const char* mask, char* old, std::size_t size) noexcept {
  if (mask == nullptr || size < static_cast<std::size_t>(CPU_SETSIZE)) return PHASELOOP_EINVAL;
  if (old != nullptr)
    if (const int r = thread_getaffinity(tid, old, size); r != 0) return r;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int i = 0; i < CPU_SETSIZE; i++)
    if (mask[i] != 0) CPU_SET(i, &set);
  return err(pthread_setaffinity_np(tid, sizeof set, &set));
}

int thread_getcpu() noexcept {
  const int cpu = sched_getcpu();
  return cpu < 0 ? -errno : cpu;
}

int thread_setname(const char* name) noexcept {
  if (name == nullptr) return PHASELOOP_EINVAL;
  char cut[16];
  std::snprintf(cut, sizeof cut, "%s", name);
  return err(pthread_setname_np(pthread_self(), cut));
}

int thread_getname(thread_id tid, char* name, std::size_t size) noexcept {
  if (name == nullptr || size == 0) return PHASELOOP_EINVAL;
  char full[16];
  if (const int r = pthread_getname_np(tid, full, sizeof full); r != 0) return err(r);
  std::snprintf(name, size, "%s", full);
  return 0;
}

namespace {

constexpr int lowest_priority = -2;
constexpr int highest_priority = 2;

// The calling thread under SCHED_OTHER: priorities are its nice value.
bool uses_nice(thread_id tid, int policy) { return policy == SCHED_OTHER && pthread_equal(tid, pthread_self()); }

}  // namespace

int thread_getpriority(thread_id tid, int* priority) noexcept {
  if (priority == nullptr) return PHASELOOP_EINVAL;
  int policy;
  sched_param param;
  if (const int r = pthread_getschedparam(tid, &policy, &param); r != 0) return err(r);
  if (uses_nice(tid, policy)) {
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
    if (nice == -1 && errno != 0) return -errno;
    *priority = nice;
    return 0;
  }
  *priority = param.sched_priority;
  return 0;
}

int thread_setpriority(thread_id tid, int priority) noexcept {
  if (priority < lowest_priority || priority > highest_priority) return PHASELOOP_EINVAL;
  int policy;
  sched_param param;
  if (const int r = pthread_getschedparam(tid, &policy, &param); r != 0) return err(r);
  if (uses_nice(tid, policy))
    return setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), -2 * priority) == 0 ? 0 : -errno;
  const int min = sched_get_priority_min(policy);
  const int max = sched_get_priority_max(policy);
  if (min == -1 || max == -1) return -errno;
  // The range in quarters: lowest, below normal, normal, above, highest.
  const int wanted = min + (max - min) * (priority + 2) / 4;
  if (param.sched_priority == wanted) return 0;
  param.sched_priority = wanted;
  return err(pthread_setschedparam(tid, policy, &param));
}

// ---- mutex ----------------------------------------------------------------------

int mutex::init(bool recursive) noexcept {
  if (!recursive) return err(pthread_mutex_init(&m_, nullptr));
  pthread_mutexattr_t attr;
  check(pthread_mutexattr_init(&attr));
  check(pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE));
  const int r = pthread_mutex_init(&m_, &attr);
  pthread_mutexattr_destroy(&attr);
  return err(r);
}

void mutex::destroy() noexcept { check(pthread_mutex_destroy(&m_)); }
void mutex::lock() noexcept { check(pthread_mutex_lock(&m_)); }
int mutex::try_lock() noexcept { return busy_or_abort(pthread_mutex_trylock(&m_)); }
void mutex::unlock() noexcept { check(pthread_mutex_unlock(&m_)); }

// ---- rwlock ---------------------------------------------------------------------

int rwlock::init() noexcept { return err(pthread_rwlock_init(&l_, nullptr)); }
void rwlock::destroy() noexcept { check(pthread_rwlock_destroy(&l_)); }
void rwlock::read_lock() noexcept { check(pthread_rwlock_rdlock(&l_)); }
int rwlock::try_read_lock() noexcept { return busy_or_abort(pthread_rwlock_tryrdlock(&l_)); }
void rwlock::read_unlock() noexcept { check(pthread_rwlock_unlock(&l_)); }
void rwlock::write_lock() noexcept { check(pthread_rwlock_wrlock(&l_)); }
int rwlock::try_write_lock() noexcept { return busy_or_abort(pthread_rwlock_trywrlock(&l_)); }
void rwlock::write_unlock() noexcept { check(pthread_rwlock_unlock(&l_)); }

// ---- semaphore ------------------------------------------------------------------

int semaphore::init(unsigned value) noexcept { return sem_init(&s_, 0, value) == 0 ? 0 : -errno; }
void semaphore::destroy() noexcept { check(sem_destroy(&s_)); }
void semaphore::post() noexcept { check(sem_post(&s_)); }

void semaphore::wait() noexcept {
  int r;
  do r = sem_wait(&s_);
  while (r == -1 && errno == EINTR);
  check(r);
}

int semaphore::try_wait() noexcept {
  int r;
  do r = sem_trywait(&s_);
  while (r == -1 && errno == EINTR);
  if (r == 0) return 0;
  if (errno == EAGAIN) return PHASELOOP_EAGAIN;
  std::abort();
}

// ---- condition ------------------------------------------------------------------

int condition::init() noexcept {
  pthread_condattr_t attr;
  if (const int r = pthread_condattr_init(&attr); r != 0) return err(r);
  // A relative timeout must not jump with the wall clock.
  int r = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  if (r == 0) r = pthread_cond_init(&c_, &attr);
  pthread_condattr_destroy(&attr);
  return err(r);
}

void condition::destroy() noexcept { check(pthread_cond_destroy(&c_)); }
void condition::signal() noexcept { check(pthread_cond_signal(&c_)); }
void condition::broadcast() noexcept { check(pthread_cond_broadcast(&c_)); }
void condition::wait(mutex& m) noexcept { check(pthread_cond_wait(&c_, m.native())); }

int condition::timed_wait(mutex& m, std::uint64_t timeout_ns) noexcept {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const std::uint64_t abs =
      static_cast<std::uint64_t>(now.tv_sec) * 1000000000u + static_cast<std::uint64_t>(now.tv_nsec) + timeout_ns;
  timespec ts;
  ts.tv_sec = static_cast<time_t>(abs / 1000000000u);
  ts.tv_nsec = static_cast<long>(abs % 1000000000u);
  const int r = pthread_cond_timedwait(&c_, m.native(), &ts);
  if (r == 0) return 0;
  if (r == ETIMEDOUT) return PHASELOOP_ETIMEDOUT;
  std::abort();
}

// ---- barrier, once, key ---------------------------------------------------------

int barrier::init(unsigned count) noexcept { return err(pthread_barrier_init(&b_, nullptr, count)); }
void barrier::destroy() noexcept { check(pthread_barrier_destroy(&b_)); }

bool barrier::wait() noexcept {
  const int r = pthread_barrier_wait(&b_);
  if (r == PTHREAD_BARRIER_SERIAL_THREAD) return true;
  check(r);
  return false;
}

void call_once(pthread_once_t* guard, void (*fn)()) noexcept { check(pthread_once(guard, fn)); }

int thread_key::create() noexcept { return err(pthread_key_create(&k_, nullptr)); }
void thread_key::destroy() noexcept { check(pthread_key_delete(k_)); }
void* thread_key::get() const noexcept { return pthread_getspecific(k_); }
void thread_key::set(void* value) noexcept { check(pthread_setspecific(k_, value)); }

}  // namespace phaseloop::os
