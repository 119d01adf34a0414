// Chooses the x86-64 field kernel at load time (see include/CFieldKernel.h).
#include "CFieldKernel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mpin_field_kernel_flag = 0;
int mpin_field_kernel_avx2 = 0;

int mpin_field_kernel_cpu_supported(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("adx");
#else
    return 0;
#endif
}

/// 1 when the flags line of /proc/cpuinfo names both bmi2 and adx: what the processor itself has,
/// which a virtual machine's or valgrind's cpuid may hide (valgrind 3.19 reports no ADX). Reads at
/// most 64 KiB; any failure is 0.
static int mpin_field_kernel_cpuinfo_has_bmi2_adx(void) {
#if defined(__x86_64__) && defined(__linux__)
    FILE *file = fopen("/proc/cpuinfo", "r");
    if (file == NULL) { return 0; }
    static char line[16384];
    int found = 0, lines = 0;
    while (lines++ < 4096 && fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "flags", 5) != 0) { continue; }
        int bmi2 = 0, adx = 0;
        for (char *word = strtok(line + 5, " \t\n:"); word != NULL; word = strtok(NULL, " \t\n:")) {
            if (strcmp(word, "bmi2") == 0) { bmi2 = 1; }
            if (strcmp(word, "adx") == 0) { adx = 1; }
        }
        found = bmi2 && adx;
        break;
    }
    fclose(file);
    return found;
#else
    return 0;
#endif
}

__attribute__((constructor))
static void mpin_field_kernel_detect(void) {
    const char *choice = getenv("MPIN_FIELD_KERNEL");
    if (choice != NULL && strcmp(choice, "portable") == 0) { return; }
    mpin_field_kernel_flag = mpin_field_kernel_cpu_supported();
    if (choice != NULL && strcmp(choice, "kernel") == 0 && mpin_field_kernel_flag == 0) {
        mpin_field_kernel_flag = mpin_field_kernel_cpuinfo_has_bmi2_adx();
    }
#if defined(__x86_64__)
    if (mpin_field_kernel_flag) { mpin_field_kernel_avx2 = __builtin_cpu_supports("avx2"); }
#endif
}
