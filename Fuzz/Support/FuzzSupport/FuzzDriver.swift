import CFuzzDriver
import Foundation

/// The entry of every fuzz target's main.swift: hands the command line to libFuzzer, which calls
/// the target's `LLVMFuzzerTestOneInput` for each input, and exits with libFuzzer's status.
public enum FuzzDriver {
    public static func run() -> Never {
        exit(fuzz_driver_main(CommandLine.argc, CommandLine.unsafeArgv))
    }

    /// Stops the run as a finding: an invariant of the code under test does not hold. libFuzzer
    /// keeps the input that did it (the same as for a trap).
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        FileHandle.standardError.write(Data("fuzz invariant broken at \(file):\(line): \(message)\n".utf8))
        abort()
    }

    /// `fail` unless `condition` holds.
    public static func check(
        _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition { fail(message(), file: file, line: line) }
    }
}
