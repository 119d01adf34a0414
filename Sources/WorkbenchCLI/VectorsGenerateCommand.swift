import ArgumentParser
import FileAccess
import FlowRecording
import Foundation
import MPinCrypto
import MilagroRecording
import OrderedJSON
import Scenarios
import Synchronization
import TestVectors

/// `mpin-workbench vectors generate`: writes one suite of Wycheproof-shaped vectors, deterministically.
struct VectorsGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate known-answer vectors (Wycheproof-shaped JSON) for one suite.",
        discussion: """
            Suites: \(VectorSuite.allCases.map(\.rawValue).joined(separator: ", ")). The same \
            arguments always write the same bytes: every random value comes from a generator seeded \
            with --seed, the suite, the curve and the test's position. Tests are computed on all cores \
            and written in tcId order as they are made, to a temporary file renamed into place at the \
            end (memory does not grow with --count; a failure leaves no partial file). \
            --count sets the number of random cases (the fixed edge cases come on top). The \
            header's first line records the command, each value quoted as a POSIX shell needs it \
            (a seed with spaces or quotes in single quotes), so that it runs as written; \
            `vectors lint` reads it back with a shell's rules.

            --shard K/N writes only the K-th of N contiguous ranges of tcIds (K from 1 to N): the \
            whole file with the other tests left out, numberOfTests the shard's and a `shard` member \
            saying which part it is. Each shard file can be linted and verified on its own; \
            `vectors merge` joins the N files into the bytes one unsharded run writes.

            --curve with a suite whose values do not depend on the curve (access-number, say) has no \
            effect: it is a warning, and the file is written as without it.

            Exit status: 0 when written, 2 when the file cannot be written or the usage was wrong.

            Examples:
              mpin-workbench vectors generate --suite mpin-two-pass --seed s1 \\
                  --out vectors/two-pass.json
              mpin-workbench vectors generate --suite pairing --curve bn254 \\
                  --count 20 --seed s1 --out pairing.json
              mpin-workbench vectors generate --suite mpin-two-pass --seed s1 \\
                  --shard 1/4 --out part1.json
            """
    )

    @Option(
        help: "The suite: \(VectorSuite.allCases.map(\.rawValue).joined(separator: ", ")).",
        completion: .list(VectorSuite.allCases.map(\.rawValue)))
    var suite: String

    @Option(help: "The curve (default bn254cx; not for the suites that do not depend on one).")
    var curve: CurveArgument?

    @Option(
        parsing: .unconditional,
        help:
            "Random cases, \(VectorGenerator.countRange.lowerBound) to \(VectorGenerator.countRange.upperBound) (default: the suite's own).",
        transform: BoundedNumber.integer(VectorGenerator.countRange))
    var count: Int?

    @Option(help: "The seed (any string).")
    var seed: String

    @Option(help: "The file to write.")
    var out: String

    @Option(
        parsing: .unconditional,
        help:
            "At most this many chunks at once, \(Self.jobsRange.lowerBound) to \(Self.jobsRange.upperBound) (default: all cores).",
        transform: BoundedNumber.integer(VectorsGenerateCommand.jobsRange))
    var jobs: Int?

    @OptionGroup var shard: ShardOption

    /// The `--jobs` values taken.
    static let jobsRange = 1...1024

    func validate() throws {
        guard VectorSuite(rawValue: suite) != nil else {
            let names = VectorSuite.allCases.map(\.rawValue)
            throw ValidationError(
                "Unknown suite '\(suite)'; one of: \(names.joined(separator: ", "))\(NameSuggestion.hint(for: suite, among: names))."
            )
        }
    }

    /// Options given that cannot take effect: each a warning, and the file is written as without them.
    var warnings: [String] {
        guard let curve, let chosen = VectorSuite(rawValue: suite), !chosen.dependsOnCurve else { return [] }
        return [
            "warning: --curve \(curve.id.rawValue) has no effect: the \(suite) suite's values do not depend on the curve"
        ]
    }

    func run() async throws {
        for warning in warnings { Console.error(warning + "\n") }
        // A suite that does not depend on the curve is written as without --curve.
        let curve = (VectorSuite(rawValue: suite)!.dependsOnCurve ? self.curve : nil) ?? CurveArgument(.bn254cx)
        var generator = VectorGenerator(suite: VectorSuite(rawValue: suite)!, curve: curve.id, count: count, seed: seed)
        generator.toolVersion = WorkbenchVersion.current
        generator.shard = shard.shard
        let progress = ProgressBar.forStandardError(label: "\(suite) \(curve.id.rawValue)")
        let jobs = self.jobs
        let frozen = generator
        let out = self.out
        // The file is written as the tests are computed (a temporary file, renamed into place at
        // the end), so memory does not grow with --count.
        let written: Result<Int, FileAccessError>
        do throws(FileAccessError) {
            try Directories.create((out as NSString).deletingLastPathComponent)
            written = .success(try await frozen.write(to: out, maxConcurrency: jobs, progress: progress?.update))
        } catch {
            written = .failure(error)
        }
        progress?.finish()
        let tests: Int
        switch written {
        case .success(let count): tests = count
        case .failure(let error):
            throw CommandFailure(error.description)
        }
        let part = shard.shard.map { "shard \($0) of \(frozen.numberOfTests) tests, " } ?? ""
        Console.line(
            "\(out): \(tests) tests (\(part)\(suite), \(generator.suite.dependsOnCurve ? curve.id.rawValue : "any curve"), seed \(seed))"
        )
    }
}

/// A progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar: Sendable {
    private let label: String
    /// The number of `#` drawn last.
    private let last = Mutex(-1)

    private init(label: String) { self.label = label }

    static func forStandardError(label: String) -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar(label: label) : nil
    }

    func update(_ done: Int, _ total: Int) {
        last.withLock { last in
            let width = 30
            let filled = total == 0 ? width : done * width / total
            guard filled != last || done == total else { return }
            last = filled
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            Console.error("\r\(label) [\(bar)] \(done)/\(total)")
        }
    }

    func finish() {
        Console.error("\n")
    }
}
