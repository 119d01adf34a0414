#ifndef CFUZZDRIVER_H
#define CFUZZDRIVER_H

/// Runs libFuzzer on the program's `LLVMFuzzerTestOneInput` with the command line's options and
/// corpus folders; returns the process's exit status.
int fuzz_driver_main(int argc, char **argv);

#endif
