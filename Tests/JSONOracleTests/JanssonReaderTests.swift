import JSONOracle
import Testing

/// Self-tests of the oracle: `JanssonReader` gives jansson's values, flags and errors.
@Suite struct JanssonReaderTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JanssonReader.read(
            Array(#"{"n":null,"t":true,"f":false,"i":-12,"r":2.5e1,"s":"é\n","a":[1,[]],"o":{}}"#.utf8))
        #expect(
            value
                == .object([
                    .init(name: Array("n".utf8), value: .null), .init(name: Array("t".utf8), value: .bool(true)),
                    .init(name: Array("f".utf8), value: .bool(false)),
                    .init(name: Array("i".utf8), value: .integer(-12)),
                    .init(name: Array("r".utf8), value: .real(25)),
                    .init(name: Array("s".utf8), value: .string(Array("é\n".utf8))),
                    .init(name: Array("a".utf8), value: .array([.integer(1), .array([])])),
                    .init(name: Array("o".utf8), value: .object([])),
                ]))
    }

    @Test func flagsChangeWhatIsRead() throws {
        #expect(throws: JanssonError.self) { try JanssonReader.read(Array("1".utf8)) }
        #expect(try JanssonReader.read(Array("1".utf8), options: .decodeAny) == .integer(1))
        #expect(try JanssonReader.read(Array("1".utf8), options: [.decodeAny, .decodeIntAsReal]) == .real(1))
        let nul = Array(#"["a\u0000b"]"#.utf8)
        #expect(throws: JanssonError.self) { try JanssonReader.read(nul) }
        #expect(try JanssonReader.read(nul, options: .allowNul) == .array([.string([0x61, 0, 0x62])]))
        let repeated = Array(#"{"a":1,"a":2}"#.utf8)
        #expect(try JanssonReader.read(repeated) == .object([.init(name: [0x61], value: .integer(2))]))
        #expect(throws: JanssonError.self) { try JanssonReader.read(repeated, options: .rejectDuplicates) }
    }

    @Test func errorsCarryCodeAndPlace() {
        do {
            _ = try JanssonReader.read(Array("[1,\n 2,]".utf8))
            Issue.record("read a trailing comma")
        } catch {
            #expect(error.code == .invalidSyntax && error.line == 2, "\(error)")
            #expect(!error.text.isEmpty)
        }
        #expect(
            throws: JanssonError(
                text: "too big integer near '9223372036854775808'", code: .numericOverflow, line: 1, column: 20,
                position: 20)
        ) {
            try JanssonReader.read(Array("[9223372036854775808]".utf8))
        }
        #expect(throws: JanssonError.self) { try JanssonReader.read([]) }
    }
}
