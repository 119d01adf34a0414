/// The report for a terminal: one line per case that did not pass (all with `verbose`), grouped,
/// then the counts by level and verdict, the requests, the time, and the users' prefix.
extension ConformanceReport {
    public func terminalSummary(verbose: Bool = false) -> String {
        var lines: [String] = []
        for group in ConformanceGroup.allCases {
            let members = results.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            let passed = members.filter { $0.verdict.kind == .pass }.count
            lines.append("\(group.title): \(passed) of \(members.count) pass")
            for result in members where verbose || result.verdict.kind != .pass {
                lines.append(
                    "  \(Self.pad(result.verdict.kind.rawValue, 13)) \(Self.pad(result.level.rawValue, 6)) \(result.id): "
                        + result.verdict.reason)
            }
        }
        lines.append("")
        let kinds = Verdict.Kind.allCases
        lines.append(Self.pad("", 8) + kinds.map { Self.pad($0.rawValue, 14) }.joined())
        for level in RequirementLevel.allCases {
            lines.append(
                Self.pad(level.rawValue, 8) + kinds.map { Self.pad(String(count($0, level: level)), 14) }.joined())
        }
        lines.append(Self.pad("all", 8) + kinds.map { Self.pad(String(count($0)), 14) }.joined())
        lines.append("")
        let mustFailures = results.filter(\.failsRun).count
        let subject = client.map { "the client \($0), on \(backendURL)" } ?? backendURL
        lines.append(
            "\(results.count) cases, \(requests) requests in \(Self.rounded(seconds)) s against \(subject); "
                + (mustFailures == 0 ? "no MUST case failed" : "\(mustFailures) MUST case(s) failed"))
        lines.append("users created on the backend start with \(userPrefix)-")
        if let couldNotGrade { lines.append("not graded: \(couldNotGrade)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
