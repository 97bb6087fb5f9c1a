// SPDX-License-Identifier: MIT
/* Process and system information (compat/uv_os.cpp): every answer is
 * checked against what the OS says directly, plus libuv's error codes and
 * its size-in/size-out protocol for strings. The tests also pass against
 * libuv 1.44 itself, except the NULL arguments marked "libuv 1.44
 * crashes", where phaseloop returns UV_EINVAL instead. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "suites.h"

/* Reads a small file whole into buf (NUL-terminated); its length. */
static size_t read_file(const char* path, char* buf, size_t size) {
  int fd = open(path, O_RDONLY);
  assert_true(fd >= 0);
  ssize_t n = read(fd, buf, size - 1);
  assert_true(n >= 0);
  buf[n] = '\0';
  close(fd);
  return (size_t)n;
}

/* Saves an environment variable (NULL: unset) and restores it. */
struct saved_env {
  const char* name;
  char* value;
};

static struct saved_env save_env(const char* name) {
  struct saved_env s = {name, NULL};
  const char* v = getenv(name);
  if (v != NULL) s.value = strdup(v);
  return s;
}

static void restore_env(struct saved_env* s) {
  if (s->value != NULL)
    setenv(s->name, s->value, 1);
  else
    unsetenv(s->name);
  free(s->value);
}

static void homedir(void** state) {
  (void)state;
  struct saved_env home = save_env("HOME");
  char buf[PATH_MAX];
  size_t size;

  /* $HOME as it is, trailing slash included. */
  setenv("HOME", "/home/someone/", 1);
  size = sizeof buf;
  assert_int_equal(uv_os_homedir(buf, &size), 0);
  assert_string_equal(buf, "/home/someone/");
  assert_int_equal(size, 14);
  size = 14;
  assert_int_equal(uv_os_homedir(buf, &size), UV_ENOBUFS);
  assert_int_equal(size, 15);
  size = 0;
  assert_int_equal(uv_os_homedir(buf, &size), UV_EINVAL);
  assert_int_equal(uv_os_homedir(NULL, &size), UV_EINVAL);
  assert_int_equal(uv_os_homedir(buf, NULL), UV_EINVAL);

  /* Without $HOME: the user database. */
  unsetenv("HOME");
  struct passwd* pw = getpwuid(geteuid());
  assert_non_null(pw);
  size = sizeof buf;
  assert_int_equal(uv_os_homedir(buf, &size), 0);
  assert_string_equal(buf, pw->pw_dir);
  assert_int_equal(size, strlen(pw->pw_dir));
  size = strlen(pw->pw_dir);
  assert_int_equal(uv_os_homedir(buf, &size), UV_ENOBUFS);
  assert_int_equal(size, strlen(pw->pw_dir) + 1);
  restore_env(&home);
}

static void tmpdir(void** state) {
  (void)state;
  struct saved_env vars[] = {save_env("TMPDIR"), save_env("TMP"), save_env("TEMP"), save_env("TEMPDIR")};
  char buf[PATH_MAX];
  size_t size;
  for (int i = 0; i < 4; i++) unsetenv(vars[i].name);

  size = sizeof buf;
  assert_int_equal(uv_os_tmpdir(buf, &size), 0);
  assert_string_equal(buf, "/tmp");
  assert_int_equal(size, 4);

  /* Order of the variables: TMPDIR, TMP, TEMP, TEMPDIR. */
  setenv("TEMPDIR", "/d", 1);
  setenv("TEMP", "/c", 1);
  size = sizeof buf;
  assert_int_equal(uv_os_tmpdir(buf, &size), 0);
  assert_string_equal(buf, "/c");
  setenv("TMP", "/b", 1);
  setenv("TMPDIR", "/a/dir/", 1);
  size = sizeof buf;
  assert_int_equal(uv_os_tmpdir(buf, &size), 0);
  assert_string_equal(buf, "/a/dir"); /* the trailing slash dropped */
  assert_int_equal(size, 6);

  /* The size check counts the slash that is dropped afterwards. */
  size = 7;
  assert_int_equal(uv_os_tmpdir(buf, &size), UV_ENOBUFS);
  assert_int_equal(size, 8);
  size = 8;
  assert_int_equal(uv_os_tmpdir(buf, &size), 0);
  assert_string_equal(buf, "/a/dir");

  /* "/" keeps its only slash. */
  setenv("TMPDIR", "/", 1);
  size = sizeof buf;
  assert_int_equal(uv_os_tmpdir(buf, &size), 0);
  assert_string_equal(buf, "/");
  assert_int_equal(size, 1);

  size = 0;
  assert_int_equal(uv_os_tmpdir(buf, &size), UV_EINVAL);
  assert_int_equal(uv_os_tmpdir(NULL, &size), UV_EINVAL);
  assert_int_equal(uv_os_tmpdir(buf, NULL), UV_EINVAL);
  for (int i = 0; i < 4; i++) restore_env(&vars[i]);
}

