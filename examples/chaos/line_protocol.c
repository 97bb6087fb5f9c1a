/* SPDX-License-Identifier: MIT */
/* A key-value server speaking a line protocol ("PUT key value", "GET key"),
 * and its client, in one process over a loopback TCP connection. It has a real
 * ordering bug, the commonest in stream code: the server's read callback
 * takes each read as whole lines, so a command the kernel hands over in
 * two reads is read as two bad commands. On a quiet machine the client's
 * one write arrives in one read and the program passes; a network may
 * split it anywhere (TCP is a byte stream), and under chaos mode (short
 * reads) it fails within a few seeds:
 *
 *   phaseloop chaos -- build/examples/chaos/line_protocol-libuv
 *
 * The fix: keep what follows the last newline of a read, and put the next
 * read after it (--fixed does that, and passes under every seed). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

static int fixed;                /* --fixed: carry partial lines over */
static char partial[256];        /* --fixed: the line read so far */
static size_t partial_len;
static int commands, bad;
static char keys[16][32], values[16][32];
static int nkeys;

static void command(const char* line, size_t len) {
  char text[256], key[32], value[32];
  if (len == 0) return;
  if (len >= sizeof text) len = sizeof text - 1;
  memcpy(text, line, len);
  text[len] = '\0';
  commands++;
  if (sscanf(text, "PUT %31s %31s", key, value) == 2 && nkeys < 16) {
    strcpy(keys[nkeys], key);
    strcpy(values[nkeys++], value);
  } else if (sscanf(text, "GET %31s", key) == 1) {
    int i;
    for (i = 0; i < nkeys && strcmp(keys[i], key) != 0; i++) {
    }
    if (i == nkeys) {
      printf("GET %s: no such key\n", key);
      bad++;
    }
  } else {
    printf("bad command: '%s'\n", text);
    bad++;
  }
}

static void alloc_cb(uv_handle_t* h, size_t suggested, uv_buf_t* buf) {
  static char space[64 * 1024];
  (void)h;
  (void)suggested;
  *buf = uv_buf_init(space, sizeof space);
}

static void on_read(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
  const char* at;
  const char* end;
  if (n < 0) {
    uv_close((uv_handle_t*)s, NULL);
    return;
  }
  at = buf->base;
  end = buf->base + n;
  while (at < end) {
    const char* nl = memchr(at, '\n', (size_t)(end - at));
    if (nl == NULL && fixed) {
      /* The line goes on in the next read. */
      size_t more = (size_t)(end - at);
      if (partial_len + more > sizeof partial) more = sizeof partial - partial_len;
      memcpy(partial + partial_len, at, more);
      partial_len += more;
      return;
    }
    if (fixed && partial_len > 0) {
      size_t more = (size_t)(nl - at);
      if (partial_len + more > sizeof partial) more = sizeof partial - partial_len;
      memcpy(partial + partial_len, at, more);
      command(partial, partial_len + more);
      partial_len = 0;
    } else {
      /* The bug: what is left of the read is taken as a whole line. */
      command(at, nl != NULL ? (size_t)(nl - at) : (size_t)(end - at));
    }
    at = nl != NULL ? nl + 1 : end;
  }
}

static uv_tcp_t listener, server, client;
static uv_connect_t connecting;
static uv_write_t writing;
static char script[4096];
static size_t script_len;

static void on_written(uv_write_t* w, int status) {
  if (status != 0) printf("write: %s\n", uv_strerror(status));
  uv_close((uv_handle_t*)w->handle, NULL);
}

static void on_connected(uv_connect_t* c, int status) {
  uv_buf_t buf = uv_buf_init(script, (unsigned)script_len);
  if (status != 0) {
    printf("connect: %s\n", uv_strerror(status));
    uv_close((uv_handle_t*)c->handle, NULL);
    return;
  }
  uv_write(&writing, c->handle, &buf, 1, on_written);
}

static void on_connection(uv_stream_t* l, int status) {
  if (status != 0) return;
  uv_tcp_init(l->loop, &server);
  if (uv_accept(l, (uv_stream_t*)&server) == 0) uv_read_start((uv_stream_t*)&server, alloc_cb, on_read);
  uv_close((uv_handle_t*)l, NULL);
}

int main(int argc, char** argv) {
  uv_loop_t* loop = uv_default_loop();
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int namelen = sizeof bound;
  int i;
  fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
  for (i = 0; i < 16; i++)
    script_len += (size_t)snprintf(script + script_len, sizeof script - script_len, "PUT key%d value%d\nGET key%d\n",
                                   i, i, i);
  uv_ip4_addr("127.0.0.1", 0, &addr);
  uv_tcp_init(loop, &listener);
  if (uv_tcp_bind(&listener, (const struct sockaddr*)&addr, 0) != 0 ||
      uv_listen((uv_stream_t*)&listener, 1, on_connection) != 0 ||
      uv_tcp_getsockname(&listener, (struct sockaddr*)&bound, &namelen) != 0)
    return 2;
  uv_tcp_init(loop, &client);
  uv_tcp_connect(&connecting, &client, (const struct sockaddr*)&bound, on_connected);
  uv_run(loop, UV_RUN_DEFAULT);
  printf("%d commands, %d bad\n", commands, bad);
  uv_loop_close(loop);
  return commands == 32 && bad == 0 ? 0 : 1;
}
