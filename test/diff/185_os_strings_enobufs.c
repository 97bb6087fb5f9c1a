// SPDX-License-Identifier: MIT
/*
 * 185: the string getters of the OS API and their size protocol.
 *
 * uv_os_homedir, uv_os_tmpdir, uv_os_gethostname and uv_if_indextoname
 * return UV_ENOBUFS with *size = length + 1 when the buffer is too small,
 * and 0 with *size = length otherwise; uv_exepath cuts instead.  Answers
 * that depend on the machine are only compared with what the OS says.
 */
#include "diff.h"

#include <net/if.h>
#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

static char buf[4096];

static void show(const char *what, int r, size_t size) {
  if (r == 0)
    say("%s: 0 \"%s\" size=%zu", what, buf, size);
  else
    say("%s: %s size=%zu", what, rc_name(r), size);
}

static void homedir(size_t size) {
  int r = uv_os_homedir(buf, &size);
  show("homedir", r, size);
}

static void tmpdir(size_t size) {
  int r = uv_os_tmpdir(buf, &size);
  show("tmpdir", r, size);
}

int main(void) {
  size_t size;
  int r;

  /* $HOME first, as it is. */
  setenv("HOME", "/home/diff/", 1);
  homedir(sizeof buf);
  homedir(11);
  homedir(12);
  size = 0;
  say("homedir size 0: %s", rc_name(uv_os_homedir(buf, &size)));
  setenv("HOME", "", 1);
  homedir(sizeof buf);

  /* Without it, the user database. */
  unsetenv("HOME");
  {
    struct passwd *pw = getpwuid(geteuid());
    CHECK(pw != NULL);
    size = sizeof buf;
    r = uv_os_homedir(buf, &size);
    say("homedir from passwd: %s same=%d len=%d", rc_name(r),
        strcmp(buf, pw->pw_dir) == 0, size == strlen(pw->pw_dir));
    size = strlen(pw->pw_dir);
    r = uv_os_homedir(buf, &size);
    say("  too small: %s needs len+1=%d", rc_name(r),
        size == strlen(pw->pw_dir) + 1);
  }

  /* TMPDIR, TMP, TEMP, TEMPDIR, else /tmp; a trailing slash dropped. */
  unsetenv("TMPDIR");
  unsetenv("TMP");
  unsetenv("TEMP");
  unsetenv("TEMPDIR");
  tmpdir(sizeof buf);
  tmpdir(4);
  tmpdir(5);
  setenv("TEMPDIR", "/tempdir", 1);
  tmpdir(sizeof buf);
  setenv("TEMP", "/temp/", 1);
  tmpdir(sizeof buf);
  setenv("TMP", "/tmp2//", 1);
  tmpdir(sizeof buf);
  setenv("TMPDIR", "/x/y/", 1);
  tmpdir(sizeof buf);
  tmpdir(5);
  tmpdir(6);
  tmpdir(7);
  setenv("TMPDIR", "/", 1);
  tmpdir(sizeof buf);
  tmpdir(1);
  tmpdir(2);
  setenv("TMPDIR", "", 1);
  tmpdir(sizeof buf);
  tmpdir(1);
  size = 0;
  say("tmpdir size 0: %s", rc_name(uv_os_tmpdir(buf, &size)));

  /* Host name. */
  {
    char expect[UV_MAXHOSTNAMESIZE];
    CHECK(gethostname(expect, sizeof expect) == 0);
    size = sizeof buf;
    r = uv_os_gethostname(buf, &size);
    say("gethostname: %s same=%d len=%d", rc_name(r), strcmp(buf, expect) == 0,
        size == strlen(expect));
    size = strlen(expect);
    r = uv_os_gethostname(buf, &size);
    say("  too small: %s needs len+1=%d", rc_name(r), size == strlen(expect) + 1);
    size = 0;
    say("  size 0: %s", rc_name(uv_os_gethostname(buf, &size)));
  }

  /* Executable path: cut to fit, never ENOBUFS. */
  {
    char expect[4096];
    ssize_t n = readlink("/proc/self/exe", expect, sizeof expect - 1);
    CHECK(n > 3);
    expect[n] = '\0';
    size = sizeof buf;
    r = uv_exepath(buf, &size);
    say("exepath: %s same=%d len=%d", rc_name(r), strcmp(buf, expect) == 0,
        size == (size_t) n);
    size = 4;
    r = uv_exepath(buf, &size);
    say("  size 4: %s size=%zu prefix=%d", rc_name(r), size,
        strncmp(buf, expect, 3) == 0 && buf[3] == '\0');
    size = 1;
    r = uv_exepath(buf, &size);
    say("  size 1: %s size=%zu \"%s\"", rc_name(r), size, buf);
    size = 0;
    say("  size 0: %s", rc_name(uv_exepath(buf, &size)));
  }

  /* Interface names. */
  {
    unsigned lo = if_nametoindex("lo");
    CHECK(lo > 0);
    size = sizeof buf;
    r = uv_if_indextoname(lo, buf, &size);
    show("if_indextoname(lo)", r, size);
    size = 2;
    r = uv_if_indextoname(lo, buf, &size);
    show("if_indextoname(lo) size 2", r, size);
    size = 3;
    r = uv_if_indextoiid(lo, buf, &size);
    show("if_indextoiid(lo) size 3", r, size);
    size = sizeof buf;
    r = uv_if_indextoname(0, buf, &size);
    show("if_indextoname(0)", r, size);
    size = 0;
    say("  size 0: %s", rc_name(uv_if_indextoname(lo, buf, &size)));
  }

  /* uname and the user database. */
  {
    struct utsname u;
    uv_utsname_t v;
    CHECK(uname(&u) == 0);
    r = uv_os_uname(&v);
    say("uname: %s same=%d", rc_name(r),
        strcmp(u.sysname, v.sysname) == 0 && strcmp(u.release, v.release) == 0 &&
            strcmp(u.version, v.version) == 0 && strcmp(u.machine, v.machine) == 0);

    struct passwd *pw = getpwuid(geteuid());
    uv_passwd_t p;
    r = uv_os_get_passwd(&p);
    say("get_passwd: %s same=%d", rc_name(r),
        strcmp(p.username, pw->pw_name) == 0 && strcmp(p.homedir, pw->pw_dir) == 0 &&
            strcmp(p.shell, pw->pw_shell) == 0 && p.uid == pw->pw_uid &&
            p.gid == pw->pw_gid);
    uv_os_free_passwd(&p);
    say("  after free: %d %d %d", p.username == NULL, p.homedir == NULL, p.shell == NULL);
  }

  finish(uv_default_loop());
  return 0;
}
