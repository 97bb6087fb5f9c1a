// SPDX-License-Identifier: MIT
/* uv_err_name / uv_strerror for a set of error codes, including UV_EOF
 * and codes libuv does not know, plus uv_translate_sys_error. */
#include "diff.h"
#include <errno.h>

/* For unknown codes the reference returns freshly allocated strings that
 * are never freed; keeping every returned pointer in a global array keeps
 * them reachable, so leak checkers do not flag this scenario. */
static const char *seen[64];
static int nseen;

static const char *keep(const char *s) {
  CHECK(nseen < 64);
  seen[nseen++] = s;
  return s;
}

static void show(int code, const char *label) {
  say("%-12s name=%s", label, keep(uv_err_name(code)));
  say("%-12s text=%s", "", keep(uv_strerror(code)));
}

int main(void) {
  show(UV_EOF, "UV_EOF");
  show(UV_EINVAL, "UV_EINVAL");
  show(UV_EBUSY, "UV_EBUSY");
  show(UV_ECANCELED, "UV_ECANCELED");
  show(UV_ENOSYS, "UV_ENOSYS");
  show(UV_ENOMEM, "UV_ENOMEM");
  show(UV_EAGAIN, "UV_EAGAIN");
  show(UV_ENOENT, "UV_ENOENT");
  show(UV_EPIPE, "UV_EPIPE");
  show(UV_ETIMEDOUT, "UV_ETIMEDOUT");
  show(UV_EAI_NONAME, "UV_EAI_NONAME");
  show(UV_UNKNOWN, "UV_UNKNOWN");
  show(UV_E2BIG, "UV_E2BIG");
  show(UV_EFTYPE, "UV_EFTYPE");
  show(UV_EILSEQ, "UV_EILSEQ");
  show(-9999, "-9999");
  show(12345, "12345");
  show(0, "0");

  say("translate(EINVAL)  == UV_EINVAL: %d", uv_translate_sys_error(EINVAL) == UV_EINVAL);
  say("translate(ENOENT)  == UV_ENOENT: %d", uv_translate_sys_error(ENOENT) == UV_ENOENT);
  say("translate(EBUSY)   == UV_EBUSY: %d", uv_translate_sys_error(EBUSY) == UV_EBUSY);
  say("translate(0)       = %d", uv_translate_sys_error(0));
  say("translate(UV_EOF)  = %s", keep(uv_err_name(uv_translate_sys_error(UV_EOF))));
  say("translate(-EAGAIN) = %s", keep(uv_err_name(uv_translate_sys_error(-EAGAIN))));
  say("UV_EINVAL == -EINVAL: %d", UV_EINVAL == -EINVAL);
  say("UV_EOF = %d", UV_EOF);
  say("done");
  return 0;
}
