-- SPDX-License-Identifier: MIT
-- driver.lua -- runs the tests of one of luv's test files for phaseloop's
-- luv kit (test/clients/luv/run, through lib/run-config).
--
-- Run it from the directory that holds luv's tests/ and lib/, with the
-- luv module already loaded the way Debian's autopkgtest loads it
-- (`luaX.Y -lluv`):
--
--   luaX.Y -lluv driver.lua list FILE
--       prints "N<TAB>FILE - NAME" for each test tests/test-FILE.lua
--       registers, in order, without running any
--   luaX.Y -lluv driver.lua run FILE FIRST [LAST]
--       runs the tests numbered FIRST..LAST (default: to the end) with
--       luv's own runner, lib/tap.lua, as tests/run.lua would (the same
--       "FILE - " prefix, "ok I NAME" / "not ok I NAME" lines, where I
--       counts from 1 at FIRST); before each test body it prints
--       "# phaseloop start N", so that a crash or a hang can be pinned on
--       the test that was running
--
-- With PL_PROBE_MAPS set, it first appends to that file the lines of
-- /proc/self/maps naming a libuv, phaseloop or luv library ("PID PATH"),
-- the proof of which libuv.so.1 the process runs on.
--
-- Written for this project; it only drives luv's lib/tap.lua.

local mode, file = arg[1], arg[2]
local first, last = tonumber(arg[3] or "1"), tonumber(arg[4] or "")
if (mode ~= "list" and mode ~= "run") or not file or not first then
  io.stderr:write("usage: driver.lua list FILE | driver.lua run FILE FIRST [LAST]\n")
  os.exit(2)
end

-- Unbuffered: the lines printed before a crash must reach the log.
io.stdout:setvbuf("no")

local uv = require("luv")

local maps_out = os.getenv("PL_PROBE_MAPS")
if maps_out and maps_out ~= "" then
  local pid = uv.os_getpid and uv.os_getpid() or 0
  local out = assert(io.open(maps_out, "a"))
  local seen = {}
  for line in io.lines("/proc/self/maps") do
    local path = line:match("^%S+%s+%S+%s+%S+%s+%S+%s+%S+%s+(/.*)$")
    if path then
      local base = path:match("[^/]*$")
      if (base:find("libuv", 1, true) or base:find("libphaseloop", 1, true) or
          base:find("-luv.so", 1, true)) and not seen[path] then
        seen[path] = true
        out:write(pid, " ", path, "\n")
      end
    end
  end
  out:close()
end

-- lib/tap.lua is a function: called with a string it sets the prefix of
-- the names registered next, with a function it hands that function a
-- `test(name, fn, min_uv_ver)` registrar, with true it runs what was
-- registered. The test files call it with their suite; wrap it so that
-- only the selected tests are registered.
local tap = require("lib/tap")
local count = 0

local function pick(suite)
  return function(test)
    suite(function(name, fn, min_uv_ver)
      count = count + 1
      local n = count
      if n >= first and (not last or n <= last) then
        test(name, function(...)
          print("# phaseloop start " .. n)
          return fn(...)
        end, min_uv_ver)
      end
    end)
  end
end

if mode == "list" then
  package.loaded["lib/tap"] = function(suite)
    if type(suite) == "function" then
      suite(function(name)
        count = count + 1
        print(count .. "\t" .. file .. " - " .. name)
      end)
    end
  end
  require("tests/test-" .. file)
  os.exit(0)
end

package.loaded["lib/tap"] = function(suite)
  if type(suite) == "function" then
    return tap(pick(suite))
  end
  return tap(suite)
end
tap(file)
require("tests/test-" .. file)
tap(true)
