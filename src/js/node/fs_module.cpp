// SPDX-License-Identifier: MIT
// require('fs'): readFile, writeFile, stat, readdir and unlink, on
// phaseloop's fs requests (threadpool work completed in the poll phase).
//
// Each request's completion is one native callback (runtime::call), as each
// FSReqCallback completion is one MakeCallback in Node, and the operations
// make Node 20's round trips:
//   readFile   open, fstat, read until the size fstat gave is read (or, for
//              a size of 0, until a read returns 0 bytes), close
//   writeFile  open, write (again after a short write), close
//   stat, readdir (scandir), unlink: one request each
//
// Without an encoding readFile gives a Buffer (src/js/lib/buffer.js).

#include <fcntl.h>
#include <js/Array.h>
#include <js/CharacterEncoding.h>
#include <js/Conversions.h>
#include <js/Date.h>
#include <js/Exception.h>
#include <js/Object.h>
#include <js/experimental/TypedData.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "phaseloop/fs.hpp"
#include "js/bindings.hpp"
#include "js/node/engine.hpp"
#include "js/inspect.hpp"
#include "js/lib.hpp"

namespace phaseloop::runner {

enum class fs_kind : std::uint8_t { read_file, write_file, stat, readdir, unlink, mkdir, rmdir, rename, access, copy_file };

struct fs_op {
  engine* owner;
  fs_kind kind;
  phaseloop::fs_req req;
  JS::PersistentRootedObject callback;
  std::string path;
  std::string new_path;   // rename, copyFile: the destination
  std::vector<std::string> parents;  // mkdir recursive: directories still to make
  std::string first_made; // mkdir recursive: the first directory it made
  bool recursive = false; // mkdir
  std::string encoding;   // readFile: "" for a Buffer
  std::vector<char> data;  // what readFile read, or what writeFile writes
  std::size_t pos = 0;     // bytes read or written so far
  std::size_t size = 0;    // readFile: the size fstat gave (0: unknown)
  int fd = -1;
  int flags = 0;           // writeFile: open flags
  int mode = 0666;         // writeFile: open mode
  int error = 0;           // an error to report once the file is closed
  const char* error_syscall = nullptr;
  detail::link<fs_op> node;

