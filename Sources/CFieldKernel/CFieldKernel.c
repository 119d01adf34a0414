// Chooses the x86-64 field kernel at load time (see include/CFieldKernel.h).
#include "CFieldKernel.h"
#include <stdlib.h>
#include <string.h>

int mpin_field_kernel_flag = 0;

int mpin_field_kernel_cpu_supported(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
#else
    return 0;
#endif
}

__attribute__((constructor))
static void mpin_field_kernel_detect(void) {
    const char *choice = getenv("MPIN_FIELD_KERNEL");
    if (choice != NULL && strcmp(choice, "portable") == 0) { return; }
    mpin_field_kernel_flag = mpin_field_kernel_cpu_supported();
}
