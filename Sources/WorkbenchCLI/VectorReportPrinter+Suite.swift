import TestVectors

extension VectorReportPrinter {
    /// A workbench vector file: the file line, one line per group, then each failure.
    mutating func render(_ report: SuiteFileReport) -> String {
        let summary = report.fileReport
        totalPassed += summary.passed
        totalFailed += summary.failed
        var lines: [String] = []
        if verbose {
            lines.append(
                "\(report.file): format \(summary.format), curve \(report.curve.rawValue), \(summary.passed + summary.failed) vectors"
            )
        }
        lines.append("\(report.file): \(summary.passed) passed, \(summary.failed) failed")
        // At most `shownPerFile` failing vectors (and passing ones with --verbose) over all groups.
        var shownFailing = 0, shownPassing = 0, hidden = 0
        for group in report.groups {
            let parameters = group.parameters.isEmpty ? "" : " (\(group.parameters))"
            lines.append(
                "  group \(group.index) \(group.type)\(parameters): \(group.passed) passed, \(group.failed) failed")
            for verdict in group.verdicts {
                if verdict.passed {
                    guard shownPassing < Self.shownPerFile else { continue }
                    shownPassing += 1
                } else {
                    guard shownFailing < Self.shownPerFile else {
                        hidden += 1
                        continue
                    }
                    shownFailing += 1
                }
                lines += verdictLines(verdict, indent: "    ")
            }
        }
        hidden += summary.unkeptFailed
        if hidden > 0 { lines.append(Self.notShownLine(hidden, indent: "  ")) }
        lines += Self.structureLines(report.structure, unkept: report.unkeptStructure, indent: "  ")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `FAIL file structure: ...` for at most `shownPerFile` problems, and a line counting the rest.
    /// `unkept` more problems were found but not kept.
    static func structureLines(_ problems: [LintProblem], unkept: Int = 0, indent: String) -> [String] {
        let shown = problems.prefix(shownPerFile).map { "\(indent)FAIL file structure: \($0.description)" }
        let hidden = problems.count - shown.count + unkept
        guard hidden > 0 else { return shown }
        return shown + [
            "\(indent)... \(hidden) more file structure problems not shown (at most \(shownPerFile) a file)"
        ]
    }
}
