import MPinCrypto

/// What a checker could compute for one field.
enum Computation<Value> {
    /// An input is missing from the vector (or invalid): nothing to compare with.
    case unavailable
    /// The computation ran and refused its inputs (for example a point that does not decode).
    case rejected(String)
    case value(Value)

    /// Wraps a result of the crypto core, where nil means an input point did not decode.
    init(_ result: Value?, rejection: String = Computation.invalidPoint) {
        self = result.map(Computation.value) ?? .rejected(rejection)
    }

    static var invalidPoint: String { "rejected: an input point does not decode (MPIN_INVALID_POINT)" }

    /// The computed value, when there is one.
    var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

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
///
/// The verifier fails what it cannot check:
/// * a required input that the vector lacks is a failure (`requireInput`);
/// * an output that the vector's inputs determine must be present (`derive(_:_:required:)` with
///   `required: true`, the default): a missing one is a failure that shows the computed value,
///   unless the file comments it out in the block (`AMCLBlock.withheld`);
/// * an output that the vector has but that cannot be computed (an input it needs is missing or
///   invalid) is a failure, not a value taken on trust; the file's value still feeds later steps so
///   that they are checked as far as they can be;
/// * a vector in which no output could be compared is a failure ("nothing to check");
/// * `failUnusedKeys()` fails every field that no check read.
struct VectorFieldLedger {
    let block: AMCLBlock
    /// The format's name in messages (`mpin-two-pass`, `mpin-one-pass`, ...).
    let format: String
    private(set) var failures: [FieldFailure] = []
    /// Fields compared or found missing.
    private(set) var checkedFields = 0
    /// Outputs compared with a value computed from the vector's inputs.
    private(set) var comparedOutputs = 0
    private(set) var usedKeys: Set<String> = []

    init(block: AMCLBlock, format: String) {
        self.block = block
        self.format = format
    }

    /// The verdict; a vector in which nothing was compared fails (`alsoCompared` counts comparisons
    /// made outside the ledger, such as a suite test's `result`).
    func verdict(alsoCompared: Int = 0) -> VectorVerdict {
        var failures = self.failures
        var checked = checkedFields
        if comparedOutputs + alsoCompared == 0 {
            checked += 1
            failures.append(
                FieldFailure(
                    vector: block.name, line: block.line, field: "(vector)", expected: "an output to check",
                    actual: "nothing to check: no output of this \(format) vector can be computed from its fields"))
        }
        return VectorVerdict(vector: block.name, line: block.line, checkedFields: checked, failures: failures)
    }

    var verdict: VectorVerdict { verdict() }

    /// Keys of the vector that no check read.
    var unusedKeys: [String] { block.fields.map(\.key).filter { !usedKeys.contains($0) } }

    /// Fails every field that no check read: nothing verifies it.
    mutating func failUnusedKeys() {
        for key in unusedKeys {
            guard let field = block[key] else { continue }
            usedKeys.insert(key)
            checkedFields += 1
            fail(field, actual: "not a field of \(format) vectors: nothing checks it")
        }
    }

    func has(_ key: String) -> Bool { block[key] != nil }

    /// The first of `keys` that the vector has.
    func firstKey(of keys: [String]) -> String? { keys.first(where: has) }

    /// Marks fields that only name or number the vector.
    mutating func label(_ keys: String...) {
        for key in keys where has(key) { usedKeys.insert(key) }
    }

    /// Fails the vector when it has none of `keys` (the first is the name reported): a required input.
    mutating func requireInput(_ keys: String...) {
        guard let first = keys.first, firstKey(of: keys) == nil else { return }
        checkedFields += 1
        let names = keys.count == 1 ? first : keys.dropLast().joined(separator: ", ") + " or " + keys.last!
        failures.append(
            FieldFailure(
                vector: block.name, line: block.line, field: first, expected: "(missing)",
                actual: "\(names) is a required input of \(format) vectors"))
    }

    /// An input given as hex; a value that is not hex is a failure of that field.
    mutating func bytes(_ key: String) -> [UInt8]? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        guard let bytes = Hex.decode(field.value) else {
            checkedFields += 1
            fail(field, actual: "not hexadecimal bytes")
            return nil
        }
        return bytes
    }