  fs_op(JSContext* cx, engine* e, fs_kind k) : owner(e), kind(k), callback(cx) {}
};

void engine::adopt(fs_op& op) noexcept { fs_ops_.push_back(&op); }

void release_fs_op(fs_op& op) noexcept { op.callback.reset(); }

void engine::forget(fs_op& op) noexcept {
  for (auto it = fs_ops_.begin(); it != fs_ops_.end(); ++it) {
    if (*it == &op) {
      fs_ops_.erase(it);
      return;
    }
  }
}

namespace {

// Node reads a file of known size in chunks of this many bytes, and one of
// unknown size (size 0) in chunks of the other.
constexpr std::size_t read_chunk = 512 * 1024;
constexpr std::size_t unknown_chunk = 64 * 1024;

// ---- errors and values ---------------------------------------------------------------

// Node's uvException: "ENOENT: no such file or directory, open '/x'" with
// errno, code, syscall and path.
JSObject* uv_error(JSContext* cx, int code, const char* syscall, const std::string* path,
                   const std::string* dest = nullptr) {
  const char* name = error_name(code);
  const char* text = error_message(code);
  std::string msg = std::string(name ? name : "UNKNOWN") + ": " + (text ? text : "unknown error") + ", " + syscall;
  if (path != nullptr) msg += " '" + *path + "'";
  if (dest != nullptr) msg += " -> '" + *dest + "'";
  JS::RootedObject global(cx, JS::CurrentGlobalOrNull(cx));
  JS::RootedValue ctor(cx);
  JS::RootedString m(cx, JS_NewStringCopyN(cx, msg.data(), msg.size()));
  if (!m || !JS_GetProperty(cx, global, "Error", &ctor)) return nullptr;
  JS::RootedValueArray<1> argv(cx);
  argv[0].setString(m);
  JS::RootedObject err(cx);
  if (!JS::Construct(cx, ctor, argv, &err)) return nullptr;
  JS::RootedString code_s(cx, JS_NewStringCopyZ(cx, name ? name : "UNKNOWN"));
  JS::RootedString sys_s(cx, JS_NewStringCopyZ(cx, syscall));
  if (!code_s || !sys_s || !JS_DefineProperty(cx, err, "errno", code, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, err, "code", code_s, JSPROP_ENUMERATE) ||
      !JS_DefineProperty(cx, err, "syscall", sys_s, JSPROP_ENUMERATE)) {
    return nullptr;
  }
  if (path != nullptr) {
    JS::RootedString p(cx, JS_NewStringCopyN(cx, path->data(), path->size()));
    if (!p || !JS_DefineProperty(cx, err, "path", p, JSPROP_ENUMERATE)) return nullptr;
  }
  if (dest != nullptr) {
    JS::RootedString d(cx, JS_NewStringCopyN(cx, dest->data(), dest->size()));
    if (!d || !JS_DefineProperty(cx, err, "dest", d, JSPROP_ENUMERATE)) return nullptr;
  }
  return err;
}

JSString* utf8_string(JSContext* cx, const char* p, std::size_t n) {
  std::size_t len = 0;
  JS::TwoByteCharsZ chars = JS::LossyUTF8CharsToNewTwoByteCharsZ(cx, JS::UTF8Chars(p, n), &len, js::MallocArena);
  if (!chars) return nullptr;
  return JS_NewUCString(cx, JS::UniqueTwoByteChars(chars.get()), len);
}

bool known_encoding(const std::string& e) {
  return e == "utf8" || e == "utf-8" || e == "latin1" || e == "binary" || e == "ascii" || e == "hex" ||
         e == "base64";
}

// Bytes as a JS string in `encoding` (one of known_encoding()).
JSString* decode(JSContext* cx, const char* p, std::size_t n, const std::string& encoding) {
  if (encoding == "utf8" || encoding == "utf-8") return utf8_string(cx, p, n);
  std::u16string s;
  if (encoding == "hex") {
    static const char digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < n; i++) {
      const auto b = static_cast<unsigned char>(p[i]);
      s += static_cast<char16_t>(digits[b >> 4]);
      s += static_cast<char16_t>(digits[b & 15]);
    }
  } else if (encoding == "base64") {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (std::size_t i = 0; i < n; i += 3) {
      const unsigned b0 = static_cast<unsigned char>(p[i]);
      const unsigned b1 = i + 1 < n ? static_cast<unsigned char>(p[i + 1]) : 0;
      const unsigned b2 = i + 2 < n ? static_cast<unsigned char>(p[i + 2]) : 0;
      s += static_cast<char16_t>(table[b0 >> 2]);
      s += static_cast<char16_t>(table[((b0 & 3) << 4) | (b1 >> 4)]);
      s += i + 1 < n ? static_cast<char16_t>(table[((b1 & 15) << 2) | (b2 >> 6)]) : u'=';
      s += i + 2 < n ? static_cast<char16_t>(table[b2 & 63]) : u'=';
    }
  } else {
    const unsigned mask = encoding == "ascii" ? 0x7f : 0xff;
    for (std::size_t i = 0; i < n; i++) s += static_cast<char16_t>(static_cast<unsigned char>(p[i]) & mask);
  }
  return JS_NewUCStringCopyN(cx, s.data(), s.size());
}

// The bytes of a Uint8Array (or any ArrayBuffer view); false if not one.
bool view_bytes(JSObject* obj, std::vector<char>& out) {
  std::size_t len = 0;
  bool shared = false;
  uint8_t* data = nullptr;
  if (JS_GetObjectAsArrayBufferView(obj, &len, &shared, &data) == nullptr) return false;
  out.assign(reinterpret_cast<char*>(data), reinterpret_cast<char*>(data) + len);
  return true;
}

// readFile's result without an encoding: a Uint8Array with Buffer's
// prototype.
JSObject* make_buffer(engine& e, const std::vector<char>& bytes) {
  JSContext* cx = e.cx();
  JS::RootedObject arr(cx, JS_NewUint8Array(cx, bytes.size()));
  if (!arr) return nullptr;
  std::size_t len = 0;
  bool shared = false;
  uint8_t* data = nullptr;
  if (JS_GetObjectAsArrayBufferView(arr, &len, &shared, &data) == nullptr) return nullptr;
  std::copy(bytes.begin(), bytes.end(), data);
  JS::RootedObject proto(cx, e.get_proto(proto::buffer));
  if (!JS_SetPrototype(cx, arr, proto)) return nullptr;
  return arr;
}

bool encoding_arg(JSContext* cx, JS::HandleValue v, std::string& enc, bool& ok) {
  ok = true;
  if (v.isUndefined() || v.isNull()) return true;
  if (!value_to_utf8(cx, v, enc)) return false;
  for (char& c : enc) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  ok = known_encoding(enc);
  return true;
}

bool unknown_encoding(JSContext* cx, const std::string& enc) {
  JS_ReportErrorUTF8(cx, "phaseloop: encoding '%s' is not supported (utf8, latin1, ascii, hex, base64)",
                     enc.c_str());
  return false;
}

// ---- Stats ---------------------------------------------------------------------------------

bool stats_mode(JSContext* cx, const JS::CallArgs& args, unsigned& mode) {
  if (!args.thisv().isObject()) return false;
  JS::RootedObject self(cx, &args.thisv().toObject());
  JS::RootedValue m(cx);
  if (!JS_GetProperty(cx, self, "mode", &m)) return false;
  mode = m.isNumber() ? static_cast<unsigned>(m.toNumber()) : 0;
  return true;
}

template <unsigned Type>
bool stats_is(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  unsigned mode = 0;
  if (!stats_mode(cx, args, mode)) return false;
  args.rval().setBoolean((mode & S_IFMT) == Type);
  return true;
}

const JSFunctionSpec stats_methods[] = {
    JS_FN("isFile", stats_is<S_IFREG>, 0, 0),
    JS_FN("isDirectory", stats_is<S_IFDIR>, 0, 0),
    JS_FN("isSymbolicLink", stats_is<S_IFLNK>, 0, 0),
    JS_FN("isFIFO", stats_is<S_IFIFO>, 0, 0),
    JS_FN("isSocket", stats_is<S_IFSOCK>, 0, 0),
    JS_FN("isCharacterDevice", stats_is<S_IFCHR>, 0, 0),
    JS_FN("isBlockDevice", stats_is<S_IFBLK>, 0, 0),
    JS_FS_END};

JSObject* make_stats(engine& e, const phaseloop::fs_stat& st) {
  JSContext* cx = e.cx();
  JS::RootedObject proto(cx, e.get_proto(proto::stats));
  JS::RootedObject s(cx, JS_NewObjectWithGivenProto(cx, nullptr, proto));
  if (!s) return nullptr;
  const struct {
    const char* name;
    double value;
  } fields[] = {
      {"dev", static_cast<double>(st.st_dev)},         {"mode", static_cast<double>(st.st_mode)},
      {"nlink", static_cast<double>(st.st_nlink)},     {"uid", static_cast<double>(st.st_uid)},
      {"gid", static_cast<double>(st.st_gid)},         {"rdev", static_cast<double>(st.st_rdev)},
      {"blksize", static_cast<double>(st.st_blksize)}, {"ino", static_cast<double>(st.st_ino)},
      {"size", static_cast<double>(st.st_size)},       {"blocks", static_cast<double>(st.st_blocks)},
  };
  for (const auto& f : fields) {
    JS::RootedValue v(cx, JS::NumberValue(f.value));
    if (!JS_DefineProperty(cx, s, f.name, v, JSPROP_ENUMERATE)) return nullptr;
  }
  const struct {
    const char* ms;
    const char* date;
    const phaseloop::fs_timespec& t;
  } times[] = {{"atimeMs", "atime", st.st_atim},
               {"mtimeMs", "mtime", st.st_mtim},
               {"ctimeMs", "ctime", st.st_ctim},
               {"birthtimeMs", "birthtime", st.st_birthtim}};
  for (const auto& t : times) {
    const double ms = static_cast<double>(t.t.tv_sec) * 1e3 + static_cast<double>(t.t.tv_nsec) / 1e6;
    JS::RootedValue v(cx, JS::NumberValue(ms));
    JS::RootedObject date(cx, JS::NewDateObject(cx, JS::TimeClip(std::floor(ms))));
    if (!date || !JS_DefineProperty(cx, s, t.ms, v, JSPROP_ENUMERATE) ||
        !JS_DefineProperty(cx, s, t.date, date, JSPROP_ENUMERATE)) {
      return nullptr;
    }
  }
  return s;
}

// ---- running an operation ----------------------------------------------------------------

const char* label_of(const fs_op& op) {
  switch (op.kind) {
    case fs_kind::read_file: return "fs.readFile";
    case fs_kind::write_file: return "fs.writeFile";
    case fs_kind::stat: return "fs.stat";
    case fs_kind::readdir: return "fs.readdir";
    case fs_kind::unlink: return "fs.unlink";
    case fs_kind::mkdir: return "fs.mkdir";
    case fs_kind::rmdir: return "fs.rmdir";
    case fs_kind::rename: return "fs.rename";
    case fs_kind::access: return "fs.access";
    case fs_kind::copy_file: return "fs.copyFile";
  }
  return "fs";
}

void step(void* arg);

// Every completion: one native callback, then on to the next step.
void completed(phaseloop::fs_req* r) {
  auto* op = static_cast<fs_op*>(r->data);
  // A callback that threw (an 'uncaughtException' listener took it) is a
  // failed native callback: no drain after it, as in Node.
  op->owner->rt().call({step, op}, label_of(*op), false);
}

// Calls the user's callback with (error) or (null, value) and frees `op`.
void finish(fs_op* op, JS::HandleValue error, JS::HandleValue value) {
  engine& e = *op->owner;
  JSContext* cx = e.cx();
  JS::RootedValue cb(cx, JS::ObjectValue(*op->callback));
  JS::RootedValueVector argv(cx);
  const bool ok = argv.append(error) && (value.isUndefined() || argv.append(value));
  e.forget(*op);
  delete op;
  JS::RootedObject args(cx, ok ? JS::NewArrayObject(cx, argv) : nullptr);
  if (!args) e.die_uncaught();
  e.call_or_die(JS::UndefinedHandleValue, cb, args);
}

void fail(fs_op* op, int code, const char* syscall, bool with_path) {
  JSContext* cx = op->owner->cx();
  JS::RootedObject err(cx, uv_error(cx, code, syscall, with_path ? &op->path : nullptr));
  if (!err) op->owner->die_uncaught();
  JS::RootedValue ev(cx, JS::ObjectValue(*err));
  finish(op, ev, JS::UndefinedHandleValue);
}

void start_read(fs_op* op) {
  const std::size_t chunk = op->size == 0 ? unknown_chunk : std::min(read_chunk, op->size - op->pos);
  if (op->data.size() < op->pos + chunk) op->data.resize(op->pos + chunk);
  const phaseloop::fs_buf buf{op->data.data() + op->pos, chunk};
  op->req.read(&op->owner->owner(), op->fd, &buf, 1, -1, completed);
}

void start_close(fs_op* op) { op->req.close(&op->owner->owner(), op->fd, completed); }

// A completion of readFile or writeFile, by the request that completed.
void file_step(fs_op* op) {
  engine& e = *op->owner;
  JSContext* cx = e.cx();
  phaseloop::fs_req& r = op->req;
  const auto result = static_cast<long long>(r.result());
  switch (r.operation()) {
    case fs_type::open:
      if (result < 0) return fail(op, static_cast<int>(result), "open", true);
      op->fd = static_cast<int>(result);
      if (op->kind == fs_kind::read_file) {
        r.fstat(&e.owner(), op->fd, completed);
      } else {
        const phaseloop::fs_buf buf{op->data.data(), op->data.size()};
        r.write(&e.owner(), op->fd, &buf, 1, -1, completed);
      }
      return;
    case fs_type::fstat:
      if (result < 0) {
        op->error = static_cast<int>(result);
        op->error_syscall = "fstat";
        return start_close(op);
      }
      op->size = S_ISREG(r.statbuf().st_mode) ? r.statbuf().st_size : 0;
      return start_read(op);
    case fs_type::read:
      if (result < 0) {
        op->error = static_cast<int>(result);
        op->error_syscall = "read";
        return start_close(op);
      }
      op->pos += static_cast<std::size_t>(result);
      if (result == 0 || op->pos == op->size) {
        op->data.resize(op->pos);
        return start_close(op);
      }
      return start_read(op);
    case fs_type::write:
      if (result < 0) {
        op->error = static_cast<int>(result);
        op->error_syscall = "write";
        return start_close(op);
      }
      op->pos += static_cast<std::size_t>(result);
      if (op->pos < op->data.size()) {
        const phaseloop::fs_buf buf{op->data.data() + op->pos, op->data.size() - op->pos};
        r.write(&e.owner(), op->fd, &buf, 1, -1, completed);
        return;
      }
      return start_close(op);
    case fs_type::close: {
      if (op->error != 0) return fail(op, op->error, op->error_syscall, false);
      if (result < 0) return fail(op, static_cast<int>(result), "close", false);
      if (op->kind == fs_kind::write_file) {
        JS::RootedValue null(cx, JS::NullValue());
        return finish(op, null, JS::UndefinedHandleValue);
      }
      JS::RootedValue v(cx);
      if (op->encoding.empty()) {
        JSObject* buf = make_buffer(e, op->data);
        if (buf == nullptr) e.die_uncaught();
        v.setObject(*buf);
      } else {
        JSString* s = decode(cx, op->data.data(), op->data.size(), op->encoding);
        if (s == nullptr) e.die_uncaught();
        v.setString(s);
      }
      JS::RootedValue null(cx, JS::NullValue());
      return finish(op, null, v);
    }
    default:
      return fail(op, errc::invalid, "read", false);
  }
}

const char* first_syscall(const fs_op& op);

// rename's and copyFile's errors name both paths: "ENOENT: ..., rename
// 'a' -> 'b'".
void fail_rename(fs_op* op, int code) {
  JSContext* cx = op->owner->cx();
  JS::RootedObject err(cx, uv_error(cx, code, op->kind == fs_kind::rename ? "rename" : "copyfile", &op->path,
                                    &op->new_path));
  if (!err) op->owner->die_uncaught();
  JS::RootedValue ev(cx, JS::ObjectValue(*err));
  finish(op, ev, JS::UndefinedHandleValue);
}

// The directory that holds `path` ("" at the top).
std::string parent_of(const std::string& path) {
  std::size_t end = path.size();
  while (end > 1 && path[end - 1] == '/') end--;
  const std::size_t slash = path.rfind('/', end - 1);
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// One mkdir request of fs.mkdir. Recursive, as Node's MKDirpAsync: a
// directory whose parent is missing (ENOENT) waits while the parent is
// made first; one that exists (EEXIST) is fine if it is a directory.
void mkdir_step(fs_op* op) {
  engine& e = *op->owner;
  JSContext* cx = e.cx();
  phaseloop::fs_req& r = op->req;
  const int result = static_cast<int>(r.result());
  JS::RootedValue null(cx, JS::NullValue());
  if (r.operation() == fs_type::stat) {
    // After EEXIST: a directory is fine, anything else is EEXIST.
    if (result < 0 || !S_ISDIR(r.statbuf().st_mode)) {
      op->path = op->parents.back();
      return fail(op, PHASELOOP_EEXIST, "mkdir", true);
    }
    op->parents.pop_back();
  } else if (!op->recursive) {
    if (result < 0) return fail(op, result, "mkdir", true);
    return finish(op, null, JS::UndefinedHandleValue);
  } else if (result == PHASELOOP_ENOENT && !parent_of(op->parents.back()).empty() &&
             op->parents.size() < 4096) {
    op->parents.push_back(parent_of(op->parents.back()));
  } else if (result == PHASELOOP_EEXIST) {
    r.cleanup();
    r.stat(&e.owner(), op->parents.back().c_str(), completed);
    return;
  } else if (result < 0) {
    op->path = op->parents.back();
    return fail(op, result, "mkdir", true);
  } else {
    if (op->first_made.empty()) op->first_made = op->parents.back();
    op->parents.pop_back();
  }
  if (op->parents.empty()) {
    // Node 13.11+ gives the first directory made (undefined if none).
    if (op->first_made.empty() || e.mode() != node::mode::current) return finish(op, null, JS::UndefinedHandleValue);
    JS::RootedValue first(cx, JS::StringValue(utf8_string(cx, op->first_made.data(), op->first_made.size())));
    if (first.toString() == nullptr) e.die_uncaught();
    return finish(op, null, first);
  }
  r.cleanup();
  r.mkdir(&e.owner(), op->parents.back().c_str(), op->mode, completed);
}

void step(void* arg) {
  auto* op = static_cast<fs_op*>(arg);
  engine& e = *op->owner;
  JSContext* cx = e.cx();
  phaseloop::fs_req& r = op->req;
  const auto result = static_cast<long long>(r.result());
  JS::RootedValue null(cx, JS::NullValue());
  switch (op->kind) {
    case fs_kind::read_file:
    case fs_kind::write_file:
      return file_step(op);
    case fs_kind::stat: {
      if (result < 0) return fail(op, static_cast<int>(result), "stat", true);
      JSObject* s = make_stats(e, r.statbuf());
      if (s == nullptr) e.die_uncaught();
      JS::RootedValue v(cx, JS::ObjectValue(*s));
      return finish(op, null, v);
    }
    case fs_kind::readdir: {
      if (result < 0) return fail(op, static_cast<int>(result), "scandir", true);
      JS::RootedValueVector names(cx);
      phaseloop::fs_dirent ent{};
      while (r.scandir_next(ent) == 0) {
        JSString* n = utf8_string(cx, ent.name, std::strlen(ent.name));
        if (n == nullptr || !names.append(JS::StringValue(n))) e.die_uncaught();
      }
      JS::RootedObject arr(cx, JS::NewArrayObject(cx, names));
      if (!arr) e.die_uncaught();
      JS::RootedValue v(cx, JS::ObjectValue(*arr));
      return finish(op, null, v);
    }
    case fs_kind::unlink:
    case fs_kind::rmdir:
    case fs_kind::access:
      if (result < 0) return fail(op, static_cast<int>(result), first_syscall(*op), true);
      return finish(op, null, JS::UndefinedHandleValue);
    case fs_kind::rename:
    case fs_kind::copy_file:
      if (result < 0) return fail_rename(op, static_cast<int>(result));
      return finish(op, null, JS::UndefinedHandleValue);
    case fs_kind::mkdir:
      return mkdir_step(op);
  }
}

// ---- the JS functions ------------------------------------------------------------------------

// Where Node takes an fs function's callback from: argument `at`
// (unlink, rename); argument `at`, or the options before it when they are
// falsy -- `callback ||= options` (readFile, writeFile, appendFile); the
// options when they are a function, else argument `at` (stat, readdir,
// mkdir, rmdir, access). A bad callback's error shows that value.
enum class cb_rule { fixed, or_options, options_if_function };

bool is_function(JS::HandleValue v) { return v.isObject() && JS::IsCallable(&v.toObject()); }

// The path (a string) and the callback, taken as Node takes it.
bool common_args(JSContext* cx, const JS::CallArgs& args, cb_rule rule, unsigned at, std::string& path,
                 JS::MutableHandleObject cb) {
  JS::HandleValue cand = rule == cb_rule::or_options && !JS::ToBoolean(args.get(at))          ? args.get(at - 1)
                         : rule == cb_rule::options_if_function && is_function(args.get(at - 1)) ? args.get(at - 1)
                                                                                                  : args.get(at);
  if (!is_function(cand)) return throw_callback_type(cx, "cb", cand);
  cb.set(&cand.toObject());
  if (!args.get(0).isString()) {
    JS_ReportErrorASCII(cx, "The \"path\" argument must be of type string");
    return false;
  }
  return value_to_utf8(cx, args[0], path);
}

fs_op* new_op(engine& e, fs_kind k, const std::string& path, JS::HandleObject cb) {
  auto* op = new fs_op(e.cx(), &e, k);
  op->path = path;
  op->callback = cb;
  op->req.data = op;
  e.adopt(*op);
  return op;
}

const char* first_syscall(const fs_op& op) {
  switch (op.kind) {
    case fs_kind::read_file:
    case fs_kind::write_file: return "open";
    case fs_kind::stat: return "stat";
    case fs_kind::readdir: return "scandir";
    case fs_kind::unlink: return "unlink";
    case fs_kind::mkdir: return "mkdir";
    case fs_kind::rmdir: return "rmdir";
    case fs_kind::rename: return "rename";
    case fs_kind::access: return "access";
    case fs_kind::copy_file: return "copyfile";
  }
  return "open";
}

// Whether the first request started; if not, it throws (as Node's
// bindings throw for arguments they refuse).
bool started(fs_op* op, int rc) {
  if (rc >= 0) return true;
  JSContext* cx = op->owner->cx();
  JS::RootedObject err(cx, uv_error(cx, rc, first_syscall(*op), &op->path));
  op->owner->forget(*op);
  delete op;
  if (!err) return false;
  JS::RootedValue v(cx, JS::ObjectValue(*err));
  JS_SetPendingException(cx, v);
  return false;
}

// Options of the file functions: an encoding string or { encoding, flag,
// mode }.
bool file_options(JSContext* cx, JS::HandleValue o, std::string& encoding, std::string& flag, int& mode) {
  bool ok = true;
  if (o.isString()) {
    if (!encoding_arg(cx, o, encoding, ok)) return false;
  } else if (o.isObject()) {
    JS::RootedObject obj(cx, &o.toObject());
    JS::RootedValue enc(cx), fl(cx), md(cx);
    if (!JS_GetProperty(cx, obj, "encoding", &enc) || !JS_GetProperty(cx, obj, "flag", &fl) ||
        !JS_GetProperty(cx, obj, "mode", &md) || !encoding_arg(cx, enc, encoding, ok)) {
      return false;
    }
    if (fl.isString() && !value_to_utf8(cx, fl, flag)) return false;
    if (md.isNumber()) mode = static_cast<int>(md.toNumber());
  }
  if (!ok) return unknown_encoding(cx, encoding);
  return true;
}

bool open_flags(const std::string& flag, int& out);

// The open(2) flags of a flag string; false with an error pending.
bool flags_of(JSContext* cx, const std::string& flag, int& out) {
  if (open_flags(flag, out)) return true;
  JS_ReportErrorUTF8(cx, "phaseloop: unsupported flag '%s'", flag.c_str());
  return false;
}

// An options argument between the path and the callback.
bool options_arg(JSContext* cx, const JS::CallArgs& args, unsigned index, std::string& encoding,
                 std::string& flag, int& mode) {
  if (args.length() <= index + 1) return true;
  return file_options(cx, args[index], encoding, flag, mode);
}

bool open_flags(const std::string& flag, int& out) {
  static const struct {
    const char* name;
    int flags;
  } table[] = {{"r", O_RDONLY},
               {"r+", O_RDWR},
               {"w", O_TRUNC | O_CREAT | O_WRONLY},
               {"wx", O_TRUNC | O_CREAT | O_WRONLY | O_EXCL},
               {"w+", O_TRUNC | O_CREAT | O_RDWR},
               {"a", O_APPEND | O_CREAT | O_WRONLY},
               {"ax", O_APPEND | O_CREAT | O_WRONLY | O_EXCL},
               {"a+", O_APPEND | O_CREAT | O_RDWR}};
  for (const auto& t : table) {
    if (flag == t.name) {
      out = t.flags;
      return true;
    }
  }
  return false;
}

bool fs_read_file(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, encoding, flag = "r";
  int mode = 0666;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::or_options, 2, path, &cb) || !options_arg(cx, args, 1, encoding, flag, mode))
    return false;
  int flags = 0;
  if (!flags_of(cx, flag, flags)) return false;
  fs_op* op = new_op(e, fs_kind::read_file, path, cb);
  op->encoding = encoding;
  args.rval().setUndefined();
  return started(op, op->req.open(&e.owner(), op->path.c_str(), flags, 0666, completed));
}

