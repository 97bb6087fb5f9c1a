// SPDX-License-Identifier: MIT
/* Thread, mutex, condition variable, semaphore and once primitives, used
 * with handshakes so that all printing happens in a deterministic order. */
#include "diff.h"

static uv_mutex_t mutex;
static uv_cond_t cond;
static uv_sem_t sem;
static uv_once_t once_guard = UV_ONCE_INIT;
static int once_calls;
static int stage;
static int shared_counter;

static void init_once(void) { once_calls++; }

static void worker(void *arg) {
  int id = *(int *) arg;
  int i;

  uv_once(&once_guard, init_once);
  for (i = 0; i < 1000; i++) {
    uv_mutex_lock(&mutex);
    shared_counter++;
    uv_mutex_unlock(&mutex);
  }
  if (id == 0) {
    uv_mutex_lock(&mutex);
    stage = 1;
    uv_cond_signal(&cond);
    while (stage != 2)
      uv_cond_wait(&cond, &mutex);
    uv_mutex_unlock(&mutex);
  }
  uv_sem_post(&sem);
}

int main(void) {
  uv_thread_t threads[4];
  int ids[4];
  int i;

  CHECK(uv_mutex_init(&mutex) == 0);
  CHECK(uv_cond_init(&cond) == 0);
  CHECK(uv_sem_init(&sem, 0) == 0);

  for (i = 0; i < 4; i++) {
    ids[i] = i;
    CHECK(uv_thread_create(&threads[i], worker, &ids[i]) == 0);
  }

  uv_mutex_lock(&mutex);
  while (stage != 1)
    uv_cond_wait(&cond, &mutex);
  say("worker 0 reached stage 1");
  stage = 2;
  uv_cond_broadcast(&cond);
  uv_mutex_unlock(&mutex);

  for (i = 0; i < 4; i++)
    uv_sem_wait(&sem);
  say("all workers posted the semaphore");
  say("trywait on empty semaphore = %s", rc_name(uv_sem_trywait(&sem)));
  uv_sem_post(&sem);
  say("trywait after post = %s", rc_name(uv_sem_trywait(&sem)));

  for (i = 0; i < 4; i++)
    CHECK(uv_thread_join(&threads[i]) == 0);
  say("joined; counter=%d once_calls=%d", shared_counter, once_calls);
  uv_once(&once_guard, init_once);
  say("once_calls after another uv_once=%d", once_calls);

  say("mutex trylock (free) = %s", rc_name(uv_mutex_trylock(&mutex)));
  uv_mutex_unlock(&mutex);

  uv_sem_destroy(&sem);
  uv_cond_destroy(&cond);
  uv_mutex_destroy(&mutex);
  say("done");
  return 0;
}
