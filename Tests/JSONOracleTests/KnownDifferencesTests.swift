import FlowRecording
import JSONOracle
import OrderedJSON
import Testing

/// Each difference between OrderedJSON and jansson that the package knows and intends, asserted one
/// by one (docs/architecture.md, "Dependencies" and `cassette lint --portable`): if jansson or OrderedJSON ever
/// reads one of these alike, or `PortableJSON` stops reporting it, a test here fails.
@Suite struct KnownDifferencesTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func refusal(_ text: String, _ options: JanssonReader.Options = [.decodeAny, .allowNul]) -> JanssonError? {
        do {
            _ = try JanssonReader.read(bytes(text), options: options)
            return nil
        } catch {
            return error
        }
    }

    func kinds(_ text: String) -> [PortableJSON.Finding.Kind] {
        PortableJSON.findings(in: bytes(text))?.map(\.kind) ?? []
    }

    @Test func integersBeyond64BitsAreKeptByUsAndRefusedByJansson() throws {
        for literal in ["9223372036854775808", "-9223372036854775809", "100000000000000000000000000000000000000"] {
            #expect(try JSONParser.parse("[\(literal)]") == [.number(literal)])
            #expect(refusal("[\(literal)]")?.code == .numericOverflow, "\(literal)")
            #expect(kinds("[\(literal)]") == [.integerBeyond64Bits], "\(literal)")
        }
        #expect(
            try JanssonReader.read(bytes("[9223372036854775807,-9223372036854775808]"))
                == .array([.integer(.max), .integer(.min)]))
        #expect(kinds("[9223372036854775807,-9223372036854775808]").isEmpty)
        // Written as a real, a big number is a double for both.
        #expect(try JanssonReader.read(bytes("[1e20]")) == .array([.real(1e20)]))
        #expect(kinds("[1e20, 100000000000000000000.0]").isEmpty)
    }

    @Test func realsBeyondADoubleAreRefusedByJansson() throws {
        for literal in ["1e400", "-1.5e+9999", "1.7976931348623159e308"] {
            #expect(try JSONParser.parse("[\(literal)]") == [.number(literal)])
            #expect(refusal("[\(literal)]")?.code == .numericOverflow, "\(literal)")
            #expect(kinds("[\(literal)]") == [.realOverflow], "\(literal)")
        }
        // Underflow is no difference: both read 0.
        #expect(try JanssonReader.read(bytes("[1e-400]")) == .array([.real(0)]))
        #expect(kinds("[1e-400, 5e-324]").isEmpty)
    }

    @Test func nulInAStringIsRefusedWithoutAllowNulAndEndsACString() throws {
        let text = #"{"s":"a\u0000b"}"#
        #expect(try JSONParser.parse(text)["s"] == .string("a\u{0}b"))
        #expect(refusal(text, [])?.code == .nullCharacter)
        #expect(
            try JanssonReader.read(bytes(text), options: .allowNul)
                == .object([.init(name: [0x73], value: .string([0x61, 0, 0x62]))]))
        #expect(kinds(text) == [.nulInString])
    }

    @Test func nulInANameIsRefusedWhateverTheFlags() throws {
        let text = #"{"a\u0000":1}"#
        #expect(try JSONParser.parse(text)["a\u{0}"] == 1)
        #expect(refusal(text)?.code == .nullByteInKey)
        #expect(refusal(text, [])?.code == .nullByteInKey)
        #expect(kinds(text) == [.nulInName])
    }

    @Test func repeatedNamesAreRefusedByUsAndLastWinsInJansson() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(try JSONParser.parse(text, duplicateMembers: .keep).objectMembers?.count == 3)
        let read = try JanssonReader.read(bytes(text))
        #expect(read == .object([.init(name: [0x61], value: .integer(3)), .init(name: [0x62], value: .integer(2))]))
        #expect(refusal(text, .rejectDuplicates)?.code == .duplicateKey)
        #expect(kinds(text) == [.repeatedName])
    }

    @Test func aByteOrderMarkIsSkippedByUsAndRefusedByJansson() throws {
        let text = "\u{FEFF}{}"
        #expect(try JSONParser.parse(text) == .object([]))
        #expect(refusal(text) != nil)
        #expect(kinds(text) == [.byteOrderMark])
    }

    @Test func aScalarAtTheTopNeedsDecodeAny() throws {
        for text in ["1", "\"x\"", "null", "true", "-0.5"] {
            #expect(refusal(text, []) != nil, "\(text)")
            #expect(refusal(text, .decodeAny) == nil, "\(text)")
            #expect(kinds(text) == [.scalarRoot], "\(text)")
        }
    }

    /// Not a portability finding: only documents OrderedJSON refuses are read otherwise.
    @Test func nestingFrom513To2048IsReadByJanssonAlone() {
        func nested(_ depth: Int) -> [UInt8] {
            Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        }
        for depth in [512, 513, 2048, 2049] {
            let reading = Differential(nested(depth), name: "depth \(depth)")
            #expect(reading.oursAccepts == (depth <= 512), "depth \(depth)")
            #expect(reading.janssonAccepts == (depth <= 2048), "depth \(depth)")
            #expect(reading.problems.isEmpty, "\(reading.problems)")
        }
        let open = Differential(Array(repeating: UInt8(ascii: "["), count: 100_000), name: "100000 opening brackets")
        #expect(!open.oursAccepts && !open.janssonAccepts)
        if case .failure(let error) = open.jansson { #expect(error.code == .stackOverflow) }
    }

    /// Not a portability finding: OrderedJSON refuses these documents.
    @Test func aScalarThenOneNulIsReadByJanssonAlone() {
        for text in ["123\u{0}", "true\u{0}", "null\u{0}", "-1.5e3\u{0}"] {
            let reading = Differential(bytes(text), name: text)
            #expect(!reading.oursAccepts && reading.janssonAccepts && reading.isScalarThenNul, "\(text)")
            #expect(reading.problems.isEmpty, "\(reading.problems)")
        }
        for text in ["[1]\u{0}", "1\u{0}\u{0}", "\"a\"\u{0}", "1\u{0}x"] {
            #expect(refusal(text) != nil, "\(text)")
        }
    }

    /// No difference: both refuse every unpaired surrogate and every invalid UTF-8 sequence.
    @Test func surrogatesAndInvalidUTF8AreRefusedByBoth() {
        for text in [#"["\uD800"]"#, #"["\uDC00"]"#, #"["\uDd1e\uD834"]"#, #"{"\uDFAA":1}"#] {
            #expect((try? JSONParser.parse(text)) == nil && refusal(text) != nil, "\(text)")
        }
        for invalid: [UInt8] in [
            [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D],
            [0x5B, 0x22, 0xFF, 0x22, 0x5D],
        ] {
            #expect((try? JSONParser.parse(invalid)) == nil && (try? JanssonReader.read(invalid)) == nil, "\(invalid)")
        }
    }

    /// No difference in meaning: jansson reads `-0` as the integer 0 and reals as the nearest double,
    /// as OrderedJSON's `doubleValue` does.
    @Test func numbersWithinRangeReadAlike() throws {
        #expect(
            try JanssonReader.read(bytes("[-0, -0.0, 0.1, 1E2]"))
                == .array([.integer(0), .real(-0.0), .real(0.1), .real(100)]))
        #expect(kinds("[-0, -0.0, 0.1, 1E2]").isEmpty)
    }
}
