// SPDX-License-Identifier: MIT
// libuv's file system requests (uv_fs_*) over phaseloop::fs_req. Each call
// constructs the C++ request inside the caller's uv_fs_t (keeping `data`,
// as libuv's request init does) and forwards; the C++ object keeps
// libuv's public fields at libuv's offsets (checked below), so C programs
// read req->result, req->ptr, req->path and req->statbuf directly.

#include <cstddef>
#include <cstring>
#include <new>

#include "phaseloop/fs.hpp"
#include "api.hpp"
#include "shim.hpp"

namespace pl = phaseloop;
using phaseloop::compat::as;
using phaseloop::compat::as_ptr;
using phaseloop::compat::cb_cast;
using phaseloop::compat::construct;

// ---- layout: the C++ types are libuv's structs ----------------------------

// fs_req and fs_dir publish where they keep libuv's fields (c_layout()).
static_assert(sizeof(pl::fs_req) <= sizeof(uv_fs_t) && alignof(pl::fs_req) <= alignof(uv_fs_t));
static_assert(sizeof(pl::fs_stat) == sizeof(uv_stat_t));
static_assert(offsetof(pl::fs_stat, st_size) == offsetof(uv_stat_t, st_size));
static_assert(offsetof(pl::fs_stat, st_birthtim) == offsetof(uv_stat_t, st_birthtim));
static_assert(sizeof(pl::fs_timespec) == sizeof(uv_timespec_t));
static_assert(sizeof(pl::fs_statfs) == sizeof(uv_statfs_t));
static_assert(offsetof(pl::fs_statfs, f_spare) == offsetof(uv_statfs_t, f_spare));
static_assert(sizeof(pl::fs_buf) == sizeof(uv_buf_t));
static_assert(offsetof(pl::fs_buf, base) == offsetof(uv_buf_t, base));
static_assert(offsetof(pl::fs_buf, len) == offsetof(uv_buf_t, len));
static_assert(sizeof(pl::fs_dirent) == sizeof(uv_dirent_t));
static_assert(offsetof(pl::fs_dirent, type) == offsetof(uv_dirent_t, type));
static_assert(static_cast<int>(pl::fs_type::lutime) == UV_FS_LUTIME);
static_assert(static_cast<int>(pl::fs_type::unknown) == UV_FS_UNKNOWN);
static_assert(static_cast<int>(pl::fs_dirent_type::block_device) == UV_DIRENT_BLOCK);
static_assert(pl::fs_copyfile_excl == UV_FS_COPYFILE_EXCL);
static_assert(pl::fs_copyfile_ficlone == UV_FS_COPYFILE_FICLONE);
static_assert(pl::fs_copyfile_ficlone_force == UV_FS_COPYFILE_FICLONE_FORCE);

static_assert(pl::fs_req::c_layout().fs_type == offsetof(uv_fs_t, fs_type));
static_assert(pl::fs_req::c_layout().loop == offsetof(uv_fs_t, loop));
static_assert(pl::fs_req::c_layout().cb == offsetof(uv_fs_t, cb));
static_assert(pl::fs_req::c_layout().result == offsetof(uv_fs_t, result));
static_assert(pl::fs_req::c_layout().ptr == offsetof(uv_fs_t, ptr));
static_assert(pl::fs_req::c_layout().path == offsetof(uv_fs_t, path));
static_assert(pl::fs_req::c_layout().statbuf == offsetof(uv_fs_t, statbuf));
static_assert(pl::fs_req::c_layout().new_path == offsetof(uv_fs_t, new_path));
static_assert(pl::fs_req::c_layout().file == offsetof(uv_fs_t, file));
static_assert(pl::fs_req::c_layout().nbufs == offsetof(uv_fs_t, nbufs));
static_assert(pl::fs_req::c_layout().bufs == offsetof(uv_fs_t, bufs));
static_assert(pl::fs_req::c_layout().off == offsetof(uv_fs_t, off));
static_assert(pl::fs_req::c_layout().work_req == offsetof(uv_fs_t, work_req));
static_assert(pl::fs_req::c_layout().bufsml == offsetof(uv_fs_t, bufsml));
static_assert(sizeof(pl::fs_dir) == sizeof(uv_dir_t) && alignof(pl::fs_dir) == alignof(uv_dir_t));
static_assert(pl::fs_dir::c_layout().dirents == offsetof(uv_dir_t, dirents));
static_assert(pl::fs_dir::c_layout().nentries == offsetof(uv_dir_t, nentries));
static_assert(pl::fs_dir::c_layout().uv_private_ == offsetof(uv_dir_t, uv_private_));

