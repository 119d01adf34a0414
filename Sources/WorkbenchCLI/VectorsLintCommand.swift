import ArgumentParser
import Foundation
import TestVectors

/// `mpin-workbench vectors lint FILE...`: schema, tcIds, numberOfTests and canonical formatting.
struct VectorsLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check the workbench's vector files: schema, unique tcIds in order, numberOfTests, canonical form.",
        discussion: """
            Prints `FILE:LINE: PATH (tcId N): problem` for each problem and `FILE: ok` for a clean \
            file. Exit status: 0 when every file is clean, 1 when one has problems, 2 when a file \
            cannot be read.
            """
    )

    @Argument(help: "Vector files written by `vectors generate`.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name at least one vector file.") }
    }

    func run() throws {
        var problems = 0
        var unreadable = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                Console.error("error: \(file): cannot be read as UTF-8 text\n")
                unreadable += 1
                continue
            }
            let found = VectorLinter.lint(text: text, file: file)
            if found.isEmpty {
                print("\(file): ok")
            } else {
                for problem in found { print(problem.description) }
                problems += found.count
            }
        }
        if unreadable > 0 { throw ExitCode(2) }
        if problems > 0 { throw ExitCode(1) }
    }
}

// MARK: - Verifying our own files

extension VectorReportPrinter {
    /// A workbench vector file: the file line, one line per group, then each failure.
    mutating func render(_ report: SuiteFileReport) -> String {
        let summary = report.fileReport
        totalPassed += summary.passed
        totalFailed += summary.failed
        var lines: [String] = []
        if verbose {
            lines.append("\(report.file): format \(summary.format), curve \(report.curve.rawValue), \(summary.verdicts.count) vectors")
        }
        lines.append("\(report.file): \(summary.passed) passed, \(summary.failed) failed")
        for group in report.groups {
            let parameters = group.parameters.isEmpty ? "" : " (\(group.parameters))"
            lines.append("  group \(group.index) \(group.type)\(parameters): \(group.passed) passed, \(group.failed) failed")
            for verdict in group.verdicts {
                if verdict.passed {
                    if verbose { lines.append("    ok   \(verdict.vector) (line \(verdict.line)): \(verdict.checkedFields) fields") }
                    continue
                }
                lines.append("    FAIL \(verdict.vector) (line \(verdict.line)): \(verdict.failures.count) of \(verdict.checkedFields) fields")
                for failure in verdict.failures {
                    lines.append("      \(failure.field) (line \(failure.line))")
                    lines.append("        expected: \(failure.expected)")
                    lines.append("        actual:   \(failure.actual)")
                }
            }
        }
        for problem in report.structure {
            lines.append("  FAIL file structure: \(problem.description)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
