import CLibYAML
import Foundation

/// Reads YAML (or JSON, which YAML reads too) into a `YAMLNode` tree on libyaml's event parser: the
/// one YAML reader of the package, for scenario scripts and for the repository's own YAML files in
/// the tests.
///
/// It keeps every scalar as text (a script's values are text until an action reads them) and
/// replaces an alias by the node its anchor names. A text with no document reads as nil; a text
/// with more than one is an error. It composes recursively, one stack frame per level: a script is
/// measured first (`YAMLShape`), so that only text nested no deeper than `ScriptLimits.maximumDepth`
/// reaches it.
package enum YAMLReader {
    /// The single document of `text`, nil when it has none.
    package static func compose(_ text: String) throws(YAMLError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        let composed = bytes.withUnsafeBufferPointer { buffer -> Result<YAMLNode?, YAMLError> in
            let composer = Composer(text: text)
            return Result { () throws(YAMLError) in try composer.singleDocument(buffer) }
        }
        return try composed.get()
    }

    /// libyaml's parser, the anchors seen so far, and the text (for a reader error's place).
    private final class Composer {
        let text: String
        var parser = yaml_parser_t()
        var anchors: [String: YAMLNode] = [:]
        /// Whether `parser` was initialised (and so is deleted with the composer).
        var initialised = false

        init(text: String) { self.text = text }

        deinit { if initialised { yaml_parser_delete(&parser) } }

        /// The one document of the stream: the first, then an error if another follows.
        func singleDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> YAMLNode? {
            guard yaml_parser_initialize(&parser) == 1 else { throw YAMLError(problem: "Memory error") }
            initialised = true
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            _ = try next()  // the stream's start
            guard try next().type != YAML_STREAM_END_EVENT else { return nil }
            let root = try node(from: try next())
            _ = try next()  // the document's end
            let after = try next()
            guard after.type == YAML_STREAM_END_EVENT else {
                throw YAMLError(problem: "but found another document", mark: after.mark)
            }
            return root
        }

        /// The node that starts with `event`, and everything in it.
        func node(from event: Event) throws(YAMLError) -> YAMLNode {
            let node: YAMLNode
            switch event.type {
            case YAML_ALIAS_EVENT:
                guard let anchored = anchors[event.anchor ?? ""] else {
                    throw YAMLError(problem: "found undefined alias", mark: event.mark)
                }
                return anchored
            case YAML_SCALAR_EVENT:
                node = .scalar(.init(string: event.value, tag: event.tag, isPlain: event.isPlain, mark: event.mark))
            case YAML_SEQUENCE_START_EVENT:
                var nodes: [YAMLNode] = []
                var item = try next()
                while item.type != YAML_SEQUENCE_END_EVENT {
                    nodes.append(try self.node(from: item))
                    item = try next()
                }
                node = .sequence(.init(nodes: nodes, tag: event.tag, mark: event.mark))
            default:  // YAML_MAPPING_START_EVENT: the parser gives nothing else where a node starts
                var pairs: [(key: YAMLNode, value: YAMLNode)] = []
                var key = try next()
                while key.type != YAML_MAPPING_END_EVENT {
                    let keyNode = try self.node(from: key)
                    pairs.append((keyNode, try self.node(from: try next())))
                    key = try next()
                }
                node = .mapping(.init(pairs: pairs, tag: event.tag, mark: event.mark))
            }
            // An anchor names its node once the node is complete: an alias inside it is undefined.
            if let anchor = event.anchor { anchors[anchor] = node }
            return node
        }

        /// The parser's next event, or its error.
        func next() throws(YAMLError) -> Event {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw failure() }
            defer { yaml_event_delete(&event) }
            return Event(event)
        }

        /// The parser's error: its problem and place (the reader's names its place in the problem).
        func failure() -> YAMLError {
            let problem = parser.problem.map { String(cString: $0) } ?? ""
            switch parser.error {
            case YAML_READER_ERROR:
                return YAMLError(
                    problem: Self.readerProblem(
                        problem, byteOffset: Int(parser.problem_offset), value: parser.problem_value,
                        in: text))
            case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
                let mark = parser.problem_mark
                return YAMLError(
                    problem: problem, mark: YAMLNode.Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
            default:
                return YAMLError(problem: "Memory error")
            }
        }

        /// A character the reader refuses, at `byteOffset` of `text`: `line:column: error: reader:
        /// PROBLEM:`, the line, and a caret under the character (the column in UTF-16 units, as
        /// scripts' errors have always shown it); the offset and the character's value when the
        /// offset is not at a character of the text.
        static func readerProblem(_ problem: String, byteOffset: Int, value: Int32, in text: String) -> String {
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: byteOffset, limitedBy: text.utf8.endIndex)?
                .samePosition(in: text)
            guard let index else {
                let offset = index.map { text.distance(from: text.startIndex, to: $0) }
                return "\(problem) at offset: \(String(describing: offset)), value: \(value)"
            }
            var lineNumber = 0
            var start = text.startIndex, end = text.startIndex, contentsEnd = text.startIndex
            var here = text.startIndex..<text.startIndex
            text.getLineStart(&start, end: &end, contentsEnd: &contentsEnd, for: here)
            while end <= index && end < text.endIndex {
                lineNumber += 1
                here = end..<end
                text.getLineStart(&start, end: &end, contentsEnd: &contentsEnd, for: here)
            }
            let column = text.utf16.distance(from: start, to: index)
            var contents = String(text[start..<end])
            if !(contents.unicodeScalars.last.map(CharacterSet.newlines.contains) ?? false) { contents += "\n" }
            return "\(lineNumber + 1):\(column + 1): error: reader: \(problem):\n" + contents
                + String(repeating: " ", count: column) + "^"
        }
    }

    /// What the composer reads of one libyaml event, copied out before the event is freed.
    private struct Event {
        var type: yaml_event_type_t
        var mark: YAMLNode.Mark
        /// A node's anchor, or the anchor an alias names.
        var anchor: String?
        /// The tag written (`YAMLNode.stringTag` for a quoted scalar without one), nil for none.
        var tag: String?
        /// A scalar's text.
        var value = ""
        var isPlain = false

        init(_ event: yaml_event_t) {
            type = event.type
            mark = YAMLNode.Mark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            switch event.type {
            case YAML_ALIAS_EVENT:
                anchor = Self.text(event.data.alias.anchor)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                anchor = Self.text(scalar.anchor)
                tag = scalar.quoted_implicit == 1 ? YAMLNode.stringTag : Self.text(scalar.tag)
                // A scalar may hold NUL characters: its length, not its terminator, ends it.
                value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            case YAML_SEQUENCE_START_EVENT:
                let start = event.data.sequence_start
                anchor = Self.text(start.anchor)
                tag = start.implicit != 0 ? nil : Self.text(start.tag)
            case YAML_MAPPING_START_EVENT:
                let start = event.data.mapping_start
                anchor = Self.text(start.anchor)
                tag = start.implicit != 0 ? nil : Self.text(start.tag)
            default:
                break
            }
        }

        /// An anchor's or a tag's text (invalid UTF-8 repaired).
        static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafePointer($0)) }
        }
    }
}
