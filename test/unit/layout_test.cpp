// SPDX-License-Identifier: MIT
// The C++ objects against include/phaseloop/uv/uv.h: every C++ handle, request and loop
// fits in its libuv struct, and the members libuv documents as public are
// where C code reads them. Members are read through the C struct's offsets
// (memcpy from the object's bytes), as a C program would see them.

#include <csignal>
#include <cstddef>
#include <cstring>

#include "test_util.hpp"
#include "uv.h"

namespace {

template <class T>
T read_at(const void* object, std::size_t offset) {
  T v;
  std::memcpy(&v, static_cast<const char*>(object) + offset, sizeof v);
  return v;
}

template <class C, class Cpp>
constexpr bool fits() {
  return sizeof(Cpp) <= sizeof(C) && alignof(Cpp) <= alignof(C);
}

TEST(layout, cpp_objects_fit_in_their_c_structs) {
  EXPECT_TRUE((fits<uv_loop_t, pl::loop>())) << sizeof(pl::loop) << " > " << sizeof(uv_loop_t);
  EXPECT_TRUE((fits<uv_timer_t, pl::timer>())) << sizeof(pl::timer) << " > " << sizeof(uv_timer_t);
  EXPECT_TRUE((fits<uv_idle_t, pl::idle>())) << sizeof(pl::idle) << " > " << sizeof(uv_idle_t);
  EXPECT_TRUE((fits<uv_prepare_t, pl::prepare>())) << sizeof(pl::prepare) << " > " << sizeof(uv_prepare_t);
  EXPECT_TRUE((fits<uv_check_t, pl::check>())) << sizeof(pl::check) << " > " << sizeof(uv_check_t);
  EXPECT_TRUE((fits<uv_async_t, pl::async>())) << sizeof(pl::async) << " > " << sizeof(uv_async_t);
  EXPECT_TRUE((fits<uv_signal_t, pl::signal>())) << sizeof(pl::signal) << " > " << sizeof(uv_signal_t);
  EXPECT_TRUE((fits<uv_work_t, pl::work>())) << sizeof(pl::work) << " > " << sizeof(uv_work_t);
  // libuv 1.44's sizes on x86-64 Linux.
  EXPECT_EQ(sizeof(uv_loop_t), 848u);
  EXPECT_EQ(sizeof(uv_handle_t), 96u);
  EXPECT_EQ(sizeof(uv_timer_t), 152u);
  EXPECT_EQ(sizeof(uv_idle_t), 120u);
  EXPECT_EQ(sizeof(uv_async_t), 128u);
  EXPECT_EQ(sizeof(uv_signal_t), 152u);
  EXPECT_EQ(sizeof(uv_req_t), 64u);
  EXPECT_EQ(sizeof(uv_work_t), 128u);
}

TEST(layout, data_is_at_offset_zero_for_loop_handles_and_requests) {
  pl::loop l;
  pl::timer t(l);
  pl::idle i(l);
  pl::async a(l, nullptr);
  pl::signal s(l);
  pl::work w;
  auto offset = [](const void* object, const void* member) {
    return static_cast<const char*>(member) - static_cast<const char*>(object);
  };
  EXPECT_EQ(offset(&l, &l.data), 0);
  EXPECT_EQ(offset(&t, &t.data), 0);
  EXPECT_EQ(offset(&i, &i.data), 0);
  EXPECT_EQ(offset(&a, &a.data), 0);
  EXPECT_EQ(offset(&s, &s.data), 0);
  EXPECT_EQ(offset(&w, &w.data), 0);
  // A handle is a uv_handle_t at the same address (single inheritance).
  EXPECT_EQ(static_cast<void*>(static_cast<pl::handle*>(&t)), static_cast<void*>(&t));
  int x = 0;
  l.data = &x;
  t.data = &x;
  w.data = &x;
  EXPECT_EQ(read_at<void*>(&l, offsetof(uv_loop_t, data)), &x);
  EXPECT_EQ(read_at<void*>(&t, offsetof(uv_handle_t, data)), &x);
  EXPECT_EQ(read_at<void*>(&w, offsetof(uv_req_t, data)), &x);
  EXPECT_EQ(finish(l), 0);
}

TEST(layout, handle_loop_and_type_are_where_c_reads_them) {
  pl::loop l;
  pl::timer t(l);
  pl::idle i(l);
  pl::prepare p(l);
  pl::check c(l);
  pl::async a(l, nullptr);
  pl::signal s(l);
  struct {
    const pl::handle* h;
    uv_handle_type type;
  } cases[] = {{&t, UV_TIMER}, {&i, UV_IDLE}, {&p, UV_PREPARE}, {&c, UV_CHECK}, {&a, UV_ASYNC}, {&s, UV_SIGNAL}};
  for (const auto& k : cases) {
    SCOPED_TRACE(pl::handle_type_name(k.h->type()));
    EXPECT_EQ(read_at<void*>(k.h, offsetof(uv_handle_t, loop)), static_cast<void*>(&l));
    EXPECT_EQ(read_at<uv_handle_type>(k.h, offsetof(uv_handle_t, type)), k.type);
    EXPECT_EQ(static_cast<int>(k.h->type()), static_cast<int>(k.type));
  }
  EXPECT_EQ(finish(l), 0);
}

TEST(layout, loop_active_handles_is_where_c_reads_it) {
  pl::loop l;
  pl::timer t1(l), t2(l);
  EXPECT_EQ(read_at<unsigned>(&l, offsetof(uv_loop_t, active_handles)), 0u);
  ASSERT_EQ(t1.start([](pl::timer*) {}, 1000, 0), 0);
  ASSERT_EQ(t2.start([](pl::timer*) {}, 1000, 0), 0);
  EXPECT_EQ(read_at<unsigned>(&l, offsetof(uv_loop_t, active_handles)), 2u);
  EXPECT_EQ(l.active_handles(), 2u);
  EXPECT_EQ(finish(l), 0);
}

TEST(layout, signal_signum_is_where_c_reads_it) {
  pl::loop l;
  pl::signal s(l);
  EXPECT_EQ(read_at<int>(&s, offsetof(uv_signal_t, signum)), 0);
  ASSERT_EQ(s.start([](pl::signal*, int) {}, SIGUSR2), 0);
  EXPECT_EQ(read_at<int>(&s, offsetof(uv_signal_t, signum)), SIGUSR2);
  ASSERT_EQ(s.stop(), 0);
  EXPECT_EQ(read_at<int>(&s, offsetof(uv_signal_t, signum)), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(layout, work_request_fields_are_where_c_reads_them) {
  pl::loop l;
  pl::work w;
  EXPECT_EQ(read_at<uv_req_type>(&w, offsetof(uv_req_t, type)), UV_WORK);
  ASSERT_EQ(w.queue(l, [](pl::work*) {}, [](pl::work*, int) {}), 0);
  EXPECT_EQ(read_at<void*>(&w, offsetof(uv_work_t, loop)), static_cast<void*>(&l));
  EXPECT_NE(read_at<void*>(&w, offsetof(uv_work_t, work_cb)), nullptr);
  EXPECT_NE(read_at<void*>(&w, offsetof(uv_work_t, after_work_cb)), nullptr);
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(finish(l), 0);
}

TEST(layout, enum_values_match_libuv) {
  EXPECT_EQ(static_cast<int>(pl::handle_type::async), UV_ASYNC);
  EXPECT_EQ(static_cast<int>(pl::handle_type::check), UV_CHECK);
  EXPECT_EQ(static_cast<int>(pl::handle_type::idle), UV_IDLE);
  EXPECT_EQ(static_cast<int>(pl::handle_type::prepare), UV_PREPARE);
  EXPECT_EQ(static_cast<int>(pl::handle_type::timer), UV_TIMER);
  EXPECT_EQ(static_cast<int>(pl::handle_type::signal), UV_SIGNAL);
  EXPECT_EQ(static_cast<int>(pl::handle_type::generic), UV_HANDLE);
  EXPECT_EQ(static_cast<int>(pl::handle_type::file), UV_FILE);
  EXPECT_EQ(static_cast<int>(pl::req_type::generic), UV_REQ);
  EXPECT_EQ(static_cast<int>(pl::req_type::work), UV_WORK);
  EXPECT_EQ(static_cast<int>(pl::req_type::fs), UV_FS);
  EXPECT_EQ(static_cast<int>(pl::req_type::random), UV_RANDOM);
  EXPECT_EQ(static_cast<int>(pl::run_mode::default_), UV_RUN_DEFAULT);
  EXPECT_EQ(static_cast<int>(pl::run_mode::once), UV_RUN_ONCE);
  EXPECT_EQ(static_cast<int>(pl::run_mode::nowait), UV_RUN_NOWAIT);
  EXPECT_EQ(pl::errc::invalid, UV_EINVAL);
  EXPECT_EQ(pl::errc::busy, UV_EBUSY);
  EXPECT_EQ(pl::errc::canceled, UV_ECANCELED);
  EXPECT_EQ(pl::errc::no_memory, UV_ENOMEM);
  EXPECT_EQ(pl::errc::again, UV_EAGAIN);
  EXPECT_EQ(pl::errc::eof, UV_EOF);
  EXPECT_EQ(pl::errc::no_such_process, UV_ESRCH);
}

}  // namespace
