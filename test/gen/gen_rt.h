// SPDX-License-Identifier: MIT
/*
 * gen_rt.h -- the runtime of the programs test/gen/cgen.py writes.
 *
 * A generated program is a table of statements, each run once: in main
 * before the loop runs, or in the callback of one handle or request at one
 * of its invocations. This header gives the handles, the callbacks that
 * print the trace and call the program's statements, and one function per
 * statement; every statement prints what it did and what libuv answered.
 *
 * Nothing printed depends on timing, addresses or thread scheduling, by
 * construction (docs/generated.md, "Why the output is determined"):
 *   - positive timer timeouts are multiples of GEN_Q ms whose sums along any
 *     chain of starts are distinct; a timer's callback says whether loop
 *     time had reached its due time, never how far past it;
 *   - idle, prepare and check handles and repeating timers stop themselves
 *     after a budget of callbacks, so a loop never spins for long;
 *   - an operation that completes outside the loop thread (threadpool work,
 *     a file operation, a signal, a child's exit, an async send from
 *     another thread) is started only when no other is in flight, and the
 *     statement that starts it waits until it has completed and has been
 *     handed to the loop ("settle"), so the very next poll phase sees it;
 *   - operations that libuv leaves undefined (starting a closed handle,
 *     raising a signal nobody watches) are skipped, and say so.
 * A "tick" is one run of the prepare phase: an unreferenced prepare handle
 * counts them (it is the first handle, so uv_walk lists it first).
 */
#ifndef PHASELOOP_TEST_GEN_RT_H
#define PHASELOOP_TEST_GEN_RT_H

#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

/* A program uses some of the statements only. */
#define GEN_STMT static __attribute__((unused))

#ifndef GEN_Q
# define GEN_Q 60 /* ms: the timer quantum */
#endif

#define GEN_TIMERS 4
#define GEN_IDLES 2
#define GEN_PREPARES 2
#define GEN_CHECKS 2
#define GEN_ASYNCS 2
#define GEN_SIGNALS 1
#define GEN_PROCS 1
#define GEN_WORKS 2
#define GEN_FS_STEPS 24

/* Handle ids: the order of the tables below. */
enum {
  GEN_T0 = 0,
  GEN_I0 = GEN_T0 + GEN_TIMERS,
  GEN_P0 = GEN_I0 + GEN_IDLES,
  GEN_C0 = GEN_P0 + GEN_PREPARES,
  GEN_A0 = GEN_C0 + GEN_CHECKS,
  GEN_S0 = GEN_A0 + GEN_ASYNCS,
  GEN_X0 = GEN_S0 + GEN_SIGNALS,
  GEN_HANDLES = GEN_X0 + GEN_PROCS,
  /* Requests' callbacks, after the handles. */
  GEN_W0 = GEN_HANDLES,
  GEN_F0 = GEN_W0 + GEN_WORKS,
  GEN_IDS = GEN_F0 + GEN_FS_STEPS
};

/* Events of an id (the program's statements are keyed by id, event, n). */
enum { GEN_EV_CB = 0, GEN_EV_CLOSE = 1 };

static uv_loop_t gen_loop_s;
static uv_loop_t *gen_loop = &gen_loop_s;
static int gen_tick;
static uv_prepare_t gen_tick_h;

static uv_timer_t gen_timer[GEN_TIMERS];
static uv_idle_t gen_idle[GEN_IDLES];
static uv_prepare_t gen_prepare[GEN_PREPARES];
static uv_check_t gen_check[GEN_CHECKS];
static uv_async_t gen_async[GEN_ASYNCS];
static uv_signal_t gen_signal[GEN_SIGNALS];
static uv_process_t gen_proc[GEN_PROCS];
static uv_work_t gen_work[GEN_WORKS];
static uv_work_t gen_blocker;
static sem_t gen_blocker_sem;

static int gen_calls[GEN_IDS];    /* callbacks so far */
static int gen_closes[GEN_IDS];   /* close callbacks so far */
static int gen_budget[GEN_IDS];   /* a loop watcher or repeating timer stops itself after this many */
static int gen_inited[GEN_IDS];
static int gen_closing[GEN_IDS];  /* uv_close called */
static int gen_in_flight;         /* operations completing outside the loop thread */
static int gen_work_busy[GEN_WORKS];
static int gen_proc_running[GEN_PROCS];