// What writeFile writes: a Buffer's (any view's) bytes, or a string's
// UTF-8 (anything else converted to a string, unless `strict`: Node 20).
bool data_bytes(JSContext* cx, JS::HandleValue data, bool strict, std::vector<char>& bytes) {
  if (data.isObject() && view_bytes(&data.toObject(), bytes)) return true;
  if (strict && !data.isString()) {
    JS_ReportErrorASCII(cx, "The \"data\" argument must be of type string or an instance of Buffer, "
                            "TypedArray, or DataView");
    return false;
  }
  std::string s;
  if (!value_to_utf8(cx, data, s)) return false;
  bytes.assign(s.begin(), s.end());
  return true;
}

bool write_file(JSContext* cx, const JS::CallArgs& args, const char* default_flag) {
  engine& e = engine::from(cx);
  std::string path, encoding, flag = default_flag;
  int mode = 0666;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::or_options, 3, path, &cb) || !options_arg(cx, args, 2, encoding, flag, mode))
    return false;
  int flags = 0;
  if (!flags_of(cx, flag, flags)) return false;
  std::vector<char> bytes;
  if (!data_bytes(cx, args[1], e.mode() == node::mode::current, bytes)) return false;
  fs_op* op = new_op(e, fs_kind::write_file, path, cb);
  op->data = std::move(bytes);
  op->flags = flags;
  op->mode = mode;
  args.rval().setUndefined();
  return started(op, op->req.open(&e.owner(), op->path.c_str(), flags, mode, completed));
}

