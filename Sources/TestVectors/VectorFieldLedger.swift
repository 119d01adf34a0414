import MPinCrypto
/// What a checker could compute for one field.
enum Computation<Value> {
    /// An input was missing from the vector: nothing to compare, the file's value is taken as given.
    case unavailable
    /// The computation ran and refused its inputs (for example a point that does not decode).
    case rejected(String)
    case value(Value)

    /// Wraps a result of the crypto core, where nil means an input point did not decode.
    init(_ result: Value?, rejection: String = Computation.invalidPoint) {
        self = result.map(Computation.value) ?? .rejected(rejection)
    }

    static var invalidPoint: String { "rejected: an input point does not decode (MPIN_INVALID_POINT)" }

    func map<T>(_ transform: (Value) -> T) -> Computation<T> {
        switch self {
        case .unavailable: .unavailable
        case .rejected(let why): .rejected(why)
        case .value(let value): .value(transform(value))
        }
    }

    /// Like `map`, with `rejection` as the reason when `transform` gives nil.
    func flatMap<T>(rejection: String, _ transform: (Value) -> T?) -> Computation<T> {
        switch self {
        case .unavailable: .unavailable
        case .rejected(let why): .rejected(why)
        case .value(let value): Computation<T>(transform(value), rejection: rejection)
        }
    }
}

/// Runs `body` when every input is present, else gives `.unavailable`; nil from `body` is `.rejected`.
func whenPresent<each Input, Result>(
    _ inputs: repeat (each Input)?, compute body: (repeat each Input) -> Result?
) -> Computation<Result> {
    for input in repeat each inputs {
        if input == nil { return .unavailable }
    }
    return Computation(body(repeat (each inputs)!))
}

/// The checks made on one vector: which fields were compared, which did not match, which were used.
///
/// Checkers chain their own results: a derived field is compared with the file and the computed
/// value (not the file's) feeds the next step, so one wrong field in a file fails that field only.
/// When a field cannot be computed (an input is missing from the vector), the file's value is taken
/// as given and used downstream.
struct VectorFieldLedger {
    let block: AMCLBlock
    private(set) var failures: [FieldFailure] = []
    private(set) var checkedFields = 0
    private(set) var usedKeys: Set<String> = []

    init(block: AMCLBlock) {
        self.block = block
    }

    var verdict: VectorVerdict {
        VectorVerdict(vector: block.name, line: block.line, checkedFields: checkedFields, failures: failures)
    }

    /// Keys of the vector that no check read.
    var unusedKeys: [String] { block.fields.map(\.key).filter { !usedKeys.contains($0) } }

    func has(_ key: String) -> Bool { block[key] != nil }

    /// The first of `keys` that the vector has.
    func firstKey(of keys: [String]) -> String? { keys.first(where: has) }

    /// Marks fields that only name or number the vector.
    mutating func label(_ keys: String...) {
        for key in keys where has(key) { usedKeys.insert(key) }
    }

    /// An input given as hex; a value that is not hex is a failure of that field.
    mutating func bytes(_ key: String) -> [UInt8]? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        guard let bytes = Hex.decode(field.value) else {
            fail(field, actual: "not hexadecimal bytes")
            return nil
        }
        return bytes
    }

    /// An input given as a decimal integer.
    mutating func integer(_ key: String) -> Int? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        guard let value = Int(field.value) else {
            fail(field, actual: "not a decimal integer")
            return nil
        }
        return value
    }

    /// An input given as text.
    mutating func text(_ key: String) -> String? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        return field.value
    }

    /// Compares `computed` with the vector's `key` (hex, any case) and gives the value to use next:
    /// the computed one, or the file's when nothing could be computed.
    @discardableResult
    mutating func derive(_ key: String, _ computed: Computation<[UInt8]>) -> [UInt8]? {
        switch computed {
        case .unavailable:
            return bytes(key)
        case .rejected(let why):
            guard let field = block[key] else { return nil }
            usedKeys.insert(key)
            checkedFields += 1
            fail(field, actual: why)
            return Hex.decode(field.value)
        case .value(let value):
            guard let field = block[key] else { return value }
            usedKeys.insert(key)
            checkedFields += 1
            let actual = Hex.encode(value)
            if actual != field.value.lowercased() { fail(field, actual: actual) }
            return value
        }
    }

    /// Compares a computed integer (a return code, a PIN error) with the vector's `key`.
    @discardableResult
    mutating func deriveInteger(_ key: String, _ computed: Computation<Int>) -> Int? {
        switch computed {
        case .unavailable:
            return integer(key)
        case .rejected(let why):
            guard let field = block[key] else { return nil }
            usedKeys.insert(key)
            checkedFields += 1
            fail(field, actual: why)
            return Int(field.value)
        case .value(let value):
            guard let field = block[key] else { return value }
            usedKeys.insert(key)
            checkedFields += 1
            if Int(field.value) != value { fail(field, actual: String(value)) }
            return value
        }
    }

    /// Compares a computed text with the vector's `key`, exactly.
    mutating func deriveText(_ key: String, _ computed: Computation<String>) {
        guard let field = block[key] else { return }
        usedKeys.insert(key)
        switch computed {
        case .unavailable:
            return
        case .rejected(let why):
            checkedFields += 1
            fail(field, actual: why)
        case .value(let value):
            checkedFields += 1
            if value != field.value { fail(field, actual: value) }
        }
    }

    /// Records that the vector has `key` although it should not (or the reverse), with a reason.
    mutating func failPresence(_ key: String, expected: String, actual: String) {
        let line = block[key]?.line ?? block.line
        usedKeys.insert(key)
        checkedFields += 1
        failures.append(FieldFailure(vector: block.name, line: line, field: key, expected: expected, actual: actual))
    }

    private mutating func fail(_ field: AMCLBlock.Field, actual: String) {
        failures.append(
            FieldFailure(vector: block.name, line: field.line, field: field.key, expected: field.value, actual: actual))
    }
}
