// SPDX-License-Identifier: MIT
/* uv_stop called from an async callback (the scenario: diff_stop_from.h). */
#define STOP_IN "async"
#include "diff_stop_from.h"