    /// An input given as a decimal integer in `range`; anything else (a fraction, an exponent, a
    /// value no integer type holds such as `1e400`, a value outside the range) fails the field.
    mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        guard let value = Int(field.value), range.contains(value) else {
            checkedFields += 1
            fail(field, actual: "not a decimal integer in \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return value
    }

    /// An unsigned 32-bit input (AMCL's `DATE`, `TimeValue`).
    mutating func uint32(_ key: String) -> UInt32? {
        integer(key, in: 0...Int(UInt32.max)).map { UInt32($0) }
    }

    /// A signed 32-bit input (AMCL's `int` PINs).
    mutating func int32(_ key: String) -> Int32? {
        integer(key, in: Int(Int32.min)...Int(Int32.max)).map { Int32($0) }
    }

    /// An input given as text.
    mutating func text(_ key: String) -> String? {
        guard let field = block[key] else { return nil }
        usedKeys.insert(key)
        return field.value
    }

    /// Compares `computed` with the vector's `key` (hex, any case) and gives the value to use next:
    /// the computed one, or the file's when nothing could be computed. With `required`, a vector
    /// that lacks a value its inputs determine fails.
    @discardableResult
    mutating func derive(_ key: String, _ computed: Computation<[UInt8]>, required: Bool = true) -> [UInt8]? {
        guard let field = block[key] else {
            if required, !block.withholds(key), case .value(let value) = computed {
                failMissing(key, computed: Hex.encode(value))
            }
            return computed.value
        }
        usedKeys.insert(key)
        checkedFields += 1
        switch computed {
        case .unavailable:
            fail(field, actual: Self.notComputable)
            return Hex.decode(field.value)
        case .rejected(let why):
            comparedOutputs += 1
            fail(field, actual: why)
            return Hex.decode(field.value)
        case .value(let value):
            comparedOutputs += 1
            let actual = Hex.encode(value)
            if actual != field.value.lowercased() { fail(field, actual: actual) }
            return value
        }
    }

    /// UT, the pass-1 commitment to the time permit: a vector with DATE = 0 has none (a UT it gives
    /// anyway fails), one with another DATE has the client's `computed` UT, and without a readable
    /// DATE it cannot be computed.
    @discardableResult
    mutating func deriveUT(date: UInt32?, _ computed: @autoclosure () -> Computation<[UInt8]>) -> [UInt8]? {
        switch date {
        case .some(0):
            if has("UT") { derive("UT", .rejected("none: DATE = 0 gives no UT")) }
            return nil
        case .some:
            return derive("UT", computed())
        case nil:
            return derive("UT", .unavailable)
        }
    }

    /// Compares a computed integer (a return code, a PIN error) with the vector's `key`.
    @discardableResult
    mutating func deriveInteger(_ key: String, _ computed: Computation<Int>, required: Bool = true) -> Int? {
        guard let field = block[key] else {
            if required, !block.withholds(key), case .value(let value) = computed {
                failMissing(key, computed: String(value))
            }
            return computed.value
        }
        usedKeys.insert(key)
        checkedFields += 1
        switch computed {
        case .unavailable:
            fail(field, actual: Self.notComputable)
            return nil
        case .rejected(let why):
            comparedOutputs += 1
            fail(field, actual: why)
            return nil
        case .value(let value):
            comparedOutputs += 1
            if Int(field.value) != value { fail(field, actual: String(value)) }
            return value
        }
    }

    /// Compares a computed text with the vector's `key`, exactly.
    mutating func deriveText(_ key: String, _ computed: Computation<String>, required: Bool = true) {
        guard let field = block[key] else {
            if required, !block.withholds(key), case .value(let value) = computed { failMissing(key, computed: value) }
            return
        }
        usedKeys.insert(key)
        checkedFields += 1
        switch computed {
        case .unavailable:
            fail(field, actual: Self.notComputable)
        case .rejected(let why):
            comparedOutputs += 1
            fail(field, actual: why)
        case .value(let value):
            comparedOutputs += 1
            if value != field.value { fail(field, actual: value) }
        }
    }

    /// Fails the vector for a result field of its own (`result`, `flags`, a group parameter) at `line`.
    mutating func fail(field: String, line: Int, expected: String, actual: String) {
        checkedFields += 1
        failures.append(FieldFailure(vector: block.name, line: line, field: field, expected: expected, actual: actual))
    }

    static let notComputable = "cannot be checked: an input it is computed from is missing or invalid"

    private mutating func failMissing(_ key: String, computed: String) {
        checkedFields += 1
        failures.append(
            FieldFailure(
                vector: block.name, line: block.line, field: key,
                expected: "(missing: the vector's inputs determine \(key), so it must be given)", actual: computed))
    }

    private mutating func fail(_ field: AMCLBlock.Field, actual: String) {
        failures.append(
            FieldFailure(vector: block.name, line: field.line, field: field.key, expected: field.value, actual: actual))
    }
}
