// SPDX-License-Identifier: MIT
/*
 * 189: system figures, compared with what the OS says, plus the error
 * codes of the small OS functions.
 *
 * uv_cpu_info has one entry per CPU line of /proc/stat, times in
 * milliseconds; uv_interface_addresses lists the addresses of interfaces
 * that are up and running (the loopback ones are printed); memory figures
 * come from /proc/meminfo and cgroup v1; priorities are nice values of
 * the calling thread; socket buffer sizes are read with 0 and set
 * otherwise, on TCP, pipe and UDP handles only; uv_disable_stdio_inheritance
 * marks open descriptors close-on-exec.
 */
#include "diff.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

extern char **environ;

static char text[1 << 16];

static void slurp(const char *path) {
  int fd = open(path, O_RDONLY);
  CHECK(fd >= 0);
  ssize_t n = read(fd, text, sizeof text - 1);
  CHECK(n >= 0);
  close(fd);
  text[n] = '\0';
}

static void cpus(void) {
  int lines = 0;
  slurp("/proc/stat");
  for (char *p = strstr(text, "\ncpu"); p != NULL; p = strstr(p + 1, "\ncpu"))
    lines++;
  char model[256] = "unknown";
  slurp("/proc/cpuinfo");
  char *m = strstr(text, "model name\t: ");
  if (m != NULL)
    sscanf(m + strlen("model name\t: "), "%255[^\n]", model);

  uv_cpu_info_t *ci;
  int count;
  int r = uv_cpu_info(&ci, &count);
  int models = 1, speeds = 1, times = 1;
  uint64_t ms = 1000 / (uint64_t) sysconf(_SC_CLK_TCK);
  for (int i = 0; i < count; i++) {
    models &= strcmp(ci[i].model, model) == 0;
    speeds &= ci[i].speed >= 0;
    times &= ci[i].cpu_times.user % ms == 0 && ci[i].cpu_times.idle % ms == 0 &&
             ci[i].cpu_times.sys % ms == 0;
  }
  say("cpu_info: %s count=/proc/stat:%d models=%d speeds=%d times in ms=%d", rc_name(r),
      count == lines, models, speeds, times);
  uv_free_cpu_info(ci, count);

  cpu_set_t set;
  CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
  say("available_parallelism = affinity: %d",
      uv_available_parallelism() == (unsigned) CPU_COUNT(&set));
}

static void interfaces(void) {
  struct ifaddrs *list;
  int expect = 0;
  CHECK(getifaddrs(&list) == 0);
  for (struct ifaddrs *a = list; a != NULL; a = a->ifa_next)
    if ((a->ifa_flags & IFF_UP) && (a->ifa_flags & IFF_RUNNING) && a->ifa_addr != NULL &&
        a->ifa_addr->sa_family != AF_PACKET)
      expect++;
  freeifaddrs(list);

  uv_interface_address_t *addrs;
  int count;
  int r = uv_interface_addresses(&addrs, &count);
  say("interface_addresses: %s count=getifaddrs:%d", rc_name(r), count == expect);
  for (int i = 0; i < count; i++) {
    char addr[64], mask[64];
    static const char zero[6];
    if (!addrs[i].is_internal)
      continue;
    if (addrs[i].address.address4.sin_family == AF_INET) {
      uv_ip4_name(&addrs[i].address.address4, addr, sizeof addr);
      uv_ip4_name(&addrs[i].netmask.netmask4, mask, sizeof mask);
    } else {
      uv_ip6_name(&addrs[i].address.address6, addr, sizeof addr);
      uv_ip6_name(&addrs[i].netmask.netmask6, mask, sizeof mask);
    }
    say("  %s %s/%s internal=%d phys zero=%d", addrs[i].name, addr, mask,
        addrs[i].is_internal, memcmp(addrs[i].phys_addr, zero, 6) == 0);
  }
  uv_free_interface_addresses(addrs, count);
}

static void memory(void) {
  uint64_t kib = 0;
  slurp("/proc/meminfo");
  CHECK(sscanf(strstr(text, "MemTotal:"), "MemTotal: %" SCNu64, &kib) == 1);
  uint64_t total = uv_get_total_memory();
  uint64_t free_mem = uv_get_free_memory();
  say("total memory = MemTotal: %d; 0 < free <= total: %d", total == kib * 1024,
      free_mem > 0 && free_mem <= total);

  uint64_t limit = 0;
  FILE *f = fopen("/sys/fs/cgroup/memory/memory.limit_in_bytes", "r");
  if (f != NULL) {
    CHECK(fscanf(f, "%" SCNu64, &limit) == 1);
    fclose(f);
  }
  say("constrained memory = cgroup v1 limit: %d", uv_get_constrained_memory() == limit);

  size_t rss = 0;
  int r = uv_resident_set_memory(&rss);
  say("resident_set_memory: %s >0=%d pages=%d", rc_name(r), rss > 0,
      rss % (size_t) getpagesize() == 0);

  uv_rusage_t ru;
  r = uv_getrusage(&ru);
  say("getrusage: %s maxrss>0=%d minflt>0=%d", rc_name(r), ru.ru_maxrss > 0,
      ru.ru_minflt > 0);

  double up = 0;
  r = uv_uptime(&up);
  say("uptime: %s >0=%d", rc_name(r), up > 0);
  double avg[3] = {-1, -1, -1};
  uv_loadavg(avg);
  say("loadavg >= 0: %d", avg[0] >= 0 && avg[1] >= 0 && avg[2] >= 0);
}