static void hostname(void** state) {
  (void)state;
  char expect[UV_MAXHOSTNAMESIZE];
  char buf[UV_MAXHOSTNAMESIZE];
  assert_int_equal(gethostname(expect, sizeof expect), 0);
  size_t size = sizeof buf;
  assert_int_equal(uv_os_gethostname(buf, &size), 0);
  assert_string_equal(buf, expect);
  assert_int_equal(size, strlen(expect));
  size = strlen(expect);
  assert_int_equal(uv_os_gethostname(buf, &size), UV_ENOBUFS);
  assert_int_equal(size, strlen(expect) + 1);
  size = 0;
  assert_int_equal(uv_os_gethostname(buf, &size), UV_EINVAL);
  assert_int_equal(uv_os_gethostname(NULL, &size), UV_EINVAL);
  assert_int_equal(uv_os_gethostname(buf, NULL), UV_EINVAL);
}

static void uname_(void** state) {
  (void)state;
  struct utsname expect;
  uv_utsname_t u;
  assert_int_equal(uname(&expect), 0);
  assert_int_equal(uv_os_uname(&u), 0);
  assert_string_equal(u.sysname, expect.sysname);
  assert_string_equal(u.release, expect.release);
  assert_string_equal(u.version, expect.version);
  assert_string_equal(u.machine, expect.machine);
  assert_int_equal(uv_os_uname(NULL), UV_EINVAL);
}

static void exepath(void** state) {
  (void)state;
  char expect[PATH_MAX];
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", expect, sizeof expect - 1);
  assert_true(n > 4);
  expect[n] = '\0';
  size_t size = sizeof buf;
  assert_int_equal(uv_exepath(buf, &size), 0);
  assert_string_equal(buf, expect);
  assert_int_equal(size, (size_t)n);

  /* Too small: cut to fit, no UV_ENOBUFS. */
  size = 4;
  assert_int_equal(uv_exepath(buf, &size), 0);
  assert_int_equal(size, 3);
  assert_memory_equal(buf, expect, 3);
  assert_int_equal(buf[3], '\0');
  size = 1;
  assert_int_equal(uv_exepath(buf, &size), 0);
  assert_int_equal(size, 0);
  assert_string_equal(buf, "");

  size = 0;
  assert_int_equal(uv_exepath(buf, &size), UV_EINVAL);
  assert_int_equal(uv_exepath(NULL, &size), UV_EINVAL);
  assert_int_equal(uv_exepath(buf, NULL), UV_EINVAL);
}

static void passwd_(void** state) {
  (void)state;
  struct passwd* pw = getpwuid(geteuid());
  assert_non_null(pw);
  uv_passwd_t p;
  assert_int_equal(uv_os_get_passwd(&p), 0);
  assert_string_equal(p.username, pw->pw_name);
  assert_string_equal(p.homedir, pw->pw_dir);
  assert_string_equal(p.shell, pw->pw_shell);
  assert_int_equal(p.uid, pw->pw_uid);
  assert_int_equal(p.gid, pw->pw_gid);
  uv_os_free_passwd(&p);
  assert_null(p.username);
  assert_null(p.homedir);
  assert_null(p.shell);
  uv_os_free_passwd(NULL);
  assert_int_equal(uv_os_get_passwd(NULL), UV_EINVAL);
}