bool fs_write_file(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  return write_file(cx, args, "w");
}

bool fs_stat(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::options_if_function, 2, path, &cb)) return false;
  fs_op* op = new_op(e, fs_kind::stat, path, cb);
  args.rval().setUndefined();
  return started(op, op->req.stat(&e.owner(), op->path.c_str(), completed));
}

bool fs_readdir(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::options_if_function, 2, path, &cb)) return false;
  if (args.length() > 2 && args[1].isObject()) {
    JS::RootedObject o(cx, &args[1].toObject());
    JS::RootedValue types(cx);
    if (!JS_GetProperty(cx, o, "withFileTypes", &types)) return false;
    if (JS::ToBoolean(types)) {
      JS_ReportErrorASCII(cx, "phaseloop: readdir's withFileTypes is not supported");
      return false;
    }
  }
  fs_op* op = new_op(e, fs_kind::readdir, path, cb);
  args.rval().setUndefined();
  return started(op, op->req.scandir(&e.owner(), op->path.c_str(), 0, completed));
}

bool fs_unlink(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::fixed, 1, path, &cb)) return false;
  fs_op* op = new_op(e, fs_kind::unlink, path, cb);
  args.rval().setUndefined();
  return started(op, op->req.unlink(&e.owner(), op->path.c_str(), completed));
}