/* On a thread of its own: nice values are per thread. */
static void priority_thread(void *arg) {
  (void) arg;
  int before = 0, after = 0;
  int r = uv_os_getpriority(0, &before);
  say("getpriority: %s same as getpriority(2)=%d", rc_name(r),
      before == getpriority(PRIO_PROCESS, 0));
  say("setpriority(+1): %s", rc_name(uv_os_setpriority(0, before + 1)));
  r = uv_os_getpriority(0, &after);
  say("getpriority: %s raised by one=%d", rc_name(r), after == before + 1);
  say("setpriority(LOW): %s", rc_name(uv_os_setpriority(0, UV_PRIORITY_LOW)));
}

static void priority(void) {
  uv_thread_t t;
  int p;
  CHECK(uv_thread_create(&t, priority_thread, NULL) == 0);
  CHECK(uv_thread_join(&t) == 0);
  say("setpriority(HIGHEST-1): %s", rc_name(uv_os_setpriority(0, UV_PRIORITY_HIGHEST - 1)));
  say("setpriority(LOW+1): %s", rc_name(uv_os_setpriority(0, UV_PRIORITY_LOW + 1)));
  say("getpriority(no such pid): %s", rc_name(uv_os_getpriority(INT_MAX, &p)));
  say("setpriority(no such pid): %s", rc_name(uv_os_setpriority(INT_MAX, 0)));
}

static void buffer_size(const char *what, uv_handle_t *h) {
  int v = 0;
  int r = uv_send_buffer_size(h, &v);
  say("%s: send get %s", what, rc_name(r));
  if (r != 0)
    return;
  v = 16384;
  say("  send set 16384: %s", rc_name(uv_send_buffer_size(h, &v)));
  v = 0;
  r = uv_send_buffer_size(h, &v);
  say("  send get: %s %d", rc_name(r), v);
  v = 8192;
  say("  recv set 8192: %s", rc_name(uv_recv_buffer_size(h, &v)));
  v = 0;
  r = uv_recv_buffer_size(h, &v);
  say("  recv get: %s %d", rc_name(r), v);
}

static void handles(uv_loop_t *loop) {
  uv_tcp_t tcp, unopened;
  uv_udp_t udp;
  uv_pipe_t pipe_h;
  uv_timer_t timer;
  struct sockaddr_in addr;
  int sv[2];
  CHECK(uv_ip4_addr("127.0.0.1", 0, &addr) == 0);
  CHECK(uv_tcp_init(loop, &tcp) == 0);
  CHECK(uv_tcp_bind(&tcp, (const struct sockaddr *) &addr, 0) == 0);
  CHECK(uv_udp_init(loop, &udp) == 0);
  CHECK(uv_udp_bind(&udp, (const struct sockaddr *) &addr, 0) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  CHECK(uv_pipe_init(loop, &pipe_h, 0) == 0);
  CHECK(uv_pipe_open(&pipe_h, sv[0]) == 0);
  CHECK(uv_tcp_init(loop, &unopened) == 0);
  CHECK(uv_timer_init(loop, &timer) == 0);

  buffer_size("tcp", (uv_handle_t *) &tcp);
  buffer_size("udp", (uv_handle_t *) &udp);
  buffer_size("pipe", (uv_handle_t *) &pipe_h);
  buffer_size("tcp without socket", (uv_handle_t *) &unopened);
  buffer_size("timer", (uv_handle_t *) &timer);
  say("NULL value: %s", rc_name(uv_recv_buffer_size((uv_handle_t *) &tcp, NULL)));
  say("NULL handle: %s", rc_name(uv_send_buffer_size(NULL, &sv[1])));
  uv_walk(loop, diff_close_any, NULL);
  CHECK(uv_run(loop, UV_RUN_DEFAULT) == 0);
  close(sv[1]);
}

int main(void) {
  uv_loop_t loop;
  CHECK(uv_loop_init(&loop) == 0);

  cpus();
  interfaces();
  memory();
  priority();
  handles(&loop);

  say("osfhandle: %d %d", uv_get_osfhandle(5), uv_open_osfhandle(6));

  {
    int expect = 0;
    uv_env_item_t *items;
    int count, found = 0;
    setenv("DIFF_189", "x=y", 1);
    for (char **e = environ; *e != NULL; e++)
      expect += strchr(*e, '=') != NULL;
    int r = uv_os_environ(&items, &count);
    for (int i = 0; i < count; i++)
      if (strcmp(items[i].name, "DIFF_189") == 0)
        say("  DIFF_189=%s", items[i].value);
      else
        found += strcmp(getenv(items[i].name), items[i].value) == 0;
    say("os_environ: %s count=environ:%d others match=%d", rc_name(r), count == expect,
        found == count - 1);
    uv_os_free_environ(items, count);
  }

  {
    int fds[2];
    CHECK(pipe(fds) == 0);
    say("pipe cloexec before: %d %d", (fcntl(fds[0], F_GETFD) & FD_CLOEXEC) != 0,
        (fcntl(fds[1], F_GETFD) & FD_CLOEXEC) != 0);
    uv_disable_stdio_inheritance();
    say("after disable_stdio_inheritance: stdio %d %d %d, pipe %d %d",
        (fcntl(0, F_GETFD) & FD_CLOEXEC) != 0, (fcntl(1, F_GETFD) & FD_CLOEXEC) != 0,
        (fcntl(2, F_GETFD) & FD_CLOEXEC) != 0, (fcntl(fds[0], F_GETFD) & FD_CLOEXEC) != 0,
        (fcntl(fds[1], F_GETFD) & FD_CLOEXEC) != 0);
    close(fds[0]);
    close(fds[1]);
  }

  finish(&loop);
  return 0;
}
