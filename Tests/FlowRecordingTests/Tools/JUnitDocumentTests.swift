import Testing

@testable import FlowRecording

/// `JUnitDocument`, the one writer of the package's JUnit files: its lines, byte for byte.
@Suite struct JUnitDocumentTests {
    @Test func writesOneElementALineWithTheCallersAttributes() {
        let document = JUnitDocument(
            attributes: [.init("name", "t <&>"), .init("tests", "3")],
            suites: [
                .init(
                    attributes: [.init("name", "s"), .init("time", "0.5")],
                    testCases: [
                        .init(attributes: [.init("classname", "c"), .init("name", "empty")]),
                        .init(
                            attributes: [.init("name", "failed")],
                            children: [
                                .result(
                                    tag: "failure", attributes: [.init("message", "a\nb"), .init("type", "t")],
                                    text: "a\nb"),
                                .systemOut("out & \"more\""),
                            ]),
                        .init(
                            attributes: [.init("name", "skipped")],
                            children: [.result(tag: "skipped", attributes: [.init("message", "m")], text: nil)]),
                    ]),
                .init(attributes: [.init("name", "none")], testCases: []),
            ])
        #expect(
            document.xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="t &lt;&amp;&gt;" tests="3">
                  <testsuite name="s" time="0.5">
                    <testcase classname="c" name="empty"/>
                    <testcase name="failed">
                      <failure message="a&#10;b" type="t">a
                b</failure>
                      <system-out>out &amp; &quot;more&quot;</system-out>
                    </testcase>
                    <testcase name="skipped">
                      <skipped message="m"/>
                    </testcase>
                  </testsuite>
                  <testsuite name="none">
                  </testsuite>
                </testsuites>

                """)
    }

    @Test func anEmptyDocument() {
        #expect(
            JUnitDocument(attributes: [], suites: []).xml
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n</testsuites>\n")
    }
}