// A single-request operation of one path: fs.rmdir, fs.access.
bool one_path_op(JSContext* cx, unsigned argc, JS::Value* vp, fs_kind k) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::options_if_function, 2, path, &cb)) return false;
  fs_op* op = new_op(e, k, path, cb);
  args.rval().setUndefined();
  if (k == fs_kind::rmdir) return started(op, op->req.rmdir(&e.owner(), op->path.c_str(), completed));
  int mode = F_OK;
  if (args.length() > 2 && args[1].isNumber()) mode = static_cast<int>(args[1].toNumber());
  return started(op, op->req.access(&e.owner(), op->path.c_str(), mode, completed));
}

bool fs_rmdir(JSContext* cx, unsigned argc, JS::Value* vp) { return one_path_op(cx, argc, vp, fs_kind::rmdir); }
bool fs_access(JSContext* cx, unsigned argc, JS::Value* vp) { return one_path_op(cx, argc, vp, fs_kind::access); }

// fs.mkdir(path[, options], cb): options a mode or { recursive, mode }.
bool mkdir_options(JSContext* cx, JS::HandleValue o, bool& recursive, int& mode) {
  if (o.isNumber()) {
    mode = static_cast<int>(o.toNumber());
  } else if (o.isObject()) {
    JS::RootedObject obj(cx, &o.toObject());
    JS::RootedValue rec(cx), md(cx);
    if (!JS_GetProperty(cx, obj, "recursive", &rec) || !JS_GetProperty(cx, obj, "mode", &md)) return false;
    recursive = JS::ToBoolean(rec);
    if (md.isNumber()) mode = static_cast<int>(md.toNumber());
  }
  return true;
}

