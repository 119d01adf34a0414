import FileAccess

/// A JUnit XML report, as CI systems read test results: the `--junit FILE` of `replay`,
/// `vectors verify`, `run` and `serve --cassette`.
///
/// The shape is the common one of Ant's JUnit report (what Jenkins, GitLab and GitHub's test
/// reporters read), one `<testsuite>` per command:
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="mpin-workbench" tests="2" failures="1" errors="0" time="0.412">
///   <testsuite name="replay" tests="2" failures="1" errors="0" skipped="0" time="0.412">
///     <testcase name="Recordings/otp.json" classname="replay" time="0.201"/>
///     <testcase name="tampered.json" classname="replay" time="0.211">
///       <failure message="the first line of the report" type="requestMismatch">the whole report</failure>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// A failed check is a `<failure>`, an input that could not be read (or a run that could not start)
/// an `<error>`; either's `message` is the first line of its text, the text the whole of it.
/// Times are in seconds with three decimals. Text and attributes are escaped for XML 1.0
/// (`escaped(_:attribute:)`): `&`, `<`, `>`, quotes, and characters XML 1.0 does not allow
/// (control characters other than tab, line feed and carriage return; U+FFFE, U+FFFF) written as
/// the visible text `\u{1B}`, so that any reader parses the file and nothing is silently dropped.
package struct JUnitReport: Sendable, Hashable {
    /// One test case: a cassette, a vector group, a scenario, a served cassette.
    package struct TestCase: Sendable, Hashable {
        /// How a test case ended.
        package enum Outcome: Sendable, Hashable {
            case passed
            /// A check failed: the report, as the command prints it; `type` the kind of failure.
            case failed(String, type: String?)
            /// The input could not be read, or the run could not start.
            case error(String, type: String?)
        }

        package var name: String
        package var classname: String
        package var duration: Duration
        package var outcome: Outcome
        /// What the command printed for this case, as `<system-out>` (nil: none).
        package var output: String?

        package init(name: String, classname: String, duration: Duration, outcome: Outcome, output: String? = nil) {
            self.name = name
            self.classname = classname
            self.duration = duration
            self.outcome = outcome
            self.output = output
        }
    }

    /// The `<testsuites>` name.
    package static let toolName = "mpin-workbench"

    /// The `<testsuite>` name: the command (`replay`, `vectors verify`, ...).
    package var name: String
    package var testCases: [TestCase]

    package init(name: String, testCases: [TestCase] = []) {
        self.name = name
        self.testCases = testCases
    }

    package mutating func append(_ testCase: TestCase) { testCases.append(testCase) }

    package var failures: Int {
        testCases.count(where: { if case .failed = $0.outcome { true } else { false } })
    }

    package var errors: Int {
        testCases.count(where: { if case .error = $0.outcome { true } else { false } })
    }

    /// The sum of the test cases' durations.
    package var duration: Duration { testCases.reduce(.zero) { $0 + $1.duration } }

    /// The XML document, ending with a line feed (written by `JUnitDocument`).
    package var xml: String {
        let counts = [
            JUnitDocument.Attribute("tests", String(testCases.count)), .init("failures", String(failures)),
            .init("errors", String(errors)),
        ]
        let time = JUnitDocument.Attribute("time", Self.seconds(duration))
        let cases = testCases.map { testCase in
            var children: [JUnitDocument.Child] = []
            switch testCase.outcome {
            case .passed:
                break
            case .failed(let text, let type):
                children.append(Self.element("failure", text: text, type: type))
            case .error(let text, let type):
                children.append(Self.element("error", text: text, type: type))
            }
            if let output = testCase.output { children.append(.systemOut(output)) }
            return JUnitDocument.TestCase(
                attributes: [
                    .init("name", testCase.name), .init("classname", testCase.classname),
                    .init("time", Self.seconds(testCase.duration)),
                ], children: children)
        }
        let suite = JUnitDocument.Suite(
            attributes: [.init("name", name)] + counts + [.init("skipped", "0"), time], testCases: cases)
        return JUnitDocument(attributes: [.init("name", Self.toolName)] + counts + [time], suites: [suite]).xml
    }

    /// Writes the document to `path` through the package's atomic writer (`AtomicFile`).
    package func write(to path: String) throws(FileAccessError) {
        try AtomicFile.write(Array(xml.utf8), to: path)
    }

    /// `<failure message="first line" type="...">text</failure>`.
    static func element(_ tag: String, text: String, type: String?) -> JUnitDocument.Child {
        let firstLine =
            text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(
                String.init) ?? ""
        return .result(
            tag: tag, attributes: [.init("message", firstLine)] + (type.map { [.init("type", $0)] } ?? []), text: text)
    }

    /// `duration` in seconds with three decimals (`12.034`); a negative duration is `0.000`.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        guard whole >= 0, attoseconds >= 0 else { return "0.000" }
        let milliseconds = attoseconds / 1_000_000_000_000_000
        let fraction = String(milliseconds)
        return "\(whole)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `text` made safe for XML 1.0 content or a quoted attribute value (`XMLText.escaped`).
    package static func escaped(_ text: String, attribute: Bool) -> String {
        XMLText.escaped(text, attribute: attribute)
    }
}
