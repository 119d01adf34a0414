import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A JUnit XML report (`--junit FILE`) read back with Foundation's `XMLParser`, so that the tests
/// check what a CI system would read: the elements, their attributes and their text after the
/// parser has resolved every entity and character reference.
package struct JUnitXML {
    /// One element: its name, attributes, child elements, and its own text (all text nodes joined).
    package struct Element {
        package var name: String
        package var attributes: [String: String]
        package var children: [Element] = []
        package var text = ""

        package subscript(_ attribute: String) -> String? { attributes[attribute] }

        /// The child elements named `name`.
        package func children(_ name: String) -> [Element] { children.filter { $0.name == name } }

        /// The first child element named `name`.
        package func child(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    /// What the parser refused, with its line and column.
    package struct ParseError: Error, CustomStringConvertible {
        package var description: String
    }

    /// `<testsuites>`.
    package var root: Element

    /// Parses `data`; throws when it is not well-formed XML.
    package init(data: Data) throws {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseError(
                description: "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber): "
                    + "\(parser.parserError.map { "\($0)" } ?? "no root element")")
        }
        self.root = root
    }

    /// Parses the file at `path`.
    package init(contentsOf path: String) throws {
        try self.init(data: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The `<testsuite>` elements.
    package var suites: [Element] { root.children("testsuite") }

    /// Every `<testcase>`, in order.
    package var testCases: [Element] { suites.flatMap { $0.children("testcase") } }

    /// Builds the element tree from the parser's callbacks.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            stack.append(Element(name: elementName, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
