// SPDX-License-Identifier: MIT
/* Three C library entry points that glibc 2.38 added and Debian 12's glibc
 * 2.36 lacks, for the reference libuv 1.53 (Debian sid's libuv.a, built
 * against glibc 2.38) only; never part of phaseloop. glibc 2.38 routes
 * sscanf, fscanf and strtol here when a program is compiled as C23 (or with
 * _GNU_SOURCE); they differ from the older functions only in also reading
 * "0b" binary prefixes, which libuv never meets. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int __isoc23_sscanf(const char* s, const char* format, ...);
int __isoc23_fscanf(FILE* stream, const char* format, ...);
long __isoc23_strtol(const char* s, char** end, int base);

int __isoc23_sscanf(const char* s, const char* format, ...) {
  va_list args;
  int r;
  va_start(args, format);
  r = vsscanf(s, format, args);
  va_end(args);
  return r;
}

int __isoc23_fscanf(FILE* stream, const char* format, ...) {
  va_list args;
  int r;
  va_start(args, format);
  r = vfscanf(stream, format, args);
  va_end(args);
  return r;
}

long __isoc23_strtol(const char* s, char** end, int base) { return strtol(s, end, base); }