/* The program: its statements, run at (id, event, n). */
static void (*gen_on)(int id, int event, int n);

static const char *gen_name(int id) {
  static char buf[GEN_IDS][16];
  const char *p = "?";
  int k = 0;
  if (id < GEN_I0) { p = "T"; k = id - GEN_T0; }
  else if (id < GEN_P0) { p = "I"; k = id - GEN_I0; }
  else if (id < GEN_C0) { p = "P"; k = id - GEN_P0; }
  else if (id < GEN_A0) { p = "C"; k = id - GEN_C0; }
  else if (id < GEN_S0) { p = "A"; k = id - GEN_A0; }
  else if (id < GEN_X0) { p = "S"; k = id - GEN_S0; }
  else if (id < GEN_HANDLES) { p = "X"; k = id - GEN_X0; }
  else if (id < GEN_F0) { p = "W"; k = id - GEN_W0; }
  else { p = "F"; k = id - GEN_F0; }
  snprintf(buf[id], sizeof buf[id], "%s%d", p, k);
  return buf[id];
}

static void gen_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void gen_say(const char *fmt, ...) {
  va_list ap;
  printf("[%d] ", gen_tick);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  fflush(stdout);
}

static const char *gen_rc(int rc) {
  return rc == 0 ? "0" : rc > 0 ? "+" : uv_err_name(rc);
}

static uv_handle_t *gen_handle(int id) {
  if (id < GEN_I0) return (uv_handle_t *) &gen_timer[id - GEN_T0];
  if (id < GEN_P0) return (uv_handle_t *) &gen_idle[id - GEN_I0];
  if (id < GEN_C0) return (uv_handle_t *) &gen_prepare[id - GEN_P0];
  if (id < GEN_A0) return (uv_handle_t *) &gen_check[id - GEN_C0];
  if (id < GEN_S0) return (uv_handle_t *) &gen_async[id - GEN_A0];
  if (id < GEN_X0) return (uv_handle_t *) &gen_signal[id - GEN_S0];
  return (uv_handle_t *) &gen_proc[id - GEN_X0];
}

static int gen_id_of(uv_handle_t *h) { return (int) (intptr_t) h->data; }

/* "Settle": returns once the operation just started has completed and
 * been handed to the loop, so that the very next poll phase runs its
 * callback, with libuv and with phaseloop alike (nothing here looks at how
 * a library hands completions over). A work request's function raises a
 * flag when it ends; the thread that ran it hands it over within
 * microseconds, which the grace of GEN_GRACE_US covers. A file operation
 * is followed by a probe on the single thread of the pool, whose flag says
 * the operation before it was handed over; the probe's own completion,
 * which only keeps the loop alive meanwhile, is covered by the grace. */
#ifndef GEN_GRACE_US
# define GEN_GRACE_US 1000
#endif
static volatile sig_atomic_t gen_probe_flag;
static uv_work_t gen_probe[4];
static int gen_probe_next;

static void gen_grace(void) {
  struct timespec ts = {0, GEN_GRACE_US * 1000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static void gen_settle_flag(volatile sig_atomic_t *flag) {
  int waited = 0;
  while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE) && waited < 3000000) {
    usleep(100);
    waited += 100;
  }
  if (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) gen_say("settle: nothing completed");
  gen_grace();
}

static void gen_probe_fn(uv_work_t *w) {
  (void) w;
  __atomic_store_n(&gen_probe_flag, 1, __ATOMIC_RELEASE);
}
static void gen_probe_after(uv_work_t *w, int status) { (void) w; (void) status; }

static void gen_settle_pool(void) {
  uv_work_t *w = &gen_probe[gen_probe_next++ % 4];
  gen_probe_flag = 0;
  if (uv_queue_work(gen_loop, w, gen_probe_fn, gen_probe_after) != 0) {
    gen_say("settle: no probe");
    return;
  }
  gen_settle_flag(&gen_probe_flag);
}

/* ---- callbacks ------------------------------------------------------- */

static void gen_fire(int id) {
  int n = ++gen_calls[id];
  gen_say("%s cb #%d", gen_name(id), n);
  gen_on(id, GEN_EV_CB, n);
}

