#pragma once
// SpiderMonkey's public API, as every runner file includes it.
//
// GCC 12 and later take JS::Rooted for a dangling pointer: a Rooted links
// its own address into the context's list of stack roots and unlinks it in
// its destructor, which the warning cannot see. The warning is off for the
// runner's files only.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include <jsapi.h>
