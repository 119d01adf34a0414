/// The checks of every exchange together: per category how many passed and failed, and each failure.
package struct FlowCheckSummary: Sendable, Hashable {
    package var reports: [ExchangeReport]

    package init(reports: [ExchangeReport]) {
        self.reports = reports
    }

    package var passedCount: Int { reports.reduce(0) { $0 + $1.findings.count { $0.passed } } }
    package var failedCount: Int { reports.reduce(0) { $0 + $1.failures.count } }
    package var passed: Bool { failedCount == 0 }

    /// Passed and failed checks of one category.
    package func counts(_ category: FlowFinding.Category) -> (passed: Int, failed: Int) {
        let findings = reports.flatMap(\.findings).filter { $0.category == category }
        return (findings.count { $0.passed }, findings.count { !$0.passed })
    }

    /// Several lines: the totals, one line per category checked, then every failure with its exchange.
    package var text: String {
        var lines = ["M-Pin checks over \(reports.count) exchange\(reports.count == 1 ? "" : "s"): \(passedCount) passed, \(failedCount) failed"]
        for category in FlowFinding.Category.allCases {
            let (ok, failed) = counts(category)
            guard ok + failed > 0 else { continue }
            lines.append("  \(category.title): \(ok) passed" + (failed > 0 ? ", \(failed) FAILED" : ""))
        }
        let failing = reports.filter { !$0.passed }
        if !failing.isEmpty {
            lines.append("failed:")
            for report in failing {
                lines += report.failures.map { "  [\(report.index)] \(report.method) \(ExchangeReport.brief(report.path)): \($0.message)" }
            }
        }
        return lines.joined(separator: "\n")
    }
}
