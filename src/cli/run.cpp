// SPDX-License-Identifier: MIT
// `phaseloop run`: the script's file, a loop, SpiderMonkey, and the end.

#include <js/Initialization.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "phaseloop/loop.hpp"
#include "js/node/engine.hpp"
#include "js/runner.hpp"
#include "js/window/window.hpp"

namespace phaseloop::runner {

const char* node_version(node::mode m) noexcept {
  switch (m) {
    case node::mode::node10: return "v10.24.1";
    case node::mode::node11: return "v11.15.0";
    case node::mode::current: return "v20.20.2";
  }
  return "v0.0.0";
}

namespace {

// Reads `path`, or standard input when `path` is null.
bool read_file(const char* path, std::string& out) {
  std::FILE* f = path != nullptr ? std::fopen(path, "rb") : stdin;
  if (f == nullptr) return false;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const bool ok = !std::ferror(f);
  const int saved = errno;
  if (f != stdin) std::fclose(f);
  errno = saved;
  return ok;
}

int no_context() {
  std::fputs("phaseloop: cannot create a JavaScript context\n", stderr);
  return 2;
}

// -p CODE: the main module returns what CODE evaluates to (a direct eval,
// which sees require, module and the rest as the code would), and the
// engine prints it (engine::run_main_cb).
std::string print_wrapper(const std::string& code) {
  std::string q = "return eval(\"";
  for (const char c : code) {
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\r': q += "\\r"; break;
      default: q += c;
    }
  }
  return q + "\");";
}

}  // namespace

bool target::parse(std::string_view s, target& out) noexcept {
  if (s == "browser") {
    out = {true, node::mode::current};
    return true;
  }
  node::mode m;
  if (!node::parse_mode(s, m)) return false;
  out = {false, m};
  return true;
}

// Runs the engine (the script and its loop) under the host's frame: the
// callbacks the loop makes are then nested calls to SpiderMonkey, which
// does not time them (two clock reads each otherwise).
template <class Engine>
int run_under_frame(Engine& e) {
  struct call {
    Engine* e;
    int status;
  } c{&e, 0};
  if (!e.under_frame([](void* p) { auto* cl = static_cast<call*>(p); cl->status = cl->e->run(); }, &c)) {
    // run() handles every exception of the script; one that got here is
    // the runner's own fault.
    JS_ClearPendingException(e.cx());
    return 2;
  }
  return c.status;
}

int run_script(const run_options& o) {
  std::string source;
  if (o.eval) {
    source = o.print ? print_wrapper(*o.eval) : *o.eval;
  } else if (!read_file(o.from_stdin ? nullptr : o.path.c_str(), source)) {
    std::fprintf(stderr, "phaseloop: cannot open %s: %s\n", o.file.c_str(), std::strerror(errno));
    return 1;
  }
  if (!JS_Init()) {
    std::fputs("phaseloop: SpiderMonkey failed to initialize\n", stderr);
    return 2;
  }
  int status = 0;
  {
    phaseloop::loop loop;
    if (o.browser) {
      window_engine w(loop, o, std::move(source));
      status = w.ok() ? run_under_frame(w) : no_context();
    } else {
      engine e(loop, o, std::move(source));
      status = e.ok() ? run_under_frame(e) : no_context();
    }
    // Everything the runner made is closed by now; a busy loop is a bug.
    if (const int rc = loop.close(); rc != 0) {
      std::fprintf(stderr, "phaseloop: the loop did not close (%s)\n", error_name(rc));
      if (status == 0) status = 2;
    }
  }
  JS_ShutDown();
  return status;
}

}  // namespace phaseloop::runner
