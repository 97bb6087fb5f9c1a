// SPDX-License-Identifier: MIT
/* mix_work: a loop workload for the fault suite (test/faults/run.sh): on
 * one loop at once,
 *   - TCP ping-pong over loopback: a client sends 200 numbered messages
 *     one at a time, the server answers each with the number doubled, the
 *     client checks each answer;
 *   - 64 uv_queue_work requests, each summing a range on the pool, the
 *     sums checked in their after-work callbacks;
 *   - a thread that makes 500 uv_async_send calls, waiting after each
 *     100th until the loop has seen it (a handshake through a semaphore);
 *   - a 5 ms repeating timer that counts its ticks.
 * Then everything is closed and the loop runs to its end.
 *
 *   mix_work
 * Exit status: 0 all done and checked; 1 an error was reported (printed);
 * 2 a wrong answer or sum, or work lost (the loop ended, no error
 * reported, something not done). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

enum { pings = 200, works = 64, sends = 500 };

static uv_loop_t* loop;
static int status;
static uv_tcp_t listener, client, served;
static uv_connect_t connect_req;
static uv_timer_t ticker;
static uv_async_t async;
static uv_thread_t sender;
static uv_sem_t seen_sem;
static int answered, works_done, ticks, served_open;
static volatile int async_mark;  // the sender's count when the loop last looked
static int async_calls;
static int thread_started;

static int running;
static void close_all(void);
static void close_once(void* h);

/* An error ends the work: everything is closed, and the loop ends. */
static void fail(const char* what, int err) {
  fprintf(stderr, "mix_work: %s: %s\n", what, uv_strerror(err));
  if (status == 0) status = 1;
  if (running) close_all();
}

static void corrupt(const char* what) {
  fprintf(stderr, "mix_work: %s\n", what);
  status = 2;
  if (running) close_all();
}

static void on_alloc(uv_handle_t* h, size_t size, uv_buf_t* buf) {
  (void)size;
  static char bufs[2][64];
  buf->base = bufs[h == (uv_handle_t*)&client];
  buf->len = sizeof bufs[0];
}

/* A message is a line "N\n"; reads may bring part of one. */
typedef struct {
  char line[32];
  size_t len;
} reader;
static reader server_in, client_in;

typedef struct {
  uv_write_t req;
  char text[32];
} out_msg;

static void on_written(uv_write_t* req, int st) {
  if (st < 0 && st != UV_ECANCELED) fail("write", st);
  free(req);
}

static void send_line(uv_stream_t* s, long v) {
  out_msg* m = malloc(sizeof *m);
  if (m == NULL) return fail("malloc", UV_ENOMEM);
  int n = snprintf(m->text, sizeof m->text, "%ld\n", v);
  uv_buf_t b = uv_buf_init(m->text, (unsigned)n);
  int e = uv_write(&m->req, s, &b, 1, on_written);
  if (e < 0) {
    free(m);
    fail("uv_write", e);
  }
}

static void on_line(uv_stream_t* s, long v) {
  if (s == (uv_stream_t*)&served) {
    send_line(s, 2 * v);
    return;
  }
  if (v != 2 * (answered + 1)) return corrupt("the server's answer is not the number doubled");
  if (++answered < pings) send_line(s, answered + 1);
  else if (works_done == works && async_mark == sends) close_all();
}

static void on_read(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
  if (n < 0) {
    if (n != UV_EOF) fail("read", (int)n);
    else if (s == (uv_stream_t*)&client && answered < pings) fail("read", UV_EOF);
    close_once(s);
    if (s == (uv_stream_t*)&served) served_open = 0;
    return;
  }
  reader* r = s == (uv_stream_t*)&served ? &server_in : &client_in;
  for (ssize_t i = 0; i < n; i++) {
    char c = buf->base[i];
    if (c == '\n') {
      r->line[r->len] = '\0';
      on_line(s, strtol(r->line, NULL, 10));
      r->len = 0;
    } else if (r->len + 1 < sizeof r->line) {
      r->line[r->len++] = c;
    } else {
      return corrupt("a line too long");
    }
  }
}

static void on_connection(uv_stream_t* l, int st) {
  if (st < 0) return fail("connection", st);
  if (served_open) return;
  int e = uv_tcp_init(loop, &served);
  if (e < 0) return fail("uv_tcp_init", e);
  served_open = 1;
  if ((e = uv_accept(l, (uv_stream_t*)&served)) < 0 ||
      (e = uv_read_start((uv_stream_t*)&served, on_alloc, on_read)) < 0) {
    uv_close((uv_handle_t*)&served, NULL);
    served_open = 0;
    return fail("accept", e);
  }
}

static void on_connect(uv_connect_t* req, int st) {
  if (st < 0) return fail("connect", st);
  int e = uv_read_start(req->handle, on_alloc, on_read);
  if (e < 0) return fail("uv_read_start", e);
  send_line(req->handle, 1);
}

