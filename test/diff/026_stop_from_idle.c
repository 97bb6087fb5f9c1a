// SPDX-License-Identifier: MIT
/* uv_stop called from an idle callback (the scenario: diff_stop_from.h). */
#define STOP_IN "idle"
#include "diff_stop_from.h"
