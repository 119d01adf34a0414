import CommonFormats
import FlowRecording
import Foundation
import MPinCrypto
import TestSupport
import Testing

@testable import ProtocolChecks

/// The M-Pin checks over committed recordings (every check passes) and over tampered copies (the
/// check that the tampering breaks fails, naming the exchange and the value).
@Suite struct FlowCheckerTests {
    static func cassette(_ name: String) throws -> Cassette {
        try CassetteFile.read(RepoPaths.recordings + "/\(name).json")
    }

    static func check(_ cassette: Cassette) -> FlowCheckSummary { FlowChecker.summary(of: cassette) }

    /// The cassette with the JSON body of the first request to `path` edited through its text.
    static func editing(_ cassette: Cassette, path: String, response: Bool = false, _ edit: (String) -> String)
        -> Cassette
    {
        var cassette = cassette
        for (index, exchange) in cassette.httpExchanges where URLText.path(exchange.request.url) == path {
            var exchange = exchange
            if response {
                exchange.response!.body = Array(edit(String(decoding: exchange.response!.body, as: UTF8.self)).utf8)
            } else {
                exchange.request.body = Array(edit(String(decoding: exchange.request.body, as: UTF8.self)).utf8)
            }
            cassette.events[index].payload = .http(exchange)
            return cassette
        }
        Issue.record("no request to \(path)")
        return cassette
    }

    @Test(
        "committed recordings pass every check",
        arguments: ["authenticate", "access-number-logout", "otp", "wrong-pin-blocked", "revoked"])
    func recordingsPass(name: String) throws {
        let summary = Self.check(try Self.cassette(name))
        #expect(summary.passed && summary.raised.isEmpty, "\(summary.text)")
        for category in [FlowFinding.Category.status, .point, .encoding, .order, .timePermitDate] {
            #expect(summary.counts(category).passed > 0, "\(category) never checked: \(summary.text)")
        }
    }