extern char** environ;

static void environ_(void** state) {
  (void)state;
  setenv("PHASELOOP_OS_TEST", "a=b", 1);
  int expect = 0;
  for (char** e = environ; *e != NULL; e++) expect += strchr(*e, '=') != NULL;
  uv_env_item_t* items;
  int count;
  assert_int_equal(uv_os_environ(&items, &count), 0);
  assert_int_equal(count, expect);
  int found = 0;
  for (int i = 0; i < count; i++) {
    assert_string_equal(getenv(items[i].name), items[i].value);
    if (strcmp(items[i].name, "PHASELOOP_OS_TEST") == 0) {
      assert_string_equal(items[i].value, "a=b"); /* split at the first '=' */
      found++;
    }
  }
  assert_int_equal(found, 1);
  uv_os_free_environ(items, count);
  unsetenv("PHASELOOP_OS_TEST");
  assert_int_equal(uv_os_environ(NULL, &count), UV_EINVAL); /* libuv 1.44 crashes */
}

static void cpu_info(void** state) {
  (void)state;
  /* The reference: per-CPU lines of /proc/stat, first model of cpuinfo. */
  static char text[1 << 16];
  read_file("/proc/stat", text, sizeof text);
  int expect = 0;
  for (char* line = strstr(text, "\ncpu"); line != NULL; line = strstr(line + 1, "\ncpu")) expect++;
  read_file("/proc/cpuinfo", text, sizeof text);
  char model[256] = "";
  const char* m = strstr(text, "model name\t: ");
  if (m != NULL) sscanf(m + strlen("model name\t: "), "%255[^\n]", model);

  uv_cpu_info_t* ci;
  int count;
  assert_int_equal(uv_cpu_info(&ci, &count), 0);
  assert_int_equal(count, expect);
  for (int i = 0; i < count; i++) {
    assert_non_null(ci[i].model);
    if (model[0] != '\0') assert_string_equal(ci[i].model, model);
    assert_true(ci[i].speed >= 0);
  }
  /* Milliseconds: multiples of 1000 / CLK_TCK. */
  const uint64_t ms = 1000 / (uint64_t)sysconf(_SC_CLK_TCK);
  assert_true(ci[0].cpu_times.user + ci[0].cpu_times.sys + ci[0].cpu_times.idle > 0);
  assert_int_equal(ci[0].cpu_times.idle % ms, 0);
  uv_free_cpu_info(ci, count);
  assert_int_equal(uv_cpu_info(NULL, &count), UV_EINVAL); /* libuv 1.44 crashes */

  unsigned n = uv_available_parallelism();
  cpu_set_t set;
  assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
  assert_int_equal(n, (unsigned)CPU_COUNT(&set));
}

static void interfaces(void** state) {
  (void)state;
  uv_interface_address_t* a;
  int count;
  assert_int_equal(uv_interface_addresses(&a, &count), 0);
  int lo4 = 0;
  for (int i = 0; i < count; i++) {
    assert_non_null(a[i].name);
    int fam = a[i].address.address4.sin_family;
    assert_true(fam == AF_INET || fam == AF_INET6);
    if (fam == AF_INET && a[i].address.address4.sin_addr.s_addr == htonl(INADDR_LOOPBACK)) {
      lo4++;
      assert_string_equal(a[i].name, "lo");
      assert_int_equal(a[i].is_internal, 1);
      assert_int_equal(a[i].netmask.netmask4.sin_addr.s_addr, htonl(0xff000000));
      static const char zero[6];
      assert_memory_equal(a[i].phys_addr, zero, 6);
    }
  }
  assert_int_equal(lo4, 1);
  uv_free_interface_addresses(a, count);
  assert_int_equal(uv_interface_addresses(NULL, &count), UV_EINVAL); /* libuv 1.44 crashes */

  unsigned lo = if_nametoindex("lo");
  assert_true(lo > 0);
  char buf[UV_IF_NAMESIZE];
  size_t size = sizeof buf;
  assert_int_equal(uv_if_indextoname(lo, buf, &size), 0);
  assert_string_equal(buf, "lo");
  assert_int_equal(size, 2);
  size = 2;
  assert_int_equal(uv_if_indextoname(lo, buf, &size), UV_ENOBUFS);
  assert_int_equal(size, 3);
  size = sizeof buf;
  assert_int_equal(uv_if_indextoiid(lo, buf, &size), 0);
  assert_string_equal(buf, "lo");
  size = sizeof buf;
  assert_int_equal(uv_if_indextoname(0, buf, &size), UV_ENXIO);
  size = 0;
  assert_int_equal(uv_if_indextoname(lo, buf, &size), UV_EINVAL);
}

