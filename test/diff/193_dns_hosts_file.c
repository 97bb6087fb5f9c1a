// SPDX-License-Identifier: MIT
/* uv_getaddrinfo and uv_getnameinfo of names in /etc/hosts, with every
 * family and hints flag, then again after the file changed.  The scenario
 * runs in a mount namespace of its own, where its own files stand at
 * /etc/hosts and /etc/resolv.conf (a name server on 127.0.0.1, where none
 * listens, so a name missing from the file fails the same way on both
 * sides without leaving the machine).  Each table runs twice: phaseloop
 * answers repeated hosts-file names from its cache, which must give
 * glibc's answers, and forget them when the file changes.  Needs root for
 * the namespace; without it both sides print the same one line. */
#define _GNU_SOURCE 1
#include "diff.h"
#include "diff_dns.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

static char hosts_path[256];

static const char hosts_first[] =
    "127.0.0.1 localhost\n"
    "10.0.0.1 multi\n"
    "10.0.0.2 multi m-alias  # a second line for the same name\n"
    "fd00::1 v6only\n"
    "10.0.0.3 both\n"
    "fd00::3 both\n";

static const char hosts_second[] =
    "127.0.0.1 localhost\n"
    "10.0.0.9 multi\n"
    "fd00::1 v6only\n";

static const struct dns_case cases[] = {
  {"localhost, null hints", "localhost", NULL, 0, 0, 0, 0, 0},
  {"localhost v6 (the file has only v4)", "localhost", NULL, 1, AF_INET6, SOCK_STREAM, 0, 0},
  {"localhost v6 v4mapped", "localhost", NULL, 1, AF_INET6, SOCK_STREAM, 0, AI_V4MAPPED},
  {"multi, any", "multi", "http", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"MULTI, canonname", "MULTI", NULL, 1, AF_INET, SOCK_DGRAM, 0, AI_CANONNAME},
  {"m-alias, canonname", "m-alias", NULL, 1, AF_UNSPEC, 0, 0, AI_CANONNAME},
  {"multi v6 v4mapped|all", "multi", NULL, 1, AF_INET6, SOCK_STREAM, 0, AI_V4MAPPED | AI_ALL},
  {"both, any", "both", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"both v6", "both", NULL, 1, AF_INET6, SOCK_STREAM, 0, 0},
  {"both v6 v4mapped|all", "both", NULL, 1, AF_INET6, SOCK_STREAM, 0, AI_V4MAPPED | AI_ALL},
  {"both, addrconfig", "both", NULL, 1, AF_UNSPEC, SOCK_STREAM, 0, AI_ADDRCONFIG},
  {"both, passive", "both", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, AI_PASSIVE},
  {"v6only v4", "v6only", NULL, 1, AF_INET, SOCK_STREAM, 0, 0},
  {"v6only, null hints", "v6only", "domain", 0, 0, 0, 0, 0},
  {"not in the file", "nothere.invalid", NULL, 1, AF_INET, SOCK_STREAM, 0, 0},
};

static const struct dns_case after[] = {
  {"multi, any", "multi", "http", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"m-alias, canonname", "m-alias", NULL, 1, AF_UNSPEC, 0, 0, AI_CANONNAME},
  {"both, any", "both", "80", 1, AF_UNSPEC, SOCK_STREAM, 0, 0},
  {"v6only, null hints", "v6only", "domain", 0, 0, 0, 0, 0},
};

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");  /* truncates: the inode, and so the bind mount, stay */
  if (f == NULL) return -1;
  fputs(text, f);
  return fclose(f);
}

static int private_etc(void) {
  const char *tmp = getenv("TMPDIR");
  char resolv_path[256];
  if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0) return -1;
  if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return -1;
  snprintf(hosts_path, sizeof hosts_path, "%s/dns193-hosts-%d", tmp ? tmp : "/tmp", (int) getpid());
  snprintf(resolv_path, sizeof resolv_path, "%s/dns193-resolv-%d", tmp ? tmp : "/tmp", (int) getpid());
  if (write_file(hosts_path, hosts_first) != 0) return -1;
  if (write_file(resolv_path, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n") != 0) return -1;
  if (mount(hosts_path, "/etc/hosts", NULL, MS_BIND, NULL) != 0) return -1;
  if (mount(resolv_path, "/etc/resolv.conf", NULL, MS_BIND, NULL) != 0) return -1;
  unlink(resolv_path);  /* the mount keeps it */
  return 0;
}

static void on_name(uv_getnameinfo_t *req, int status, const char *host, const char *service) {
  (void) req;
  say("  getnameinfo: %s %s %s", rc_name(status), host ? host : "-", service ? service : "-");
}

static void reverse(uv_loop_t *loop, const char *ip) {
  struct sockaddr_in a;
  uv_getnameinfo_t req;
  CHECK(uv_ip4_addr(ip, 80, &a) == 0);
  CHECK(uv_getnameinfo(loop, &req, on_name, (const struct sockaddr *) &a, 0) == 0);
  CHECK(uv_run(loop, UV_RUN_DEFAULT) == 0);
}

int main(void) {
  uv_loop_t loop;
  const int n = (int) (sizeof cases / sizeof cases[0]);

  if (private_etc() != 0) {
    say("needs root, for a mount namespace of its own");
    return 0;
  }
  CHECK(uv_loop_init(&loop) == 0);
  say("-- first time");
  dns_run_cases(&loop, cases, n);
  reverse(&loop, "10.0.0.1");
  say("-- again (answers phaseloop may have kept)");
  dns_run_cases(&loop, cases, n);
  reverse(&loop, "10.0.0.1");
  CHECK(write_file(hosts_path, hosts_second) == 0);
  say("-- after the file changed");
  dns_run_cases(&loop, after, (int) (sizeof after / sizeof after[0]));
  reverse(&loop, "10.0.0.1");
  say("-- and again");
  dns_run_cases(&loop, after, (int) (sizeof after / sizeof after[0]));
  finish(&loop);
  umount("/etc/hosts");
  unlink(hosts_path);
  return 0;
}
