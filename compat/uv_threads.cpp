// libuv's thread primitives over pthreads. libuv aborts when a lock
// operation that cannot fail in a correct program fails; so does this.

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

#include "uv.h"

namespace {

int err(int e) { return e == 0 ? 0 : -e; }

void check(int r) {
  if (r != 0) std::abort();
}

struct start_ctx {
  uv_thread_cb entry;
  void* arg;
};

void* trampoline(void* p) {
  start_ctx c = *static_cast<start_ctx*>(p);
  std::free(p);
  c.entry(c.arg);
  return nullptr;
}

}  // namespace

extern "C" {

int uv_thread_create_ex(uv_thread_t* tid, const uv_thread_options_t* params, uv_thread_cb entry, void* arg) {
  pthread_attr_t attr;
  pthread_attr_t* attrp = nullptr;
  if (params != nullptr && (params->flags & UV_THREAD_HAS_STACK_SIZE) && params->stack_size != 0) {
    size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_t size = (params->stack_size + page - 1) / page * page;
    if (size < static_cast<size_t>(PTHREAD_STACK_MIN)) size = static_cast<size_t>(PTHREAD_STACK_MIN);
    if (pthread_attr_init(&attr) != 0) return UV_ENOMEM;
    attrp = &attr;
    if (pthread_attr_setstacksize(attrp, size) != 0) {
      pthread_attr_destroy(attrp);
      return UV_EINVAL;
    }
  }
  auto* ctx = static_cast<start_ctx*>(std::malloc(sizeof(start_ctx)));
  if (ctx == nullptr) {
    if (attrp) pthread_attr_destroy(attrp);
    return UV_ENOMEM;
  }
  *ctx = start_ctx{entry, arg};
  int r = pthread_create(tid, attrp, trampoline, ctx);
  if (attrp) pthread_attr_destroy(attrp);
  if (r != 0) std::free(ctx);
  return err(r);
}

int uv_thread_create(uv_thread_t* tid, uv_thread_cb entry, void* arg) {
  return uv_thread_create_ex(tid, nullptr, entry, arg);
}

uv_thread_t uv_thread_self(void) { return pthread_self(); }
int uv_thread_join(uv_thread_t* tid) { return err(pthread_join(*tid, nullptr)); }
int uv_thread_equal(const uv_thread_t* t1, const uv_thread_t* t2) { return pthread_equal(*t1, *t2); }

int uv_mutex_init(uv_mutex_t* mutex) { return err(pthread_mutex_init(mutex, nullptr)); }

int uv_mutex_init_recursive(uv_mutex_t* mutex) {
  pthread_mutexattr_t attr;
  if (pthread_mutexattr_init(&attr) != 0) std::abort();
  if (pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) != 0) std::abort();
  int r = pthread_mutex_init(mutex, &attr);
  pthread_mutexattr_destroy(&attr);
  return err(r);
}

void uv_mutex_destroy(uv_mutex_t* mutex) { check(pthread_mutex_destroy(mutex)); }
void uv_mutex_lock(uv_mutex_t* mutex) { check(pthread_mutex_lock(mutex)); }
void uv_mutex_unlock(uv_mutex_t* mutex) { check(pthread_mutex_unlock(mutex)); }

int uv_mutex_trylock(uv_mutex_t* mutex) {
  int r = pthread_mutex_trylock(mutex);
  if (r == 0) return 0;
  if (r == EBUSY || r == EAGAIN) return UV_EBUSY;
  std::abort();
}

int uv_rwlock_init(uv_rwlock_t* rwlock) { return err(pthread_rwlock_init(rwlock, nullptr)); }
void uv_rwlock_destroy(uv_rwlock_t* rwlock) { check(pthread_rwlock_destroy(rwlock)); }
void uv_rwlock_rdlock(uv_rwlock_t* rwlock) { check(pthread_rwlock_rdlock(rwlock)); }
void uv_rwlock_rdunlock(uv_rwlock_t* rwlock) { check(pthread_rwlock_unlock(rwlock)); }
void uv_rwlock_wrlock(uv_rwlock_t* rwlock) { check(pthread_rwlock_wrlock(rwlock)); }
void uv_rwlock_wrunlock(uv_rwlock_t* rwlock) { check(pthread_rwlock_unlock(rwlock)); }