static void memory(void** state) {
  (void)state;
  char text[8192];
  read_file("/proc/meminfo", text, sizeof text);
  uint64_t kib = 0;
  assert_int_equal(sscanf(strstr(text, "MemTotal:"), "MemTotal: %" SCNu64, &kib), 1);
  assert_int_equal(uv_get_total_memory(), kib * 1024);
  uint64_t free_mem = uv_get_free_memory();
  assert_true(free_mem > 0 && free_mem <= kib * 1024);

  /* libuv 1.44: the root cgroup v1 limit, or 0 without that file. */
  uint64_t limit = 0;
  FILE* f = fopen("/sys/fs/cgroup/memory/memory.limit_in_bytes", "r");
  if (f != NULL) {
    assert_int_equal(fscanf(f, "%" SCNu64, &limit), 1);
    fclose(f);
  }
  setenv("PHASELOOP_PROFILE", "libuv-1.44", 1);
  assert_int_equal(uv_get_constrained_memory(), limit);
  /* From 1.45 the process's own cgroup, where "no limit" is UINT64_MAX: never
   * the root v1 file's "no limit" value. */
  setenv("PHASELOOP_PROFILE", "libuv-1.50.0", 1);
  assert_true(uv_get_constrained_memory() != 0x7ffffffffffff000ull);
  unsetenv("PHASELOOP_PROFILE");

  size_t rss = 0;
  assert_int_equal(uv_resident_set_memory(&rss), 0);
  assert_true(rss > 0 && rss < kib * 1024);
  assert_int_equal(rss % (size_t)getpagesize(), 0);
  assert_int_equal(uv_resident_set_memory(NULL), UV_EINVAL); /* libuv 1.44 crashes */

  uv_rusage_t ru;
  struct rusage expect;
  assert_int_equal(uv_getrusage(&ru), 0);
  assert_int_equal(getrusage(RUSAGE_SELF, &expect), 0);
  assert_true(ru.ru_maxrss > 0 && ru.ru_maxrss <= (uint64_t)expect.ru_maxrss);
  assert_true(ru.ru_minflt > 0 && ru.ru_minflt <= (uint64_t)expect.ru_minflt);
  assert_int_equal(uv_getrusage(NULL), UV_EINVAL); /* libuv 1.44 crashes */

  /* /proc/uptime has hundredths: uv_uptime is no longer cut to seconds. */
  double up = 0, proc_up = 0;
  assert_int_equal(uv_uptime(&up), 0);
  read_file("/proc/uptime", text, sizeof text);
  assert_int_equal(sscanf(text, "%lf", &proc_up), 1);
  assert_true(up > 0 && up - proc_up < 5 && proc_up - up < 5);
  assert_int_equal(uv_uptime(NULL), UV_EINVAL); /* libuv 1.44 crashes */

  double avg[3] = {-1, -1, -1};
  uv_loadavg(avg);
  for (int i = 0; i < 3; i++) assert_true(avg[i] >= 0);
}

/* Nice values are per thread on Linux: the changes are made on a thread
 * of their own so the test process keeps its priority. */
static void priority_thread(void* arg) {
  int* result = arg;
  int before = -100, after = -100;
  result[0] = uv_os_getpriority(0, &before);
  result[1] = before == getpriority(PRIO_PROCESS, 0);
  int target = before < UV_PRIORITY_LOW ? before + 1 : before;
  result[2] = uv_os_setpriority(0, target);
  result[3] = uv_os_getpriority(0, &after);
  result[4] = after == target;
}

