#!/bin/sh
# SPDX-License-Identifier: MIT
# The command outputs embedded in README.md and docs/*.md are what the
# commands print now (tools/gen-docs --check).
exec "${srcdir:-.}/tools/gen-docs" --check
