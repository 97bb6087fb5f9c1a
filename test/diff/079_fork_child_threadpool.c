// SPDX-License-Identifier: MIT
/* After fork(), a child that queues threadpool work gets a pool of its own
 * (the parent's threads do not exist in the child) and the work completes,
 * in the child and in the parent. */
#include <uv.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
static void w(uv_work_t* r) { (void)r; }
static void done(uv_work_t* r, int s) { (void)r; printf("[%s] done status=%d\n", getpid()==(pid_t)(long)r->data? "parent":"child", s); }
int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  uv_work_t r; r.data = (void*)(long)getpid();
  uv_loop_t* l = uv_default_loop();
  uv_queue_work(l, &r, w, done);
  uv_run(l, UV_RUN_DEFAULT);
  pid_t p = fork();
  if (p == 0) {
    uv_loop_t cl; uv_loop_init(&cl);
    uv_work_t r2; r2.data = NULL;
    uv_queue_work(&cl, &r2, w, done);
    uv_run(&cl, UV_RUN_DEFAULT);
    printf("[child] close=%d\n", uv_loop_close(&cl));
    _exit(0);
  }
  int st; waitpid(p, &st, 0);
  printf("[parent] child %s\n", WIFEXITED(st) ? "exited" : "killed (timeout)");
  return 0;
}