static void priority(void** state) {
  (void)state;
  int result[5];
  uv_thread_t t;
  assert_int_equal(uv_thread_create(&t, priority_thread, result), 0);
  assert_int_equal(uv_thread_join(&t), 0);
  assert_int_equal(result[0], 0);
  assert_int_equal(result[1], 1);
  assert_int_equal(result[2], 0);
  assert_int_equal(result[3], 0);
  assert_int_equal(result[4], 1);

  int p;
  assert_int_equal(uv_os_getpriority(0, NULL), UV_EINVAL);
  assert_int_equal(uv_os_setpriority(0, UV_PRIORITY_HIGHEST - 1), UV_EINVAL);
  assert_int_equal(uv_os_setpriority(0, UV_PRIORITY_LOW + 1), UV_EINVAL);
  assert_int_equal(uv_os_getpriority(INT_MAX, &p), UV_ESRCH);
  assert_int_equal(uv_os_setpriority(INT_MAX, 0), UV_ESRCH);
}

static void descriptors(void** state) {
  (void)state;
  assert_int_equal(uv_get_osfhandle(7), 7);
  assert_int_equal(uv_open_osfhandle(7), 7);

  /* Every open descriptor becomes close-on-exec; the flags are put back
   * afterwards. */
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  int before[64];
  for (int fd = 0; fd < 64; fd++) before[fd] = fcntl(fd, F_GETFD);
  uv_disable_stdio_inheritance();
  for (int fd = 0; fd < 64; fd++) {
    if (before[fd] == -1) continue;
    assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    fcntl(fd, F_SETFD, before[fd]);
  }
  close(fds[0]);
  close(fds[1]);
}

static void socket_buffers(void** state) {
  (void)state;
  uv_loop_t loop;
  assert_int_equal(uv_loop_init(&loop), 0);
  uv_tcp_t tcp, unopened;
  uv_udp_t udp;
  uv_timer_t timer;
  struct sockaddr_in addr;
  assert_int_equal(uv_ip4_addr("127.0.0.1", 0, &addr), 0);
  assert_int_equal(uv_tcp_init(&loop, &tcp), 0);
  assert_int_equal(uv_tcp_bind(&tcp, (const struct sockaddr*)&addr, 0), 0);
  assert_int_equal(uv_udp_init(&loop, &udp), 0);
  assert_int_equal(uv_udp_bind(&udp, (const struct sockaddr*)&addr, 0), 0);
  assert_int_equal(uv_tcp_init(&loop, &unopened), 0);
  assert_int_equal(uv_timer_init(&loop, &timer), 0);

  /* 0 reads; anything else sets (Linux then reports double). */
  int v = 0;
  assert_int_equal(uv_recv_buffer_size((uv_handle_t*)&tcp, &v), 0);
  assert_true(v > 0);
  v = 16384;
  assert_int_equal(uv_send_buffer_size((uv_handle_t*)&tcp, &v), 0);
  v = 0;
  assert_int_equal(uv_send_buffer_size((uv_handle_t*)&tcp, &v), 0);
  assert_int_equal(v, 32768);
  v = 8192;
  assert_int_equal(uv_recv_buffer_size((uv_handle_t*)&udp, &v), 0);
  v = 0;
  assert_int_equal(uv_recv_buffer_size((uv_handle_t*)&udp, &v), 0);
  assert_int_equal(v, 16384);

  v = 0;
  assert_int_equal(uv_send_buffer_size((uv_handle_t*)&timer, &v), UV_ENOTSUP);
  assert_int_equal(uv_send_buffer_size((uv_handle_t*)&unopened, &v), UV_EBADF);
  assert_int_equal(uv_send_buffer_size((uv_handle_t*)&tcp, NULL), UV_EINVAL);
  assert_int_equal(uv_recv_buffer_size(NULL, &v), UV_EINVAL);
  finish_loop(&loop);
}

