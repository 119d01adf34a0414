/// The fields of one arithmetic test block: inputs read, outputs compared, the rest reported.
///
/// An output is compared as text (case-insensitive) with AMCL's notation of the computed value. A
/// field that is neither an input nor an output of the file's kind is a failure, so that a
/// misspelt output is never silently skipped.
struct ArithLedger {
    let block: AMCLBlock
    let kind: AMCLArithmeticKind
    private(set) var failures: [FieldFailure] = []
    private(set) var checkedFields = 0
    private var known: Set<String> = []

    init(block: AMCLBlock, kind: AMCLArithmeticKind) {
        self.block = block
        self.kind = kind
    }

    /// The test number N of `# test N` (block names `test N`), else `position` (1-based).
    static func testNumber(of block: AMCLBlock, position: Int) -> Int {
        let digits = block.name.reversed().prefix(while: \.isNumber).reversed()
        return Int(String(digits)) ?? position
    }

    /// Reads input `key` with `parse`; nil when absent or malformed (malformed fails the field).
    mutating func input<T>(_ key: String, _ what: String, _ parse: (String) -> T?) -> T? {
        known.insert(key)
        guard let field = block[key] else { return nil }
        guard let value = parse(field.value) else {
            fail(field, actual: "not \(what)")
            return nil
        }
        return value
    }

    /// Reports input `key` (already read) as wrong, for example a point that is not on the curve.
    mutating func reject(_ key: String, _ why: String) {
        guard let field = block[key] else { return }
        fail(field, actual: why)
    }

    /// Compares output `key` with `compute()`, which gives nil when an input it needs (`needs`) is
    /// missing or invalid. Nothing happens when the block has no such field.
    mutating func output(_ key: String, needs: String, _ compute: () -> String?) {
        known.insert(key)
        guard let field = block[key] else { return }
        checkedFields += 1
        guard let value = compute() else {
            fail(field, actual: "not computed: needs valid \(needs)")
            return
        }
        if value.uppercased() != field.value.uppercased() { fail(field, actual: value) }
    }

    /// The verdict, with every field that is neither an input nor an output reported.
    var verdict: VectorVerdict {
        var failures = self.failures
        var checked = checkedFields
        for field in block.fields where !known.contains(field.key) {
            checked += 1
            failures.append(
                FieldFailure(
                    vector: block.name, line: field.line, field: field.key, expected: field.value,
                    actual: "not a field of AMCL's \(kind.rawValue) vectors"))
        }
        return VectorVerdict(vector: block.name, line: block.line, checkedFields: checked, failures: failures)
    }

    private mutating func fail(_ field: AMCLBlock.Field, actual: String) {
        failures.append(
            FieldFailure(vector: block.name, line: field.line, field: field.key, expected: field.value, actual: actual))
    }
}