static void gen_budget_stop(int id) {
  uv_handle_t *h = gen_handle(id);
  if (gen_closing[id] || gen_budget[id] <= 0 || gen_calls[id] < gen_budget[id] || !uv_is_active(h)) return;
  switch (h->type) {
    case UV_TIMER: uv_timer_stop((uv_timer_t *) h); break;
    case UV_IDLE: uv_idle_stop((uv_idle_t *) h); break;
    case UV_PREPARE: uv_prepare_stop((uv_prepare_t *) h); break;
    case UV_CHECK: uv_check_stop((uv_check_t *) h); break;
    default: break;
  }
}

/* When each timer was last armed (loop time) and for how long: a
 * callback's line says whether loop time had reached its due time
 * ("on time") -- libuv's rule -- or not ("EARLY"). */
static uint64_t gen_armed[GEN_TIMERS], gen_armed_for[GEN_TIMERS];

static void gen_arm(int i, uint64_t ms) {
  gen_armed[i] = uv_now(gen_loop);
  gen_armed_for[i] = ms;
}

static void gen_timer_cb(uv_timer_t *h) {
  int id = gen_id_of((uv_handle_t *) h);
  int i = id - GEN_T0;
  uint64_t now = uv_now(gen_loop);
  gen_say("T%d due %s", i, now - gen_armed[i] >= gen_armed_for[i] ? "on time" : "EARLY");
  /* A repeating timer is armed again from this loop time. */
  gen_arm(i, uv_timer_get_repeat(h));
  gen_fire(id);
  if (uv_timer_get_repeat(h) > 0) gen_budget_stop(id);
}
static void gen_idle_cb(uv_idle_t *h) { int id = gen_id_of((uv_handle_t *) h); gen_fire(id); gen_budget_stop(id); }
static void gen_prepare_cb(uv_prepare_t *h) { int id = gen_id_of((uv_handle_t *) h); gen_fire(id); gen_budget_stop(id); }
static void gen_check_cb(uv_check_t *h) { int id = gen_id_of((uv_handle_t *) h); gen_fire(id); gen_budget_stop(id); }
static void gen_async_cb(uv_async_t *h) { gen_fire(gen_id_of((uv_handle_t *) h)); }
static void gen_signal_cb(uv_signal_t *h, int signum) {
  gen_say("S%d signal %s", gen_id_of((uv_handle_t *) h) - GEN_S0, signum == SIGUSR1 ? "SIGUSR1" : "other");
  gen_fire(gen_id_of((uv_handle_t *) h));
}
static void gen_exit_cb(uv_process_t *p, int64_t status, int signo) {
  int id = gen_id_of((uv_handle_t *) p);
  gen_in_flight--;
  gen_proc_running[id - GEN_X0] = 0;
  gen_say("%s exit status %lld signal %d", gen_name(id), (long long) status, signo);
  gen_fire(id);
}
static void gen_tick_cb(uv_prepare_t *h) { (void) h; gen_tick++; }

static void gen_close_cb(uv_handle_t *h) {
  int id = gen_id_of(h);
  int n = ++gen_closes[id];
  gen_say("%s close cb", gen_name(id));
  gen_on(id, GEN_EV_CLOSE, n);
}

/* ---- statements: handles --------------------------------------------- */

/* 1 when the handle may be used (libuv leaves using a closed one undefined). */
static int gen_usable(int id, const char *what) {
  if (!gen_closing[id]) return 1;
  gen_say("%s.%s skipped: closed", gen_name(id), what);
  return 0;
}

GEN_STMT void s_timer_start(int i, uint64_t timeout_q, uint64_t repeat_q, int budget) {
  int id = GEN_T0 + i;
  if (!gen_usable(id, "start")) return;
  gen_budget[id] = gen_calls[id] + budget;
  gen_arm(i, timeout_q * GEN_Q);
  gen_say("T%d.start(%lluq, %lluq) = %s", i, (unsigned long long) timeout_q, (unsigned long long) repeat_q,
          gen_rc(uv_timer_start(&gen_timer[i], gen_timer_cb, timeout_q * GEN_Q, repeat_q * GEN_Q)));
}
GEN_STMT void s_timer_stop(int i) {
  if (!gen_usable(GEN_T0 + i, "stop")) return;
  gen_say("T%d.stop = %s", i, gen_rc(uv_timer_stop(&gen_timer[i])));
}
GEN_STMT void s_timer_again(int i) {
  if (!gen_usable(GEN_T0 + i, "again")) return;
  if (uv_timer_get_repeat(&gen_timer[i]) > 0) gen_arm(i, uv_timer_get_repeat(&gen_timer[i]));
  gen_say("T%d.again = %s", i, gen_rc(uv_timer_again(&gen_timer[i])));
}
GEN_STMT void s_timer_set_repeat(int i, uint64_t repeat_q) {
  if (!gen_usable(GEN_T0 + i, "set_repeat")) return;
  uv_timer_set_repeat(&gen_timer[i], repeat_q * GEN_Q);
  gen_say("T%d.set_repeat(%lluq), repeat %lluq", i, (unsigned long long) repeat_q,
          (unsigned long long) (uv_timer_get_repeat(&gen_timer[i]) / GEN_Q));
}

