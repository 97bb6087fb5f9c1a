// SPDX-License-Identifier: MIT
/* ABI smoke test: a small libuv program compiled against include/phaseloop/uv/uv.h.
 *
 * abi_smoke.sh links it with the system's libuv 1.44.2: if it runs, the
 * struct layouts of include/phaseloop/uv/uv.h really are libuv's (libuv itself reads and
 * writes the public fields checked below).  The same source can later be
 * linked against phaseloop.
 */
#include <uv.h>

#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "abi_smoke.c:%d: check failed: %s\n", __LINE__,   \
              #cond);                                                   \
      failures++;                                                       \
    }                                                                   \
  } while (0)

static int timer_hits, work_ran, work_done, stat_ok, gai_ok, gni_ok;
static int random_ok, exit_ok, connect_ok, write_ok, bytes_read;
static uv_tcp_t server, client, accepted;
static uv_connect_t connect_req;
static uv_write_t write_req;
static char read_buf[64];

static void on_timer(uv_timer_t* timer) {
  if (++timer_hits == 3) {
    uv_timer_stop(timer);
    uv_close((uv_handle_t*)timer, NULL);
  }
}

static void on_work(uv_work_t* req) {
  (void)req;
  work_ran = 1;
}

static void on_work_done(uv_work_t* req, int status) {
  work_done = status == 0 && req->loop == uv_default_loop() &&
              req->work_cb == on_work;
}

static void on_stat(uv_fs_t* req) {
  stat_ok = req->result == 0 && req->fs_type == UV_FS_STAT &&
            req->statbuf.st_size > 0 && strcmp(req->path, "/") == 0 &&
            req->ptr == &req->statbuf;
  uv_fs_req_cleanup(req);
}

static void on_getaddrinfo(uv_getaddrinfo_t* req, int status,
                           struct addrinfo* res) {
  gai_ok = status == 0 && res != NULL && res == req->addrinfo;
  uv_freeaddrinfo(res);
}

static void on_getnameinfo(uv_getnameinfo_t* req, int status,
                           const char* host, const char* service) {
  gni_ok = status == 0 && host == req->host && service == req->service &&
           host[0] != '\0';
}

static void on_random(uv_random_t* req, int status, void* buf, size_t len) {
  (void)buf;
  random_ok = status == 0 && len == 16 && req->loop == uv_default_loop();
}

static void on_exit_(uv_process_t* proc, int64_t status, int signal) {
  exit_ok = status == 3 && signal == 0 && proc->pid > 0;
  uv_close((uv_handle_t*)proc, NULL);
}

static void on_alloc(uv_handle_t* handle, size_t size, uv_buf_t* buf) {
  (void)handle;
  (void)size;
  buf->base = read_buf;
  buf->len = sizeof read_buf;
}

static void on_read(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  (void)buf;
  CHECK(stream->read_cb == on_read && stream->alloc_cb == on_alloc);
  if (nread > 0) bytes_read += (int)nread;
  if (nread < 0) {
    CHECK(nread == UV_EOF);
    uv_close((uv_handle_t*)stream, NULL);
    uv_close((uv_handle_t*)&server, NULL);
  }
}

static void on_connection(uv_stream_t* srv, int status) {
  CHECK(status == 0);
  uv_tcp_init(srv->loop, &accepted);
  CHECK(uv_accept(srv, (uv_stream_t*)&accepted) == 0);
  uv_read_start((uv_stream_t*)&accepted, on_alloc, on_read);
}

static void on_write(uv_write_t* req, int status) {
  write_ok = status == 0 && req->handle == (uv_stream_t*)&client &&
             req->cb == on_write && req->type == UV_WRITE;
  uv_close((uv_handle_t*)&client, NULL);
}

static void on_connect(uv_connect_t* req, int status) {
  static char text[] = "hello";
  uv_buf_t buf = uv_buf_init(text, 5);
  connect_ok = status == 0 && req->handle == (uv_stream_t*)&client;
  uv_write(&write_req, req->handle, &buf, 1, on_write);
}

int main(void) {
  uv_loop_t* loop = uv_default_loop();
  uv_timer_t timer;
  uv_work_t work;
  uv_fs_t stat_req;
  uv_getaddrinfo_t gai;
  uv_getnameinfo_t gni;
  uv_random_t rnd;
  char rnd_buf[16];
  uv_process_t proc;
  uv_process_options_t options;
  uv_stdio_container_t stdio[3];
  char* args[4];
  struct sockaddr_in addr, bound;
  int len = sizeof bound;

  CHECK(uv_version() == UV_VERSION_HEX);
  CHECK(uv_loop_size() == sizeof(uv_loop_t));
#define XX(upper, lower) CHECK(uv_handle_size(UV_##upper) == sizeof(uv_##lower##_t));
  UV_HANDLE_TYPE_MAP(XX)
#undef XX
#define XX(upper, lower) CHECK(uv_req_size(UV_##upper) == sizeof(uv_##lower##_t));
  UV_REQ_TYPE_MAP(XX)
#undef XX
#define XX(name, msg) CHECK(strcmp(uv_strerror(UV_##name), msg) == 0);
  UV_ERRNO_MAP(XX)
#undef XX

  uv_timer_init(loop, &timer);
  CHECK(timer.type == UV_TIMER && timer.loop == loop);
  uv_timer_start(&timer, on_timer, 1, 1);

  uv_queue_work(loop, &work, on_work, on_work_done);
  uv_fs_stat(loop, &stat_req, "/", on_stat);
  uv_getaddrinfo(loop, &gai, on_getaddrinfo, "127.0.0.1", NULL, NULL);
  uv_ip4_addr("127.0.0.1", 0, &addr);
  uv_getnameinfo(loop, &gni, on_getnameinfo, (const struct sockaddr*)&addr, 0);
  CHECK(gni.loop == loop && gni.type == UV_GETNAMEINFO);
  uv_random(loop, &rnd, rnd_buf, sizeof rnd_buf, 0, on_random);

  memset(&options, 0, sizeof options);
  args[0] = (char*)"/bin/sh";
  args[1] = (char*)"-c";
  args[2] = (char*)"exit 3";
  args[3] = NULL;
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_INHERIT_FD;
  stdio[1].data.fd = 1;
  stdio[2].flags = UV_INHERIT_FD;
  stdio[2].data.fd = 2;
  options.file = args[0];
  options.args = args;
  options.exit_cb = on_exit_;
  options.stdio = stdio;
  options.stdio_count = 3;
  CHECK(uv_spawn(loop, &proc, &options) == 0);
  CHECK(proc.pid > 0 && proc.exit_cb == on_exit_);

  uv_tcp_init(loop, &server);
  CHECK(uv_tcp_bind(&server, (const struct sockaddr*)&addr, 0) == 0);
  CHECK(uv_listen((uv_stream_t*)&server, 8, on_connection) == 0);
  uv_tcp_getsockname(&server, (struct sockaddr*)&bound, &len);
  uv_tcp_init(loop, &client);
  uv_tcp_connect(&connect_req, &client, (const struct sockaddr*)&bound,
                 on_connect);
  CHECK(loop->active_handles > 0);

  uv_run(loop, UV_RUN_DEFAULT);

  CHECK(timer_hits == 3);
  CHECK(work_ran && work_done);
  CHECK(stat_ok);
  CHECK(gai_ok);
  CHECK(gni_ok);
  CHECK(random_ok);
  CHECK(exit_ok);
  CHECK(connect_ok && write_ok && bytes_read == 5);
  CHECK(uv_loop_close(loop) == 0);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
