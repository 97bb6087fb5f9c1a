/* uv_loop_configure options and uv_metrics_idle_time sanity.  Idle time
 * values are never printed, only checked to be plausible. */
#include <signal.h>
#include "diff.h"

static uv_timer_t t;
static int fired;

static void on_timer(uv_timer_t *h) { (void) h; fired++; }

int main(void) {
  uv_loop_t loop;
  uint64_t before, after, idle_time;
  int rc;

  CHECK(uv_loop_init(&loop) == 0);
  rc = uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGPROF);
  say("BLOCK_SIGNAL SIGPROF = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, UV_LOOP_BLOCK_SIGNAL, SIGUSR1);
  say("BLOCK_SIGNAL SIGUSR1 = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, UV_METRICS_IDLE_TIME);
  say("METRICS_IDLE_TIME = %s", rc_name(rc));
  rc = uv_loop_configure(&loop, (uv_loop_option) 4242);
  say("unknown option = %s", rc_name(rc));

  say("idle time before running is 0: %d", uv_metrics_idle_time(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  uv_update_time(&loop);
  CHECK(uv_timer_start(&t, on_timer, 100, 0) == 0);
  before = uv_hrtime();
  run_say(&loop, UV_RUN_DEFAULT);
  after = uv_hrtime();
  idle_time = uv_metrics_idle_time(&loop);
  say("fired=%d", fired);
  say("idle time > 0: %d", idle_time > 0);
  say("idle time <= wall time of the run: %d", idle_time <= after - before);

  finish(&loop);

  /* Without the option, idle time stays 0. */
  CHECK(uv_loop_init(&loop) == 0);
  CHECK(uv_timer_init(&loop, &t) == 0);
  CHECK(uv_timer_start(&t, on_timer, 5, 0) == 0);
  run_say(&loop, UV_RUN_DEFAULT);
  say("idle time without option is 0: %d", uv_metrics_idle_time(&loop) == 0);
  finish(&loop);
  return 0;
}