bool fs_mkdir(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::options_if_function, 2, path, &cb)) return false;
  bool recursive = false;
  int mode = 0777;
  if (args.length() > 2 && !mkdir_options(cx, args[1], recursive, mode)) return false;
  fs_op* op = new_op(e, fs_kind::mkdir, path, cb);
  op->recursive = recursive;
  op->mode = mode;
  op->parents.push_back(path);
  args.rval().setUndefined();
  return started(op, op->req.mkdir(&e.owner(), op->path.c_str(), mode, completed));
}

bool fs_rename(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, dest;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::fixed, 2, path, &cb)) return false;
  if (!args[1].isString()) {
    JS_ReportErrorASCII(cx, "The \"newPath\" argument must be of type string");
    return false;
  }
  if (!value_to_utf8(cx, args[1], dest)) return false;
  fs_op* op = new_op(e, fs_kind::rename, path, cb);
  op->new_path = dest;
  args.rval().setUndefined();
  return started(op, op->req.rename(&e.owner(), op->path.c_str(), op->new_path.c_str(), completed));
}

// fs.copyFile(src, dest[, mode], callback): one request (libuv's
// copyfile), mode its flags (fs.constants.COPYFILE_*, the same numbers).
bool copy_file_args(JSContext* cx, const JS::CallArgs& args, std::string& dest, int& mode) {
  if (!args.get(1).isString()) {
    JS_ReportErrorASCII(cx, "The \"dest\" argument must be of type string");
    return false;
  }
  if (!value_to_utf8(cx, args[1], dest)) return false;
  mode = 0;
  if (args.length() > 3 || (args.length() == 3 && !is_function(args[2]))) {
    if (!args[2].isInt32() || args[2].toInt32() < 0 || args[2].toInt32() > 7) {
      JS_ReportErrorASCII(cx, "The value of \"mode\" is out of range. It must be an integer >= 0 && <= 7");
      return false;
    }
    mode = args[2].toInt32();
  }
  return true;
}

bool fs_copy_file(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, dest;
  JS::RootedObject cb(cx);
  if (!common_args(cx, args, cb_rule::options_if_function, 3, path, &cb)) return false;
  int mode = 0;
  if (!copy_file_args(cx, args, dest, mode)) return false;
  fs_op* op = new_op(e, fs_kind::copy_file, path, cb);
  op->new_path = dest;
  args.rval().setUndefined();
  return started(op, op->req.copyfile(&e.owner(), op->path.c_str(), op->new_path.c_str(), mode, completed));
}

// fs.appendFile: writeFile whose flag is 'a' unless the options say.
bool fs_append_file(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  return write_file(cx, args, "a");
}

// ---- the synchronous functions ------------------------------------------------------------
//
// Each runs phaseloop's fs requests without a callback (synchronously, on
// this thread) and throws Node's uvException when one fails.

bool throw_uv(JSContext* cx, int code, const char* syscall, const std::string& path,
              const std::string* dest = nullptr) {
  JS::RootedObject err(cx, uv_error(cx, code, syscall, &path, dest));
  if (!err) return false;
  JS::RootedValue v(cx, JS::ObjectValue(*err));
  JS_SetPendingException(cx, v);
  return false;
}

bool sync_path(JSContext* cx, const JS::CallArgs& args, unsigned index, const char* name, std::string& path) {
  if (!args.get(index).isString()) {
    return throw_error(cx, "TypeError",
                       std::string("The \"") + name + "\" argument must be of type string", "ERR_INVALID_ARG_TYPE");
  }
  return value_to_utf8(cx, args[index], path);
}

