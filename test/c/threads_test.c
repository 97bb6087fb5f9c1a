// SPDX-License-Identifier: MIT
/* libuv's thread API: threads, mutexes, rwlocks, semaphores, condition
 * variables, once, thread-local keys and barriers. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "suites.h"

/* ---- threads --------------------------------------------------------------- */

typedef struct {
  int value;
  uv_thread_t self;
} thread_result;

static void set_value(void* arg) {
  thread_result* r = arg;
  r->value = 42;
  r->self = uv_thread_self();
}

static void thread_create_join(void** state) {
  (void)state;
  uv_thread_t tid;
  thread_result r = {0};
  assert_int_equal(uv_thread_create(&tid, set_value, &r), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(r.value, 42);
  uv_thread_t me = uv_thread_self();
  assert_true(uv_thread_equal(&r.self, &tid));
  assert_false(uv_thread_equal(&me, &tid));
  assert_true(uv_thread_equal(&me, &me));
}

static size_t seen_stack_size;
static void read_stack_size(void* arg) {
  (void)arg;
  pthread_attr_t attr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstacksize(&attr, &size);
    pthread_attr_destroy(&attr);
  }
  seen_stack_size = size;
}

static void thread_create_ex_stack_size(void** state) {
  (void)state;
  uv_thread_t tid;
  uv_thread_options_t opts;
  /* Rounded up to whole pages. */
  opts.flags = UV_THREAD_HAS_STACK_SIZE;
  opts.stack_size = 1024 * 1024 + 1;
  seen_stack_size = 0;
  assert_int_equal(uv_thread_create_ex(&tid, &opts, read_stack_size, NULL), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_true(seen_stack_size >= 1024 * 1024 + 1);
  assert_true(seen_stack_size < 2 * 1024 * 1024);
  /* Too small: raised to the minimum the system accepts. */
  opts.stack_size = 1;
  seen_stack_size = 0;
  assert_int_equal(uv_thread_create_ex(&tid, &opts, read_stack_size, NULL), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_true(seen_stack_size >= (size_t)PTHREAD_STACK_MIN);
  /* Without the flag, stack_size is ignored. */
  opts.flags = 0;
  opts.stack_size = 1;
  seen_stack_size = 0;
  assert_int_equal(uv_thread_create_ex(&tid, &opts, read_stack_size, NULL), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_true(seen_stack_size > 64 * 1024);
}

/* ---- mutexes ------------------------------------------------------------------ */

typedef struct {
  uv_mutex_t* mutex;
  uv_rwlock_t* rwlock;
  int rc[4];
} try_args;

static void try_mutex(void* arg) {
  try_args* a = arg;
  a->rc[0] = uv_mutex_trylock(a->mutex);
  if (a->rc[0] == 0) uv_mutex_unlock(a->mutex);
}

static void mutex_trylock(void** state) {
  (void)state;
  uv_mutex_t m;
  uv_thread_t tid;
  try_args a = {&m, NULL, {1, 1, 1, 1}};
  assert_int_equal(uv_mutex_init(&m), 0);
  uv_mutex_lock(&m);
  assert_int_equal(uv_thread_create(&tid, try_mutex, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], UV_EBUSY);
  uv_mutex_unlock(&m);
  assert_int_equal(uv_thread_create(&tid, try_mutex, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], 0);
  assert_int_equal(uv_mutex_trylock(&m), 0);
  uv_mutex_unlock(&m);
  uv_mutex_destroy(&m);
}

static void mutex_recursive(void** state) {
  (void)state;
  uv_mutex_t m;
  uv_thread_t tid;
  try_args a = {&m, NULL, {1, 1, 1, 1}};
  assert_int_equal(uv_mutex_init_recursive(&m), 0);
  uv_mutex_lock(&m);
  uv_mutex_lock(&m);
  assert_int_equal(uv_mutex_trylock(&m), 0);
  /* Held three times by this thread: busy for another one. */
  assert_int_equal(uv_thread_create(&tid, try_mutex, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], UV_EBUSY);
  uv_mutex_unlock(&m);
  uv_mutex_unlock(&m);
  uv_mutex_unlock(&m);
  assert_int_equal(uv_thread_create(&tid, try_mutex, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], 0);
  uv_mutex_destroy(&m);
}

/* ---- rwlocks ------------------------------------------------------------------- */

static void try_rwlock(void* arg) {
  try_args* a = arg;
  a->rc[0] = uv_rwlock_tryrdlock(a->rwlock);
  if (a->rc[0] == 0) uv_rwlock_rdunlock(a->rwlock);
  a->rc[1] = uv_rwlock_trywrlock(a->rwlock);
  if (a->rc[1] == 0) uv_rwlock_wrunlock(a->rwlock);
}

static void rwlock_try_variants(void** state) {
  (void)state;
  uv_rwlock_t rw;
  uv_thread_t tid;
  try_args a = {NULL, &rw, {1, 1, 1, 1}};
  assert_int_equal(uv_rwlock_init(&rw), 0);

  /* Read-locked here: another reader gets in, a writer does not. */
  uv_rwlock_rdlock(&rw);
  assert_int_equal(uv_thread_create(&tid, try_rwlock, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], 0);
  assert_int_equal(a.rc[1], UV_EBUSY);
  uv_rwlock_rdunlock(&rw);

  /* Write-locked here: nobody else gets in. */
  uv_rwlock_wrlock(&rw);
  assert_int_equal(uv_thread_create(&tid, try_rwlock, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], UV_EBUSY);
  assert_int_equal(a.rc[1], UV_EBUSY);
  uv_rwlock_wrunlock(&rw);

  /* Free: both succeed. */
  assert_int_equal(uv_thread_create(&tid, try_rwlock, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(a.rc[0], 0);
  assert_int_equal(a.rc[1], 0);
  assert_int_equal(uv_rwlock_trywrlock(&rw), 0);
  uv_rwlock_wrunlock(&rw);
  uv_rwlock_destroy(&rw);
}

/* ---- semaphores ---------------------------------------------------------------- */

static void post_sem(void* arg) { uv_sem_post(arg); }

static void sem_trywait_eagain(void** state) {
  (void)state;
  uv_sem_t sem;
  uv_thread_t tid;
  assert_int_equal(uv_sem_init(&sem, 1), 0);
  assert_int_equal(uv_sem_trywait(&sem), 0);
  assert_int_equal(uv_sem_trywait(&sem), UV_EAGAIN);
  uv_sem_post(&sem);
  uv_sem_post(&sem);
  assert_int_equal(uv_sem_trywait(&sem), 0);
  assert_int_equal(uv_sem_trywait(&sem), 0);
  assert_int_equal(uv_sem_trywait(&sem), UV_EAGAIN);
  /* A post from another thread wakes a waiter. */
  assert_int_equal(uv_thread_create(&tid, post_sem, &sem), 0);
  uv_sem_wait(&sem);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_int_equal(uv_sem_trywait(&sem), UV_EAGAIN);
  uv_sem_destroy(&sem);
}

/* ---- condition variables -------------------------------------------------------- */

typedef struct {
  uv_mutex_t mutex;
  uv_cond_t cond;
  int flag;
} cond_ctx;

static void signal_cond(void* arg) {
  cond_ctx* c = arg;
  uv_mutex_lock(&c->mutex);
  c->flag = 1;
  uv_cond_signal(&c->cond);
  uv_mutex_unlock(&c->mutex);
}

static void cond_timedwait_timeout(void** state) {
  (void)state;
  cond_ctx c;
  uv_thread_t tid;
  c.flag = 0;
  assert_int_equal(uv_mutex_init(&c.mutex), 0);
  assert_int_equal(uv_cond_init(&c.cond), 0);

  /* Nobody signals: times out after (at least) the timeout, in ns. */
  uv_mutex_lock(&c.mutex);
  uint64_t start = uv_hrtime();
  assert_int_equal(uv_cond_timedwait(&c.cond, &c.mutex, 20 * 1000 * 1000), UV_ETIMEDOUT);
  uint64_t waited = uv_hrtime() - start;
  uv_mutex_unlock(&c.mutex);
  assert_true(waited >= 19 * 1000 * 1000);
  assert_true(waited < 2000ull * 1000 * 1000); /* ns, not ms or µs */

  /* Signalled from another thread: 0 (a spurious wake-up may also return
   * 0, hence the loop on the flag). */
  uv_mutex_lock(&c.mutex);
  assert_int_equal(uv_thread_create(&tid, signal_cond, &c), 0);
  int rc = 0;
  while (!c.flag && rc == 0) rc = uv_cond_timedwait(&c.cond, &c.mutex, 5000ull * 1000 * 1000);
  uv_mutex_unlock(&c.mutex);
  assert_int_equal(rc, 0);
  assert_int_equal(c.flag, 1);
  assert_int_equal(uv_thread_join(&tid), 0);
  uv_cond_destroy(&c.cond);
  uv_mutex_destroy(&c.mutex);
}

/* ---- uv_once -------------------------------------------------------------------- */

static uv_once_t once_guard = UV_ONCE_INIT;
static int once_calls;
static void once_cb(void) { once_calls++; }
static void call_once(void* arg) {
  (void)arg;
  uv_once(&once_guard, once_cb);
}

static void once_runs_once(void** state) {
  (void)state;
  uv_thread_t t[4];
  for (int k = 0; k < 4; k++) assert_int_equal(uv_thread_create(&t[k], call_once, NULL), 0);
  call_once(NULL);
  for (int k = 0; k < 4; k++) assert_int_equal(uv_thread_join(&t[k]), 0);
  call_once(NULL);
  assert_int_equal(once_calls, 1);
}

/* ---- thread-local keys ------------------------------------------------------------ */

typedef struct {
  uv_key_t* key;
  void* initial;
  void* after_set;
} key_args;

static int thread_marker;
static int main_marker;

static void use_key(void* arg) {
  key_args* a = arg;
  a->initial = uv_key_get(a->key);
  uv_key_set(a->key, &thread_marker);
  a->after_set = uv_key_get(a->key);
}

static void key_per_thread(void** state) {
  (void)state;
  uv_key_t key;
  uv_thread_t tid;
  key_args a = {&key, (void*)1, NULL};
  assert_int_equal(uv_key_create(&key), 0);
  assert_null(uv_key_get(&key));
  uv_key_set(&key, &main_marker);
  assert_ptr_equal(uv_key_get(&key), &main_marker);
  assert_int_equal(uv_thread_create(&tid, use_key, &a), 0);
  assert_int_equal(uv_thread_join(&tid), 0);
  assert_null(a.initial); /* a new thread starts with NULL */
  assert_ptr_equal(a.after_set, &thread_marker);
  assert_ptr_equal(uv_key_get(&key), &main_marker); /* ours is untouched */
  uv_key_delete(&key);
}

/* ---- barriers ----------------------------------------------------------------------- */

typedef struct {
  uv_barrier_t* barrier;
  int rc;
} barrier_args;

static void wait_barrier(void* arg) {
  barrier_args* a = arg;
  a->rc = uv_barrier_wait(a->barrier);
}

static void barrier_one_serial(void** state) {
  (void)state;
  enum { N = 4 };
  uv_barrier_t b;
  uv_thread_t t[N - 1];
  barrier_args a[N];
  assert_int_equal(uv_barrier_init(&b, N), 0);
  for (int k = 0; k < N; k++) {
    a[k].barrier = &b;
    a[k].rc = -1;
  }
  for (int k = 0; k < N - 1; k++) assert_int_equal(uv_thread_create(&t[k], wait_barrier, &a[k]), 0);
  wait_barrier(&a[N - 1]);
  for (int k = 0; k < N - 1; k++) assert_int_equal(uv_thread_join(&t[k]), 0);
  int positive = 0;
  for (int k = 0; k < N; k++) {
    assert_true(a[k].rc >= 0);
    if (a[k].rc > 0) positive++;
  }
  assert_int_equal(positive, 1);
  uv_barrier_destroy(&b);
}

int run_threads_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_create_join),
      cmocka_unit_test(thread_create_ex_stack_size),
      cmocka_unit_test(mutex_trylock),
      cmocka_unit_test(mutex_recursive),
      cmocka_unit_test(rwlock_try_variants),
      cmocka_unit_test(sem_trywait_eagain),
      cmocka_unit_test(cond_timedwait_timeout),
      cmocka_unit_test(once_runs_once),
      cmocka_unit_test(key_per_thread),
      cmocka_unit_test(barrier_one_serial),
  };
  return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
