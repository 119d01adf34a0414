// See include/CValgrindShim.h. Real functions (not inline) so that each request is an opaque call.
#include "CValgrindShim.h"

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>) && __has_include(<valgrind/callgrind.h>)
#include <valgrind/memcheck.h>
#include <valgrind/callgrind.h>
#define CT_HAS_VALGRIND 1
#endif
#endif

#ifndef CT_HAS_VALGRIND
#define CT_HAS_VALGRIND 0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define RUNNING_ON_VALGRIND 0
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

void ct_mark_secret(const void *p, size_t n) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void ct_declassify(const void *p, size_t n) { (void)VALGRIND_MAKE_MEM_DEFINED(p, n); }
int ct_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
int ct_shim_has_valgrind(void) { return CT_HAS_VALGRIND; }
void cg_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void cg_dump_stats(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