bool fs_read_file_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, encoding, flag = "r";
  int mode = 0666, flags = 0;
  if (!sync_path(cx, args, 0, "path", path) || !file_options(cx, args.get(1), encoding, flag, mode)) return false;
  if (!flags_of(cx, flag, flags)) return false;
  phaseloop::fs_req r;
  const int fd = r.open(&e.owner(), path.c_str(), flags, mode, nullptr);
  r.cleanup();
  if (fd < 0) return throw_uv(cx, fd, "open", path);
  std::vector<char> data;
  int error = 0;
  const char* syscall = nullptr;
  std::size_t size = 0;
  if (const int rc = r.fstat(&e.owner(), fd, nullptr); rc < 0) {
    error = rc;
    syscall = "fstat";
  } else if (S_ISREG(r.statbuf().st_mode)) {
    size = static_cast<std::size_t>(r.statbuf().st_size);
  }
  r.cleanup();
  std::size_t pos = 0;
  while (error == 0) {
    const std::size_t chunk = size == 0 ? unknown_chunk : std::min(read_chunk, size - pos);
    if (chunk == 0) break;
    data.resize(pos + chunk);
    const phaseloop::fs_buf buf{data.data() + pos, chunk};
    const int n = r.read(&e.owner(), fd, &buf, 1, -1, nullptr);
    r.cleanup();
    if (n < 0) {
      error = n;
      syscall = "read";
    } else if (n == 0) {
      break;
    } else {
      pos += static_cast<std::size_t>(n);
    }
  }
  data.resize(pos);
  r.close(&e.owner(), fd, nullptr);
  r.cleanup();
  if (error != 0) return throw_uv(cx, error, syscall, path);
  if (encoding.empty()) {
    JSObject* buf = make_buffer(e, data);
    if (buf == nullptr) return false;
    args.rval().setObject(*buf);
    return true;
  }
  JSString* str = decode(cx, data.data(), data.size(), encoding);
  if (str == nullptr) return false;
  args.rval().setString(str);
  return true;
}

bool write_file_sync(JSContext* cx, const JS::CallArgs& args, const char* default_flag) {
  engine& e = engine::from(cx);
  std::string path, encoding, flag = default_flag;
  int mode = 0666, flags = 0;
  if (!sync_path(cx, args, 0, "path", path) || !file_options(cx, args.get(2), encoding, flag, mode)) return false;
  if (!flags_of(cx, flag, flags)) return false;
  std::vector<char> bytes;
  if (!data_bytes(cx, args.get(1), false, bytes)) return false;
  phaseloop::fs_req r;
  const int fd = r.open(&e.owner(), path.c_str(), flags, mode, nullptr);
  r.cleanup();
  if (fd < 0) return throw_uv(cx, fd, "open", path);
  std::size_t pos = 0;
  int error = 0;
  while (pos < bytes.size()) {
    const phaseloop::fs_buf buf{bytes.data() + pos, bytes.size() - pos};
    const int n = r.write(&e.owner(), fd, &buf, 1, -1, nullptr);
    r.cleanup();
    if (n < 0) {
      error = n;
      break;
    }
    pos += static_cast<std::size_t>(n);
  }
  r.close(&e.owner(), fd, nullptr);
  r.cleanup();
  if (error != 0) return throw_uv(cx, error, "write", path);
  args.rval().setUndefined();
  return true;
}

bool fs_write_file_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  return write_file_sync(cx, JS::CallArgsFromVp(argc, vp), "w");
}

bool fs_append_file_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  return write_file_sync(cx, JS::CallArgsFromVp(argc, vp), "a");
}

bool fs_exists_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  std::string path;
  if (!args.get(0).isString() || !value_to_utf8(cx, args[0], path)) {
    JS_ClearPendingException(cx);
    args.rval().setBoolean(false);
    return true;
  }
  phaseloop::fs_req r;
  args.rval().setBoolean(r.access(&engine::from(cx).owner(), path.c_str(), F_OK, nullptr) == 0);
  r.cleanup();
  return true;
}

bool fs_stat_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  if (!sync_path(cx, args, 0, "path", path)) return false;
  bool throw_if_no_entry = true;
  // { throwIfNoEntry: false } came with Node 14.17.
  if (e.mode() == node::mode::current && args.get(1).isObject()) {
    JS::RootedObject o(cx, &args[1].toObject());
    JS::RootedValue v(cx);
    if (!JS_GetProperty(cx, o, "throwIfNoEntry", &v)) return false;
    if (!v.isUndefined()) throw_if_no_entry = JS::ToBoolean(v);
  }
  phaseloop::fs_req r;
  const int rc = r.stat(&e.owner(), path.c_str(), nullptr);
  r.cleanup();
  if (rc < 0) {
    if (rc == PHASELOOP_ENOENT && !throw_if_no_entry) {
      args.rval().setUndefined();
      return true;
    }
    return throw_uv(cx, rc, "stat", path);
  }
  JSObject* st = make_stats(e, r.statbuf());
  if (st == nullptr) return false;
  args.rval().setObject(*st);
  return true;
}

bool fs_readdir_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  if (!sync_path(cx, args, 0, "path", path)) return false;
  phaseloop::fs_req r;
  const int rc = r.scandir(&e.owner(), path.c_str(), 0, nullptr);
  if (rc < 0) {
    r.cleanup();
    return throw_uv(cx, rc, "scandir", path);
  }
  JS::RootedValueVector names(cx);
  phaseloop::fs_dirent ent{};
  bool ok = true;
  while (ok && r.scandir_next(ent) == 0) {
    JSString* n = utf8_string(cx, ent.name, std::strlen(ent.name));
    ok = n != nullptr && names.append(JS::StringValue(n));
  }
  r.cleanup();
  if (!ok) return false;
  JSObject* arr = JS::NewArrayObject(cx, names);
  if (arr == nullptr) return false;
  args.rval().setObject(*arr);
  return true;
}

bool fs_mkdir_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  bool recursive = false;
  int mode = 0777;
  if (!sync_path(cx, args, 0, "path", path) || !mkdir_options(cx, args.get(1), recursive, mode)) return false;
  phaseloop::fs_req r;
  if (!recursive) {
    const int rc = r.mkdir(&e.owner(), path.c_str(), mode, nullptr);
    r.cleanup();
    if (rc < 0) return throw_uv(cx, rc, "mkdir", path);
    args.rval().setUndefined();
    return true;
  }
  // As the asynchronous one (mkdir_step): parents first when missing.
  std::vector<std::string> todo{path};
  std::string first;
  while (!todo.empty()) {
    const int rc = r.mkdir(&e.owner(), todo.back().c_str(), mode, nullptr);
    r.cleanup();
    if (rc == PHASELOOP_ENOENT && !parent_of(todo.back()).empty() && todo.size() < 4096) {
      todo.push_back(parent_of(todo.back()));
      continue;
    }
    if (rc == PHASELOOP_EEXIST) {
      const int st = r.stat(&e.owner(), todo.back().c_str(), nullptr);
      r.cleanup();
      if (st < 0 || !S_ISDIR(r.statbuf().st_mode)) return throw_uv(cx, PHASELOOP_EEXIST, "mkdir", todo.back());
    } else if (rc < 0) {
      return throw_uv(cx, rc, "mkdir", todo.back());
    } else if (first.empty()) {
      first = todo.back();
    }
    todo.pop_back();
  }
  if (first.empty() || e.mode() != node::mode::current) {
    args.rval().setUndefined();
    return true;
  }
  JSString* f = utf8_string(cx, first.data(), first.size());
  if (f == nullptr) return false;
  args.rval().setString(f);
  return true;
}

