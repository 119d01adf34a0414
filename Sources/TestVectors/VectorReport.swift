import MPinCrypto

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

/// One field of one vector that did not match.
public struct FieldFailure: Sendable, Equatable {
    public var vector: String
    public var line: Int
    public var field: String
    public var expected: String
    public var actual: String
    public init(vector: String, line: Int, field: String, expected: String, actual: String) {
        self.vector = vector
        self.line = line
        self.field = field
        self.expected = expected
        self.actual = actual
    }
}

/// The verdict on one vector (one block, one JSON entry): passed when `failures` is empty.
public struct VectorVerdict: Sendable, Equatable {
    public var vector: String
    public var line: Int
    public var checkedFields: Int
    public var failures: [FieldFailure]
    public var passed: Bool { failures.isEmpty }
    public init(vector: String, line: Int, checkedFields: Int, failures: [FieldFailure]) {
        self.vector = vector
        self.line = line
        self.checkedFields = checkedFields
        self.failures = failures
    }
}

/// The verdicts on one file.
public struct FileReport: Sendable, Equatable {
    public var file: String
    public var format: String
    public var curve: CurveID
    public var verdicts: [VectorVerdict]
    public var passed: Int { verdicts.filter(\.passed).count }
    public var failed: Int { verdicts.count - passed }
    public init(file: String, format: String, curve: CurveID, verdicts: [VectorVerdict]) {
        self.file = file
        self.format = format
        self.curve = curve
        self.verdicts = verdicts
    }
}

/// A vector file that cannot be read: missing, not UTF-8, malformed, or of no known format.
public struct VectorFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
