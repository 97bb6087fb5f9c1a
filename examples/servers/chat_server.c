// SPDX-License-Identifier: MIT
/* chat_server: a line-based chat room.
 *
 * Written against libuv's public API only, so the same source builds
 * against Debian's libuv and against phaseloop (see README.md).
 *
 *   chat_server [--port N] [--host ADDR]
 *
 * Protocol (every message is one line ending in "\n"):
 *   on connecting       you get "* you are guestN"; the others get
 *                       "* guestN joined"
 *   a line TEXT         every other client gets "NAME: TEXT"
 *   /nick NEW           everyone, you included, gets "* OLD is now NEW";
 *                       NEW is 1 to 32 letters, digits, '_' or '-', and
 *                       not in use ("* invalid nick" / "* nick taken")
 *   on leaving          the others get "* NAME left"
 * A trailing "\r" is dropped, empty lines are ignored, and a line longer
 * than LINE_MAX bytes is cut there (the rest, up to its "\n", is dropped).
 * Each client gets the messages of each sender in the order they were
 * sent.
 *
 * Slow clients: a message is formatted once and shared by every write
 * that carries it. What the kernel does not take at once is queued for
 * that client alone; a client whose queue holds more than OUT_LIMIT bytes
 * (counting each queued write's bookkeeping too) is disconnected, and the
 * others are told it left. So one client that stops reading costs at most
 * OUT_LIMIT bytes and never delays the others.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "server_main.h" /* command line, listening, stopping on signals */

#define READ_SIZE 16384
#define LINE_MAX_ 1024
#define NICK_MAX 32
#define OUT_LIMIT (1024 * 1024)

typedef struct client {
  uv_tcp_t tcp;  /* first, so a handle pointer is a client pointer */
  struct client* prev; /* the room, in joining order */
  struct client* next;
  int in_room;
  size_t queued;  /* bytes held by this client's queued writes */
  size_t line_len;
  int cutting;    /* dropping the rest of an overlong line */
  char name[NICK_MAX + 1];
  char line[LINE_MAX_];
  char buf[READ_SIZE];
} client_t;

/* A message, shared by the writes that carry it. */
typedef struct {
  int refs;
  size_t len;
  char data[];
} msg_t;

typedef struct {
  uv_write_t req;
  msg_t* msg;
  size_t cost;
} write_t;

static server_t srv; /* see server_main.h */
static client_t* room_first;
static client_t* room_last;
static unsigned next_guest = 1;

static void msg_release(msg_t* m) {
  if (--m->refs == 0) free(m);
}

/* A message from a printf format, with one reference. */
static msg_t* msg_new(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  msg_t* m = malloc(sizeof *m + (size_t)n + 1);
  if (m == NULL) {
    fprintf(stderr, "chat_server: out of memory\n");
    abort();
  }
  va_start(ap, fmt);
  vsnprintf(m->data, (size_t)n + 1, fmt, ap);
  va_end(ap);
  m->refs = 1;
  m->len = (size_t)n;
  return m;
}

/* ---- the room ------------------------------------------------------------ */

static void broadcast(msg_t* m, client_t* except);

static void on_close(uv_handle_t* h) {
  client_t* c = h->data;
  if (c->in_room && !srv.stopping) {
    msg_t* m = msg_new("* %s left\n", c->name);
    broadcast(m, NULL);
    msg_release(m);
  }
  free(c);
}

/* Leaves the room at once (so no message is queued for it any more); the
 * others hear of it when the handle is closed. */
static void drop(client_t* c) {
  if (uv_is_closing((uv_handle_t*)&c->tcp)) return;
  if (c->in_room) {
    if (c->prev) c->prev->next = c->next;
    else room_first = c->next;
    if (c->next) c->next->prev = c->prev;
    else room_last = c->prev;
  }
  uv_close((uv_handle_t*)&c->tcp, on_close);
}

static void on_write(uv_write_t* req, int status) {
  write_t* w = (write_t*)req;
  client_t* c = req->handle->data;
  c->queued -= w->cost;
  msg_release(w->msg);
  free(w);
  if (status < 0) drop(c);
}

static void deliver(client_t* c, msg_t* m) {
  uv_stream_t* s = (uv_stream_t*)&c->tcp;
  uv_buf_t b = uv_buf_init(m->data, (unsigned)m->len);
  int n = uv_try_write(s, &b, 1); /* EAGAIN while writes are queued */
  if (n == (int)m->len) return;
  if (n < 0 && n != UV_EAGAIN) {
    drop(c);
    return;
  }
  if (n > 0) {
    b.base += n;
    b.len -= (size_t)n;
  }
  size_t cost = sizeof(write_t) + b.len;
  if (c->queued + cost > OUT_LIMIT) {
    drop(c); /* too slow a reader */
    return;
  }
  write_t* w = malloc(sizeof *w);
  if (w == NULL || uv_write(&w->req, s, &b, 1, on_write) != 0) {
    free(w);
    drop(c);
    return;
  }
  /* Safe after uv_write: its callback never runs from inside it. */
  w->msg = m;
  w->cost = cost;
  m->refs++;
  c->queued += cost;
}

