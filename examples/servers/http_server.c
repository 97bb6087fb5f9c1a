// SPDX-License-Identifier: MIT
/* http_server: a small HTTP/1.1 server.
 *
 * Written against libuv's public API only, so the same source builds
 * against Debian's libuv and against phaseloop (see README.md).
 *
 *   http_server [--port N] [--host ADDR] [--loops N] [--root DIR]
 *
 * Routes:
 *   GET /            200 "hello\n"
 *   GET /file/NAME   the file DIR/NAME, read with uv_fs_*: 400 when NAME
 *                    holds "..", 404 when missing (or without --root)
 *   POST /echo       200 with the request body (Content-Length bodies)
 *   anything else    404, or 405 for a known path with another method
 * Every response carries Content-Length. Connections are kept alive
 * (HTTP/1.1 unless "Connection: close"; HTTP/1.0 with "Connection:
 * keep-alive") and pipelined requests are answered in order. A request
 * line and headers longer than HEAD_MAX get 431 (400 when even the request
 * line does not fit); malformed requests get 400, Transfer-Encoding 501,
 * other HTTP versions 505; each of those closes the connection.
 *
 * Per connection: one input buffer of HEAD_MAX bytes (request bodies pass
 * through it), one output buffer where small responses gather before one
 * write, and back-pressure as in echo_server: above HIGH_WATER unsent
 * bytes, reading (and reading the file being sent) waits until the queue
 * drains below LOW_WATER. While a file is sent, pipelined requests wait in
 * the kernel. A connection to be closed is shut down for writing once its
 * last response is queued, and its input is read and dropped until the
 * peer closes, so that the peer gets the whole response before any reset.
 * GET / takes no allocation when the kernel accepts the response at once.
 */

#define _GNU_SOURCE /* memmem */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uv.h>

#include "server_main.h" /* command line, listening, stopping on signals */

#define HEAD_MAX 8192
#define OUT_CAP 16384
#define FILE_CHUNK 65536
#define HIGH_WATER (256 * 1024)
#define LOW_WATER (64 * 1024)

enum state {
  S_HEAD,  /* waiting for a request head */
  S_BODY,  /* passing a request body through (echoed or dropped) */
  S_FILE,  /* sending a file */
  S_DONE,  /* last response queued, shutdown under way */
  S_DRAIN, /* shut down: reading and dropping until the peer closes */
};

typedef struct {
  uv_tcp_t tcp; /* first, so a handle pointer is a connection pointer */
  enum state state;
  int keep_alive; /* after the request being answered */
  int minor;      /* its version: HTTP/1.minor */
  int reading;
  int peer_eof;
  int refs;         /* 1 for the handle, 1 while an fs request runs */
  size_t in_off;    /* unparsed input is in[in_off, in_len) */
  size_t in_len;
  size_t scanned;   /* in[in_off, scanned) holds no complete head end */
  uint64_t body_left;
  int echo_body;
  uv_fs_t fs;
  uv_file file; /* -1 when none */
  int64_t file_off;
  uint64_t file_left;
  char* file_buf;
  uv_shutdown_t shutdown;
  size_t out_len;
  char in[HEAD_MAX];
  char out[OUT_CAP];
} conn_t;

/* A queued write owns a copy of the bytes the kernel did not take. */
typedef struct {
  uv_write_t req;
  char data[];
} write_t;

typedef struct {
  const char* method;
  size_t method_len;
  const char* target;
  size_t target_len;
  int minor;          /* HTTP/1.minor */
  int64_t length;     /* Content-Length, -1 when absent */
  int conn_close;
  int conn_keep_alive;
  int expect_continue;
} request_t;

static server_t srv; /* see server_main.h */
static const char* root; /* --root DIR, or NULL */

static void process(conn_t* c);
static void update_reading(conn_t* c);
static void file_next(conn_t* c);

/* ---- connection lifetime --------------------------------------------- */

