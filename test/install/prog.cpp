// SPDX-License-Identifier: MIT
// A phaseloop C++ program: one timer (test/install/check.sh, test/debs/installed.sh).
#include <cstdio>
#include <phaseloop/phaseloop.hpp>
int main() {
  phaseloop::loop loop;
  phaseloop::timer t(loop);
  static int fired = 0;
  t.start([](phaseloop::timer* self) { ++fired; self->close(nullptr); }, 1, 0);
  loop.run();
  std::printf("fired=%d close=%d\n", fired, loop.close());
}
