// CJansson: the jansson C library (libjansson-dev) for the JSONOracle target.
//
// jansson's type test and reference release are macros or static inline functions over the
// struct's fields; these wrappers give Swift one plain function for each.
#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H
#include <jansson.h>

/// The type of a value (json_typeof).
static inline json_type cjansson_type(const json_t *json) { return json_typeof(json); }

/// Releases a value returned by a loader (json_decref).
static inline void cjansson_release(json_t *json) { json_decref(json); }

/// The error code of a failed load (json_error_code).
static inline int cjansson_error_code(const json_error_t *error) { return (int)json_error_code(error); }
#endif