// unlinkSync, rmdirSync, accessSync: one request of one path.
template <fs_type T>
bool fs_one_path_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path;
  if (!sync_path(cx, args, 0, "path", path)) return false;
  phaseloop::fs_req r;
  int rc = 0;
  const char* syscall = "unlink";
  if constexpr (T == fs_type::unlink) {
    rc = r.unlink(&e.owner(), path.c_str(), nullptr);
  } else if constexpr (T == fs_type::rmdir) {
    rc = r.rmdir(&e.owner(), path.c_str(), nullptr);
    syscall = "rmdir";
  } else {
    const int mode = args.get(1).isNumber() ? static_cast<int>(args[1].toNumber()) : F_OK;
    rc = r.access(&e.owner(), path.c_str(), mode, nullptr);
    syscall = "access";
  }
  r.cleanup();
  if (rc < 0) return throw_uv(cx, rc, syscall, path);
  args.rval().setUndefined();
  return true;
}

bool fs_copy_file_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, dest;
  int mode = 0;
  if (!sync_path(cx, args, 0, "src", path) || !copy_file_args(cx, args, dest, mode)) return false;
  phaseloop::fs_req r;
  const int rc = r.copyfile(&e.owner(), path.c_str(), dest.c_str(), mode, nullptr);
  r.cleanup();
  if (rc < 0) return throw_uv(cx, rc, "copyfile", path, &dest);
  args.rval().setUndefined();
  return true;
}

bool fs_rename_sync(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  engine& e = engine::from(cx);
  std::string path, dest;
  if (!sync_path(cx, args, 0, "oldPath", path) || !sync_path(cx, args, 1, "newPath", dest)) return false;
  phaseloop::fs_req r;
  const int rc = r.rename(&e.owner(), path.c_str(), dest.c_str(), nullptr);
  r.cleanup();
  if (rc < 0) return throw_uv(cx, rc, "rename", path, &dest);
  args.rval().setUndefined();
  return true;
}

// The operations of require('fs'), each as NAMESync and, where it has
// one, as NAME with a callback; the Sync forms are defined first, in this
// order, then the others.
struct fs_operation {
  const char* name;
  JSNative sync;
  unsigned sync_args;
  JSNative async;  // or null
  unsigned async_args;
};
constexpr fs_operation fs_operations[] = {
    {"readFile", fs_read_file_sync, 2, fs_read_file, 3},
    {"writeFile", fs_write_file_sync, 3, fs_write_file, 4},
    {"appendFile", fs_append_file_sync, 3, fs_append_file, 4},
    {"exists", fs_exists_sync, 1, nullptr, 0},
    {"stat", fs_stat_sync, 2, fs_stat, 2},
    {"readdir", fs_readdir_sync, 2, fs_readdir, 3},
    {"mkdir", fs_mkdir_sync, 2, fs_mkdir, 3},
    {"unlink", fs_one_path_sync<fs_type::unlink>, 1, fs_unlink, 2},
    {"rmdir", fs_one_path_sync<fs_type::rmdir>, 1, fs_rmdir, 2},
    {"access", fs_one_path_sync<fs_type::access>, 2, fs_access, 3},
    {"rename", fs_rename_sync, 2, fs_rename, 3},
    {"copyFile", fs_copy_file_sync, 3, fs_copy_file, 4},
};

bool define_fs_operations(JSContext* cx, JS::HandleObject fs) {
  for (const fs_operation& op : fs_operations) {
    const std::string name = std::string(op.name) + "Sync";
    if (!JS_DefineFunction(cx, fs, name.c_str(), op.sync, op.sync_args, JSPROP_ENUMERATE)) return false;
  }
  for (const fs_operation& op : fs_operations)
    if (op.async != nullptr && !JS_DefineFunction(cx, fs, op.name, op.async, op.async_args, JSPROP_ENUMERATE))
      return false;
  return true;
}

// fs.promises: loaded when first asked for.
bool fs_promises_getter(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  return require_lib(engine::from(cx), "fs/promises", args.rval());
}

}  // namespace

JSObject* make_fs_module(engine& e) {
  JSContext* cx = e.cx();
  if (JSObject* made = e.get_proto(proto::fs_module)) return made;
  // The files it reads are Buffers (src/js/lib/buffer.js).
  JS::RootedValue module(cx), ctor(cx), proto_v(cx);
  if (!require_lib(e, "buffer", &module) || !module.isObject()) return nullptr;
  JS::RootedObject module_obj(cx, &module.toObject());
  if (!JS_GetProperty(cx, module_obj, "Buffer", &ctor) || !ctor.isObject()) return nullptr;
  JS::RootedObject ctor_obj(cx, &ctor.toObject());
  if (!JS_GetProperty(cx, ctor_obj, "prototype", &proto_v) || !proto_v.isObject()) return nullptr;
  JS::RootedObject buffer(cx, &proto_v.toObject());
  JS::RootedObject stats(cx, named_proto(cx, "Stats", stats_methods));
  JS::RootedObject fs(cx, JS_NewPlainObject(cx));
  if (!buffer || !stats || !fs || !define_fs_operations(cx, fs)) return nullptr;
  JSFunction* getter = JS_NewFunction(cx, fs_promises_getter, 0, 0, "get promises");
  if (getter == nullptr) return nullptr;
  JS::RootedObject getter_obj(cx, JS_GetFunctionObject(getter));
  if (!JS_DefineProperty(cx, fs, "promises", getter_obj, nullptr, JSPROP_ENUMERATE)) return nullptr;
  e.set_proto(proto::buffer, buffer);
  e.set_proto(proto::stats, stats);
  e.set_proto(proto::fs_module, fs);
  return fs;
}

}  // namespace phaseloop::runner
