// CValgrindShim: valgrind's client requests, for the constant-time check (mpin-ct-check, memcheck)
// and the instruction counts (mpin-instruction-count, callgrind).
//
// ct_mark_secret and ct_declassify wrap VALGRIND_MAKE_MEM_UNDEFINED and VALGRIND_MAKE_MEM_DEFINED
// from <valgrind/memcheck.h> (Debian package valgrind); cg_zero_stats and cg_dump_stats wrap
// CALLGRIND_ZERO_STATS and CALLGRIND_DUMP_STATS_AT from <valgrind/callgrind.h>. Outside valgrind
// they do nothing; built without the headers, ct_shim_has_valgrind() is 0 and both tools refuse
// to run.
#ifndef CVALGRIND_SHIM_H
#define CVALGRIND_SHIM_H
#include <stddef.h>

/// Marks n bytes at p undefined: memcheck then reports any branch or address that depends on them.
void ct_mark_secret(const void *p, size_t n);
/// Marks n bytes at p defined again (a value that is public from here on).
void ct_declassify(const void *p, size_t n);
/// 1 when the program runs under valgrind.
int ct_running_on_valgrind(void);
/// 1 when the shim was compiled with <valgrind/memcheck.h> and <valgrind/callgrind.h>; 0 when
/// the requests are no-ops.
int ct_shim_has_valgrind(void);
/// Under callgrind: sets every cost counter to zero (what runs next is what the next dump counts).
void cg_zero_stats(void);
/// Under callgrind: writes the counts since the last zeroing or dump to a new dump file, whose
/// header names `name` (its "desc: Trigger: Client Request: <name>" line).
void cg_dump_stats(const char *name);

#endif
