// SPDX-License-Identifier: MIT
/* uv_stop called from a check callback (the scenario: diff_stop_from.h). */
#define STOP_IN "check"
#include "diff_stop_from.h"