int uv_rwlock_tryrdlock(uv_rwlock_t* rwlock) {
  int r = pthread_rwlock_tryrdlock(rwlock);
  if (r == 0) return 0;
  if (r == EBUSY || r == EAGAIN) return UV_EBUSY;
  std::abort();
}

int uv_rwlock_trywrlock(uv_rwlock_t* rwlock) {
  int r = pthread_rwlock_trywrlock(rwlock);
  if (r == 0) return 0;
  if (r == EBUSY || r == EAGAIN) return UV_EBUSY;
  std::abort();
}

int uv_sem_init(uv_sem_t* sem, unsigned int value) { return sem_init(sem, 0, value) == 0 ? 0 : -errno; }
void uv_sem_destroy(uv_sem_t* sem) { check(sem_destroy(sem)); }
void uv_sem_post(uv_sem_t* sem) { check(sem_post(sem)); }

void uv_sem_wait(uv_sem_t* sem) {
  int r;
  do r = sem_wait(sem);
  while (r == -1 && errno == EINTR);
  check(r);
}

int uv_sem_trywait(uv_sem_t* sem) {
  int r;
  do r = sem_trywait(sem);
  while (r == -1 && errno == EINTR);
  if (r == 0) return 0;
  if (errno == EAGAIN) return UV_EAGAIN;
  std::abort();
}

int uv_cond_init(uv_cond_t* cond) {
  pthread_condattr_t attr;
  if (int r = pthread_condattr_init(&attr); r != 0) return err(r);
  // Timed waits measure a monotonic clock, as uv_cond_timedwait's timeout
  // is relative and must not jump with the wall clock.
  int r = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  if (r == 0) r = pthread_cond_init(cond, &attr);
  pthread_condattr_destroy(&attr);
  return err(r);
}

void uv_cond_destroy(uv_cond_t* cond) { check(pthread_cond_destroy(cond)); }
void uv_cond_signal(uv_cond_t* cond) { check(pthread_cond_signal(cond)); }
void uv_cond_broadcast(uv_cond_t* cond) { check(pthread_cond_broadcast(cond)); }
void uv_cond_wait(uv_cond_t* cond, uv_mutex_t* mutex) { check(pthread_cond_wait(cond, mutex)); }

int uv_cond_timedwait(uv_cond_t* cond, uv_mutex_t* mutex, uint64_t timeout) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t abs = static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec) + timeout;
  timespec ts;
  ts.tv_sec = static_cast<time_t>(abs / 1000000000u);
  ts.tv_nsec = static_cast<long>(abs % 1000000000u);
  int r = pthread_cond_timedwait(cond, mutex, &ts);
  if (r == 0) return 0;
  if (r == ETIMEDOUT) return UV_ETIMEDOUT;
  std::abort();
}

int uv_barrier_init(uv_barrier_t* barrier, unsigned int count) {
  return err(pthread_barrier_init(barrier, nullptr, count));
}
void uv_barrier_destroy(uv_barrier_t* barrier) { check(pthread_barrier_destroy(barrier)); }

int uv_barrier_wait(uv_barrier_t* barrier) {
  int r = pthread_barrier_wait(barrier);
  if (r == PTHREAD_BARRIER_SERIAL_THREAD) return 1;
  check(r);
  return 0;
}

void uv_once(uv_once_t* guard, void (*callback)(void)) { check(pthread_once(guard, callback)); }

int uv_key_create(uv_key_t* key) { return err(pthread_key_create(key, nullptr)); }
void uv_key_delete(uv_key_t* key) { check(pthread_key_delete(*key)); }
void* uv_key_get(uv_key_t* key) { return pthread_getspecific(*key); }
void uv_key_set(uv_key_t* key, void* value) { check(pthread_setspecific(*key, value)); }

}  // extern "C"
