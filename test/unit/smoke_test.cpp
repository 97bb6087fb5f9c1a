// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "phaseloop/phaseloop.hpp"

TEST(smoke, empty_loop_runs_and_closes) {
  phaseloop::loop l;
  EXPECT_EQ(l.run(), 0);
  EXPECT_EQ(l.close(), 0);
}
