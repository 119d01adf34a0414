// mpin-instruction-count: the crypto core's instruction counts under callgrind, which do not move
// with the machine's load (docs/benchmarks.md, "Instruction counts"; `make bench`, read by
// Scripts/instruction_counts.py).
//
// For each curve and each operation (the pairing, the Miller loop, the final exponentiation, the
// GT power and the constant-time scalar multiplications in G1 and G2) it runs the benchmark's
// kernel once to warm up, then zeroes callgrind's counters, runs the kernel `--calls` times on
// the same fixed inputs (derived from the generators) and dumps the counters under the name
// "<curve>/<operation>/<kernel>", where kernel is the field arithmetic that ran: "kernel" (the
// BMI2/ADX kernel of CFieldKernel) or "portable". The script divides each dump's total by the
// number of calls, which the program prints on its first line.
//
//   valgrind --tool=callgrind --collect-atstart=yes mpin-instruction-count [--calls N]
import CFieldKernel
import CValgrindShim
import MPinCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func printError(_ message: String) {
    var bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// The operations counted, by the names of `BenchmarkKernels` (so that the table matches `bench`).
let operations = ["pairing", "miller_loop", "final_exponentiation", "gt_pow", "g1_mul", "g2_mul"]
let curves: [(name: String, id: CurveID)] = [("bn254cx", .bn254cx), ("bn254", .bn254)]

var calls = 3
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--calls":
        guard let value = arguments.popFirst(), let n = Int(value), (1...100).contains(n) else {
            printError("mpin-instruction-count: --calls takes a whole number from 1 to 100")
            exit(2)
        }
        calls = n
    case "--help", "-h":
        print(
            "usage: valgrind --tool=callgrind --collect-atstart=yes mpin-instruction-count [--calls N]  (see Scripts/instruction_counts.py)"
        )
        exit(0)
    default:
        printError("mpin-instruction-count: unknown argument '\(argument)'; expected --calls N or --help")
        exit(2)
    }
}
if ct_shim_has_valgrind() == 0 {
    printError(
        "mpin-instruction-count: CValgrindShim was built without <valgrind/callgrind.h> (install the Debian package valgrind); nothing can be counted"
    )
    exit(2)
}
if ct_running_on_valgrind() == 0 {
    printError(
        "mpin-instruction-count: not running under valgrind; the counts come from callgrind: run Scripts/instruction_counts.py (or `make bench`)"
    )
    exit(2)
}

let kernel = mpin_field_kernel_available() != 0 ? "kernel" : "portable"
print("calls \(calls) kernel \(kernel)")
var sink = 0
for curve in curves {
    let kernels = BenchmarkKernels.kernels(curve: curve.id)
    for operation in operations {
        guard let run = kernels.first(where: { $0.name == operation })?.run else {
            printError("mpin-instruction-count: no benchmark kernel named \(operation)")
            exit(1)
        }
        sink &+= run()  // warm-up: lazily built tables, first-touch page faults
        cg_zero_stats()
        for _ in 0..<calls { sink &+= run() }
        let name = "\(curve.name)/\(operation)/\(kernel)"
        cg_dump_stats(name)
        print(name)
    }
}
// Every result is used, so that no call is optimised away.
print("sink \(sink & 1)")