/* Frees the connection once its handle is closed and no fs request runs;
 * end_file() has then been called. */
static void release(conn_t* c) {
  if (--c->refs == 0) free(c);
}

/* Closes the file being sent; not while an fs request uses c->fs. */
static void end_file(conn_t* c) {
  if (c->file >= 0) {
    uv_fs_t req;
    uv_fs_close(c->tcp.loop, &req, c->file, NULL); /* synchronous: no callback */
    uv_fs_req_cleanup(&req);
    c->file = -1;
  }
  free(c->file_buf);
  c->file_buf = NULL;
}

static void on_close(uv_handle_t* h) {
  conn_t* c = h->data;
  if (c->refs == 1) end_file(c); /* else the fs callback does it */
  release(c);
}

static int closing(conn_t* c) {
  return uv_is_closing((uv_handle_t*)&c->tcp);
}

static void close_conn(conn_t* c) {
  if (!closing(c)) uv_close((uv_handle_t*)&c->tcp, on_close);
}

/* ---- output ------------------------------------------------------------ */

static void on_write(uv_write_t* req, int status) {
  conn_t* c = req->handle->data;
  free(req);
  if (closing(c)) return;
  if (status < 0) {
    close_conn(c);
    return;
  }
  if (uv_stream_get_write_queue_size((uv_stream_t*)&c->tcp) >= LOW_WATER) return;
  if (c->state == S_FILE) file_next(c);
  else process(c);
}

/* Writes now, after everything written before: what the kernel does not
 * take at once is copied and queued. */
static void send_now(conn_t* c, const char* p, size_t n) {
  uv_stream_t* s = (uv_stream_t*)&c->tcp;
  uv_buf_t b = uv_buf_init((char*)p, (unsigned)n);
  if (closing(c) || n == 0) return;
  int w = uv_try_write(s, &b, 1); /* EAGAIN while writes are queued */
  if (w == (int)n) return;
  if (w < 0 && w != UV_EAGAIN) {
    close_conn(c);
    return;
  }
  if (w > 0) {
    p += w;
    n -= (size_t)w;
  }
  write_t* req = malloc(sizeof *req + n);
  if (req == NULL) {
    close_conn(c);
    return;
  }
  memcpy(req->data, p, n);
  b = uv_buf_init(req->data, (unsigned)n);
  if (uv_write(&req->req, s, &b, 1, on_write) != 0) {
    free(req);
    close_conn(c);
  }
}

static void flush(conn_t* c) {
  size_t n = c->out_len;
  c->out_len = 0;
  send_now(c, c->out, n);
}

/* Queues bytes behind the responses gathered so far. */
static void put(conn_t* c, const char* p, size_t n) {
  if (c->out_len + n > sizeof c->out) {
    flush(c);
    if (n > sizeof c->out) {
      send_now(c, p, n);
      return;
    }
  }
  memcpy(c->out + c->out_len, p, n);
  c->out_len += n;
}

static void put_str(conn_t* c, const char* s) {
  put(c, s, strlen(s));
}

