import CLibYAML

/// The shape of a YAML (or JSON) text, measured on libyaml's event stream before any tree is built
/// from it: how deep its mappings and lists nest, and how many values and bytes of scalar text it
/// holds once every alias is written out.
///
/// The composer builds the tree recursively, one stack frame per level, so text nested a few
/// thousand levels deep would exhaust the stack; and an alias is a reference that the script's JSON
/// form (the copy a cassette keeps) writes out in full, so anchors nested a few levels deep ("billion
/// laughs") would expand to gigabytes. libyaml's parser keeps its own state on the heap, so measuring
/// its events is safe for any input. A syntax error stops the measure; the composer then reports it.
struct YAMLShape {
    /// A limit passed: which, and the line (1-based) where it was passed.
    enum Excess: Equatable {
        case depth(line: Int)
        case values(line: Int)
        case expandedBytes(line: Int)
    }

    /// What a node holds once its aliases are written out.
    private struct Size {
        var values = 0
        var bytes = 0

        /// Adds `other`, saturating at `Int.max` (nested aliases multiply).
        mutating func add(_ other: Size) {
            values = values.addingReportingOverflow(other.values).overflow ? .max : values + other.values
            bytes = bytes.addingReportingOverflow(other.bytes).overflow ? .max : bytes + other.bytes
        }
    }

    /// The first limit `text` passes, nil when it passes none (or when its syntax is broken before
    /// it does, which the composer reports).
    static func firstExcess(in text: String, maximumDepth: Int, maximumValues: Int, maximumExpandedBytes: Int)
        -> Excess?
    {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeMutableBufferPointer { buffer -> Excess? in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // One entry per open mapping or list (and one for the document): its size so far and its anchor.
            var open: [(size: Size, anchor: String?)] = [(Size(), nil)]
            var anchors: [String: Size] = [:]
            var total = Size()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                var finished: (size: Size, anchor: String?)?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    if open.count > maximumDepth { return .depth(line: line) }
                    let anchor =
                        event.type == YAML_SEQUENCE_START_EVENT
                        ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                    open.append((Size(values: 1), anchor.map { String(cString: $0) }))
                    total.add(Size(values: 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard open.count > 1 else { return nil }
                    finished = open.removeLast()
                case YAML_SCALAR_EVENT:
                    let size = Size(values: 1, bytes: Int(event.data.scalar.length))
                    total.add(size)
                    finished = (size, event.data.scalar.anchor.map { String(cString: $0) })
                case YAML_ALIAS_EVENT:
                    let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
                    let size = anchors[name] ?? Size(values: 1)
                    total.add(size)
                    finished = (size, nil)
                default:
                    break
                }
                if let (size, anchor) = finished {
                    if let anchor { anchors[anchor] = size }
                    open[open.count - 1].size.add(size)
                }
                if total.values > maximumValues { return .values(line: line) }
                if total.bytes > maximumExpandedBytes { return .expandedBytes(line: line) }
            }
        }
    }
}
