// CGMP: the GNU MP library (libgmp-dev) for the GMPOracle target.
//
// GMP's public mpz_* names are C macros that Swift does not import; Swift code calls the
// __gmpz_* functions they expand to (for example __gmpz_mul for mpz_mul).
#ifndef CGMP_SHIM_H
#define CGMP_SHIM_H
#include <gmp.h>
#endif
