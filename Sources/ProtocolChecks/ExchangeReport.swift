import FlowRecording

/// What the checks found in one exchange.
package struct ExchangeReport: Sendable, Hashable {
    /// The exchange's event index in the cassette.
    package var index: Int
    package var method: String
    package var path: String
    /// The response's status; nil after a transport error.
    package var status: Int?
    package var kind: RequestKind
    /// Who sent it, from what the request is (`FlowChecker.actor`).
    package var actor: EventActor
    package var findings: [FlowFinding]

    /// Whether no check failed (notes and warnings allowed).
    package var passed: Bool { level < .failure }
    /// The highest level of its findings (`passed` when every check passed).
    package var level: FlowFinding.Level { findings.map(\.level).max() ?? .passed }
    /// The findings that are not passed checks: notes, warnings, failures.
    package var raised: [FlowFinding] { findings.filter { !$0.passed } }
    package var failures: [FlowFinding] { findings.filter { $0.level == .failure } }

    /// `[7] POST /rps/pass1 200 pass 1 (sdk): ok (status 200; U: on the curve; …)`, then one
    /// indented line per note, warning and failure.
    package var text: String {
        let head =
            "[\(index)] \(method) \(Self.brief(path)) \(status.map(String.init) ?? "no response") \(kind.title) (\(actor))"
        let passing = findings.filter(\.passed).map(\.message)
        let raised = raised
        var lines = [
            head
                + (findings.isEmpty
                    ? ": nothing to check"
                    : raised.isEmpty
                        ? ": ok (\(passing.joined(separator: "; ")))"
                        : ": \(Self.counted(raised))")
        ]
        if !raised.isEmpty {
            lines += raised.map { "    \($0.level.rawValue.uppercased()) \($0.message) (\($0.code))" }
            if !passing.isEmpty { lines.append("    ok   " + passing.joined(separator: "; ")) }
        }
        return lines.joined(separator: "\n")
    }

    /// `1 failure, 2 notes` for the findings given.
    static func counted(_ findings: [FlowFinding]) -> String {
        [FlowFinding.Level.failure, .warning, .note].compactMap { level in
            let count = findings.count { $0.level == level }
            return count == 0 ? nil : "\(count) \(level.rawValue)\(count == 1 ? "" : "s")"
        }.joined(separator: ", ")
    }

    /// The path with long segments (an M-Pin ID in hex) shortened to their ends: `/rps/timePermit/7b226d6f…227d`.
    package static func brief(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.count > 24 ? String(segment.prefix(8)) + "…" + String(segment.suffix(4)) : String(segment)
        }.joined(separator: "/")
    }
}
