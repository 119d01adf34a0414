/// An ordered list of HTTP header fields.
///
/// Order and spelling are kept exactly as given (requests) or received (responses); lookups compare
/// names case-insensitively in ASCII, as HTTP does (RFC 9110 §5.1: names are tokens): "content-type"
/// matches "Content-Type", but no other character folds ("\u{212A}" KELVIN SIGN is not "k"). A name
/// may occur more than once.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The value of the first field with this name (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// All values of the fields with this name (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether two field names are equal ignoring ASCII case, byte by byte.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
        }
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends a field only when no field of that name exists ("put if absent", as the C++ `StringMap::Put`).
    public mutating func addIfAbsent(name: String, value: String) {
        if !contains(name) { append(name: name, value: value) }
    }

    /// Replaces every field of that name with one field, at the position of the first one (or at the end).
    public mutating func set(name: String, value: String) {
        guard let first = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
            append(name: name, value: value)
            return
        }
        fields[first] = Field(name: name, value: value)
        var index = fields.count - 1
        while index > first {
            if Self.sameName(fields[index].name, name) { fields.remove(at: index) }
            index -= 1
        }
    }

    /// Removes every field with this name.
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
