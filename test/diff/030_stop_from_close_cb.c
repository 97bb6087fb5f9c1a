// SPDX-License-Identifier: MIT
/* uv_stop called from a close callback (the scenario: diff_stop_from.h). */
#define STOP_IN "close"
#include "diff_stop_from.h"
