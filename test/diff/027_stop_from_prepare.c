// SPDX-License-Identifier: MIT
/* uv_stop called from a prepare callback (the scenario: diff_stop_from.h). */
#define STOP_IN "prepare"
#include "diff_stop_from.h"
