import TestVectors

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
        // At most `shownPerFile` failing vectors (and passing ones with --verbose) over all groups.
        var shownFailing = 0, shownPassing = 0, hidden = 0
        for group in report.groups {
            let parameters = group.parameters.isEmpty ? "" : " (\(group.parameters))"
            lines.append("  group \(group.index) \(group.type)\(parameters): \(group.passed) passed, \(group.failed) failed")
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
        if hidden > 0 { lines.append(Self.notShownLine(hidden, indent: "  ")) }
        lines += Self.structureLines(report.structure, indent: "  ")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `FAIL file structure: ...` for at most `shownPerFile` problems, and a line counting the rest.
    static func structureLines(_ problems: [LintProblem], indent: String) -> [String] {
        let shown = problems.prefix(shownPerFile).map { "\(indent)FAIL file structure: \($0.description)" }
        guard problems.count > shownPerFile else { return shown }
        return shown + ["\(indent)... \(problems.count - shownPerFile) more file structure problems not shown (at most \(shownPerFile) a file)"]
    }
}
