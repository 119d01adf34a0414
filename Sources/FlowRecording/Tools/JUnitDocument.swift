/// The text of a JUnit XML document, the one writer of the package's JUnit files: the commands'
/// `--junit` (`JUnitReport`) and the conformance report's (`conform --junit`) build one and take
/// its `xml`.
///
/// The writer fixes the shape: the XML declaration, `<testsuites>` holding `<testsuite>`s holding
/// `<testcase>`s, two spaces of indent a level, one element a line, a test case with nothing in it
/// closed as `<testcase …/>`, and every attribute value and text escaped for XML 1.0
/// (`XMLText.escaped`). What the attributes are, and in what order, is the caller's: the two
/// reports count differently (`errors`, `skipped`) and name their cases in a different order.
package struct JUnitDocument: Sendable, Hashable {
    /// An attribute, written `name="value"` with the value escaped.
    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What a test case holds, each on its own line.
    package enum Child: Sendable, Hashable {
        /// `<failure …>text</failure>`, `<error …/>`, `<skipped …/>`: `tag` with its attributes,
        /// and the text when there is one (self-closing without).
        case result(tag: String, attributes: [Attribute], text: String?)
        /// `<system-out>text</system-out>`.
        case systemOut(String)
    }

    /// A `<testcase>`.
    package struct TestCase: Sendable, Hashable {
        package var attributes: [Attribute]
        package var children: [Child]

        package init(attributes: [Attribute], children: [Child] = []) {
            self.attributes = attributes
            self.children = children
        }
    }

    /// A `<testsuite>`.
    package struct Suite: Sendable, Hashable {
        package var attributes: [Attribute]
        package var testCases: [TestCase]

        package init(attributes: [Attribute], testCases: [TestCase]) {
            self.attributes = attributes
            self.testCases = testCases
        }
    }

    /// The attributes of `<testsuites>`.
    package var attributes: [Attribute]
    package var suites: [Suite]

    package init(attributes: [Attribute], suites: [Suite]) {
        self.attributes = attributes
        self.suites = suites
    }

    /// The XML document, one element a line, ending with a line feed.
    package var xml: String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, Self.opening("testsuites", attributes) + ">"]
        for suite in suites {
            lines.append("  " + Self.opening("testsuite", suite.attributes) + ">")
            for testCase in suite.testCases {
                let opening = "    " + Self.opening("testcase", testCase.attributes)
                guard !testCase.children.isEmpty else {
                    lines.append(opening + "/>")
                    continue
                }
                lines.append(opening + ">")
                for child in testCase.children {
                    switch child {
                    case .result(let tag, let attributes, let text?):
                        lines.append("      " + Self.opening(tag, attributes) + ">" + Self.content(text) + "</\(tag)>")
                    case .result(let tag, let attributes, nil):
                        lines.append("      " + Self.opening(tag, attributes) + "/>")
                    case .systemOut(let text):
                        lines.append("      <system-out>" + Self.content(text) + "</system-out>")
                    }
                }
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<tag name="value" …`, without the closing `>`.
    private static func opening(_ tag: String, _ attributes: [Attribute]) -> String {
        "<" + tag + attributes.map { " \($0.name)=\"\(XMLText.escaped($0.value, attribute: true))\"" }.joined()
    }

    private static func content(_ text: String) -> String { XMLText.escaped(text, attribute: false) }
}
