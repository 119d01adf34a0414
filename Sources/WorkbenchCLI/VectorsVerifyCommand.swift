import ArgumentParser
import FlowRecording
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
            match, with the vector, the line, the expected and the actual value: at most \
            \(VectorReportPrinter.shownPerFile) failing vectors a file (the rest counted in a last line, \
            here and in --junit), and with -v as many passing ones, so that output and memory stay \
            bounded however many vectors fail.

            A vector passes only when every output its inputs determine is present and equal; a \
            missing input, a field nothing checks, a vector or a file with nothing to check fails.

            Exit status: 0 when everything passes, 1 when a vector fails, 2 when a file cannot be \
            read (the message names the file and the line). `-` is not special; /dev/stdin reads \
            standard input.

            --junit FILE also writes a JUnit XML report, with the file as each testcase's classname: \
            for the workbench's own files one testcase per test group (and one for the file's structure \
            when it has problems), for AMCL's files one per file ("all vectors"), failed with the \
            failing fields as printed; an unreadable file is an error ("reading the file").

            --shard K/N verifies only the K-th of N parts: the files sorted by path and split into N \
            contiguous runs that differ in length by at most one (whole files, so each file's report \
            and testcases stay as they are); the last line says which files the part had. A part may \
            be empty (more shards than files): it passes. The JUnit suite is named \
            `vectors verify (shard K/N)`. To spread one large generated file, generate it with \
            `vectors generate --shard` and verify each shard file, which checks on its own.

            Examples:
              mpin-workbench vectors verify Vectors/generated/*.json
              mpin-workbench vectors verify two_pass.txt --curve bn254cx -v --junit vectors.xml
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

    @OptionGroup var junit: JUnitOption

    @OptionGroup var shard: ShardOption

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
        try junit.check()
        var junitReport = JUnitReport(name: shard.suiteName("vectors verify"))
        let clock = ContinuousClock()
        let files = shard.part(of: self.files)
        for path in files {
            let start = clock.now
            do {
                let text = try VectorFileContents.read(path)
                if SuiteFileVerifier.isSuiteFile(text) {
                    let report = try SuiteFileVerifier.verify(
                        text: text, file: path, crossCheck: crossCheck,
                        keeping: VectorReportPrinter.shownPerFile)
                    junitReport.testCases += Self.junitCases(report, duration: clock.now - start)
                    Console.out(output.render(report))
                    failed += report.fileReport.failed
                    crossChecked = true
                    continue
                }
                let loaded = try verifier.load(text: text, path: path)
                if loaded.curveSource == .option { curveUsed = true }
                let report = verifier.report(loaded, keeping: VectorReportPrinter.shownPerFile, keepsPassing: verbose)
                Console.out(output.render(report, curveSource: loaded.curveSource.rawValue))
                failed += report.failed
                junitReport.append(
                    Self.junitCase(
                        name: "all vectors", classname: path, duration: clock.now - start,
                        summary: "\(path): \(report.passed) passed, \(report.failed) failed",
                        verdicts: report.verdicts, unshown: report.unkeptFailed))
            } catch {
                unreadable += 1
                output.totalUnreadable += 1
                Console.error("error: \(error)\n")
                junitReport.append(
                    JUnitReport.TestCase(
                        name: "reading the file", classname: path, duration: clock.now - start,
                        outcome: .error("\(error)", type: nil)))
            }
        }
        if files.count > 1 { Console.line(output.renderTotal()) }
        if let part = shard.shard {
            Console.line("shard \(part): \(files.count) of \(self.files.count) files")
        }
        try junit.write(junitReport)
        // Options that took no effect are said, not silently ignored.
        if let curve, !curveUsed, unreadable < files.count {
            Console.error(
                "warning: --curve \(curve.id.rawValue) was not used: every file read names its curve "
                    + "(in its header, its name, or, for the workbench's files, its curve member)\n")
        }
        if crossCheck, !crossChecked, unreadable < files.count {
            Console.error(
                "warning: --cross-check was not used: it re-checks the workbench's own files, and none was given\n")
        }
        if unreadable > 0 { throw ExitCode.cannotRun }
        if failed > 0 { throw ExitCode.failure }
    }

    /// One testcase per group of one of our files, and one for its structure problems; the file is
    /// checked as a whole, so each group gets the file's time in proportion to its number of tests.
    static func junitCases(_ report: SuiteFileReport, duration: Duration) -> [JUnitReport.TestCase] {
        let total = max(1, report.groups.reduce(0) { $0 + $1.passed + $1.failed } + (report.structure.isEmpty ? 0 : 1))
        var cases = report.groups.map { group in
            let parameters = group.parameters.isEmpty ? "" : " (\(group.parameters))"
            let name = "group \(group.index) \(group.type)\(parameters)"
            return junitCase(
                name: name, classname: report.file, duration: duration * (group.passed + group.failed) / total,
                summary: "\(name): \(group.passed) passed, \(group.failed) failed", verdicts: group.verdicts,
                unshown: group.unkeptFailed)
        }
        if !report.structure.isEmpty || cases.isEmpty {
            let fileReport = report.fileReport
            let summary = "\(report.file): \(fileReport.passed) passed, \(fileReport.failed) failed"
            let lines =
                [summary]
                + VectorReportPrinter.structureLines(report.structure, unkept: report.unkeptStructure, indent: "")
            let outcome: JUnitReport.TestCase.Outcome =
                fileReport.failed == 0 ? .passed : .failed(lines.joined(separator: "\n"), type: nil)
            cases.append(
                JUnitReport.TestCase(
                    name: "file structure", classname: report.file, duration: duration / total, outcome: outcome))
        }
        return cases
    }

    /// A testcase over `verdicts`: failed when a vector failed, with the summary line and each
    /// failing vector's lines (the field, expected and actual values) as the command prints them.
    /// At most `VectorReportPrinter.shownPerFile` failing vectors are written; `unshown` more are
    /// counted in a last line.
    static func junitCase(
        name: String, classname: String, duration: Duration, summary: String,
        verdicts: [VectorVerdict], unshown: Int = 0
    ) -> JUnitReport.TestCase {
        let failing = verdicts.filter { !$0.passed }
        guard !failing.isEmpty || unshown > 0 else {
            return JUnitReport.TestCase(name: name, classname: classname, duration: duration, outcome: .passed)
        }
        let printer = VectorReportPrinter(verbose: false)
        let shown = failing.prefix(VectorReportPrinter.shownPerFile)
        let hidden = unshown + failing.count - shown.count
        let lines =
            [summary] + shown.flatMap { printer.verdictLines($0, indent: "  ") }
            + (hidden > 0 ? [VectorReportPrinter.notShownLine(hidden, indent: "  ")] : [])
        return JUnitReport.TestCase(
            name: name, classname: classname, duration: duration,
            outcome: .failed(lines.joined(separator: "\n"), type: nil))
    }
}
