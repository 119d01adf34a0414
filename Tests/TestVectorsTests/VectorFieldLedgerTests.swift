import MPinCrypto
import Testing
@testable import TestVectors

@Suite("VectorFieldLedger")
struct VectorFieldLedgerTests {
    let block = AMCLBlock(name: "block 1", line: 10, fields: [
        .init(key: "A", value: "0a0B", line: 10),
        .init(key: "B", value: "ff", line: 11),
        .init(key: "N", value: "-19", line: 12),
        .init(key: "BAD", value: "0g", line: 13),
        .init(key: "TEST", value: "1", line: 14),
    ])

    @Test("a matching value counts as checked; hex case does not matter")
    func match() {
        var ledger = VectorFieldLedger(block: block)
        #expect(ledger.derive("A", .value([0x0a, 0x0b])) == [0x0a, 0x0b])
        #expect(ledger.checkedFields == 1)
        #expect(ledger.failures.isEmpty)
    }

    @Test("a mismatch names vector, line, field, expected and actual; the computed value goes on")
    func mismatch() {
        var ledger = VectorFieldLedger(block: block)
        #expect(ledger.derive("B", .value([0xfe])) == [0xfe])
        #expect(ledger.failures == [
            FieldFailure(vector: "block 1", line: 11, field: "B", expected: "ff", actual: "fe"),
        ])
        #expect(!ledger.verdict.passed)
    }

    @Test("nothing computable: the file's value is used, nothing is checked")
    func unavailable() {
        var ledger = VectorFieldLedger(block: block)
        #expect(ledger.derive("B", .unavailable) == [0xff])
        #expect(ledger.checkedFields == 0)
        #expect(ledger.derive("MISSING", .unavailable) == nil)
    }

    @Test("a rejected computation fails the field and the file's value goes on")
    func rejected() {
        var ledger = VectorFieldLedger(block: block)
        #expect(ledger.derive("A", .rejected("invalid point")) == [0x0a, 0x0b])
        #expect(ledger.failures.map(\.actual) == ["invalid point"])
    }

    @Test("a value absent from the vector is not checked but still computed")
    func absent() {
        var ledger = VectorFieldLedger(block: block)
        #expect(ledger.derive("C", .value([1])) == [1])
        #expect(ledger.checkedFields == 0)
    }

    @Test("integers, non-hex inputs and unused keys")
    func integersAndInputs() {
        var ledger = VectorFieldLedger(block: block)
        ledger.deriveInteger("N", .value(-19))
        #expect(ledger.failures.isEmpty)
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
        guard case .value(let value) = some else { Issue.record("expected a value"); return }
        #expect(value == [1, 2])
        let none = whenPresent(a, b) { bytes, n in bytes + [UInt8(n)] }
        guard case .unavailable = none else { Issue.record("expected unavailable"); return }
        let refused: Computation<[UInt8]> = whenPresent(a) { _ in nil }
        guard case .rejected = refused else { Issue.record("expected rejected"); return }
    }

    @Test("hex round trip")
    func hex() {
        #expect(Hex.decode("00ffA0") == [0, 255, 160])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.encode([0, 255, 160]) == "00ffa0")
    }
}
