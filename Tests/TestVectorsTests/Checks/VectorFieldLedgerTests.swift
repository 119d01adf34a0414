import MPinCrypto
import Testing

@testable import TestVectors

@Suite("VectorFieldLedger")
struct VectorFieldLedgerTests {
    let block = AMCLBlock(
        name: "block 1", line: 10,
        fields: [
            .init(key: "A", value: "0a0B", line: 10),
            .init(key: "B", value: "ff", line: 11),
            .init(key: "N", value: "-19", line: 12),
            .init(key: "BAD", value: "0g", line: 13),
            .init(key: "TEST", value: "1", line: 14),
        ])

    @Test("a matching value counts as checked; hex case does not matter")
    func match() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        #expect(ledger.derive("A", .value([0x0a, 0x0b])) == [0x0a, 0x0b])
        #expect(ledger.checkedFields == 1)
        #expect(ledger.failures.isEmpty)
    }

    @Test("a mismatch names vector, line, field, expected and actual; the computed value goes on")
    func mismatch() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        #expect(ledger.derive("B", .value([0xfe])) == [0xfe])
        #expect(
            ledger.failures == [
                FieldFailure(vector: "block 1", line: 11, field: "B", expected: "ff", actual: "fe")
            ])
        #expect(!ledger.verdict.passed)
    }

    @Test("an output that cannot be computed fails (the file's value still goes on); an absent one is not asked for")
    func unavailable() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        #expect(ledger.derive("B", .unavailable) == [0xff])
        #expect(ledger.checkedFields == 1)
        #expect(ledger.failures.map(\.field) == ["B"])
        #expect(ledger.failures.first?.actual == VectorFieldLedger.notComputable)
        #expect(ledger.derive("MISSING", .unavailable) == nil)
        #expect(ledger.failures.count == 1)
    }

    @Test("a rejected computation fails the field and the file's value goes on")
    func rejected() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        #expect(ledger.derive("A", .rejected("invalid point")) == [0x0a, 0x0b])
        #expect(ledger.failures.map(\.actual) == ["invalid point"])
    }

    @Test("an output the inputs determine must be present: a missing one fails, showing the computed value")
    func absent() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        #expect(ledger.derive("C", .value([1])) == [1])
        #expect(
            ledger.failures == [
                FieldFailure(
                    vector: "block 1", line: 10, field: "C",
                    expected: "(missing: the vector's inputs determine C, so it must be given)", actual: "01")
            ])
        var optional = VectorFieldLedger(block: block, format: "test")
        #expect(optional.derive("C", .value([1]), required: false) == [1])
        #expect(optional.failures.isEmpty)
    }

    @Test("a missing required input fails; a vector with no output compared fails as having nothing to check")
    func nothingToCheck() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        ledger.requireInput("X", "Y")
        #expect(ledger.failures.map(\.field) == ["X"])
        #expect(ledger.failures.first?.actual == "X or Y is a required input of test vectors")
        let verdict = ledger.verdict
        #expect(verdict.failures.map(\.field) == ["X", "(vector)"])
        #expect(verdict.failures.last?.actual.hasPrefix("nothing to check") == true)
        #expect(ledger.verdict(alsoCompared: 1).failures.map(\.field) == ["X"])
    }

    @Test("integers are read in their range: out of range, fractions and 1e400 fail the field, never 0")
    func ranges() {
        let numbers = AMCLBlock(
            name: "block 1", line: 1,
            fields: [
                .init(key: "DATE", value: "4294967296", line: 2), .init(key: "PIN1", value: "1e400", line: 3),
                .init(key: "PIN2", value: "-2147483648", line: 4), .init(key: "T", value: "1.5", line: 5),
            ])
        var ledger = VectorFieldLedger(block: numbers, format: "test")
        #expect(ledger.uint32("DATE") == nil)
        #expect(ledger.int32("PIN1") == nil)
        #expect(ledger.int32("PIN2") == Int32.min)
        #expect(ledger.integer("T", in: 0...10) == nil)
        #expect(ledger.failures.map(\.field) == ["DATE", "PIN1", "T"])
        #expect(ledger.failures.map(\.line) == [2, 3, 5])
        #expect(ledger.failures[0].actual == "not a decimal integer in 0...4294967295")
    }

    @Test("integers, non-hex inputs and unused keys")
    func integersAndInputs() {
        var ledger = VectorFieldLedger(block: block, format: "test")
        ledger.deriveInteger("N", .value(-19))
        #expect(ledger.failures.isEmpty)
        #expect(ledger.verdict.passed)
        #expect(ledger.bytes("BAD") == nil)
        #expect(ledger.failures.map(\.field) == ["BAD"])
        ledger.label("TEST")
        #expect(ledger.unusedKeys == ["A", "B"])
    }

    @Test("whenPresent runs only with every input")
    func whenPresentInputs() {
        let a: [UInt8]? = [1]
        let b: Int32? = nil
        let some = whenPresent(a, Int32(2) as Int32?) { bytes, n in bytes + [UInt8(n)] }
        guard case .value(let value) = some else {
            Issue.record("expected a value")
            return
        }
        #expect(value == [1, 2])
        let none = whenPresent(a, b) { bytes, n in bytes + [UInt8(n)] }
        guard case .unavailable = none else {
            Issue.record("expected unavailable")
            return
        }
        let refused: Computation<[UInt8]> = whenPresent(a) { _ in nil }
        guard case .rejected = refused else {
            Issue.record("expected rejected")
            return
        }
    }

    @Test("hex round trip")
    func hex() {
        #expect(Hex.decode("00ffA0") == [0, 255, 160])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.encode([0, 255, 160]) == "00ffa0")
    }
}
