/// What the checks found in one exchange.
package struct ExchangeReport: Sendable, Hashable {
    /// The exchange's event index in the cassette.
    package var index: Int
    package var method: String
    package var path: String
    /// The response's status; nil after a transport error.
    package var status: Int?
    package var kind: RequestKind
    package var findings: [FlowFinding]

    package var passed: Bool { findings.allSatisfy(\.passed) }
    package var failures: [FlowFinding] { findings.filter { !$0.passed } }

    /// `[7] POST /rps/pass1 200 pass 1: ok (status 200; U: on the curve; …)`, then one indented
    /// `FAIL` line per failed check.
    package var text: String {
        let head = "[\(index)] \(method) \(Self.brief(path)) \(status.map(String.init) ?? "no response") \(kind.title)"
        let passing = findings.filter(\.passed).map(\.message)
        var lines = [head + (findings.isEmpty ? ": nothing to check" : passed ? ": ok (\(passing.joined(separator: "; ")))"
                                                                                 : ": \(failures.count) failed of \(findings.count)")]
        if !passed {
            lines += failures.map { "    FAIL \($0.message)" }
            if !passing.isEmpty { lines.append("    ok   " + passing.joined(separator: "; ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// The path with long segments (an M-Pin ID in hex) shortened to their ends: `/rps/timePermit/7b226d6f…227d`.
    package static func brief(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count > 24 ? String(segment.prefix(8)) + "…" + String(segment.suffix(4)) : String(segment)
        }.joined(separator: "/")
    }
}
