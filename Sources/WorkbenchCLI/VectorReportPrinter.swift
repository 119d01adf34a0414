import TestVectors

/// Formats verdicts for the terminal: one summary line per file, then each failure.
///
/// ```
/// ../shared/vectors/amcl/js/MPIN_BN254.json: 19 passed, 1 failed
///   entry 3 (line 3): ServerSecret (line 3)
///     expected: 0a1b2c3d4e...
///     actual:   0a1b2c3d4f...
/// ```
struct VectorReportPrinter {
    /// The most failing vectors printed for one file (and, with --verbose, passing ones); the
    /// rest are counted in one line, so a file of a million failing vectors prints a few pages.
    static let shownPerFile = 100

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
        for verdict in report.verdicts { lines += verdictLines(verdict, indent: "  ") }
        if report.unkeptFailed > 0 { lines.append(Self.notShownLine(report.unkeptFailed, indent: "  ")) }
        if verbose, report.unkeptPassed > 0 {
            lines.append(
                "  ... \(report.unkeptPassed) more passing vectors not shown (at most \(Self.shownPerFile) a file)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line that counts the failing vectors beyond `shownPerFile`.
    static func notShownLine(_ count: Int, indent: String) -> String {
        "\(indent)... \(count) more failing vectors not shown (at most \(shownPerFile) a file)"
    }

    /// One vector's lines: `ok` (verbose only) or `FAIL` with each failing field, expected and actual.
    func verdictLines(_ verdict: VectorVerdict, indent: String) -> [String] {
        if verdict.passed {
            return verbose
                ? ["\(indent)ok   \(verdict.vector) (line \(verdict.line)): \(verdict.checkedFields) fields"] : []
        }
        var lines = [
            "\(indent)FAIL \(verdict.vector) (line \(verdict.line)): \(verdict.failures.count) of \(verdict.checkedFields) fields"
        ]
        for failure in verdict.failures {
            lines.append("\(indent)  \(failure.field) (line \(failure.line))")
            lines.append("\(indent)    expected: \(failure.expected)")
            lines.append("\(indent)    actual:   \(failure.actual)")
        }
        return lines
    }

    func renderTotal() -> String {
        let unreadable = totalUnreadable > 0 ? ", \(totalUnreadable) unreadable" : ""
        return "total: \(totalPassed) passed, \(totalFailed) failed\(unreadable)"
    }
}
