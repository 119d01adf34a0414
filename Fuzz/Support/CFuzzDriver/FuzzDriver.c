#include "CFuzzDriver.h"
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry points: the driver (in the runtime that `-sanitize=fuzzer` links) and the
// target's callback (defined by each fuzz target with `@_cdecl`).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int fuzz_driver_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
