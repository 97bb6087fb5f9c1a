// SPDX-License-Identifier: MIT
// libuv's thread primitives over phaseloop/thread.hpp: each uv_* object is
// the library's object (same bytes, checked below), each call forwards.

#include "phaseloop/thread.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace os = phaseloop::os;
using namespace phaseloop::compat;

namespace {

static_assert(same_shape<uv_mutex_t, os::mutex>());
static_assert(same_shape<uv_rwlock_t, os::rwlock>());
static_assert(same_shape<uv_sem_t, os::semaphore>());
static_assert(same_shape<uv_cond_t, os::condition>());
static_assert(same_shape<uv_barrier_t, os::barrier>());
static_assert(same_shape<uv_key_t, os::thread_key>());

}  // namespace

extern "C" {

int uv_thread_create_ex(uv_thread_t* tid, const uv_thread_options_t* params, uv_thread_cb entry, void* arg) {
  const bool sized = params != nullptr && (params->flags & UV_THREAD_HAS_STACK_SIZE) != 0;
  return os::thread_create(tid, entry, arg, sized ? params->stack_size : 0);
}

int uv_thread_create(uv_thread_t* tid, uv_thread_cb entry, void* arg) {
  return os::thread_create(tid, entry, arg);
}

uv_thread_t uv_thread_self(void) { return os::thread_self(); }
int uv_thread_detach(uv_thread_t* tid) { return os::thread_detach(*tid); }
int uv_cpumask_size(void) { return os::cpumask_size(); }
int uv_thread_setaffinity(uv_thread_t* tid, char* cpumask, char* oldmask, size_t mask_size) {
  return os::thread_setaffinity(*tid, cpumask, oldmask, mask_size);
}
int uv_thread_getaffinity(uv_thread_t* tid, char* cpumask, size_t mask_size) {
  return os::thread_getaffinity(*tid, cpumask, mask_size);
}
int uv_thread_getcpu(void) { return os::thread_getcpu(); }
int uv_thread_setname(const char* name) { return os::thread_setname(name); }
int uv_thread_getname(uv_thread_t* tid, char* name, size_t size) { return os::thread_getname(*tid, name, size); }
int uv_thread_getpriority(uv_thread_t tid, int* priority) { return os::thread_getpriority(tid, priority); }
int uv_thread_setpriority(uv_thread_t tid, int priority) { return os::thread_setpriority(tid, priority); }
int uv_thread_join(uv_thread_t* tid) { return os::thread_join(*tid); }
int uv_thread_equal(const uv_thread_t* t1, const uv_thread_t* t2) { return os::thread_equal(*t1, *t2) ? 1 : 0; }

int uv_mutex_init(uv_mutex_t* mutex) { return as<os::mutex>(mutex).init(); }
int uv_mutex_init_recursive(uv_mutex_t* mutex) { return as<os::mutex>(mutex).init(true); }
void uv_mutex_destroy(uv_mutex_t* mutex) { as<os::mutex>(mutex).destroy(); }
void uv_mutex_lock(uv_mutex_t* mutex) { as<os::mutex>(mutex).lock(); }
int uv_mutex_trylock(uv_mutex_t* mutex) { return as<os::mutex>(mutex).try_lock(); }
void uv_mutex_unlock(uv_mutex_t* mutex) { as<os::mutex>(mutex).unlock(); }

int uv_rwlock_init(uv_rwlock_t* rwlock) { return as<os::rwlock>(rwlock).init(); }
void uv_rwlock_destroy(uv_rwlock_t* rwlock) { as<os::rwlock>(rwlock).destroy(); }
void uv_rwlock_rdlock(uv_rwlock_t* rwlock) { as<os::rwlock>(rwlock).read_lock(); }
int uv_rwlock_tryrdlock(uv_rwlock_t* rwlock) { return as<os::rwlock>(rwlock).try_read_lock(); }
void uv_rwlock_rdunlock(uv_rwlock_t* rwlock) { as<os::rwlock>(rwlock).read_unlock(); }
void uv_rwlock_wrlock(uv_rwlock_t* rwlock) { as<os::rwlock>(rwlock).write_lock(); }
int uv_rwlock_trywrlock(uv_rwlock_t* rwlock) { return as<os::rwlock>(rwlock).try_write_lock(); }
void uv_rwlock_wrunlock(uv_rwlock_t* rwlock) { as<os::rwlock>(rwlock).write_unlock(); }

int uv_sem_init(uv_sem_t* sem, unsigned int value) { return as<os::semaphore>(sem).init(value); }
void uv_sem_destroy(uv_sem_t* sem) { as<os::semaphore>(sem).destroy(); }
void uv_sem_post(uv_sem_t* sem) { as<os::semaphore>(sem).post(); }
void uv_sem_wait(uv_sem_t* sem) { as<os::semaphore>(sem).wait(); }
int uv_sem_trywait(uv_sem_t* sem) { return as<os::semaphore>(sem).try_wait(); }

int uv_cond_init(uv_cond_t* cond) { return as<os::condition>(cond).init(); }
void uv_cond_destroy(uv_cond_t* cond) { as<os::condition>(cond).destroy(); }
void uv_cond_signal(uv_cond_t* cond) { as<os::condition>(cond).signal(); }
void uv_cond_broadcast(uv_cond_t* cond) { as<os::condition>(cond).broadcast(); }
void uv_cond_wait(uv_cond_t* cond, uv_mutex_t* mutex) { as<os::condition>(cond).wait(as<os::mutex>(mutex)); }
int uv_cond_timedwait(uv_cond_t* cond, uv_mutex_t* mutex, uint64_t timeout) {
  return as<os::condition>(cond).timed_wait(as<os::mutex>(mutex), timeout);
}

int uv_barrier_init(uv_barrier_t* barrier, unsigned int count) { return as<os::barrier>(barrier).init(count); }
void uv_barrier_destroy(uv_barrier_t* barrier) { as<os::barrier>(barrier).destroy(); }
int uv_barrier_wait(uv_barrier_t* barrier) { return as<os::barrier>(barrier).wait() ? 1 : 0; }

void uv_once(uv_once_t* guard, void (*callback)(void)) { os::call_once(guard, callback); }

int uv_key_create(uv_key_t* key) { return as<os::thread_key>(key).create(); }
void uv_key_delete(uv_key_t* key) { as<os::thread_key>(key).destroy(); }
void* uv_key_get(uv_key_t* key) { return as<os::thread_key>(key).get(); }
void uv_key_set(uv_key_t* key, void* value) { as<os::thread_key>(key).set(value); }

}  // extern "C"
