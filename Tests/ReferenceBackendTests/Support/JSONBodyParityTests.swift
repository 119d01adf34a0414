import Foundation
import MPinCrypto
import Testing

@testable import ReferenceBackend

/// The request-body reader gives the same answers as the backend's former reading through
/// Foundation's `JSONSerialization` and `[String: Any]` (kept here as the oracle), for the bodies
/// clients send and for malformed ones; the few places where they differ on purpose are listed in
/// `differencesOnPurpose`.
@Suite struct JSONBodyParityTests {
    /// The former reading, as it was: parse with `JSONSerialization`, then look members up by name.
    struct FoundationReading {
        let members: [String: Any]

        init(_ bytes: [UInt8]) throws(APIError) {
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                throw APIError(.badRequest, "The request needs a JSON body")
            }
            guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: []) else {
                throw APIError(.badRequest, "The body is not valid JSON")
            }
            guard let object = parsed as? [String: Any] else {
                throw APIError(.badRequest, "The JSON body must be an object")
            }
            members = object
        }

        func string(_ key: String, maxLength: Int) throws(APIError) -> String {
            guard let value = members[key], !(value is NSNull) else {
                throw APIError(.badRequest, "Missing field '\(key)'")
            }
            guard let text = value as? String else { throw APIError(.badRequest, "Field '\(key)' must be a string") }
            if text.isEmpty { throw APIError(.badRequest, "Field '\(key)' must not be empty") }
            if text.utf8.count > maxLength { throw APIError(.badRequest, "Field '\(key)' is too long") }
            return text
        }

        func truthy(_ key: String) -> Bool {
            switch members[key] {
            case let text as String: return !text.isEmpty && text != "0" && text.lowercased() != "false"
            case let number as NSNumber: return number.boolValue
            case let flag as Bool: return flag
            default: return false
            }
        }

        func hex(_ key: String) throws(APIError) -> [UInt8] {
            let text = try string(key, maxLength: 2048)
            guard let bytes = Hex.decode(text) else { throw APIError(.badRequest, "Field '\(key)' is not hex") }
            return bytes
        }

        func isObject(_ key: String) throws(APIError) -> Bool {
            guard let value = members[key] else { throw APIError(.badRequest, "Missing field '\(key)'") }
            guard value is [String: Any] else { throw APIError(.badRequest, "Field '\(key)' must be an object") }
            return true
        }
    }

    /// What a read gave: the value as text, or the refusal's message.
    func outcome<T>(_ work: () throws -> T) -> String {
        do { return "\(try work())" } catch let error as APIError { return "refused: \(error.message)" } catch {
            return "\(error)"
        }
    }

    static let keys = [
        "mpin_id", "U", "UT", "V", "WID", "OTP", "authzRequest", "mpinResponse", "userId", "n", "x", "missing",
    ]

    static let bodies: [String] = [
        #"{"mpin_id":"7b226d6f62696c65223a20317d","U":"04ab","UT":"","pass":1}"#,
        #"{"mpin_id": "7b", "V": "04AB", "WID": "", "OTP": 1, "authzRequest": 0}"#,
        #"{"OTP": true, "authzRequest": false, "WID": "wid-1", "V": "0"}"#,
        #"{"OTP": "1", "authzRequest": "false", "x": "FALSE"}"#,
        #"{"OTP": "0", "authzRequest": "", "x": "no"}"#,
        #"{"OTP": 2.5, "authzRequest": -3, "x": 1e2, "n": null}"#,
        #"{"OTP": [], "authzRequest": {}, "x": [1], "n": {"a": 1}}"#,
        #"{"mpinResponse": {"authOTT": "abc"}, "userId": "alice@example.com"}"#,
        #"{"mpinResponse": null, "userId": null, "U": null}"#,
        #"{"mpinResponse": "x", "userId": 7, "U": "zz", "V": "abc"}"#,
        #"{"userId": "\u00e9\u0000\n\"\\\/", "x": "\ud83d\ude00"}"#,
        "{\n\t\"userId\" : \"x\",\n\t\"mobile\" : 1 }",
        "\u{FEFF}{\"userId\": \"bom\"}",
        #"{"userId": "a", "U": "\#(String(repeating: "ab", count: 1025))"}"#,
        "[1,2]", "{", "not json", "{\"a\":01}", "{\"a\":.5}", "{\"a\":1} x", "{'a':1}", "",
        "{\"a\":\"\u{01}\"}", "{\"a\":tru}", "{\"a\":\"\\x\"}", #"{"a":"\ud800"}"#, #"{"a":"\udc00x"}"#,
    ]

    @Test(arguments: bodies)
    func sameAnswersAsTheFoundationReading(text: String) {
        let bytes = Array(text.utf8)
        let new: JSONBody, old: FoundationReading
        switch (
            Result(catching: { () throws(APIError) in try JSONBody(bytes) }),
            Result(catching: { () throws(APIError) in try FoundationReading(bytes) })
        ) {
        case (.success(let a), .success(let b)):
            new = a
            old = b
        case (.failure(let a), .failure(let b)):
            #expect(a.message == b.message, "\(text)")
            return
        case (let a, let b):
            Issue.record("\(text): now \(a), before \(b)")
            return
        }
        for key in Self.keys {
            #expect(
                outcome { try new.string(key, maxLength: 4096) } == outcome { try old.string(key, maxLength: 4096) },
                "\(text) \(key)")
            #expect(outcome { try new.hex(key) } == outcome { try old.hex(key) }, "\(text) \(key)")
            #expect(new.truthy(key) == old.truthy(key), "\(text) \(key)")
            #expect(
                outcome { () throws -> Bool in
                    _ = try new.object(key)
                    return true
                } == outcome { try old.isObject(key) }, "\(text) \(key)")
        }
    }

    /// Where the new reading differs, on purpose: Foundation's parser took what RFC 8259 does not
    /// allow, or a body that means two things, or read a fraction below one as false.
    @Test func differencesOnPurpose() throws {
        func foundation(_ text: String) -> String {
            outcome { try FoundationReading(Array(text.utf8)).members.keys.sorted() }
        }
        func now(_ text: String) -> String { outcome { try JSONBody(Array(text.utf8)).members.map(\.name) } }
        // A trailing comma is not JSON.
        #expect(foundation(#"{"a":1,}"#) == #"["a"]"# && now(#"{"a":1,}"#) == "refused: The body is not valid JSON")
        // A repeated name: Foundation kept one of the two members silently.
        #expect(
            foundation(#"{"a":"x","a":"y"}"#) == #"["a"]"#
                && now(#"{"a":"x","a":"y"}"#) == "refused: Field 'a' appears more than once")
        // Truth of a fraction: any number other than zero is true now (as the open-source server's
        // reading takes it); NSNumber's truth looked at the integer part only.
        let half = Array(#"{"OTP":0.5}"#.utf8)
        #expect(try JSONBody(half).truthy("OTP") && !FoundationReading(half).truthy("OTP"))
    }
}
