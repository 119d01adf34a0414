import TestVectors

/// Formats verdicts for the terminal: one summary line per file, then each failure.
///
/// ```
/// Vectors/amcl/mpin/BN254_CX.first100.txt: 99 passed, 1 failed
///   block 3 (line 53): CS1 (line 64)
///     expected: 0401435d98...
///     actual:   0401435d99...
/// ```
struct VectorReportPrinter {
    var verbose: Bool
    var totalPassed = 0
    var totalFailed = 0
    var totalUnreadable = 0

    init(verbose: Bool) {
        self.verbose = verbose
    }

    mutating func render(_ report: FileReport, curveSource: String? = nil) -> String {
        totalPassed += report.passed
        totalFailed += report.failed
        var lines: [String] = []
        if verbose {
            let fields = report.verdicts.reduce(0) { $0 + $1.checkedFields }
            let source = curveSource.map { " (from \($0))" } ?? ""
            lines.append(
                "\(report.file): format \(report.format), curve \(report.curve.rawValue)\(source), "
                    + "\(report.verdicts.count) vectors, \(fields) fields checked")
        }
        lines.append("\(report.file): \(report.passed) passed, \(report.failed) failed")
        for verdict in report.verdicts {
            if verdict.passed {
                if verbose { lines.append("  ok   \(verdict.vector) (line \(verdict.line)): \(verdict.checkedFields) fields") }
                continue
            }
            lines.append("  FAIL \(verdict.vector) (line \(verdict.line)): \(verdict.failures.count) of \(verdict.checkedFields) fields")
            for failure in verdict.failures {
                lines.append("    \(failure.field) (line \(failure.line))")
                lines.append("      expected: \(failure.expected)")
                lines.append("      actual:   \(failure.actual)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func renderTotal() -> String {
        let unreadable = totalUnreadable > 0 ? ", \(totalUnreadable) unreadable" : ""
        return "total: \(totalPassed) passed, \(totalFailed) failed\(unreadable)"
    }
}