static const char* reason(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 417: return "Expectation Failed";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

/* The status line and headers of a response with a body of `length`
 * bytes; `extra` is more header lines (each ending in CRLF) or "".
 * HTTP/1.1 connections stay open unless told; HTTP/1.0 ones close unless
 * told: say so when it is not the default. */
static void put_head(conn_t* c, int status, const char* type, uint64_t length, const char* extra) {
  char head[256];
  int n = snprintf(head, sizeof head,
                   "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %llu\r\n%s%s\r\n", status,
                   reason(status), type, (unsigned long long)length, extra,
                   !c->keep_alive ? "Connection: close\r\n"
                   : c->minor == 0 ? "Connection: keep-alive\r\n" : "");
  put(c, head, (size_t)n);
}

/* A whole response with a short text body. */
static void respond(conn_t* c, int status, const char* extra, const char* body) {
  size_t len = strlen(body);
  put_head(c, status, "text/plain", len, extra);
  put(c, body, len);
}

/* ---- the request/response cycle ---------------------------------------- */

static void on_shutdown(uv_shutdown_t* req, int status) {
  conn_t* c = req->handle->data;
  if (closing(c)) return;
  if (status < 0 || c->peer_eof) {
    close_conn(c);
    return;
  }
  c->state = S_DRAIN;
  c->in_off = c->in_len = c->scanned = 0;
  update_reading(c);
}

/* The response to the current request is queued in full. */
static void request_done(conn_t* c) {
  if (c->keep_alive) {
    c->state = S_HEAD;
    return;
  }
  c->state = S_DONE;
  flush(c);
  if (closing(c)) return;
  if (uv_shutdown(&c->shutdown, (uv_stream_t*)&c->tcp, on_shutdown) != 0) close_conn(c);
}

/* An error response, after which the connection closes. */
static void fail(conn_t* c, int status) {
  char body[64];
  c->keep_alive = 0;
  snprintf(body, sizeof body, "%s\n", reason(status));
  respond(c, status, "", body);
  request_done(c);
}

/* An fs request has finished: false when the connection is gone (its
 * file is then closed, and the connection freed once its handle is). */
static int fs_done(conn_t* c) {
  if (!closing(c)) {
    c->refs--;
    return 1;
  }
  end_file(c);
  release(c);
  return 0;
}

/* The file cannot be sent: answer, and go on with the next request. */
static void file_failed(conn_t* c, int status) {
  end_file(c);
  if (status == 404) respond(c, 404, "", "not found\n");
  else respond(c, status, "", "cannot read\n");
  request_done(c);
  process(c);
}

static void on_file_read(uv_fs_t* req) {
  conn_t* c = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  if (!fs_done(c)) return;
  if (n <= 0) {
    /* The file shrank or failed: the promised length cannot be kept. */
    end_file(c);
    close_conn(c);
    return;
  }
  c->file_off += n;
  c->file_left -= (uint64_t)n;
  send_now(c, c->file_buf, (size_t)n);
  file_next(c);
}

/* Reads the next chunk of the file unless the output queue is too long
 * (on_write calls again as it drains) or a read is under way. */
static void file_next(conn_t* c) {
  if (closing(c) || c->refs > 1) return;
  if (c->file_left == 0) {
    end_file(c);
    request_done(c);
    process(c);
    return;
  }
  if (uv_stream_get_write_queue_size((uv_stream_t*)&c->tcp) > HIGH_WATER) return;
  size_t n = c->file_left < FILE_CHUNK ? (size_t)c->file_left : FILE_CHUNK;
  uv_buf_t b = uv_buf_init(c->file_buf, (unsigned)n);
  if (uv_fs_read(c->tcp.loop, &c->fs, c->file, &b, 1, c->file_off, on_file_read) != 0) {
    end_file(c);
    close_conn(c);
    return;
  }
  c->refs++;
}

static void on_file_stat(uv_fs_t* req) {
  conn_t* c = req->data;
  int regular = req->result == 0 && S_ISREG(req->statbuf.st_mode);
  uint64_t size = req->statbuf.st_size;
  uv_fs_req_cleanup(req);
  if (!fs_done(c)) return;
  if (!regular) {
    file_failed(c, 404);
    return;
  }
  c->file_buf = malloc(FILE_CHUNK);
  if (c->file_buf == NULL) {
    file_failed(c, 500);
    return;
  }
  put_head(c, 200, "application/octet-stream", size, "");
  flush(c);
  c->file_off = 0;
  c->file_left = size;
  file_next(c);
}

static void on_file_open(uv_fs_t* req) {
  conn_t* c = req->data;
  ssize_t r = req->result;
  uv_fs_req_cleanup(req);
  if (r >= 0) c->file = (uv_file)r;
  if (!fs_done(c)) return;
  if (r < 0) {
    file_failed(c, r == UV_ENOENT || r == UV_ENOTDIR || r == UV_ENAMETOOLONG ? 404 : 500);
  } else if (uv_fs_fstat(c->tcp.loop, &c->fs, c->file, on_file_stat) != 0) {
    file_failed(c, 500);
  } else {
    c->refs++;
  }
}

/* GET /file/NAME: NAME is relative to --root and may not hold "..". */
static void send_file(conn_t* c, const char* name, size_t len) {
  char path[4096];
  if (memmem(name, len, "..", 2) != NULL || name[0] == '/') {
    fail(c, 400);
    return;
  }
  if (root == NULL || strlen(root) + 1 + len >= sizeof path) {
    respond(c, 404, "", "not found\n");
    request_done(c);
    return;
  }
  snprintf(path, sizeof path, "%s/%.*s", root, (int)len, name);
  flush(c);
  if (uv_fs_open(c->tcp.loop, &c->fs, path, O_RDONLY | O_CLOEXEC, 0, on_file_open) != 0) {
    respond(c, 500, "", "cannot read\n");
    request_done(c);
    return;
  }
  c->refs++;
  c->state = S_FILE;
}

/* ---- parsing --------------------------------------------------------- */

static int is_tchar(unsigned char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         (ch != 0 && strchr("!#$%&'*+-.^_`|~", ch) != NULL);
}

static int token_is(const char* p, size_t n, const char* word) {
  return strlen(word) == n && strncasecmp(p, word, n) == 0;
}

static int equals(const char* p, size_t n, const char* s) {
  return strlen(s) == n && memcmp(p, s, n) == 0;
}

/* Splits a Connection header into its comma-separated options. */
static void parse_connection(request_t* r, const char* v, size_t n) {
  size_t i = 0;
  while (i < n) {
    while (i < n && (v[i] == ',' || v[i] == ' ' || v[i] == '\t')) i++;
    size_t start = i;
    while (i < n && v[i] != ',' && v[i] != ' ' && v[i] != '\t') i++;
    if (token_is(v + start, i - start, "close")) r->conn_close = 1;
    else if (token_is(v + start, i - start, "keep-alive")) r->conn_keep_alive = 1;
  }
}

/* Parses head[0, n) (which ends in CRLF CRLF). 0, or a status to fail with. */
static int parse_head(const char* head, size_t n, request_t* r) {
  const char* p = head;
  const char* end = head + n;
  memset(r, 0, sizeof *r);
  r->length = -1;

  r->method = p;
  while (p < end && is_tchar((unsigned char)*p)) p++;
  r->method_len = (size_t)(p - r->method);
  if (r->method_len == 0 || *p++ != ' ') return 400;
  r->target = p;
  while (p < end && (unsigned char)*p > ' ' && *p != 0x7f) p++;
  r->target_len = (size_t)(p - r->target);
  if (r->target_len == 0 || *p++ != ' ') return 400;
  if (end - p < 10 || memcmp(p, "HTTP/", 5) != 0 || p[6] != '.' || p[8] != '\r' || p[9] != '\n')
    return 400;
  if (p[5] < '0' || p[5] > '9' || p[7] < '0' || p[7] > '9') return 400;
  if (p[5] != '1' || (p[7] != '0' && p[7] != '1')) return 505;
  r->minor = p[7] - '0';
  p += 10;

  while (!(p[0] == '\r' && p[1] == '\n')) {
    const char* name = p;
    while (is_tchar((unsigned char)*p)) p++;
    size_t name_len = (size_t)(p - name);
    if (name_len == 0 || *p++ != ':') return 400; /* also obsolete line folding */
    while (*p == ' ' || *p == '\t') p++;
    const char* value = p;
    while (*p != '\r') {
      unsigned char ch = (unsigned char)*p++;
      if ((ch < ' ' && ch != '\t') || ch == 0x7f) return 400;
    }
    if (p[1] != '\n') return 400;
    size_t value_len = (size_t)(p - value);
    while (value_len > 0 && (value[value_len - 1] == ' ' || value[value_len - 1] == '\t')) value_len--;
    p += 2;

    if (token_is(name, name_len, "content-length")) {
      int64_t v = 0;
      if (value_len == 0 || value_len > 15) return 400;
      for (size_t i = 0; i < value_len; i++) {
        if (value[i] < '0' || value[i] > '9') return 400;
        v = v * 10 + (value[i] - '0');
      }
      if (r->length >= 0 && r->length != v) return 400;
      r->length = v;
    } else if (token_is(name, name_len, "transfer-encoding")) {
      return 501;
    } else if (token_is(name, name_len, "connection")) {
      parse_connection(r, value, value_len);
    } else if (token_is(name, name_len, "expect")) {
      if (!token_is(value, value_len, "100-continue")) return 417;
      r->expect_continue = 1;
    }
  }
  return 0;
}

static void handle_request(conn_t* c, const request_t* r) {
  uint64_t body = r->length > 0 ? (uint64_t)r->length : 0;
  int get = equals(r->method, r->method_len, "GET");
  int post = equals(r->method, r->method_len, "POST");
  int echo = post && equals(r->target, r->target_len, "/echo");
  c->minor = r->minor;
  c->keep_alive = r->minor == 1 ? !r->conn_close : r->conn_keep_alive && !r->conn_close;
  /* A peer that waits for "100 Continue" before sending a body nobody
   * wants would leave the connection out of step: answer and close. */
  if (r->expect_continue && body > 0 && !echo) c->keep_alive = 0;

  c->echo_body = echo;
  if (echo) {
    /* (HTTP/1.0 clients do not know 1xx responses.) */
    if (r->expect_continue && body > 0 && r->minor == 1) put_str(c, "HTTP/1.1 100 Continue\r\n\r\n");
    put_head(c, 200, "application/octet-stream", body, "");
  } else if (equals(r->target, r->target_len, "/")) {
    if (get) respond(c, 200, "", "hello\n");
    else respond(c, 405, "Allow: GET\r\n", "method not allowed\n");
  } else if (equals(r->target, r->target_len, "/echo")) {
    respond(c, 405, "Allow: POST\r\n", "method not allowed\n");
  } else if (r->target_len > 6 && memcmp(r->target, "/file/", 6) == 0) {
    if (!get) {
      respond(c, 405, "Allow: GET\r\n", "method not allowed\n");
    } else if (body > 0) {
      fail(c, 400); /* the body would have to be skipped while the file goes out */
      return;
    } else {
      send_file(c, r->target + 6, r->target_len - 6);
      return;
    }
  } else {
    respond(c, 404, "", "not found\n");
  }

  if (body > 0 && (echo || c->keep_alive)) {
    /* Echoed, or skipped to find the next request. (A connection about
     * to close drops it while draining.) */
    c->state = S_BODY;
    c->body_left = body;
  } else {
    request_done(c);
  }
}

/* Answers every complete request in the input, in order. */
static void process(conn_t* c) {
  while (!closing(c)) {
    if (c->state == S_BODY) {
      size_t have = c->in_len - c->in_off;
      size_t n = have < c->body_left ? have : (size_t)c->body_left;
      if (n == 0) break;
      if (c->echo_body) put(c, c->in + c->in_off, n);
      c->in_off += n;
      c->scanned = c->in_off;
      c->body_left -= n;
      if (c->body_left > 0) break;
      request_done(c);
      continue;
    }
    if (c->state != S_HEAD) break;
    /* Empty lines before a request are allowed (RFC 9112, 2.2). */
    while (c->in_len - c->in_off >= 2 && c->in[c->in_off] == '\r' && c->in[c->in_off + 1] == '\n')
      c->in_off += 2;
    if (c->scanned < c->in_off) c->scanned = c->in_off;
    char* start = c->in + c->in_off;
    size_t from = c->scanned > c->in_off + 3 ? c->scanned - 3 : c->in_off;
    char* end = memmem(c->in + from, c->in_len - from, "\r\n\r\n", 4);
    if (end == NULL) {
      c->scanned = c->in_len;
      if (c->in_len - c->in_off == HEAD_MAX) {
        fail(c, memmem(start, HEAD_MAX, "\r\n", 2) != NULL ? 431 : 400);
      } else if (c->peer_eof) {
        c->keep_alive = 0; /* nothing more will come: close */
        request_done(c);
      }
      break;
    }
    size_t n = (size_t)(end + 4 - start);
    request_t r;
    int status = parse_head(start, n, &r);
    c->in_off += n;
    c->scanned = c->in_off;
    if (status != 0) fail(c, status);
    else handle_request(c, &r);
  }
  flush(c);
  update_reading(c);
}

/* ---- input --------------------------------------------------------------- */

static void on_alloc(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  conn_t* c = h->data;
  (void)suggested;
  if (c->in_off > 0) {
    memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
    c->in_len -= c->in_off;
    c->scanned -= c->in_off;
    c->in_off = 0;
  }
  *buf = uv_buf_init(c->in + c->in_len, (unsigned)(sizeof c->in - c->in_len));
}

static void on_read(uv_stream_t* s, ssize_t nread, const uv_buf_t* buf) {
  conn_t* c = s->data;
  (void)buf;
  if (nread == 0) return;
  if (nread < 0 && nread != UV_EOF) {
    close_conn(c);
    return;
  }
  if (c->state == S_DRAIN) {
    if (nread < 0) close_conn(c);
    return;
  }
  if (nread == UV_EOF) {
    c->reading = 0; /* libuv stops reading at end of input */
    c->peer_eof = 1;
    if (c->state == S_BODY) {
      close_conn(c);
      return;
    }
  } else {
    c->in_len += (size_t)nread;
  }
  process(c);
}

/* Reads while a request may come and the output queue is short. */
static void update_reading(conn_t* c) {
  if (closing(c)) return;
  uv_stream_t* s = (uv_stream_t*)&c->tcp;
  size_t queued = uv_stream_get_write_queue_size(s);
  int want = !c->peer_eof && (c->state == S_HEAD || c->state == S_BODY || c->state == S_DRAIN) &&
             queued <= (c->reading ? HIGH_WATER : LOW_WATER);
  if (want && !c->reading) {
    if (uv_read_start(s, on_alloc, on_read) != 0) {
      close_conn(c);
      return;
    }
    c->reading = 1;
  } else if (!want && c->reading) {
    uv_read_stop(s);
    c->reading = 0;
  }
}

static void on_connection(uv_stream_t* server, int status) {
  if (status < 0) return; /* EMFILE and the like: libuv has dropped the peer */
  conn_t* c = malloc(sizeof *c);
  if (c == NULL) {
    fprintf(stderr, "http_server: out of memory\n");
    abort();
  }
  memset(c, 0, offsetof(conn_t, in));
  c->file = -1;
  c->fs.data = c;
  c->refs = 1;
  c->state = S_HEAD;
  uv_tcp_init(server->loop, &c->tcp);
  c->tcp.data = c;
  if (uv_accept(server, (uv_stream_t*)&c->tcp) != 0) {
    close_conn(c);
    return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  update_reading(c);
}

/* ---- start and stop -------------------------------------------------------- */

/* server_main.h stops the server with this: it calls it for every
 * connection (a handle whose data is set) when SIGINT or SIGTERM comes. */
static void stop_conn(void* c) {
  close_conn(c);
}

int main(int argc, char** argv) {
  srv.name = "http_server";
  srv.extra = "--root";
  srv.extra_arg = "DIR";
  srv.on_connection = on_connection;
  srv.close_conn = stop_conn;
  srv.multi_loop = 1;
  if (server_parse_args(&srv, argc, argv) != 0) return 2;
  root = srv.extra_value;
  return server_run(&srv);
}
