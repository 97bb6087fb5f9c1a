// SPDX-License-Identifier: MIT
/* maps-probe.c -- runs a command with a time limit and records which
 * libuv (or libphaseloop) the processes it forks have really mapped.
 *
 *   maps-probe -t SECONDS -o OUTFILE -- COMMAND [ARGS...]
 *
 * Written for the libuv client kit (test/clients/libuv/): COMMAND is
 * libuv's test runner, `run-tests NAME`, which forks and execs itself as
 * `run-tests NAME PART` for the test (and each helper) and waits for it.
 * While COMMAND runs, this program polls the children of COMMAND's process
 * (/proc/PID/task/PID/children) and, for each child that has exec'd (its
 * command line has the 3 words of a test process), reads /proc/CHILD/maps
 * and writes the path of every mapped libuv.so*, libphaseloop.so* or
 * libphaseloop-uv.so* to
 * OUTFILE, one line per process and library:
 *
 *   runner PID PATH        (COMMAND's own process)
 *   test PID NAME:PART PATH
 *
 * A child that exits before its maps could be read after its exec is not
 * recorded (very short tests can be missed; the kit reports how many test
 * processes it observed). The maps are the kernel's record of what the
 * process really loaded: no LD_TRACE_LOADED_OBJECTS, no preloading.
 *
 * COMMAND runs in its own process group; after SECONDS the whole group is
 * killed (SIGKILL) and the exit status is 124, like timeout(1). Otherwise
 * the exit status is COMMAND's (128 + signal number if it was killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SEEN 256

static pid_t seen[MAX_SEEN];
static int n_seen;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int was_seen(pid_t pid) {
  int i;
  for (i = 0; i < n_seen; i++)
    if (seen[i] == pid) return 1;
  return 0;
}

/* Reads /proc/PID/cmdline into argv-like words "w1:w2" of words 1 and 2;
 * returns the number of words, or -1 if the process is gone. */
static int cmdline_words(pid_t pid, char* label, size_t size) {
  char path[64], buf[4096];
  FILE* f;
  size_t n, i;
  int words = 0;
  const char* w[3] = {0, 0, 0};

  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
  f = fopen(path, "r");
  if (f == NULL) return -1;
  n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  for (i = 0; i < n; i++) {
    if (i == 0 || buf[i - 1] == '\0') {
      if (words < 3) w[words] = buf + i;
      words++;
    }
  }
  if (label != NULL)
    snprintf(label, size, "%s:%s", words > 1 ? w[1] : "", words > 2 ? w[2] : "");
  return words;
}

/* Writes the libuv/libphaseloop lines of PID's maps to OUT (each path once);
 * returns how many it wrote, -1 if the process is gone. */
static int record_maps(FILE* out, pid_t pid, const char* role, const char* label) {
  char path[64], line[4096], last[4096] = "";
  FILE* f;
  int found = 0;

  snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
  f = fopen(path, "r");
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL) {
    char* p = strchr(line, '/');
    char* base;
    if (p == NULL) continue;
    p[strcspn(p, "\n")] = '\0';
    base = strrchr(p, '/') + 1;
    if (strncmp(base, "libuv.so", 8) != 0 && strncmp(base, "libphaseloop.so", 15) != 0 &&
        strncmp(base, "libphaseloop-uv.so", 18) != 0)
      continue;
    if (strcmp(p, last) == 0) continue; /* one line per segment: keep one */
    snprintf(last, sizeof last, "%s", p);
    if (label != NULL)
      fprintf(out, "%s %d %s %s\n", role, (int)pid, label, p);
    else
      fprintf(out, "%s %d %s\n", role, (int)pid, p);
    found++;
  }
  fclose(f);
  return found;
}

/* Looks at the children of PID once; records those ready. */
static void poll_children(FILE* out, pid_t pid) {
  char path[96], buf[4096], label[512];
  FILE* f;
  char* tok;
  char* save;

  snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
  f = fopen(path, "r");
  if (f == NULL) return;
  if (fgets(buf, sizeof buf, f) == NULL) buf[0] = '\0';
  fclose(f);
  for (tok = strtok_r(buf, " \n", &save); tok != NULL; tok = strtok_r(NULL, " \n", &save)) {
    pid_t child = (pid_t)atoi(tok);
    if (child <= 0 || was_seen(child) || n_seen == MAX_SEEN) continue;
    /* Before its exec a child still shows the runner's command line (2
     * words) and image: wait for the test process's own (3 words). */
    if (cmdline_words(child, label, sizeof label) != 3) continue;
    if (record_maps(out, child, "test", label) > 0) seen[n_seen++] = child;
  }
}

static void usage(void) {
  fprintf(stderr, "usage: maps-probe -t SECONDS -o OUTFILE -- COMMAND [ARGS...]\n");
  exit(2);
}

int main(int argc, char** argv) {
  double limit = 0, start;
  const char* outname = NULL;
  FILE* out;
  pid_t pid;
  int opt, status, runner_recorded = 0;
  struct timespec pause = {0, 500000}; /* 0.5 ms between polls */

  while ((opt = getopt(argc, argv, "+t:o:")) != -1) {
    switch (opt) {
      case 't': limit = atof(optarg); break;
      case 'o': outname = optarg; break;
      default: usage();
    }
  }
  if (optind >= argc || outname == NULL || limit <= 0) usage();

  out = fopen(outname, "w");
  if (out == NULL) {
    perror(outname);
    return 2;
  }
  setvbuf(out, NULL, _IOLBF, 0);

  start = now();
  pid = fork();
  if (pid < 0) {
    perror("fork");
    return 2;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execvp(argv[optind], argv + optind);
    fprintf(stderr, "maps-probe: cannot run %s: %s\n", argv[optind], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);

  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) {
      perror("waitpid");
      return 2;
    }
    if (!runner_recorded) {
      /* The runner itself, once its exec is done: its command line then
       * starts with COMMAND (before, it is still maps-probe's). */
      char path[64], buf[4096];
      FILE* f;
      size_t n = 0;
      snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
      f = fopen(path, "r");
      if (f != NULL) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
      }
      buf[n] = '\0';
      if (n > 0 && strcmp(buf, argv[optind]) == 0 && record_maps(out, pid, "runner", NULL) > 0)
        runner_recorded = 1;
    }
    poll_children(out, pid);
    if (now() - start > limit) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      fprintf(out, "timeout %d after %.0f s\n", (int)pid, limit);
      fclose(out);
      printf("# maps-probe: killed after %.0f s (process group %d)\n", limit, (int)pid);
      return 124;
    }
    nanosleep(&pause, NULL);
  }
  /* The test's own processes are the runner's; kill any it left behind. */
  kill(-pid, SIGKILL);
  fclose(out);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 2;
}
