// SPDX-License-Identifier: MIT
#pragma once
// The C layer implements every libuv function phaseloop offers, so it sees
// uv.h's whole API: uv.h declares the parts libuv added after 1.44 only for
// a program built for a version that has them.

#define PHASELOOP_UV_VERSION_MINOR 53
#define PHASELOOP_UV_VERSION_PATCH 0
#include "uv.h"
