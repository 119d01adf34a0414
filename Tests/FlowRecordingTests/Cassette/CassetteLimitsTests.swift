import OrderedJSON
import SDKSeams
import Testing

@testable import FlowRecording

/// The reader refuses numbers and names that cannot be (a status no server can send, a header no
/// message can carry, a negative or huge duration or clock) and a `json` view that disagrees with
/// its bytes, naming the event index and the field.
@Suite struct CassetteLimitsTests {
    /// A cassette file holding one event, given as JSON text.
    static func file(event: String) -> [UInt8] {
        let text =
            #"{"formatVersion": 1, "tool": {"name": "t", "version": "1"}, "curve": "BN254CX", "scenario": {"name": "s"},"#
            + #" "backend": {"url": "http://127.0.0.1:8005", "flavour": "milagro"}, "events": [{"type": "clock", "actor": "sdk", "milliseconds": 5}, "#
            + event + "]}"
        return Array(text.utf8)
    }

    /// An `http` event with these response members (status, headers, body) and extra event members.
    static func exchange(
        status: String = "200", headers: String = "[]", body: String = #"{"text": ""}"#, requestHeaders: String = "[]",
        extra: String = ""
    ) -> String {
        #"{"type": "http", "actor": "sdk", "request": {"method": "GET", "url": "http://127.0.0.1:8005/rps/x", "headers": "#
            + requestHeaders + #", "body": {"text": ""}}, "response": {"status": "# + status + #", "headers": "#
            + headers
            + #", "body": "# + body + "}" + extra + "}"
    }

    /// The reading error of a file with `event` as event 1.
    func error(_ event: String) throws -> CassetteError {
        do {
            _ = try CassetteFile.decode(Self.file(event: event))
        } catch {
            return error
        }
        Issue.record("the cassette was read but should not have been")
        throw CassetteError(kind: .schema, message: "read")
    }

