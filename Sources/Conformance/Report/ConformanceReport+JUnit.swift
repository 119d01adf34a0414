import FlowRecording

/// The report as JUnit XML (`--junit`): one `testsuite` per group, one `testcase` per case
/// (`classname` the group, `name` the case id); `fail` is a `failure`, `unimplemented` and
/// `skipped` are `skipped`, the reason of every verdict is in `system-out`.
extension ConformanceReport {
    public var junitXML: String {
        func attribute(_ text: String) -> String { XMLText.escaped(text, attribute: true) }
        func content(_ text: String) -> String { XMLText.escaped(text, attribute: false) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = count(.fail)
        let skipped = count(.skipped) + count(.unimplemented)
        xml += "<testsuites name=\"mpin-workbench conform\" tests=\"\(results.count)\" failures=\"\(failures)\" "
            + "skipped=\"\(skipped)\" time=\"\(Self.rounded(seconds))\">\n"
        for group in ConformanceGroup.allCases {
            let members = results.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            let groupFailures = members.filter { $0.verdict.kind == .fail }.count
            let groupSkipped = members.filter { [.skipped, .unimplemented].contains($0.verdict.kind) }.count
            let time = Self.rounded(members.reduce(0) { $0 + $1.seconds })
            xml += "  <testsuite name=\"\(attribute(group.title))\" tests=\"\(members.count)\" failures=\"\(groupFailures)\" "
                + "skipped=\"\(groupSkipped)\" time=\"\(time)\">\n"
            for result in members {
                xml += "    <testcase classname=\"\(attribute(group.rawValue))\" name=\"\(attribute(result.id))\" "
                    + "time=\"\(Self.rounded(result.seconds))\">\n"
                let message = attribute("\(result.level.rawValue): \(result.verdict.reason)")
                switch result.verdict.kind {
                case .fail: xml += "      <failure message=\"\(message)\" type=\"\(result.level.rawValue)\"/>\n"
                case .skipped, .unimplemented: xml += "      <skipped message=\"\(message)\"/>\n"
                case .pass, .nonStrict, .informational: break
                }
                var out = "\(result.verdict.kind.rawValue) [\(result.level.rawValue)] \(result.title): \(result.verdict.reason)"
                if let path = result.cassettePath { out += "\ncassette: \(path)" }
                xml += "      <system-out>\(content(out))</system-out>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}
