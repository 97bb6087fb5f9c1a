// SPDX-License-Identifier: MIT
/* Miscellaneous helpers: version, buffers, pid, clocks, sleep, uv_now and
 * uv_update_time relationships (no values that depend on time are shown). */
#include "diff.h"
#include <unistd.h>

int main(void) {
  uv_loop_t loop;
  char storage[16];
  uv_buf_t buf;
  uint64_t h1, h2, now1, now2, now3;
  unsigned int v;
  int64_t diff_ms;

  v = uv_version();
  say("uv_version matches header macro: %d", v == UV_VERSION_HEX);
  say("uv_version major=%u", (v >> 16) & 0xff);

  buf = uv_buf_init(storage, sizeof(storage));
  say("uv_buf_init: base ok=%d len=%u", buf.base == storage, (unsigned) buf.len);
  buf = uv_buf_init(NULL, 0);
  say("uv_buf_init(NULL, 0): base NULL=%d len=%u", buf.base == NULL, (unsigned) buf.len);

  say("uv_os_getpid == getpid: %d", uv_os_getpid() == getpid());

  h1 = uv_hrtime();
  uv_sleep(5);
  h2 = uv_hrtime();
  say("hrtime advanced by at least 5ms across uv_sleep(5): %d", h2 - h1 >= 5000000u);

  CHECK(uv_loop_init(&loop) == 0);
  say("backend_fd >= 0: %d", uv_backend_fd(&loop) >= 0);
  now1 = uv_now(&loop);
  uv_sleep(20);
  now2 = uv_now(&loop);
  say("uv_now unchanged without update: %d", now1 == now2);
  uv_update_time(&loop);
  now3 = uv_now(&loop);
  say("uv_now advanced after uv_update_time: %d", now3 > now1);
  diff_ms = (int64_t) (uv_hrtime() / 1000000) - (int64_t) now3;
  say("uv_now is close to hrtime in ms (within 1s): %d",
      diff_ms >= -1000 && diff_ms <= 1000);
  finish(&loop);
  return 0;
}
