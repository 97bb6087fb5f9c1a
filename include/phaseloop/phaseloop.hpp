#pragma once
/// Everything phaseloop's C++ API offers, in one include.

#include "phaseloop/async.hpp"
#include "phaseloop/fs.hpp"
#include "phaseloop/handle.hpp"
#include "phaseloop/hooks.hpp"
#include "phaseloop/loop.hpp"
#include "phaseloop/phase_handles.hpp"
#include "phaseloop/request.hpp"
#include "phaseloop/signal.hpp"
#include "phaseloop/timer.hpp"
#include "phaseloop/tracer.hpp"
#include "phaseloop/types.hpp"
#include "phaseloop/work.hpp"