typedef struct {
  uv_work_t req;
  long from, sum;
} work;
static work jobs[works];

static void do_work(uv_work_t* req) {
  work* w = (work*)req;
  w->sum = 0;
  for (long i = w->from; i < w->from + 1000; i++) w->sum += i;
}

static void after_work(uv_work_t* req, int st) {
  work* w = (work*)req;
  if (st < 0) return fail("work", st);
  if (w->sum != 1000 * w->from + 499500) return corrupt("a work request's sum is wrong");
  if (++works_done == works && answered == pings && async_mark == sends) close_all();
}

static void on_tick(uv_timer_t* t) {
  (void)t;
  ticks++;
}

static void on_async(uv_async_t* a) {
  (void)a;
  async_calls++;
  int was = async_mark;
  async_mark = *(volatile int*)a->data;
  if (async_mark / 100 != was / 100) uv_sem_post(&seen_sem);
  if (async_mark == sends && answered == pings && works_done == works) close_all();
}

static volatile int sent_count;
static volatile int quit;

static void send_thread(void* arg) {
  (void)arg;
  for (int i = 1; i <= sends && !quit; i++) {
    sent_count = i;
    int e = uv_async_send(&async);
    if (e < 0) {
      fprintf(stderr, "mix_work: uv_async_send: %s\n", uv_strerror(e));
      return;
    }
    if (i % 100 == 0) uv_sem_wait(&seen_sem);
  }
}

static void close_once(void* h) {
  if (!uv_is_closing((uv_handle_t*)h)) uv_close((uv_handle_t*)h, NULL);
}

static int closed;
static void close_all(void) {
  if (closed++) return;
  close_once(&listener);
  close_once(&client);
  if (served_open) close_once(&served), served_open = 0;
  close_once(&ticker);
  /* The async handle lets the loop end now, and is closed once the
   * sender is joined: a send to a closed handle is not allowed. */
  uv_unref((uv_handle_t*)&async);
}

int main(void) {
  loop = uv_default_loop();
  if (loop == NULL) {  /* its initialisation failed */
    fprintf(stderr, "mix_work: uv_default_loop failed\n");
    return 1;
  }
  int e;
  struct sockaddr_in addr;
  uv_ip4_addr("127.0.0.1", 0, &addr);
  if ((e = uv_sem_init(&seen_sem, 0)) < 0) return fail("uv_sem_init", e), 1;
  async.data = (void*)&sent_count;
  if ((e = uv_async_init(loop, &async, on_async)) < 0) return fail("uv_async_init", e), 1;
  if ((e = uv_timer_init(loop, &ticker)) < 0 || (e = uv_timer_start(&ticker, on_tick, 5, 5)) < 0)
    return fail("timer", e), 1;
  if ((e = uv_tcp_init(loop, &listener)) < 0 || (e = uv_tcp_init(loop, &client)) < 0) return fail("uv_tcp_init", e), 1;
  int namelen = sizeof addr;
  if ((e = uv_tcp_bind(&listener, (const struct sockaddr*)&addr, 0)) < 0 ||
      (e = uv_listen((uv_stream_t*)&listener, 8, on_connection)) < 0 ||
      (e = uv_tcp_getsockname(&listener, (struct sockaddr*)&addr, &namelen)) < 0 ||
      (e = uv_tcp_connect(&connect_req, &client, (const struct sockaddr*)&addr, on_connect)) < 0) {
    fail("listen or connect", e);
    close_all();
  }
  for (int i = 0; i < works && status == 0; i++) {
    jobs[i].from = i * 1000;
    if ((e = uv_queue_work(loop, &jobs[i].req, do_work, after_work)) < 0) fail("uv_queue_work", e);
  }
  if (status == 0) {
    if ((e = uv_thread_create(&sender, send_thread, NULL)) < 0) fail("uv_thread_create", e);
    else thread_started = 1;
  }
  if (status != 0) close_all();
  running = 1;
  /* An error closes the handles and the loop ends once the pool's work
   * is back; the sender may still wait for the loop: let it go. */
  uv_run(loop, UV_RUN_DEFAULT);
  running = 0;
  if (thread_started) {
    quit = 1;
    for (int i = 0; i < sends / 100; i++) uv_sem_post(&seen_sem);
    uv_thread_join(&sender);
  }
  uv_close((uv_handle_t*)&async, NULL);
  uv_run(loop, UV_RUN_DEFAULT);
  if (status == 0 && !(answered == pings && works_done == works && async_mark == sends)) {
    fprintf(stderr, "mix_work: the loop ended, no error, with %d of %d answers, %d of %d works, async at %d of %d\n",
            answered, pings, works_done, works, async_mark, sends);
    status = 2;
  }
  uv_loop_close(loop);
  if (status == 0) printf("mix_work: %d pings, %d works, %d sends (%d calls), %d ticks\n", pings, works, sends,
                          async_calls, ticks);
  return status;
}
