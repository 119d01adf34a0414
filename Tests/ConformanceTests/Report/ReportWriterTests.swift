import Conformance
import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The report's writers: JUnit XML that a parser reads, JSON that reads back as it was, an HTML
/// page that fetches nothing and shows markup from a backend as text.
@Suite struct ReportWriterTests {
    static let hostile = "<script>alert('x')</script> & \"quotes\""

    static var report: ConformanceReport {
        let exchange = ExchangeSummary(
            actor: "sdk", method: "POST", url: "http://127.0.0.1:1/rps/pass1", requestBody: hostile,
            status: 500, responseBody: hostile + "\u{1}", error: nil)
        let results = [
            CaseResult(
                id: "pass2.single-use", title: "A replayed pass 2 is refused", group: .pass, level: .must,
                source: "docs/protocol.md §8.2", sends: "a replay", expects: "4xx",
                verdict: .fail("accepted " + hostile),
                seconds: 0.25, requests: 7, exchanges: [exchange], cassettePath: "/tmp/x/pass2.single-use.json"),
            CaseResult(
                id: "settings.reachable", title: "Settings", group: .settings, level: .should, source: "§2",
                sends: "GET",
                expects: "200", verdict: .nonStrict("text/plain"), seconds: 0.01, requests: 1, exchanges: []),
            CaseResult(
                id: "platform.service", title: "Service", group: .platform, level: .may, source: "§3.0",
                sends: "GET /service",
                expects: "200", verdict: .unimplemented("404"), seconds: 0.01, requests: 1, exchanges: []),
        ]
        return ConformanceReport(
            backendURL: "http://127.0.0.1:1", userPrefix: "conform-abcd", pattern: "pass2.*", rate: 5,
            requests: 9, seconds: 1.5, operatorEndpoints: false, results: results)
    }

    @Test func junitIsWellFormed() throws {
        let xml = try JUnitXML(data: Data(Self.report.junitXML.utf8))
        #expect(xml.root.name == "testsuites")
        #expect(xml.root["tests"] == "3")
        #expect(xml.root["failures"] == "1")
        let cases = xml.root.children("testsuite").flatMap { $0.children("testcase") }
        #expect(
            cases.map { $0["name"] ?? "" }.sorted() == ["pass2.single-use", "platform.service", "settings.reachable"])
        let failed = try #require(cases.first { $0["name"] == "pass2.single-use" })
        #expect(failed.child("failure")?["message"]?.contains(Self.hostile) == true)
        #expect(cases.first { $0["name"] == "platform.service" }?.child("skipped") != nil)
    }

    /// The JUnit document byte for byte (FlowRecording's `JUnitDocument` writes it).
    @Test func junitByteForByte() {
        #expect(
            Self.report.junitXML == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="mpin-workbench conform" tests="3" failures="1" skipped="1" time="1.5">
                  <testsuite name="Client settings" tests="1" failures="0" skipped="0" time="0.01">
                    <testcase classname="settings" name="settings.reachable" time="0.01">
                      <system-out>non-strict [SHOULD] Settings: text/plain</system-out>
                    </testcase>
                  </testsuite>
                  <testsuite name="Pass 1 and pass 2" tests="1" failures="1" skipped="0" time="0.25">
                    <testcase classname="pass" name="pass2.single-use" time="0.25">
                      <failure message="MUST: accepted &lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;quotes&quot;" type="MUST"/>
                      <system-out>fail [MUST] A replayed pass 2 is refused: accepted &lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;quotes&quot;
                cassette: /tmp/x/pass2.single-use.json</system-out>
                    </testcase>
                  </testsuite>
                  <testsuite name="MFA platform endpoints" tests="1" failures="0" skipped="1" time="0.01">
                    <testcase classname="platform" name="platform.service" time="0.01">
                      <skipped message="MAY: 404"/>
                      <system-out>unimplemented [MAY] Service: 404</system-out>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func jsonReadsBack() throws {
        let report = Self.report
        let read = try ConformanceReport(json: try JSONParser.parse(report.jsonText))
        #expect(read.jsonText == report.jsonText)
        #expect(read.results.map(\.verdict) == report.results.map(\.verdict))
        #expect(read.results[0].exchanges == report.results[0].exchanges)
    }

    @Test func jsonWithAMissingFieldNamesIt() throws {
        var json = Self.report.json
        if case .object(var members) = json {
            members.removeAll { $0.name == "backend" }
            json = .object(members)
        }
        #expect(throws: ConformanceReportError.read("$.backend", "a string is required")) {
            try ConformanceReport(json: json)
        }
    }

    @Test func htmlIsSelfContainedAndEscaped() {
        let html = Self.report.html
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;"))
        #expect(
            !html.contains("src=") && !html.contains("href=\"http") && !html.contains("@import")
                && !html.contains("url("))
        #expect(html.contains("href=\"#case-pass2.single-use\""))
        #expect(html.contains("id=\"case-pass2.single-use\""))
    }

    @Test func terminalSummaryCountsByLevel() {
        let text = Self.report.terminalSummary()
        #expect(text.contains("1 MUST case(s) failed"))
        #expect(text.contains("conform-abcd-"))
    }
}
