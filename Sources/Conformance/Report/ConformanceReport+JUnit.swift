import FlowRecording

/// The report as JUnit XML (`--junit`): one `testsuite` per group, one `testcase` per case
/// (`classname` the group, `name` the case id); `fail` is a `failure`, `unimplemented` and
/// `skipped` are `skipped`, the reason of every verdict is in `system-out`. Written by
/// FlowRecording's `JUnitDocument`, as the commands' `--junit` files are.
extension ConformanceReport {
    public var junitXML: String {
        typealias Attribute = JUnitDocument.Attribute
        func counts(_ members: [CaseResult]) -> [Attribute] {
            let failures = members.filter { $0.verdict.kind == .fail }.count
            let skipped = members.filter { [.skipped, .unimplemented].contains($0.verdict.kind) }.count
            return [
                .init("tests", String(members.count)), .init("failures", String(failures)),
                .init("skipped", String(skipped)),
            ]
        }
        var suites: [JUnitDocument.Suite] = []
        for group in ConformanceGroup.allCases {
            let members = results.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            let cases = members.map { result in
                var children: [JUnitDocument.Child] = []
                let message = Attribute("message", "\(result.level.rawValue): \(result.verdict.reason)")
                switch result.verdict.kind {
                case .fail:
                    children.append(
                        .result(tag: "failure", attributes: [message, .init("type", result.level.rawValue)], text: nil))
                case .skipped, .unimplemented:
                    children.append(.result(tag: "skipped", attributes: [message], text: nil))
                case .pass, .nonStrict, .informational: break
                }
                var out =
                    "\(result.verdict.kind.rawValue) [\(result.level.rawValue)] \(result.title): \(result.verdict.reason)"
                if let path = result.cassettePath { out += "\ncassette: \(path)" }
                children.append(.systemOut(out))
                return JUnitDocument.TestCase(
                    attributes: [
                        .init("classname", group.rawValue), .init("name", result.id),
                        .init("time", "\(Self.rounded(result.seconds))"),
                    ], children: children)
            }
            let time = Attribute("time", "\(Self.rounded(members.reduce(0) { $0 + $1.seconds }))")
            suites.append(.init(attributes: [.init("name", group.title)] + counts(members) + [time], testCases: cases))
        }
        let time = Attribute("time", "\(Self.rounded(seconds))")
        return JUnitDocument(
            attributes: [.init("name", "mpin-workbench conform")] + counts(results) + [time], suites: suites
        ).xml
    }
}
