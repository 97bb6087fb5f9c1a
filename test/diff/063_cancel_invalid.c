// SPDX-License-Identifier: MIT
/* uv_cancel on requests that are not cancellable types returns UV_EINVAL. */
#include "diff.h"

int main(void) {
  uv_req_t req;
  uv_req_t other;
  int rc;

  memset(&req, 0, sizeof(req));
  req.type = UV_UNKNOWN_REQ;
  rc = uv_cancel(&req);
  say("cancel(UV_UNKNOWN_REQ) = %s", rc_name(rc));

  memset(&other, 0, sizeof(other));
  other.type = UV_REQ;
  rc = uv_cancel(&other);
  say("cancel(UV_REQ) = %s", rc_name(rc));

  other.type = UV_REQ_TYPE_MAX;
  rc = uv_cancel(&other);
  say("cancel(UV_REQ_TYPE_MAX) = %s", rc_name(rc));
  say("done");
  return 0;
}
