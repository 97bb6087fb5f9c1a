// SPDX-License-Identifier: MIT
/* The memory a libuv program pays for its libuv.so.1: one loop, one timer
 * run to completion, then the process's resident set from
 * /proc/self/status. bench/footprint/run.sh runs this one binary (built
 * against Debian's uv.h) on real libuv and on phaseloop's drop-in. */
#include <stdio.h>
#include <string.h>
#include <uv.h>

static void on_timer(uv_timer_t* t) { uv_close((uv_handle_t*)t, NULL); }

int main(void) {
  uv_loop_t* loop = uv_default_loop();
  uv_timer_t t;
  if (!loop || uv_timer_init(loop, &t) || uv_timer_start(&t, on_timer, 0, 0)) return 1;
  if (uv_run(loop, UV_RUN_DEFAULT) != 0) return 1;
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return 1;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    unsigned long kb;
    if (sscanf(line, "VmRSS: %lu kB", &kb) == 1) printf("rss_kb %lu\n", kb);
    if (sscanf(line, "RssAnon: %lu kB", &kb) == 1) printf("rss_anon_kb %lu\n", kb);
    if (sscanf(line, "RssFile: %lu kB", &kb) == 1) printf("rss_file_kb %lu\n", kb);
  }
  fclose(f);
  /* Which libuv.so.1 this process mapped, so a run cannot compare a
   * library with itself. */
  f = fopen("/proc/self/maps", "r");
  if (!f) return 1;
  while (fgets(line, sizeof line, f)) {
    const char* p = strstr(line, "/libuv.so");
    if (p) {
      const char* path = strchr(line, '/');
      printf("mapped %s", path);
      break;
    }
  }
  fclose(f);
  return uv_loop_close(loop) == 0 ? 0 : 1;
}
