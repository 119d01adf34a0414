import Foundation
import TestSupport
import Testing

@testable import FlowRecording

/// `JUnitReport`: the document a CI system reads, checked by parsing it back with `XMLParser`.
@Suite struct JUnitReportTests {
    static let hostile = "expected <a & b> \"quoted\" 'single'\u{1B}[31m bell\u{07} nul\u{00} tab\there\r\nsecond line"

    func report() -> JUnitReport {
        JUnitReport(
            name: "replay",
            testCases: [
                .init(
                    name: "Recordings/otp.json", classname: "replay", duration: .milliseconds(1_234), outcome: .passed),
                .init(
                    name: "tampered <&> \"'.json", classname: "replay", duration: .microseconds(2_500),
                    outcome: .failed(
                        "tampered.json: request 3 differs\n  expected: a\n  actual:   b", type: "requestMismatch")),
                .init(
                    name: "missing.json", classname: "replay", duration: .zero,
                    outcome: .error(
                        "missing.json: cannot read: No such file or directory", type: "cassette: missingFile")),
                .init(
                    name: "steps", classname: "run", duration: .seconds(3), outcome: .passed,
                    output: "step 1 initialize: ok\nstep 2 <x>: ok"),
            ])
    }

    @Test func countsNamesAndTimesAsAReaderSeesThem() throws {
        let parsed = try JUnitXML(data: Data(report().xml.utf8))
        #expect(parsed.root.name == "testsuites")
        #expect(parsed.root["name"] == "mpin-workbench")
        #expect(parsed.root["tests"] == "4" && parsed.root["failures"] == "1" && parsed.root["errors"] == "1")
        #expect(parsed.root["time"] == "4.236")
        let suite = try #require(parsed.suites.first)
        #expect(parsed.suites.count == 1)
        #expect(suite["name"] == "replay")
        #expect(suite["tests"] == "4" && suite["failures"] == "1" && suite["errors"] == "1" && suite["skipped"] == "0")
        #expect(suite["time"] == "4.236")
        let cases = parsed.testCases
        #expect(cases.map { $0["name"] } == ["Recordings/otp.json", "tampered <&> \"'.json", "missing.json", "steps"])
        #expect(cases.map { $0["classname"] } == ["replay", "replay", "replay", "run"])
        #expect(cases.map { $0["time"] } == ["1.234", "0.002", "0.000", "3.000"])
        #expect(cases[0].children.isEmpty)
        let failure = try #require(cases[1].child("failure"))
        #expect(failure["message"] == "tampered.json: request 3 differs")
        #expect(failure["type"] == "requestMismatch")
        #expect(failure.text == "tampered.json: request 3 differs\n  expected: a\n  actual:   b")
        #expect(cases[1].child("error") == nil)
        let error = try #require(cases[2].child("error"))
        #expect(error["message"] == "missing.json: cannot read: No such file or directory")
        #expect(error["type"] == "cassette: missingFile")
        #expect(cases[2].child("failure") == nil)
        #expect(cases[3].child("system-out")?.text == "step 1 initialize: ok\nstep 2 <x>: ok")
    }

    /// The document byte for byte (what `JUnitDocument` writes for the commands' reports).
    @Test func theDocumentByteForByte() {
        #expect(
            report().xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="mpin-workbench" tests="4" failures="1" errors="1" time="4.236">
                  <testsuite name="replay" tests="4" failures="1" errors="1" skipped="0" time="4.236">
                    <testcase name="Recordings/otp.json" classname="replay" time="1.234"/>
                    <testcase name="tampered &lt;&amp;&gt; &quot;&apos;.json" classname="replay" time="0.002">
                      <failure message="tampered.json: request 3 differs" type="requestMismatch">tampered.json: request 3 differs
                  expected: a
                  actual:   b</failure>
                    </testcase>
                    <testcase name="missing.json" classname="replay" time="0.000">
                      <error message="missing.json: cannot read: No such file or directory" type="cassette: missingFile">missing.json: cannot read: No such file or directory</error>
                    </testcase>
                    <testcase name="steps" classname="run" time="3.000">
                      <system-out>step 1 initialize: ok
                step 2 &lt;x&gt;: ok</system-out>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func markupQuotesAndControlBytesAreEscaped() throws {
        let report = JUnitReport(
            name: "run <&>",
            testCases: [
                .init(
                    name: Self.hostile, classname: "c'\"", duration: .zero, outcome: .failed(Self.hostile, type: "<&>"))
            ])
        let xml = report.xml
        // No raw control byte other than tab, CR and LF reaches the file: XML 1.0 allows none.
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value) })
        let parsed = try JUnitXML(data: Data(xml.utf8))
        #expect(parsed.suites.first?["name"] == "run <&>")
        let testCase = try #require(parsed.testCases.first)
        let shown = "expected <a & b> \"quoted\" 'single'\\u{1B}[31m bell\\u{7} nul\\u{0} tab\there\r\nsecond line"
        #expect(testCase["name"] == shown)
        #expect(testCase["classname"] == "c'\"")
        let failure = try #require(testCase.child("failure"))
        #expect(failure["type"] == "<&>")
        #expect(failure["message"] == "expected <a & b> \"quoted\" 'single'\\u{1B}[31m bell\\u{7} nul\\u{0} tab\there")
        #expect(failure.text == shown)
    }

    @Test func charactersXMLDoesNotAllowAreWrittenVisibly() {
        #expect(JUnitReport.escaped("a\u{FFFE}b\u{FFFF}c\u{1F}", attribute: false) == "a\\u{FFFE}b\\u{FFFF}c\\u{1F}")
        #expect(JUnitReport.escaped("é\u{10000}\u{7F}", attribute: true) == "é\u{10000}\u{7F}")
        #expect(JUnitReport.escaped("a\tb\nc\rd", attribute: true) == "a&#9;b&#10;c&#13;d")
        #expect(JUnitReport.escaped("a\tb\nc\rd", attribute: false) == "a\tb\nc&#13;d")
        #expect(JUnitReport.escaped("]]>", attribute: false) == "]]&gt;")
    }

    @Test func secondsHaveThreeDecimals() {
        #expect(JUnitReport.seconds(.zero) == "0.000")
        #expect(JUnitReport.seconds(.nanoseconds(999_999)) == "0.000")
        #expect(JUnitReport.seconds(.milliseconds(7)) == "0.007")
        #expect(JUnitReport.seconds(.milliseconds(61_050)) == "61.050")
        #expect(JUnitReport.seconds(.seconds(-2)) == "0.000")
        #expect(JUnitReport.seconds(.seconds(86_400 * 365)) == "31536000.000")
    }

    @Test func anEmptyReportIsAValidDocument() throws {
        let parsed = try JUnitXML(data: Data(JUnitReport(name: "vectors verify").xml.utf8))
        #expect(parsed.root["tests"] == "0" && parsed.root["time"] == "0.000")
        #expect(parsed.suites.count == 1 && parsed.testCases.isEmpty)
    }

    @Test func writtenAtomicallyAndAnUnwritablePathIsNamed() throws {
        let directory = try TemporaryDirectory.make("junit-report")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.xml"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try report().write(to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == report().xml)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.xml"])

        let missing = directory + "/no/such/folder/report.xml"
        for (path, reason) in [(missing, "No such file or directory"), (directory, "not a regular file")] {
            do {
                try report().write(to: path)
                Issue.record("written to \(path)")
            } catch {
                #expect("\(error)".hasPrefix(path + ": "), "\(error)")
                #expect("\(error)".contains(reason), "\(error)")
            }
        }
    }
}