    @Test func theOneEventFileIsReadWhenItsValuesAreInRange() throws {
        let cassette = try CassetteFile.decode(
            Self.file(event: Self.exchange(headers: #"[{"name": "X-A", "value": "1\t2"}]"#)))
        #expect(cassette.events.count == 2)
    }

    /// Before: read as is, and `serve --cassette` died (SIGILL) on the first request for the route.
    @Test func aStatusOutsideThreeDigitsIsRefused() throws {
        for status in ["0", "99", "1000", "-1", "9223372036854775807"] {
            let found = try error(Self.exchange(status: status))
            #expect(found.kind == .schema && found.eventIndex == 1 && found.field == "response.status", "\(status)")
            #expect(found.message == "\(status) is not an HTTP status (100 to 999)")
        }
        for status in ["1e400", "200.5", "99999999999999999999"] {
            let found = try error(Self.exchange(status: status))
            #expect(
                found.field == "response.status" && found.message == "expected an integer, found \(status)", "\(found)")
        }
    }

    /// Before: 100,000 header fields were read, and serving them killed the server.
    @Test func moreHeaderFieldsThanTheLimitAreRefused() throws {
        let many = "[" + Array(repeating: #"{"name": "X", "value": "1"}"#, count: 1_001).joined(separator: ",") + "]"
        let found = try error(Self.exchange(headers: many))
        #expect(found.field == "response.headers" && found.message == "1001 header fields; a message has at most 1000")
        let requestSide = try error(Self.exchange(requestHeaders: many))
        #expect(requestSide.field == "request.headers")
    }

    @Test func headerNamesAreTokensAndValuesHaveNoLineBreaks() throws {
        for name in [#""X Y""#, #""X\r\nY""#, #""X:""#, #""""#, #""Ünï""#] {
            let found = try error(
                Self.exchange(headers: #"[{"name": "A", "value": "1"}, {"name": "# + name + #", "value": "1"}]"#))
            #expect(found.eventIndex == 1 && found.field == "response.headers[1].name", "\(name)")
            #expect(
                found.message.hasSuffix(
                    "is not a header name (letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, CR or LF)"))
        }
        let value = try error(Self.exchange(requestHeaders: #"[{"name": "A", "value": "1\r\nInjected: yes"}]"#))
        #expect(value.field == "request.headers[0].value" && value.message.hasPrefix("has a control character"))
    }

    /// Before: a timing of 1e19 was read, and `cassette show`/`diff` trapped making it milliseconds.
    @Test func timingsAreFiniteDurationsUpToADay() throws {
        let phases = ["dns", "connect", "tls", "requestSent", "firstByte", "total"]
        func timings(_ total: String) -> String {
            #", "timings": {"#
                + phases.map { "\"\($0)\": " + ($0 == "total" ? total : "0.001") }.joined(separator: ", ") + "}"
        }
        for total in ["1e19", "-1", "86400.5"] {
            let found = try error(Self.exchange(extra: timings(total)))
            #expect(found.eventIndex == 1 && found.field == "timings.total", "\(total)")
            #expect(found.message == "\(total) is not a duration from 0 to 86400 seconds")
        }
        let infinite = try error(Self.exchange(extra: timings("1e400")))
        #expect(
            infinite.field == "timings.total"
                && infinite.message == "1e400 is not a number of seconds a Double can hold")
        #expect(throws: Never.self) {
            try CassetteFile.decode(Self.file(event: Self.exchange(extra: timings("86400"))))
        }
    }

    @Test func clockReadingsAreFrom1970To9999() throws {
        for value in ["-1", "253402300800000", "9223372036854775807"] {
            let found = try error(#"{"type": "clock", "actor": "sdk", "milliseconds": "# + value + "}")
            #expect(found.eventIndex == 1 && found.field == "milliseconds", "\(value)")
            #expect(found.message == "\(value) is not a time from 0 to 253402300799999 ms since 1970 (1970 to 9999)")
        }
        for value in ["1e400", "9223372036854775808", "1.5"] {
            let found = try error(#"{"type": "clock", "actor": "sdk", "milliseconds": "# + value + "}")
            #expect(
                found.field == "milliseconds"
                    && found.message == "expected an integer number of milliseconds, found \(value)")
        }
    }

    @Test func stepIndicesRedactionCountsAndErrorCodesAreInRange() throws {
        let step = try error(
            #"{"type": "clock", "actor": "sdk", "milliseconds": 5, "step": {"index": -1, "name": "s"}}"#)
        #expect(step.field == "step.index" && step.message == "-1 is not a step index (0 to 1000000)")
        let code = try error(
            #"{"type": "http", "actor": "sdk", "request": {"method": "GET", "url": "http://x/", "headers": [], "body": {"text": ""}}, "#
                + #""error": {"kind": "other", "message": "m", "code": 99999999999}}"#)
        #expect(code.field == "error.code" && code.message.hasPrefix("99999999999 is not a transport error code"))
        let text =
            #"{"formatVersion": 1, "tool": {"name": "t", "version": "1"}, "curve": "BN254CX", "scenario": {"name": "s"},"#
            + #" "backend": {"url": "u", "flavour": "f"}, "redactions": [{"placeholder": "p", "field": "f", "occurrences": -3}], "events": []}"#
        #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { error in
            (error as? CassetteError)?.description
                == "cassette: field redactions[0].occurrences: -3 is not a count (0 to 2147483647)"
        }
    }

    /// Before: a `json` view edited alone was ignored: replay passed and `cassette diff` saw nothing.
    @Test func aJSONViewThatDisagreesWithItsBytesIsRefusedNamingWhatToEdit() throws {
        let view = #"{"json": {"pass": 2}, "text": "{\"pass\": 1}"}"#
        let found = try error(Self.exchange(body: view))
        #expect(found.kind == .schema && found.eventIndex == 1 && found.field == "response.body.json")
        #expect(
            found.description
                == "cassette: event 1, field response.body.json: does not match the body's `text`, which is what is replayed "
                + "(the bytes are the truth, `json` is only a view of them): to change the body, edit `text`, then run "
                + "`mpin-workbench cassette lint --fix FILE`, which writes `json` again from `text`; an edit to `json` alone is undone by --fix"
        )
        // Base64 bodies name `base64`; a view beside bytes that are no JSON at all is refused too.
        let encoded = try error(Self.exchange(body: #"{"base64": "eyJhIjoxfQ==", "json": {"a": 2}}"#))
        #expect(encoded.message.contains("to change the body, edit `base64`"))
        let notJSON = try error(Self.exchange(body: #"{"json": {"a": 1}, "text": "plain"}"#))
        #expect(notJSON.field == "response.body.json")
        // Written otherwise but meaning the same (member order, spacing, number spelling): accepted.
        let same = #"{"json": {"b": 1.0, "a": [1, 2]}, "text": "{\"a\":[1,2],\n\t\"b\": 1}"}"#
        #expect(throws: Never.self) { try CassetteFile.decode(Self.file(event: Self.exchange(body: same))) }
        let request = try error(
            Self.exchange(extra: "").replacing(
                #""body": {"text": ""}}, "response""#,
                with: #""body": {"text": "[1]", "json": [2]}}, "response""#))
        #expect(request.field == "request.body.json")
    }

    /// Cassettes built in code may hold anything; the timeline shows such a duration as it is.
    @Test func aTimelineShowsAnyDurationWithoutTrapping() {
        var cassette = Fixtures.header()
        let timings = HTTPTimings(dns: 0, connect: 0, tls: 0, requestSent: 0, firstByte: 0, total: 1e19)
        cassette.events = [
            CassetteEvent(
                .http(
                    .init(
                        request: .init(method: "GET", url: "http://x/"), response: .init(status: 200),
                        timings: timings)))
        ]
        #expect(CassetteTimeline.text(cassette).contains("http GET http://x/ -> 200 in 1e+19 s"))
        #expect(
            EventSummary.duration(0.012) == "12 ms" && EventSummary.duration(-.infinity) == "-inf s"
                && EventSummary.duration(.nan) == "nan s")
        var other = cassette
        other.events = []
        #expect(
            CassetteDiff.text(cassette, other, names: ("a", "b")).contains(
                "only in the first: http GET http://x/ -> 200 in 1e+19 s"))
    }
}