namespace {

// A fresh request in the caller's uv_fs_t, as libuv's INIT resets one;
// null for a null uv_fs_t (libuv's UV_EINVAL, before touching anything).
// Like INIT, it keeps `data` and leaves `statbuf` as it was (a program may
// stat, then reuse the request, and still read the old statbuf). A
// synchronous call (no loop) follows the libuv the program was built for,
// as the C API's loops do; a request on a loop follows its loop's profile.
// A loopless one reads the process's version (and its variable) only for
// an operation whose rules differ between versions.
pl::fs_req* make(uv_loop_t* loop, uv_fs_t* req) {
  if (req == nullptr) return nullptr;
  unsigned char saved_stat[sizeof req->statbuf];
  std::memcpy(saved_stat, &req->statbuf, sizeof saved_stat);
  pl::fs_req* r = construct<pl::fs_req>(req);
  if (loop == nullptr) r->follow_process_version();
  std::memcpy(&req->statbuf, saved_stat, sizeof saved_stat);
  return r;
}

pl::fs_req& R(uv_fs_t* req) { return as<pl::fs_req>(req); }
pl::loop* L(uv_loop_t* loop) { return as_ptr<pl::loop>(loop); }
pl::fs_dir* D(uv_dir_t* dir) { return as_ptr<pl::fs_dir>(dir); }
const pl::fs_buf* B(const uv_buf_t* bufs) { return as_ptr<const pl::fs_buf>(bufs); }
// uv_fs_cb and fs_cb take a pointer to the same object.
pl::fs_cb F(uv_fs_cb cb) { return cb_cast<pl::fs_cb>(cb); }

}  // namespace