#define GEN_WATCHER(kind, K, base)                                               \
  GEN_STMT void s_##kind##_start(int i, int budget) {                             \
    int id = base + i;                                                           \
    if (!gen_usable(id, "start")) return;                                        \
    gen_budget[id] = gen_calls[id] + budget;                                     \
    gen_say(K "%d.start = %s", i, gen_rc(uv_##kind##_start(&gen_##kind[i], gen_##kind##_cb))); \
  }                                                                              \
  GEN_STMT void s_##kind##_stop(int i) {                                           \
    if (!gen_usable(base + i, "stop")) return;                                   \
    gen_say(K "%d.stop = %s", i, gen_rc(uv_##kind##_stop(&gen_##kind[i])));      \
  }
GEN_WATCHER(idle, "I", GEN_I0)
GEN_WATCHER(prepare, "P", GEN_P0)
GEN_WATCHER(check, "C", GEN_C0)

GEN_STMT void s_close(int id) {
  if (!gen_inited[id]) return;
  if (!gen_usable(id, "close")) return;
  if (id >= GEN_X0 && id < GEN_HANDLES && gen_proc_running[id - GEN_X0]) {
    gen_say("%s.close skipped: child running", gen_name(id));
    return;
  }
  gen_closing[id] = 1;
  uv_close(gen_handle(id), gen_close_cb);
  gen_say("%s.close, closing %d active %d", gen_name(id), uv_is_closing(gen_handle(id)) != 0,
          uv_is_active(gen_handle(id)) != 0);
}
GEN_STMT void s_ref(int id) {
  if (!gen_inited[id]) return;
  uv_ref(gen_handle(id));
  gen_say("%s.ref, has_ref %d", gen_name(id), uv_has_ref(gen_handle(id)));
}
GEN_STMT void s_unref(int id) {
  if (!gen_inited[id]) return;
  uv_unref(gen_handle(id));
  gen_say("%s.unref, has_ref %d", gen_name(id), uv_has_ref(gen_handle(id)));
}
GEN_STMT void s_is_active(int id) {
  if (!gen_inited[id]) return;
  gen_say("%s active %d closing %d alive %d", gen_name(id), uv_is_active(gen_handle(id)) != 0,
          uv_is_closing(gen_handle(id)) != 0, uv_loop_alive(gen_loop) != 0);
}
GEN_STMT void s_stop(void) {
  uv_stop(gen_loop);
  gen_say("stop");
}

static void gen_walk_cb(uv_handle_t *h, void *arg) {
  (void) arg;
  if (h == (uv_handle_t *) &gen_tick_h) {
    printf(" tick");
    return;
  }
  printf(" %s%s%s%s", gen_name(gen_id_of(h)), uv_is_active(h) ? "+" : "", uv_has_ref(h) ? "" : "~",
         uv_is_closing(h) ? "x" : "");
}
GEN_STMT void s_walk(void) {
  printf("[%d] walk:", gen_tick);
  uv_walk(gen_loop, gen_walk_cb, NULL);
  putchar('\n');
  fflush(stdout);
}

/* ---- statements: async ------------------------------------------------ */

GEN_STMT void s_async_send(int i) {
  if (!gen_usable(GEN_A0 + i, "send")) return;
  gen_say("A%d.send = %s", i, gen_rc(uv_async_send(&gen_async[i])));
}

static void gen_thread_send(void *arg) { uv_async_send((uv_async_t *) arg); }

/* From another thread, joined before the statement ends. */
GEN_STMT void s_async_send_thread(int i) {
  uv_thread_t t;
  if (!gen_usable(GEN_A0 + i, "send")) return;
  if (uv_thread_create(&t, gen_thread_send, &gen_async[i]) != 0) {
    gen_say("A%d.send from a thread: no thread", i);
    return;
  }
  uv_thread_join(&t);
  gen_say("A%d.send from a thread, joined", i);
}

/* ---- statements: the threadpool (UV_THREADPOOL_SIZE=1) -------------------- */

static void gen_release_blocker(void);
static volatile sig_atomic_t gen_work_flag[GEN_WORKS];
static volatile sig_atomic_t gen_blocker_flag;
static void gen_work_fn(uv_work_t *w) {
  __atomic_store_n(&gen_work_flag[w - gen_work], 1, __ATOMIC_RELEASE);
}
static void gen_blocker_fn(uv_work_t *w) {
  (void) w;
  while (sem_wait(&gen_blocker_sem) != 0 && errno == EINTR) {}
  __atomic_store_n(&gen_blocker_flag, 1, __ATOMIC_RELEASE);
}
static void gen_after_work(uv_work_t *w, int status) {
  int i = (int) (w - gen_work);
  gen_in_flight--;
  gen_work_busy[i] = 0;
  gen_say("W%d after status %s", i, gen_rc(status));
  gen_fire(GEN_W0 + i);
  if (status == UV_ECANCELED) gen_release_blocker();
}
static void gen_after_blocker(uv_work_t *w, int status) {
  (void) w;
  gen_in_flight--;
  gen_say("blocker after status %s", gen_rc(status));
}

static int gen_idle_io(const char *what) {
  if (gen_in_flight == 0) return 1;
  gen_say("%s skipped: an operation is in flight", what);
  return 0;
}

GEN_STMT void s_work(int i) {
  int r;
  if (gen_work_busy[i] || !gen_idle_io("work")) return;
  gen_work_flag[i] = 0;
  r = uv_queue_work(gen_loop, &gen_work[i], gen_work_fn, gen_after_work);
  gen_say("W%d.queue = %s", i, gen_rc(r));
  if (r != 0) return;
  gen_work_busy[i] = 1;
  gen_in_flight++;
  gen_settle_flag(&gen_work_flag[i]);
}

/* Work i queued behind a blocker the single thread is running, then
 * cancelled: its callback says UV_ECANCELED; once that callback's
 * statements ran, the blocker is released (gen_release_blocker). */
GEN_STMT void s_work_cancel(int i) {
  int r;
  if (gen_work_busy[i] || !gen_idle_io("work+cancel")) return;
  gen_blocker_flag = 0;
  r = uv_queue_work(gen_loop, &gen_blocker, gen_blocker_fn, gen_after_blocker);
  if (r != 0) {
    gen_say("blocker.queue = %s", gen_rc(r));
    return;
  }
  gen_in_flight++;
  r = uv_queue_work(gen_loop, &gen_work[i], gen_work_fn, gen_after_work);
  gen_say("W%d.queue behind a blocker = %s", i, gen_rc(r));
  if (r == 0) {
    gen_work_busy[i] = 1;
    gen_in_flight++;
    gen_say("W%d.cancel = %s", i, gen_rc(uv_cancel((uv_req_t *) &gen_work[i])));
  }
}

/* Run by the runtime after the statements of a cancelled work's callback:
 * lets the blocker finish, and waits until the loop can see it. */
static void gen_release_blocker(void) {
  sem_post(&gen_blocker_sem);
  gen_settle_flag(&gen_blocker_flag);
}

/* ---- statements: a signal sent to the process itself ---------------------- */

GEN_STMT void s_signal_start(int i, int oneshot) {
  int r;
  if (!gen_usable(GEN_S0 + i, "start")) return;
  r = oneshot ? uv_signal_start_oneshot(&gen_signal[i], gen_signal_cb, SIGUSR1)
              : uv_signal_start(&gen_signal[i], gen_signal_cb, SIGUSR1);
  gen_say("S%d.start%s(SIGUSR1) = %s", i, oneshot ? "_oneshot" : "", gen_rc(r));
}
GEN_STMT void s_signal_stop(int i) {
  if (!gen_usable(GEN_S0 + i, "stop")) return;
  gen_say("S%d.stop = %s", i, gen_rc(uv_signal_stop(&gen_signal[i])));
}
GEN_STMT void s_raise(int i) {
  if (!gen_idle_io("raise")) return;
  if (gen_closing[GEN_S0 + i] || !uv_is_active((uv_handle_t *) &gen_signal[i])) {
    gen_say("raise skipped: S%d not watching", i);
    return;
  }
  gen_say("raise SIGUSR1 = %s", gen_rc(uv_kill(getpid(), SIGUSR1)));
  gen_grace();
}

/* ---- statements: a child process ------------------------------------------ */

GEN_STMT void s_spawn(int i, int code) {
  uv_process_options_t o;
  char *args[4];
  char script[32];
  int r;
  if (!gen_usable(GEN_X0 + i, "spawn") || gen_proc_running[i] || !gen_idle_io("spawn")) return;
  if (gen_inited[GEN_X0 + i]) {
    gen_say("X%d.spawn skipped: the handle was used", i);
    return;
  }
  memset(&o, 0, sizeof o);
  snprintf(script, sizeof script, "exit %d", code);
  if (code == 0) {
    args[0] = (char *) "/bin/true";
    args[1] = NULL;
  } else {
    args[0] = (char *) "/bin/sh";
    args[1] = (char *) "-c";
    args[2] = script;
    args[3] = NULL;
  }
  o.file = args[0];
  o.args = args;
  o.exit_cb = gen_exit_cb;
  gen_proc[i].data = (void *) (intptr_t) (GEN_X0 + i);
  r = uv_spawn(gen_loop, &gen_proc[i], &o);
  gen_inited[GEN_X0 + i] = 1;
  gen_say("X%d.spawn(%s) = %s", i, code == 0 ? "/bin/true" : script, gen_rc(r));
  if (r != 0) {
    /* As libuv asks, a handle whose spawn failed is closed too. */
    gen_closing[GEN_X0 + i] = 1;
    uv_close((uv_handle_t *) &gen_proc[i], gen_close_cb);
    return;
  }
  gen_proc_running[i] = 1;
  gen_in_flight++;
  {
    /* The child's end, without reaping it (the library does). */
    siginfo_t info;
    while (waitid(P_PID, (id_t) gen_proc[i].pid, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {}
    gen_grace();
  }
}

/* ---- statements: file operations in a scratch directory --------------------- */

/* The program's chain of file operations: each step runs once, in order
 * (s_fs_next), on the directory it made first. */
enum gen_fs_op {
  GEN_FS_MKDTEMP, GEN_FS_OPEN, GEN_FS_OPEN_MISSING, GEN_FS_WRITE, GEN_FS_READ, GEN_FS_FSTAT, GEN_FS_STAT,
  GEN_FS_RENAME, GEN_FS_SCANDIR, GEN_FS_CLOSE, GEN_FS_UNLINK, GEN_FS_RMDIR, GEN_FS_READ_CLOSED
};
static const enum gen_fs_op *gen_fs_chain;
static int gen_fs_len;
static int gen_fs_pos;
static uv_fs_t gen_fs_req[GEN_FS_STEPS];
static char gen_dir[64];
static char gen_path[2][96];
static int gen_path_cur;
static uv_file gen_fd = -1;
static uv_file gen_closed_fd = -1;
static char gen_rbuf[64];
static const char gen_wbuf[] = "phaseloop generated";

static void gen_fs_cb(uv_fs_t *req) {
  int k = (int) (req - gen_fs_req);
  ssize_t r = req->result;
  gen_in_flight--;
  switch ((enum gen_fs_op) gen_fs_chain[k]) {
    case GEN_FS_MKDTEMP:
      if (r == 0) snprintf(gen_dir, sizeof gen_dir, "%s", req->path);
      gen_say("F%d mkdtemp %s", k, gen_rc((int) r));
      break;
    case GEN_FS_OPEN:
      if (r >= 0) gen_fd = (uv_file) r;
      gen_say("F%d open %s", k, r >= 0 ? "fd" : gen_rc((int) r));
      break;
    case GEN_FS_READ:
    case GEN_FS_READ_CLOSED:
      gen_say("F%d read %s%.*s", k, r >= 0 ? "" : gen_rc((int) r), r > 0 ? (int) r : 0, gen_rbuf);
      break;
    case GEN_FS_FSTAT:
    case GEN_FS_STAT:
      gen_say("F%d stat %s size %llu", k, gen_rc((int) r), r == 0 ? (unsigned long long) req->statbuf.st_size : 0ULL);
      break;
    case GEN_FS_SCANDIR: {
      uv_dirent_t e;
      printf("[%d] F%d scandir %s:", gen_tick, k,
             r >= 0 ? "ok" : gen_rc((int) r));
      while (r >= 0 && uv_fs_scandir_next(req, &e) == 0) printf(" %s/%d", e.name, (int) e.type);
      putchar('\n');
      fflush(stdout);
      break;
    }
    case GEN_FS_CLOSE:
      if (r == 0) {
        gen_closed_fd = gen_fd;
        gen_fd = -1;
      }
      gen_say("F%d close %s", k, gen_rc((int) r));
      break;
    default:
      gen_say("F%d %s", k, r >= 0 ? (r > 0 ? "+" : "0") : gen_rc((int) r));
      break;
  }
  uv_fs_req_cleanup(req);
  gen_fire(GEN_F0 + k);
}

GEN_STMT void s_fs_next(void) {
  int k = gen_fs_pos;
  uv_fs_t *req;
  char other[96];
  uv_buf_t b;
  int r = 0;
  if (k >= gen_fs_len || k >= GEN_FS_STEPS || !gen_idle_io("fs")) return;
  req = &gen_fs_req[k];
  gen_fs_pos++;
  switch (gen_fs_chain[k]) {
    case GEN_FS_MKDTEMP:
      r = uv_fs_mkdtemp(gen_loop, req, "gen-XXXXXX", gen_fs_cb);
      break;
    case GEN_FS_OPEN:
      snprintf(gen_path[gen_path_cur], sizeof gen_path[0], "%s/file%d", gen_dir, gen_path_cur);
      r = uv_fs_open(gen_loop, req, gen_path[gen_path_cur], O_RDWR | O_CREAT, 0600, gen_fs_cb);
      break;
    case GEN_FS_OPEN_MISSING:
      snprintf(other, sizeof other, "%s/missing", gen_dir);
      r = uv_fs_open(gen_loop, req, other, O_RDONLY, 0, gen_fs_cb);
      break;
    case GEN_FS_WRITE:
      b = uv_buf_init((char *) gen_wbuf, sizeof gen_wbuf - 1);
      r = uv_fs_write(gen_loop, req, gen_fd, &b, 1, -1, gen_fs_cb);
      break;
    case GEN_FS_READ:
    case GEN_FS_READ_CLOSED:
      b = uv_buf_init(gen_rbuf, sizeof gen_rbuf);
      r = uv_fs_read(gen_loop, req, gen_fs_chain[k] == GEN_FS_READ ? gen_fd : gen_closed_fd, &b, 1, 0, gen_fs_cb);
      break;
    case GEN_FS_FSTAT:
      r = uv_fs_fstat(gen_loop, req, gen_fd, gen_fs_cb);
      break;
    case GEN_FS_STAT:
      r = uv_fs_stat(gen_loop, req, gen_path[gen_path_cur], gen_fs_cb);
      break;
    case GEN_FS_RENAME:
      snprintf(gen_path[!gen_path_cur], sizeof gen_path[0], "%s/file%d", gen_dir, !gen_path_cur);
      r = uv_fs_rename(gen_loop, req, gen_path[gen_path_cur], gen_path[!gen_path_cur], gen_fs_cb);
      gen_path_cur = !gen_path_cur;
      break;
    case GEN_FS_SCANDIR:
      r = uv_fs_scandir(gen_loop, req, gen_dir, 0, gen_fs_cb);
      break;
    case GEN_FS_CLOSE:
      r = uv_fs_close(gen_loop, req, gen_fd, gen_fs_cb);
      break;
    case GEN_FS_UNLINK:
      r = uv_fs_unlink(gen_loop, req, gen_path[gen_path_cur], gen_fs_cb);
      break;
    case GEN_FS_RMDIR:
      r = uv_fs_rmdir(gen_loop, req, gen_dir, gen_fs_cb);
      break;
  }
  gen_say("F%d start = %s", k, gen_rc(r));
  if (r != 0) return;
  gen_in_flight++;
  gen_settle_pool();
}

/* ---- the program's frame ------------------------------------------------ */

static void gen_init_all(void) {
  int i, r;
  r = uv_loop_init(gen_loop);
  if (r != 0) {
    printf("uv_loop_init = %s\n", gen_rc(r));
    exit(1);
  }
  sem_init(&gen_blocker_sem, 0, 0);
  uv_prepare_init(gen_loop, &gen_tick_h);
  uv_prepare_start(&gen_tick_h, gen_tick_cb);
  uv_unref((uv_handle_t *) &gen_tick_h);
  for (i = 0; i < GEN_TIMERS; i++) uv_timer_init(gen_loop, &gen_timer[i]);
  for (i = 0; i < GEN_IDLES; i++) uv_idle_init(gen_loop, &gen_idle[i]);
  /* Unreferenced: an active prepare or check handle would otherwise keep
   * the loop waiting with nothing to wake it. */
  for (i = 0; i < GEN_PREPARES; i++) {
    uv_prepare_init(gen_loop, &gen_prepare[i]);
    uv_unref((uv_handle_t *) &gen_prepare[i]);
  }
  for (i = 0; i < GEN_CHECKS; i++) {
    uv_check_init(gen_loop, &gen_check[i]);
    uv_unref((uv_handle_t *) &gen_check[i]);
  }
  for (i = 0; i < GEN_ASYNCS; i++) {
    uv_async_init(gen_loop, &gen_async[i], gen_async_cb);
    uv_unref((uv_handle_t *) &gen_async[i]);
  }
  for (i = 0; i < GEN_SIGNALS; i++) {
    uv_signal_init(gen_loop, &gen_signal[i]);
    uv_unref((uv_handle_t *) &gen_signal[i]);
  }
  for (i = 0; i < GEN_X0; i++) {
    gen_handle(i)->data = (void *) (intptr_t) i;
    gen_inited[i] = 1;
  }
  uv_update_time(gen_loop);
}

static void gen_run(uv_run_mode mode) {
  const char *m = mode == UV_RUN_DEFAULT ? "DEFAULT" : mode == UV_RUN_ONCE ? "ONCE" : "NOWAIT";
  int r;
  gen_say("run(%s)", m);
  r = uv_run(gen_loop, mode);
  gen_say("run(%s) = %d", m, r != 0);
}

static void gen_close_walk_cb(uv_handle_t *h, void *arg) {
  int id;
  (void) arg;
  if (h == (uv_handle_t *) &gen_tick_h || uv_is_closing(h)) return;
  id = gen_id_of(h);
  gen_closing[id] = 1;
  uv_close(h, gen_close_cb);
}

/* After the program's runs: DEFAULT runs while the loop is alive (each
 * uv_stop ends one; 6 at most), then every handle is closed and the loop
 * runs again while alive (a close callback's statements may start more). */
static int gen_finish(void) {
  int i, r;
  for (i = 0; i < 6 && uv_loop_alive(gen_loop); i++) gen_run(UV_RUN_DEFAULT);
  s_walk();
  uv_walk(gen_loop, gen_close_walk_cb, NULL);
  uv_close((uv_handle_t *) &gen_tick_h, NULL);
  gen_say("closing all");
  for (i = 0; i < 6; i++) {
    gen_run(UV_RUN_DEFAULT);
    if (!uv_loop_alive(gen_loop)) break;
  }
  if (gen_fd >= 0) {
    uv_fs_t req;
    uv_fs_close(NULL, &req, gen_fd, NULL);
    uv_fs_req_cleanup(&req);
  }
  if (gen_dir[0] != '\0') {
    /* Whatever the chain left behind. */
    uv_fs_t req;
    uv_fs_unlink(NULL, &req, gen_path[0], NULL);
    uv_fs_req_cleanup(&req);
    uv_fs_unlink(NULL, &req, gen_path[1], NULL);
    uv_fs_req_cleanup(&req);
    uv_fs_rmdir(NULL, &req, gen_dir, NULL);
    uv_fs_req_cleanup(&req);
  }
  r = uv_loop_close(gen_loop);
  printf("loop_close = %s\n", gen_rc(r));
  fflush(stdout);
  /* A blocker still waiting would hold the threadpool's thread, which
   * libuv joins at exit. */
  sem_post(&gen_blocker_sem);
  return r == 0 ? 0 : 1;
}

#endif
