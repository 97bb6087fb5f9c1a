// SPDX-License-Identifier: MIT
// The tracer hook: prints each phase that made callbacks as a block, and
// folds consecutive phases that made none onto one line.

#include "phaseloop/tracer.hpp"

#include <cstring>

#include "phaseloop/loop.hpp"

namespace phaseloop {

void tracer::name(const void* object, const char* text) noexcept {
  for (int i = 0; i < nlabels_; i++)
    if (labels_[i].object == object) {
      labels_[i].text = text;
      return;
    }
  if (nlabels_ < 64) labels_[nlabels_++] = label{object, text};
}

const char* tracer::label_of(const void* object) const noexcept {
  for (int i = 0; i < nlabels_; i++)
    if (labels_[i].object == object) return labels_[i].text;
  return nullptr;
}

void tracer::prefix(std::uint64_t iteration, std::uint64_t now) {
  if (!have_base_) {
    base_ = now;
    have_base_ = true;
  }
  std::fprintf(out_, "[iter %llu +%llums] ", static_cast<unsigned long long>(iteration),
               static_cast<unsigned long long>(now - base_));
}

void tracer::flush() noexcept {
  if (quiet_[0] == '\0') return;
  prefix(quiet_iteration_, quiet_now_);
  std::fprintf(out_, "%s: no callbacks\n", quiet_);
  std::fflush(out_);
  quiet_[0] = '\0';
}

void tracer::phase_enter(loop&, const phase_event& e) {
  // Quiet phases fold within one iteration only.
  if (quiet_[0] != '\0' && e.iteration != quiet_iteration_) flush();
  current_ = e;
  calls_in_phase_ = 0;
  phase_open_ = true;
  if (verbose_) {
    flush();
    prefix(e.iteration, e.now);
    std::fprintf(out_, "%s%s enter\n", e.before_loop ? "(before loop) " : "", phase_name(e.which));
  }
}

void tracer::phase_exit(loop&, const phase_event& e) {
  phase_open_ = false;
  if (calls_in_phase_ > 0) {
    prefix(e.iteration, e.now);
    std::fprintf(out_, "%s }\n", phase_name(e.which));
  } else if (verbose_) {
    prefix(e.iteration, e.now);
    std::fprintf(out_, "%s exit\n", phase_name(e.which));
  } else {
    char item[32];
    if (e.which == phase::poll)
      std::snprintf(item, sizeof item, "poll(timeout %d)", e.timeout);
    else
      std::snprintf(item, sizeof item, "%s", phase_name(e.which));
    if (quiet_[0] == '\0') {
      quiet_iteration_ = e.iteration;
      quiet_now_ = e.now;
    } else {
      std::strncat(quiet_, " ", sizeof quiet_ - std::strlen(quiet_) - 1);
    }
    std::strncat(quiet_, item, sizeof quiet_ - std::strlen(quiet_) - 1);
  }
  std::fflush(out_);
}

void tracer::callback_enter(loop&, const callback_event& e) {
  if (calls_in_phase_++ == 0) {
    flush();
    prefix(current_.iteration, current_.now);
    if (current_.which == phase::poll)
      std::fprintf(out_, "%s%s(timeout %d) {\n", current_.before_loop ? "(before loop) " : "",
                   phase_name(current_.which), current_.timeout);
    else
      std::fprintf(out_, "%s%s {\n", current_.before_loop ? "(before loop) " : "", phase_name(current_.which));
  }
  prefix(e.iteration, e.now);
  const void* id = e.handle ? static_cast<const void*>(e.handle) : static_cast<const void*>(e.request);
  if (const char* text = label_of(id))
    std::fprintf(out_, "  %s \"%s\"\n", callback_kind_name(e.kind), text);
  else if (e.handle)
    std::fprintf(out_, "  %s (%s)\n", callback_kind_name(e.kind), handle_type_name(e.handle->type()));
  else
    std::fprintf(out_, "  %s\n", callback_kind_name(e.kind));
  std::fflush(out_);
}

void tracer::callback_exit(loop&, const callback_event&) {}

}  // namespace phaseloop