extern "C" {

// ---- fields and cleanup ----------------------------------------------------

uv_fs_type uv_fs_get_type(const uv_fs_t* req) { return req->fs_type; }
ssize_t uv_fs_get_result(const uv_fs_t* req) { return req->result; }
int uv_fs_get_system_error(const uv_fs_t* req) { return static_cast<int>(-req->result); }
void* uv_fs_get_ptr(const uv_fs_t* req) { return req->ptr; }
const char* uv_fs_get_path(const uv_fs_t* req) { return req->path; }
uv_stat_t* uv_fs_get_statbuf(uv_fs_t* req) { return &req->statbuf; }

void uv_fs_req_cleanup(uv_fs_t* req) {
  if (req != nullptr) R(req).cleanup();
}

int uv_fs_scandir_next(uv_fs_t* req, uv_dirent_t* ent) {
  if (req == nullptr || ent == nullptr) return UV_EINVAL;
  return R(req).scandir_next(as<pl::fs_dirent>(ent));
}

// ---- operations ------------------------------------------------------------

int uv_fs_open(uv_loop_t* loop, uv_fs_t* req, const char* path, int flags, int mode, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->open(L(loop), path, flags, mode, F(cb)) : UV_EINVAL;
}

int uv_fs_close(uv_loop_t* loop, uv_fs_t* req, uv_file file, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->close(L(loop), file, F(cb)) : UV_EINVAL;
}

int uv_fs_read(uv_loop_t* loop, uv_fs_t* req, uv_file file, const uv_buf_t bufs[], unsigned int nbufs, int64_t offset,
               uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->read(L(loop), file, B(bufs), nbufs, offset, F(cb)) : UV_EINVAL;
}

int uv_fs_write(uv_loop_t* loop, uv_fs_t* req, uv_file file, const uv_buf_t bufs[], unsigned int nbufs, int64_t offset,
                uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->write(L(loop), file, B(bufs), nbufs, offset, F(cb)) : UV_EINVAL;
}

int uv_fs_unlink(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->unlink(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_copyfile(uv_loop_t* loop, uv_fs_t* req, const char* path, const char* new_path, int flags, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->copyfile(L(loop), path, new_path, flags, F(cb)) : UV_EINVAL;
}

int uv_fs_mkdir(uv_loop_t* loop, uv_fs_t* req, const char* path, int mode, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->mkdir(L(loop), path, mode, F(cb)) : UV_EINVAL;
}

int uv_fs_mkdtemp(uv_loop_t* loop, uv_fs_t* req, const char* tpl, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->mkdtemp(L(loop), tpl, F(cb)) : UV_EINVAL;
}

int uv_fs_mkstemp(uv_loop_t* loop, uv_fs_t* req, const char* tpl, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->mkstemp(L(loop), tpl, F(cb)) : UV_EINVAL;
}

int uv_fs_rmdir(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->rmdir(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_scandir(uv_loop_t* loop, uv_fs_t* req, const char* path, int flags, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->scandir(L(loop), path, flags, F(cb)) : UV_EINVAL;
}

int uv_fs_opendir(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->opendir(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_readdir(uv_loop_t* loop, uv_fs_t* req, uv_dir_t* dir, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->readdir(L(loop), D(dir), F(cb)) : UV_EINVAL;
}

int uv_fs_closedir(uv_loop_t* loop, uv_fs_t* req, uv_dir_t* dir, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->closedir(L(loop), D(dir), F(cb)) : UV_EINVAL;
}

int uv_fs_stat(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->stat(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_fstat(uv_loop_t* loop, uv_fs_t* req, uv_file file, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->fstat(L(loop), file, F(cb)) : UV_EINVAL;
}

int uv_fs_lstat(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->lstat(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_statfs(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->statfs(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_rename(uv_loop_t* loop, uv_fs_t* req, const char* path, const char* new_path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->rename(L(loop), path, new_path, F(cb)) : UV_EINVAL;
}

int uv_fs_fsync(uv_loop_t* loop, uv_fs_t* req, uv_file file, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->fsync(L(loop), file, F(cb)) : UV_EINVAL;
}

int uv_fs_fdatasync(uv_loop_t* loop, uv_fs_t* req, uv_file file, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->fdatasync(L(loop), file, F(cb)) : UV_EINVAL;
}

int uv_fs_ftruncate(uv_loop_t* loop, uv_fs_t* req, uv_file file, int64_t offset, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->ftruncate(L(loop), file, offset, F(cb)) : UV_EINVAL;
}

int uv_fs_sendfile(uv_loop_t* loop, uv_fs_t* req, uv_file out_fd, uv_file in_fd, int64_t in_offset, size_t length,
                   uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->sendfile(L(loop), out_fd, in_fd, in_offset, length, F(cb)) : UV_EINVAL;
}

int uv_fs_access(uv_loop_t* loop, uv_fs_t* req, const char* path, int mode, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->access(L(loop), path, mode, F(cb)) : UV_EINVAL;
}

int uv_fs_chmod(uv_loop_t* loop, uv_fs_t* req, const char* path, int mode, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->chmod(L(loop), path, mode, F(cb)) : UV_EINVAL;
}

int uv_fs_fchmod(uv_loop_t* loop, uv_fs_t* req, uv_file file, int mode, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->fchmod(L(loop), file, mode, F(cb)) : UV_EINVAL;
}

int uv_fs_utime(uv_loop_t* loop, uv_fs_t* req, const char* path, double atime, double mtime, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->utime(L(loop), path, atime, mtime, F(cb)) : UV_EINVAL;
}

int uv_fs_futime(uv_loop_t* loop, uv_fs_t* req, uv_file file, double atime, double mtime, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->futime(L(loop), file, atime, mtime, F(cb)) : UV_EINVAL;
}

int uv_fs_lutime(uv_loop_t* loop, uv_fs_t* req, const char* path, double atime, double mtime, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->lutime(L(loop), path, atime, mtime, F(cb)) : UV_EINVAL;
}

int uv_fs_link(uv_loop_t* loop, uv_fs_t* req, const char* path, const char* new_path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->link(L(loop), path, new_path, F(cb)) : UV_EINVAL;
}

int uv_fs_symlink(uv_loop_t* loop, uv_fs_t* req, const char* path, const char* new_path, int flags, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->symlink(L(loop), path, new_path, flags, F(cb)) : UV_EINVAL;
}

int uv_fs_readlink(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->readlink(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_realpath(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->realpath(L(loop), path, F(cb)) : UV_EINVAL;
}

int uv_fs_chown(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->chown(L(loop), path, uid, gid, F(cb)) : UV_EINVAL;
}

int uv_fs_fchown(uv_loop_t* loop, uv_fs_t* req, uv_file file, uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->fchown(L(loop), file, uid, gid, F(cb)) : UV_EINVAL;
}

int uv_fs_lchown(uv_loop_t* loop, uv_fs_t* req, const char* path, uv_uid_t uid, uv_gid_t gid, uv_fs_cb cb) {
  pl::fs_req* r = make(loop, req);
  return r ? r->lchown(L(loop), path, uid, gid, F(cb)) : UV_EINVAL;
}

}  // extern "C"
