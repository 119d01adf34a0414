/// The checks of every exchange together: per category and level how many, each finding that is
/// not a passed check with its exchange, and the origins the client settings name that no request
/// went to.
package struct FlowCheckSummary: Sendable, Hashable {
    /// An origin the client settings point at (`certivoxURL: http://127.0.0.1:8001/`) that no
    /// exchange of the flow went to: the client talked to it around the proxy, or not at all.
    package struct UnseenOrigin: Sendable, Hashable {
        package var origin: String
        /// The settings naming it.
        package var settings: [String]
        /// The event index of the client settings that named it.
        package var settingsIndex: Int
        /// Exchanges with it the client certainly made (share 2 after each share 1 answered 200).
        package var certainExchanges: Int
        /// Exchanges with it the client may have made besides (time permit share 2, from the
        /// storage or the D-TA, unless cached).
        package var possibleExchanges: Int

        package init(
            origin: String, settings: [String], settingsIndex: Int, certainExchanges: Int, possibleExchanges: Int
        ) {
            self.origin = origin
            self.settings = settings
            self.settingsIndex = settingsIndex
            self.certainExchanges = certainExchanges
            self.possibleExchanges = possibleExchanges
        }

        /// A warning when the client certainly made exchanges there, else a note.
        package var level: FlowFinding.Level { certainExchanges > 0 ? .warning : .note }

        package var text: String {
            var text = "\(origin) (\(settings.joined(separator: ", "))): no exchange with it was seen"
            if certainExchanges + possibleExchanges > 0 {
                text +=
                    "; missing: \(certainExchanges) exchange\(certainExchanges == 1 ? "" : "s") the client made with it"
                if possibleExchanges > 0 { text += " (and up to \(possibleExchanges) more for time permits)" }
            }
            return text
        }
    }

    /// One finding that is not a passed check, with its exchange (nil for an unseen origin).
    package struct Raised: Sendable, Hashable {
        package var index: Int
        package var report: ExchangeReport?
        package var finding: FlowFinding
    }

    package var reports: [ExchangeReport]
    package var unseenOrigins: [UnseenOrigin]

    package init(reports: [ExchangeReport], unseenOrigins: [UnseenOrigin] = []) {
        self.reports = reports
        self.unseenOrigins = unseenOrigins
    }

    /// Every note, warning and failure in event order, the unseen origins at the settings that named them.
    package var raised: [Raised] {
        var out = reports.flatMap { report in
            report.raised.map { Raised(index: report.index, report: report, finding: $0) }
        }
        for origin in unseenOrigins {
            out.append(
                Raised(
                    index: origin.settingsIndex, report: nil,
                    finding: FlowFinding(.request, origin.level, "unseen-origin", origin.text)))
        }
        return out.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
    }

    package var passedCount: Int { reports.reduce(0) { $0 + $1.findings.count { $0.passed } } }
    /// How many findings of `level` (unseen origins included).
    package func count(_ level: FlowFinding.Level) -> Int {
        level == .passed ? passedCount : raised.count { $0.finding.level == level }
    }
    package var failedCount: Int { count(.failure) }
    /// Whether no check failed (notes and warnings allowed).
    package var passed: Bool { failedCount == 0 }

    /// Passed and raised checks of one category.
    package func counts(_ category: FlowFinding.Category) -> (passed: Int, failed: Int) {
        let findings = reports.flatMap(\.findings).filter { $0.category == category }
        return (findings.count { $0.passed }, findings.count { $0.level == .failure })
    }

    /// `12 passed, 1 failure, 3 warnings, 9 notes`.
    package var countsText: String {
        let raised = ExchangeReport.counted(self.raised.map(\.finding))
        return "\(passedCount) passed" + (raised.isEmpty ? "" : ", " + raised)
    }

    /// One line per finding: `failure [12] POST /rps/pass1 (sdk): U: … (point-off-curve)`.
    package var findingLines: [String] {
        raised.map { item in
            let request =
                item.report.map { "\($0.method) \(ExchangeReport.brief($0.path)) (\($0.actor))" } ?? "client settings"
            return
                "\(item.finding.level.rawValue) [\(item.index)] \(request): \(item.finding.message) (\(item.finding.code))"
        }
    }

    /// Several lines: the totals, one line per category checked, then every note, warning and
    /// failure with its exchange.
    package var text: String {
        var lines = ["M-Pin checks over \(reports.count) exchange\(reports.count == 1 ? "" : "s"): \(countsText)"]
        for category in FlowFinding.Category.allCases {
            let findings = reports.flatMap(\.findings).filter { $0.category == category }
            guard !findings.isEmpty else { continue }
            let raised = ExchangeReport.counted(findings)
            lines.append(
                "  \(category.title): \(findings.count { $0.passed }) passed" + (raised.isEmpty ? "" : ", " + raised))
        }
        let items = findingLines
        if !items.isEmpty {
            lines.append("findings:")
            lines += items.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
