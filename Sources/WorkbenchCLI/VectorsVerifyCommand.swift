import ArgumentParser
import Foundation
import MPinCrypto
import TestVectors

/// `mpin-workbench vectors verify FILE...`: checks every field of AMCL vector files.
struct VectorsVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify AMCL vector files field by field.",
        discussion: """
            Reads the workbench's own files (`vectors generate`: per-group results; --cross-check \
            adds the GMP oracle) and AMCL's formats: the `.txt` blocks of `KEY = value,` (two-pass M-Pin, the AMCL-C \
            generated file, the arithmetic files) and the two-pass and one-pass `.json` lists. The \
            format is told from the content; the curve from the file (its header or its name), else \
            from --curve. Prints `FILE: N passed, M failed` per file and every field that does not \
            match, with the vector, the line, the expected and the actual value.

            A vector passes only when every output its inputs determine is present and equal; a \
            missing input, a field nothing checks, a vector or a file with nothing to check fails.

            Exit status: 0 when everything passes, 1 when a vector fails, 2 when a file cannot be \
            read (the message names the file and the line). `-` is not special; /dev/stdin reads \
            standard input.
            """
    )

    @Argument(help: "Vector files (.txt or .json).")
    var files: [String]

    @Option(help: "Curve for files that do not name theirs.")
    var curve: CurveArgument?

    @Flag(name: .shortAndLong, help: "Also print each file's format and curve, and every vector that passes.")
    var verbose = false

    @Flag(help: "For the workbench's own files, also re-check points and scalar relations with the GMP oracle.")
    var crossCheck = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one vector file.") }
    }

    func run() throws {
        let verifier = VectorVerifier(curve: curve?.id)
        var output = VectorReportPrinter(verbose: verbose)
        var unreadable = 0
        var failed = 0
        var curveUsed = false
        var crossChecked = false
        for path in files {
            do {
                let text = try VectorFileContents.read(path)
                if SuiteFileVerifier.isSuiteFile(text) {
                    let report = try SuiteFileVerifier.verify(text: text, file: path, crossCheck: crossCheck)
                    print(output.render(report), terminator: "")
                    failed += report.fileReport.failed
                    crossChecked = true
                    continue
                }
                let loaded = try verifier.load(text: text, path: path)
                if loaded.curveSource == .option { curveUsed = true }
                let report = FileReport(
                    file: path, format: loaded.formatName, curve: loaded.curve, verdicts: verifier.check(loaded))
                print(output.render(report, curveSource: loaded.curveSource.rawValue), terminator: "")
                failed += report.failed
            } catch {
                unreadable += 1
                output.totalUnreadable += 1
                Console.error("error: \(error)\n")
            }
        }
        if files.count > 1 { print(output.renderTotal()) }
        // Options that took no effect are said, not silently ignored.
        if let curve, !curveUsed, unreadable < files.count {
            Console.error("warning: --curve \(curve.id.rawValue) was not used: every file read names its curve "
                + "(in its header, its name, or, for the workbench's files, its curve member)\n")
        }
        if crossCheck, !crossChecked, unreadable < files.count {
            Console.error("warning: --cross-check was not used: it re-checks the workbench's own files, and none was given\n")
        }
        if unreadable > 0 { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }
}
