// SPDX-License-Identifier: MIT
/* uv_stop called from a timer callback (the scenario: diff_stop_from.h). */
#define STOP_IN "timer"
#include "diff_stop_from.h"