static void broadcast(msg_t* m, client_t* except) {
  for (client_t *c = room_first, *next; c != NULL; c = next) {
    next = c->next; /* deliver() may drop c */
    if (c != except) deliver(c, m);
  }
}

static void tell(client_t* c, msg_t* m) {
  deliver(c, m);
  msg_release(m);
}

static int name_taken(const char* name) {
  for (client_t* c = room_first; c != NULL; c = c->next)
    if (strcmp(c->name, name) == 0) return 1;
  return 0;
}

static int valid_nick(const char* p, size_t n) {
  if (n == 0 || n > NICK_MAX) return 0;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          ch == '_' || ch == '-'))
      return 0;
  }
  return 1;
}

static void nick(client_t* c, const char* p, size_t n) {
  char name[NICK_MAX + 1];
  while (n > 0 && *p == ' ') p++, n--;
  while (n > 0 && p[n - 1] == ' ') n--;
  if (!valid_nick(p, n)) {
    tell(c, msg_new("* invalid nick\n"));
    return;
  }
  memcpy(name, p, n);
  name[n] = '\0';
  if (strcmp(name, c->name) != 0 && name_taken(name)) {
    tell(c, msg_new("* nick taken\n"));
    return;
  }
  msg_t* m = msg_new("* %s is now %s\n", c->name, name);
  memcpy(c->name, name, n + 1);
  broadcast(m, NULL);
  msg_release(m);
}

static void on_line(client_t* c, const char* p, size_t n) {
  if (n > 0 && p[n - 1] == '\r') n--;
  if (n == 0) return;
  if (n >= 5 && memcmp(p, "/nick", 5) == 0 && (n == 5 || p[5] == ' ')) {
    nick(c, p + 5, n - 5);
    return;
  }
  msg_t* m = msg_new("%s: %.*s\n", c->name, (int)n, p);
  broadcast(m, c);
  msg_release(m);
}

/* ---- connections ----------------------------------------------------------- */

static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  client_t* c = h->data;
  (void)suggested;
  *buf = uv_buf_init(c->buf, sizeof c->buf);
}

static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  client_t* c = s->data;
  if (nread < 0) {
    drop(c); /* end of input (a partial last line is dropped) or error */
    return;
  }
  const char* p = buf->base;
  const char* end = p + nread;
  while (p < end && !uv_is_closing((uv_handle_t*)s)) {
    const char* nl = memchr(p, '\n', (size_t)(end - p));
    const char* stop = nl != NULL ? nl : end;
    size_t n = (size_t)(stop - p);
    if (!c->cutting) {
      size_t room = sizeof c->line - c->line_len;
      if (n > room) {
        n = room;
        c->cutting = 1;
      }
      memcpy(c->line + c->line_len, p, n);
      c->line_len += n;
    }
    if (nl == NULL) break;
    on_line(c, c->line, c->line_len);
    c->line_len = 0;
    c->cutting = 0;
    p = nl + 1;
  }
}

static void on_connection(uv_stream_t* server, int status) {
  if (status < 0) return; /* EMFILE and the like: libuv has dropped the peer */
  client_t* c = malloc(sizeof *c);
  if (c == NULL) {
    fprintf(stderr, "chat_server: out of memory\n");
    abort();
  }
  memset(c, 0, offsetof(client_t, line));
  uv_tcp_init(server->loop, &c->tcp);
  c->tcp.data = c;
  if (uv_accept(server, (uv_stream_t*)&c->tcp) != 0) {
    drop(c);
    return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  do snprintf(c->name, sizeof c->name, "guest%u", next_guest++);
  while (name_taken(c->name));
  msg_t* m = msg_new("* %s joined\n", c->name);
  broadcast(m, NULL);
  msg_release(m);
  c->prev = room_last;
  if (room_last) room_last->next = c;
  else room_first = c;
  room_last = c;
  c->in_room = 1;
  tell(c, msg_new("* you are %s\n", c->name));
  if (!uv_is_closing((uv_handle_t*)&c->tcp) &&
      uv_read_start((uv_stream_t*)&c->tcp, on_alloc, on_read) != 0)
    drop(c);
}

/* ---- start and stop -------------------------------------------------------- */

/* server_main.h stops the server with this: it calls it for every
 * client (a handle whose data is set) when SIGINT or SIGTERM comes, after
 * setting srv.stopping, so that nobody is told who left. */
static void stop_client(void* c) {
  drop(c);
}

int main(int argc, char** argv) {
  srv.name = "chat_server";
  srv.on_connection = on_connection;
  srv.close_conn = stop_client;
  if (server_parse_args(&srv, argc, argv) != 0) return 2;
  return server_run(&srv);
}