static void dl(void** state) {
  (void)state;
  uv_lib_t lib;
  assert_int_equal(uv_dlopen("libm.so.6", &lib), 0);
  assert_string_equal(uv_dlerror(&lib), "no error");
  double (*cos_fn)(double);
  assert_int_equal(uv_dlsym(&lib, "cos", (void**)&cos_fn), 0);
  assert_non_null(cos_fn);
  assert_true(cos_fn(0.0) == 1.0);

  /* A missing symbol: -1 and dlerror()'s text, kept across a success. */
  void* p = &lib;
  assert_int_equal(uv_dlsym(&lib, "phaseloop_no_such_symbol", &p), -1);
  assert_null(p);
  assert_non_null(strstr(uv_dlerror(&lib), "phaseloop_no_such_symbol"));
  assert_int_equal(uv_dlsym(&lib, "sin", &p), 0);
  assert_non_null(strstr(uv_dlerror(&lib), "phaseloop_no_such_symbol"));
  uv_dlclose(&lib);
  assert_null(lib.handle);
  assert_null(lib.errmsg);
  assert_string_equal(uv_dlerror(&lib), "no error");
  uv_dlclose(&lib); /* twice is harmless */

  /* A missing library. */
  assert_int_equal(uv_dlopen("libphaseloop-does-not-exist.so", &lib), -1);
  assert_null(lib.handle);
  assert_non_null(strstr(uv_dlerror(&lib), "libphaseloop-does-not-exist.so"));
  uv_dlclose(&lib);

  /* NULL: the program itself. */
  assert_int_equal(uv_dlopen(NULL, &lib), 0);
  assert_int_equal(uv_dlsym(&lib, "uv_dlopen", &p), 0);
  uv_dlclose(&lib);
  assert_int_equal(uv_dlopen("libm.so.6", NULL), UV_EINVAL); /* libuv 1.44 crashes */
}

static int random_calls;
static int random_status;
static int random_alive; /* uv_loop_alive() inside the callback */

static void on_random(uv_random_t* req, int status, void* buf, size_t buflen) {
  random_calls++;
  random_status = status;
  assert_int_equal(req->type, UV_RANDOM);
  assert_ptr_equal(buf, req->data);
  assert_int_equal(buflen, 32);
  random_alive = uv_loop_alive(req->loop);
}

static void random_(void** state) {
  (void)state;
  unsigned char buf[300];
  static const unsigned char zero[sizeof buf];
  assert_int_equal(uv_random(NULL, NULL, buf, 0x80000000u, 0, NULL), UV_E2BIG);
  assert_int_equal(uv_random(NULL, NULL, buf, sizeof buf, 1, NULL), UV_EINVAL);

  /* Synchronous: no loop needed; more than one 256-byte chunk. */
  memset(buf, 0, sizeof buf);
  assert_int_equal(uv_random(NULL, NULL, buf, sizeof buf, 0, NULL), 0);
  assert_memory_not_equal(buf, zero, 32);
  assert_memory_not_equal(buf + 268, zero, 32);
  assert_int_equal(uv_random(NULL, NULL, buf, 0, 0, NULL), 0);

  /* Asynchronous: on the pool, the callback in the loop. */
  uv_loop_t loop;
  uv_random_t req;
  assert_int_equal(uv_loop_init(&loop), 0);
  memset(buf, 0, sizeof buf);
  req.data = buf;
  random_calls = 0;
  assert_int_equal(uv_random(&loop, &req, buf, 32, 0, on_random), 0);
  assert_ptr_equal(req.data, buf);
  assert_ptr_equal(req.loop, &loop);
  assert_int_equal(uv_loop_alive(&loop), 1);
  assert_int_equal(random_calls, 0);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(random_calls, 1);
  assert_int_equal(random_status, 0);
  assert_int_equal(random_alive, 0); /* no longer counted in its callback */
  assert_memory_not_equal(buf, zero, 32);
  assert_int_equal(uv_cancel((uv_req_t*)&req), UV_EBUSY);
  finish_loop(&loop);
}

/* uv_cancel of a uv_random still queued: both pool threads (main.c sets
 * UV_THREADPOOL_SIZE=2) are held by work requests until it is canceled. */
static uv_sem_t hold;

