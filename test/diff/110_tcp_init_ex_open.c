// SPDX-License-Identifier: MIT
/* uv_tcp_init_ex (domain and invalid flags), uv_tcp_open on a socket made
 * by the program (EEXIST while watched by the loop), option setters before
 * and after a socket exists, uv_stream_set_blocking, uv_fileno. */
#include "diff.h"
#include "diff_net.h"
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_tcp_t a, b, c, d;

int main(void) {
  struct sockaddr_storage ss;
  uv_os_fd_t fd;
  int rc, len, s, fl;

  CHECK(uv_loop_init(&loop) == 0);
  rc = uv_tcp_init_ex(&loop, &a, AF_UNIX);
  say("init_ex AF_UNIX = %s", rc_name(rc));
  rc = uv_tcp_init_ex(&loop, &a, AF_INET | 0x100);
  say("init_ex extra flags = %s", rc_name(rc));
  rc = uv_tcp_init_ex(&loop, &a, AF_INET6);
  say("init_ex AF_INET6 = %s", rc_name(rc));
  rc = uv_fileno((uv_handle_t *) &a, &fd);
  say("fileno = %s", rc_name(rc));
  len = sizeof ss;
  rc = uv_tcp_getsockname(&a, (struct sockaddr *) &ss, &len);
  say("getsockname unbound v6 = %s family v6=%d", rc_name(rc), ss.ss_family == AF_INET6);
  say("readable=%d writable=%d", uv_is_readable((uv_stream_t *) &a), uv_is_writable((uv_stream_t *) &a));

  CHECK(uv_tcp_init(&loop, &b) == 0);
  rc = uv_fileno((uv_handle_t *) &b, &fd);
  say("fileno without socket = %s", rc_name(rc));
  say("nodelay before socket = %s", rc_name(uv_tcp_nodelay(&b, 1)));
  say("keepalive before socket = %s", rc_name(uv_tcp_keepalive(&b, 1, 60)));
  say("simultaneous_accepts = %s", rc_name(uv_tcp_simultaneous_accepts(&b, 0)));
  say("nodelay on socket = %s", rc_name(uv_tcp_nodelay(&a, 1)));
  say("keepalive on socket = %s", rc_name(uv_tcp_keepalive(&a, 1, 30)));
  say("keepalive off = %s", rc_name(uv_tcp_keepalive(&a, 0, 0)));

  s = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(s >= 0);
  CHECK(uv_tcp_init(&loop, &c) == 0);
  rc = uv_tcp_open(&c, s);
  fl = fcntl(s, F_GETFL);
  say("open = %s nonblocking=%d readable=%d writable=%d", rc_name(rc), (fl & O_NONBLOCK) != 0,
      uv_is_readable((uv_stream_t *) &c), uv_is_writable((uv_stream_t *) &c));
  rc = uv_tcp_open(&c, s);
  say("open same fd again = %s", rc_name(rc));
  rc = uv_stream_set_blocking((uv_stream_t *) &c, 1);
  fl = fcntl(s, F_GETFL);
  say("set_blocking(1) = %s nonblocking=%d", rc_name(rc), (fl & O_NONBLOCK) != 0);
  rc = uv_stream_set_blocking((uv_stream_t *) &c, 0);
  fl = fcntl(s, F_GETFL);
  say("set_blocking(0) = %s nonblocking=%d", rc_name(rc), (fl & O_NONBLOCK) != 0);
  CHECK(uv_listen((uv_stream_t *) &c, 1, NULL) == 0);
  run_say(&loop, UV_RUN_NOWAIT);
  CHECK(uv_tcp_init(&loop, &d) == 0);
  rc = uv_tcp_open(&d, s);
  say("open an fd the loop watches = %s", rc_name(rc));
  uv_close((uv_handle_t *) &c, NULL);
  rc = uv_fileno((uv_handle_t *) &c, &fd);
  say("fileno closing = %s", rc_name(rc));
  run_say(&loop, UV_RUN_NOWAIT);
  /* The fd was closed with the handle. */
  say("fd closed with handle: %d", fcntl(s, F_GETFL) == -1);
  finish(&loop);
  return 0;
}
