/// A YAML node as `YAMLReader` composes it from libyaml's events: a scalar (its text, every scalar
/// kept as text), a list or a mapping (its pairs in the order written), each with the place where
/// it starts and the tag it was given.
///
/// An alias is replaced by the node its anchor names, place included.
package enum YAMLNode: Sendable {
    case scalar(Scalar)
    case sequence(Sequence)
    case mapping(Mapping)

    /// `tag:yaml.org,2002:str`: the tag of a quoted scalar, and the one a name looked up has.
    package static let stringTag = "tag:yaml.org,2002:str"
    /// `tag:yaml.org,2002:value` (YAML 1.1's `=` key): a mapping with a key of this tag reads as that key's value.
    package static let valueTag = "tag:yaml.org,2002:value"

    package struct Scalar: Sendable {
        package var string: String
        /// The tag written (`!!str`, `!local`), `stringTag` for a quoted scalar without one, nil for a plain one.
        package var tag: String?
        /// Written without quotes (and not as a block): YAML resolves such text to a type (`true`, `1`, `null`).
        package var isPlain: Bool
        package var mark: Mark
    }

    package struct Sequence: Sendable {
        package var nodes: [YAMLNode]
        /// The tag written, nil for none.
        package var tag: String?
        package var mark: Mark
    }

    /// A mapping's pairs, in the order written; a name's value is found with `mapping["name"]`.
    package struct Mapping: Sendable, RandomAccessCollection {
        package var pairs: [(key: YAMLNode, value: YAMLNode)]
        /// The tag written, nil for none.
        package var tag: String?
        package var mark: Mark

        package var startIndex: Int { pairs.startIndex }
        package var endIndex: Int { pairs.endIndex }
        package subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { pairs[position] }

        /// The value of the last key that is the scalar `name` read as a string: plain, quoted, or
        /// tagged `!!str` or `!`. `name` is a name (letters and digits, as every key looked up is), which
        /// plain YAML reads as a string too; a key tagged otherwise (`!!int`, `!local`) is another key.
        package subscript(name: String) -> YAMLNode? {
            pairs.last { pair in
                guard case .scalar(let key) = pair.key, key.string == name else { return false }
                return key.tag == nil || key.tag == "!" || key.tag == YAMLNode.stringTag
            }?.value
        }
    }

    package var mark: Mark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .sequence(let sequence): sequence.mark
        case .mapping(let mapping): mapping.mark
        }
    }

    /// The tag written on the node (`stringTag` for a quoted scalar), nil for none.
    package var tag: String? {
        switch self {
        case .scalar(let scalar): scalar.tag
        case .sequence(let sequence): sequence.tag
        case .mapping(let mapping): mapping.tag
        }
    }

    package var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    package var sequence: [YAMLNode]? {
        if case .sequence(let sequence) = self { return sequence.nodes }
        return nil
    }

    package var mapping: Mapping? {
        if case .mapping(let mapping) = self { return mapping }
        return nil
    }

    /// The node as text: a scalar's; for a mapping, the text of the value of its first value key
    /// (YAML 1.1's `=`: a plain `=` or a key tagged `!!value`); nil otherwise.
    package var string: String? {
        switch self {
        case .scalar(let scalar): scalar.string
        case .sequence: nil
        case .mapping(let mapping): mapping.first(where: { $0.key.isValueKey })?.value.string
        }
    }

    /// Whether the node is YAML 1.1's value key: a plain `=`, or tagged `!!value`.
    var isValueKey: Bool {
        tag == YAMLNode.valueTag || scalar.map { $0.tag == nil && $0.isPlain && $0.string == "=" } == true
    }

    /// The value of `name` when the node is a mapping (`Mapping`'s subscript).
    package subscript(name: String) -> YAMLNode? { mapping?[name] }

    /// A place in YAML text: the line and the column, both from 1, the column counted in Unicode scalars.
    package struct Mark: Sendable, Hashable, CustomStringConvertible {
        package var line: Int
        package var column: Int

        package init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`.
        package var description: String { "\(line):\(column)" }
    }
}
