/// The fields of one arithmetic test block: inputs read, outputs compared, the rest reported.
///
/// An output is compared as text (case-insensitive) with AMCL's notation of the computed value. The
/// verifier fails what it cannot check: a field that is neither an input nor an output of the
/// file's kind is a failure (a misspelt output is never silently skipped), so is an output that the
/// block's inputs determine but that the block lacks (unless the file comments it out in the block,
/// `#FPexp = …`, or it is one of `notInEveryFile` and the file has it nowhere), and so is a block
/// with no output compared.
struct ArithLedger {
    let block: AMCLBlock
    let kind: AMCLArithmeticKind
    private(set) var failures: [FieldFailure] = []
    private(set) var checkedFields = 0
    private var compared = 0
    private var known: Set<String> = []

    /// Every key of the file, for the outputs that some AMCL files do not carry at all.
    let fileKeys: Set<String>

    /// Outputs that some of AMCL's files lack in every block (the BN254 ecp2 file has no
    /// `ECP2inf`): required only in a file that carries them somewhere.
    static let notInEveryFile: Set<String> = ["ECP2inf"]

    init(block: AMCLBlock, kind: AMCLArithmeticKind, fileKeys: Set<String>) {
        self.block = block
        self.kind = kind
        self.fileKeys = fileKeys
    }

    /// Whether a block without `key` fails when its inputs determine it.
    func requires(_ key: String) -> Bool {
        !block.withholds(key) && (!Self.notInEveryFile.contains(key) || fileKeys.contains(key))
    }

    /// The largest test number N (AMCL's test counter is a C `int`).
    static let maximumTestNumber = Int(Int32.max)

    /// The test number N of `# test N` (block names `test N`), else `position` (1-based); nil, with
    /// a failure, when the name's number is not in 1...2^31 − 1.
    mutating func testNumber(position: Int) -> Int? {
        let digits = String(block.name.reversed().prefix(while: \.isNumber).reversed())
        guard !digits.isEmpty else { return position }
        guard let n = Int(digits), (1...Self.maximumTestNumber).contains(n) else {
            checkedFields += 1
            failures.append(
                FieldFailure(
                    vector: block.name, line: block.line, field: "test number", expected: digits,
                    actual: "not a test number in 1...\(Self.maximumTestNumber)"))
            return nil
        }
        return n
    }

    /// Reads input `key` with `parse`; nil when absent or malformed (malformed fails the field).
    mutating func input<T>(_ key: String, _ what: String, _ parse: (String) -> T?) -> T? {
        known.insert(key)
        guard let field = block[key] else { return nil }
        guard let value = parse(field.value) else {
            let why =
                ArithNotation.exceedsLimits(field.value)
                .map { "not \(what): \($0)" } ?? "not \(what)"
            fail(field, actual: why)
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
    /// missing or invalid. A block without the field fails when its inputs determine the value.
    mutating func output(_ key: String, needs: String, _ compute: () -> String?) {
        known.insert(key)
        guard let field = block[key] else {
            if requires(key), let value = compute() {
                checkedFields += 1
                failures.append(
                    FieldFailure(
                        vector: block.name, line: block.line, field: key,
                        expected: "(missing: the block's inputs determine \(key), so it must be given)", actual: value))
            }
            return
        }
        checkedFields += 1
        guard let value = compute() else {
            fail(field, actual: "not computed: needs valid \(needs)")
            return
        }
        compared += 1
        if value.uppercased() != field.value.uppercased() { fail(field, actual: value) }
    }

    /// The verdict, with every field that is neither an input nor an output reported, and a failure
    /// when no output was compared.
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
        if compared == 0 {
            checked += 1
            failures.append(
                FieldFailure(
                    vector: block.name, line: block.line, field: "(vector)", expected: "an output to check",
                    actual: "nothing to check: no output of this \(kind.rawValue) block can be computed from its fields"
                ))
        }
        return VectorVerdict(vector: block.name, line: block.line, checkedFields: checked, failures: failures)
    }

    private mutating func fail(_ field: AMCLBlock.Field, actual: String) {
        failures.append(
            FieldFailure(vector: block.name, line: field.line, field: field.key, expected: field.value, actual: actual))
    }
}