static void held_work(uv_work_t* w) {
  (void)w;
  uv_sem_wait(&hold);
}

static void random_cancel(void** state) {
  (void)state;
  uv_loop_t loop;
  uv_work_t work[2];
  uv_random_t req;
  unsigned char buf[32];
  assert_int_equal(uv_loop_init(&loop), 0);
  assert_int_equal(uv_sem_init(&hold, 0), 0);
  for (int i = 0; i < 2; i++) assert_int_equal(uv_queue_work(&loop, &work[i], held_work, NULL), 0);
  req.data = buf;
  random_calls = 0;
  random_status = 0;
  assert_int_equal(uv_random(&loop, &req, buf, sizeof buf, 0, on_random), 0);
  assert_int_equal(uv_cancel((uv_req_t*)&req), 0);
  uv_sem_post(&hold);
  uv_sem_post(&hold);
  assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
  assert_int_equal(random_calls, 1);
  assert_int_equal(random_status, UV_ECANCELED);
  uv_sem_destroy(&hold);
  finish_loop(&loop);
}

static void process_title(void** state) {
  (void)state;
  char buf[64];
  /* Before uv_setup_args(), there is no title to get or set. */
  assert_int_equal(uv_get_process_title(buf, sizeof buf), UV_ENOBUFS);
  assert_int_equal(uv_set_process_title("x"), UV_ENOBUFS);

  /* An argv laid out as the kernel does, strings back to back. */
  static char block[] = "prog\0arg1\0arg2";
  char* argv[] = {block, block + 5, block + 10, NULL};
  char** copy = uv_setup_args(3, argv);
  assert_non_null(copy);
  assert_ptr_not_equal(copy, argv);
  for (int i = 0; i < 3; i++) {
    assert_string_equal(copy[i], argv[i]);
    assert_ptr_not_equal(copy[i], argv[i]);
  }
  assert_null(copy[3]);

  assert_int_equal(uv_get_process_title(buf, sizeof buf), 0);
  assert_string_equal(buf, "prog");
  assert_int_equal(uv_get_process_title(buf, 4), UV_ENOBUFS);
  assert_int_equal(uv_get_process_title(buf, 5), 0);
  assert_int_equal(uv_get_process_title(buf, 0), UV_EINVAL);
  assert_int_equal(uv_get_process_title(NULL, sizeof buf), UV_EINVAL);

  /* The title is written over the original block, zero-filled after it. */
  assert_int_equal(uv_set_process_title("hello"), 0);
  assert_int_equal(uv_get_process_title(buf, sizeof buf), 0);
  assert_string_equal(buf, "hello");
  assert_memory_equal(block, "hello\0\0\0\0\0\0\0\0\0", 15);
  assert_string_equal(copy[1], "arg1"); /* the copy is untouched */

  /* Longer than the block: cut to its 14 characters. The thread's name
   * is the title's first 15 bytes. */
  assert_int_equal(uv_set_process_title("a title far too long for it"), 0);
  assert_int_equal(uv_get_process_title(buf, sizeof buf), 0);
  assert_string_equal(buf, "a title far to");
  char comm[32];
  read_file("/proc/thread-self/comm", comm, sizeof comm);
  assert_string_equal(comm, "a title far to\n");
  assert_int_equal(uv_set_process_title(NULL), UV_EINVAL); /* libuv 1.44 crashes */
}

int run_os_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(homedir),     cmocka_unit_test(tmpdir),
      cmocka_unit_test(hostname),    cmocka_unit_test(uname_),
      cmocka_unit_test(exepath),     cmocka_unit_test(passwd_),
      cmocka_unit_test(environ_),    cmocka_unit_test(cpu_info),
      cmocka_unit_test(interfaces),  cmocka_unit_test(memory),
      cmocka_unit_test(priority),    cmocka_unit_test(descriptors),
      cmocka_unit_test(socket_buffers), cmocka_unit_test(dl),
      cmocka_unit_test(random_),     cmocka_unit_test(random_cancel),
      cmocka_unit_test(process_title),
  };
  return cmocka_run_group_tests_name("os", tests, NULL, NULL);
}