    @Test func theAccessNumberFlowChecksCheckDigits() throws {
        let summary = Self.check(try Self.cassette("access-number-logout"))
        #expect(summary.counts(.accessNumber) == (2, 0), "\(summary.text)")
        #expect(
            summary.reports.contains { $0.kind == .getAccessNumber }
                && summary.reports.contains { $0.kind == .accessNumberPoll })
    }

    @Test func aPointOffTheCurveInPass1IsFlagged() throws {
        let original = try Self.cassette("authenticate")
        let tampered = Self.editing(original, path: "/rps/pass1") { text in
            // The last hex digit of U's y coordinate changed: same length, off the curve.
            guard let u = text.range(of: #""U":""#) ?? text.range(of: #""U" : ""#) else { return text }
            var scalars = Array(text.unicodeScalars)
            let end = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: u.upperBound) + 129
            scalars[end] = scalars[end] == "0" ? "1" : "0"
            return String(String.UnicodeScalarView(scalars))
        }
        let summary = Self.check(tampered)
        #expect(summary.counts(.point).failed == 1, "\(summary.text)")
        #expect(
            summary.text.contains("failure [30] POST /rps/pass1 (sdk): U: point not on the curve (point-off-curve)"),
            "\(summary.text)")
    }

    @Test func aShortUIsALengthProblem() throws {
        let tampered = Self.editing(try Self.cassette("authenticate"), path: "/rps/pass1") {
            $0.replacing(#""U" : "04"#, with: #""U" : ""#)
        }
        let summary = Self.check(tampered)
        #expect(summary.text.contains("U: not 65 bytes of lowercase hex (128 characters)"), "\(summary.text)")
    }

    @Test func aWrongCheckDigitIsFlagged() throws {
        var cassette = try Self.cassette("access-number-logout")
        let number = try #require(Self.accessNumber(in: cassette))
        let wrong = String(number.dropLast()) + String((Int(String(number.last!))! + 1) % 10)
        cassette = Self.editing(cassette, path: "/rps/getAccessNumber", response: true) {
            $0.replacing(number, with: wrong)
        }
        let summary = Self.check(cassette)
        #expect(summary.counts(.accessNumber).failed == 1, "\(summary.text)")
        #expect(summary.text.contains("accessNumber \(wrong): the check digit is"), "\(summary.text)")
    }

    @Test func aTimePermitDateOtherThanTheServersDayIsFlagged() throws {
        let tampered = Self.editing(
            try Self.cassette("authenticate"),
            path: "/rps/timePermit/" + Self.mpinID(try Self.cassette("authenticate")),
            response: true
        ) { $0.replacing(#""date":20454"#, with: #""date":20455"#) }
        let summary = Self.check(tampered)
        #expect(summary.counts(.timePermitDate).failed >= 1, "\(summary.text)")
        #expect(summary.text.contains("date 20455, the response's Date is day 20454"), "\(summary.text)")
    }

    @Test func pass2WithoutPass1IsOutOfOrder() throws {
        var cassette = try Self.cassette("authenticate")
        cassette.events.removeAll { event in
            if case .http(let exchange) = event.payload { return URLText.path(exchange.request.url) == "/rps/pass1" }
            return false
        }
        let summary = Self.check(cassette)
        #expect(summary.text.contains("pass 2 after pass 1 of the same M-Pin ID"), "\(summary.text)")
        #expect(summary.counts(.order).failed == 3, "\(summary.text)")
    }

    /// A finding says what was seen, then the rule it breaks: a login without an authOTT used to
    /// read "the login carries the authOTT of the pass 2 before it", the rule alone.
    @Test func aFindingSaysWhatWasSeenThenTheRule() throws {
        let noAuthOTT = Self.editing(try Self.cassette("authenticate"), path: "/mpinAuthenticate") { _ in
            #"{"mpinResponse": {"version": "0.3", "pass": 2}}"#
        }
        let summary = Self.check(noAuthOTT)
        #expect(
            summary.text.contains(
                "the login carries no authOTT; the rule: the login carries the authOTT of the pass 2 before it"),
            "\(summary.text)")
        let otherAuthOTT = Self.editing(try Self.cassette("authenticate"), path: "/mpinAuthenticate") {
            $0.replacing(/"authOTT" *: *"[0-9a-f]{4}/, with: #""authOTT": "ffff"#)
        }
        let text = Self.check(otherAuthOTT).text
        #expect(text.contains("the login carries authOTT ffff"), "\(text)")
        #expect(text.contains(", the pass 2 before it issued "), "\(text)")
        let pass = Self.editing(try Self.cassette("authenticate"), path: "/rps/pass1") {
            $0.replacing(/"pass" *: *1/, with: #""pass": "1""#)
        }
        #expect(
            Self.check(pass).text.contains(#"pass is the string "1"; the rule: pass is 1"#), "\(Self.check(pass).text)")
    }

    @Test func statusesAgainstTheTable() throws {
        var cassette = try Self.cassette("authenticate")
        let (index, exchange) = try #require(
            cassette.httpExchanges.first { URLText.path($0.exchange.request.url) == "/rps/pass1" })
        var failed = exchange
        failed.response = .init(status: 500, body: Array("{}".utf8))
        cassette.events[index].payload = .http(failed)
        let summary = Self.check(cassette)
        #expect(
            summary.text.contains("status 500 → HTTP_SERVER_ERROR: a server error for the pass 1 (status-5xx)"),
            "\(summary.text)")
        #expect(summary.passed && summary.count(.warning) == 1, "a server error is a warning: \(summary.text)")
        // The wrong PIN's 401 on the login is in the table: it passes.
        #expect(
            summary.reports.contains {
                $0.status == 401 && $0.passed && $0.findings.contains { $0.message == "status 401 → INCORRECT_PIN" }
            },
            "\(summary.text)")
    }

    @Test func dayNumbersOfHTTPDates() {
        #expect(FlowChecker.day(ofHTTPDate: "Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(FlowChecker.day(ofHTTPDate: "Thu, 01 Jan 2026 00:00:00 GMT") == 20454)
        #expect(FlowChecker.day(ofHTTPDate: "Tue, 29 Feb 2000 12:00:00 GMT") == 11016)
        #expect(FlowChecker.day(ofHTTPDate: "garbage") == nil)
    }

    static func accessNumber(in cassette: Cassette) -> String? {
        for (_, exchange) in cassette.httpExchanges where URLText.path(exchange.request.url) == "/rps/getAccessNumber" {
            let text = String(decoding: exchange.response?.body ?? [], as: UTF8.self)
            guard let range = text.range(of: #""accessNumber":""#) else { continue }
            return String(text[range.upperBound...].prefix(7))
        }
        return nil
    }

    static func mpinID(_ cassette: Cassette) -> String {
        for (_, exchange) in cassette.httpExchanges
        where URLText.path(exchange.request.url).hasPrefix("/rps/timePermit/") {
            return String(URLText.path(exchange.request.url).dropFirst("/rps/timePermit/".count))
        }
        return ""
    }
}
