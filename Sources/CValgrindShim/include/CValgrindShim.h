// CValgrindShim: memcheck's client requests for the constant-time check (mpin-ct-check).
//
// ct_mark_secret and ct_declassify wrap VALGRIND_MAKE_MEM_UNDEFINED and VALGRIND_MAKE_MEM_DEFINED
// from <valgrind/memcheck.h> (Debian package valgrind). Outside valgrind they do nothing; built
// without the header, ct_shim_has_valgrind() is 0 and the check refuses to run.
#ifndef CVALGRIND_SHIM_H
#define CVALGRIND_SHIM_H
#include <stddef.h>

/// Marks n bytes at p undefined: memcheck then reports any branch or address that depends on them.
void ct_mark_secret(const void *p, size_t n);
/// Marks n bytes at p defined again (a value that is public from here on).
void ct_declassify(const void *p, size_t n);
/// 1 when the program runs under valgrind.
int ct_running_on_valgrind(void);
/// 1 when the shim was compiled with <valgrind/memcheck.h>; 0 when the requests are no-ops.
int ct_shim_has_valgrind(void);

#endif
