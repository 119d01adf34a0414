/// One `KEY = value` block of an AMCL text vector file (`.txt`).
///
/// AMCL's M-Pin files write `KEY = value,` (trailing comma) with blocks separated by blank lines;
/// its arithmetic files write `KEY = value` with `# test N` comments between blocks. The reader
/// strips the trailing comma and keeps the 1-based line of every field so that verdicts can point
/// at the file.
public struct AMCLBlock: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
        public init(key: String, value: String, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }
    /// A name for the block in reports: `test 3`, `TEST_NO 17`, or `block 5` when the file names none.
    public var name: String
    /// 1-based line of the block's first field.
    public var line: Int
    public var fields: [Field]
    /// Fields the file has commented out inside the block (`#FPexp = …`): values it withholds on
    /// purpose, so the checkers do not ask for them (they are not read either).
    public var withheld: [Field]
    public init(name: String, line: Int, fields: [Field], withheld: [Field] = []) {
        self.name = name
        self.line = line
        self.fields = fields
        self.withheld = withheld
    }
    public subscript(key: String) -> Field? { fields.first { $0.key == key } }
    /// Whether the file has commented `key` out in this block.
    public func withholds(_ key: String) -> Bool { withheld.contains { $0.key == key } }
}
