import Foundation
import OrderedJSON
import Testing

@testable import ReferenceBackend

/// The request-body reader on OrderedJSON values: every accessor's refusals with their messages,
/// the limits, repeated names, and the same answers as the former Foundation reading.
@Suite struct JSONBodyTests {
    func body(_ text: String) throws(APIError) -> JSONBody { try JSONBody(Array(text.utf8)) }

    /// The message of the 400 that `work` throws; nil when it throws nothing.
    func refusal<T>(_ work: () throws -> T) -> String? {
        do {
            _ = try work()
            return nil
        } catch let error as APIError {
            #expect(error.status == .badRequest, "\(error.message)")
            return error.message
        } catch {
            return "not an APIError: \(error)"
        }
    }

    @Test func stringsMissingNullWrongTypeEmptyAndTooLong() throws {
        let json = try body(
            #"{"a": "x", "n": null, "i": 1, "b": true, "o": {}, "l": [], "e": "", "long": "é\#(String(repeating: "x", count: 9))"}"#
        )
        #expect(try json.string("a") == "x")
        #expect(refusal { try json.string("missing") } == "Missing field 'missing'")
        #expect(refusal { try json.string("n") } == "Missing field 'n'")
        for key in ["i", "b", "o", "l"] {
            #expect(refusal { try json.string(key) } == "Field '\(key)' must be a string")
            #expect(refusal { try json.optionalString(key) } == "Field '\(key)' must be a string")
        }
        #expect(refusal { try json.string("e") } == "Field 'e' must not be empty")
        #expect(try json.string("e", nonEmpty: false) == "")
        // The length is counted in UTF-8 bytes: "é" is two.
        #expect(try json.string("long", maxLength: 11).utf8.count == 11)
        #expect(refusal { try json.string("long", maxLength: 10) } == "Field 'long' is too long")
        #expect(refusal { try json.optionalString("long", maxLength: 10) } == "Field 'long' is too long")
        #expect(try json.optionalString("missing") == nil)
        #expect(try json.optionalString("n") == nil)
        #expect(try json.optionalString("e") == "")
    }

    @Test func hexFieldsAndTheirLengths() throws {
        let json = try body(#"{"h": "00aBfF", "odd": "abc", "bad": "zz", "e": "", "i": 7}"#)
        #expect(try json.hex("h") == [0x00, 0xAB, 0xFF])
        #expect(try json.hex("h", count: 3) == [0x00, 0xAB, 0xFF])
        #expect(refusal { try json.hex("h", count: 4) } == "Field 'h' must be 4 bytes, not 3")
        #expect(refusal { try json.hex("odd") } == "Field 'odd' is not hex")
        #expect(refusal { try json.hex("bad") } == "Field 'bad' is not hex")
        #expect(refusal { try json.hex("e") } == "Field 'e' must not be empty")
        #expect(try json.hex("e", allowEmpty: true) == [])
        #expect(refusal { try json.hex("i") } == "Field 'i' must be a string")
        #expect(refusal { try json.hex("missing") } == "Missing field 'missing'")
        let long = try body(#"{"h": "\#(String(repeating: "ab", count: 1025))"}"#)
        #expect(refusal { try long.hex("h") } == "Field 'h' is too long")
    }

    @Test func nestedObjects() throws {
        let json = try body(#"{"mpinResponse": {"authOTT": "t", "n": null}, "s": "x", "n": null, "l": []}"#)
        #expect(try json.object("mpinResponse").string("authOTT") == "t")
        #expect(refusal { try json.object("mpinResponse").string("n") } == "Missing field 'n'")
        #expect(refusal { try json.object("missing") } == "Missing field 'missing'")
        // null is not an object here (as before): the field is there, of the wrong type.
        #expect(refusal { try json.object("n") } == "Field 'n' must be an object")
        #expect(refusal { try json.object("s") } == "Field 's' must be an object")
        #expect(refusal { try json.object("l") } == "Field 'l' must be an object")
    }

    @Test func truthiness() throws {
        let json = try body(
            #"""
            {"t": true, "f": false, "one": 1, "zero": 0, "minusZero": -0, "zeroFraction": 0.0, "zeroExponent": 0e7,
             "half": 0.5, "big": 1e400, "two": 2, "s": "yes", "s0": "0", "sFalse": "FaLsE", "sEmpty": "", "n": null,
             "a": [1], "o": {"x": 1}}
            """#)
        for key in ["t", "one", "half", "big", "two", "s"] { #expect(json.truthy(key), "\(key)") }
        for key in [
            "f", "zero", "minusZero", "zeroFraction", "zeroExponent", "s0", "sFalse", "sEmpty", "n", "a", "o",
            "missing",
        ] {
            #expect(!json.truthy(key), "\(key)")
        }
    }

    @Test func wholeBodies() {
        #expect(refusal { try JSONBody([]) } == "The request needs a JSON body")
        #expect(refusal { try JSONBody(Array(" \r\n\t".utf8)) } == "The request needs a JSON body")
        #expect(refusal { try JSONBody(Array(" \n".utf8), allowEmpty: true) } == nil)
        for text in ["[1,2]", "\"x\"", "1", "null", "true"] {
            #expect(refusal { try body(text) } == "The JSON body must be an object", "\(text)")
        }
        for text in [
            #"{"userId":"#, "not json", "{\"a\":1,}", "{\"a\":01}", "\u{FF}\u{FE}", "{} {}", #"{"a":"\ud800"}"#,
        ] {
            #expect(refusal { try body(text) } == "The body is not valid JSON", "\(text)")
        }
        #expect(
            refusal { try JSONBody([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) }
                == "The body is not valid JSON")
    }

    @Test func nestingIsLimitedWhileParsing() {
        func nested(_ depth: Int) -> String {
            "{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        }
        #expect(refusal { try body(nested(JSONBody.maximumDepth)) } == nil)
        #expect(refusal { try body(nested(JSONBody.maximumDepth + 1)) } == "The JSON body is nested too deeply")
        // Far deeper than the parser's own limit, and unterminated: refused at the limit, not parsed on.
        #expect(refusal { try body(String(repeating: "[", count: 100_000)) } == "The JSON body is nested too deeply")
        #expect(refusal { try body(String(repeating: "{\"a\":", count: 5000)) } == "The JSON body is nested too deeply")
        // Brackets inside strings do not count.
        #expect(refusal { try body(#"{"a": "\#(String(repeating: "[", count: 100))"}"#) } == nil)
    }

    @Test func aRepeatedNameIsRefusedAtAnyDepth() {
        #expect(
            refusal { try body(#"{"userId": "alice", "userId": "bob"}"#) } == "Field 'userId' appears more than once")
        #expect(
            refusal { try body(#"{"mpinResponse": {"authOTT": "a", "authOTT": "b"}}"#) }
                == "Field 'authOTT' appears more than once")
        #expect(refusal { try body(#"{"l": [{"x": 1, "y": 2, "x": 3}]}"#) } == "Field 'x' appears more than once")
        // The same name in different objects is fine.
        #expect(refusal { try body(#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#) } == nil)
    }
}
