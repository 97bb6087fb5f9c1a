#!/bin/sh
# SPDX-License-Identifier: MIT
# The scenario lists the build runs (test/diff, test/oracle/node,
# test/oracle/browser) name exactly the scenario files present.
exec "${srcdir:-.}/tools/gen-test-lists" --check
