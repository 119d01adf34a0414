import Foundation
import OrderedJSON
import TestSupport
import Testing

@testable import FlowRecording

/// `cassette lint --portable` (`CassetteLint.checkPortable`): what a C consumer on jansson would read
/// differently, in the file and in JSON bodies, each with its line, column and JSON path.
@Suite struct CassetteLintPortableTests {
    /// The toy cassette with the response body of its first exchange replaced.
    func cassette(responseBody: String) async throws -> (bytes: [UInt8], index: Int) {
        var cassette = await Fixtures.record()
        let index = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/clientSettings"))
        guard case .http(var exchange) = cassette.events[index].payload else { throw CaseError() }
        exchange.response?.body = Array(responseBody.utf8)
        cassette.events[index].payload = .http(exchange)
        return (cassette.canonicalBytes, index)
    }

    struct CaseError: Error {}

    /// `line L, column C` of `path` in `bytes`.
    func place(_ path: JSONPath, in bytes: [UInt8]) throws -> String {
        let position = try #require(try JSONParser.parseDocument(bytes).position(of: path))
        return "line \(position.line), column \(position.column)"
    }

    @Test func aCleanCassetteHasNoFindings() async throws {
        let (bytes, _) = try await cassette(responseBody: #"{"ok": true, "n": 9223372036854775807}"#)
        #expect(CassetteLint.check(bytes: bytes, path: "x.json").isEmpty)
        #expect(CassetteLint.checkPortable(bytes: bytes, path: "x.json").isEmpty)
    }

    @Test func aBigIntegerIsReportedInTheViewAndInTheBody() async throws {
        let (bytes, index) = try await cassette(responseBody: "{\"ok\": true,\n \"n\": 18446744073709551616}")
        let body = JSONPath.root.member("events").index(index).member("response").member("body")
        let problems = CassetteLint.checkPortable(bytes: bytes, path: "x.json").map(\.description)
        let integer =
            "the integer 18446744073709551616 is beyond 64 bits (-2^63 to 2^63-1): jansson refuses the document (json_int_t)"
        #expect(
            problems == [
                "x.json: \(try place(body.member("json").member("n"), in: bytes)): \(body.member("json").member("n")): \(integer)",
                "x.json: \(try place(body.member("text"), in: bytes)): \(body.member("text")), the body's JSON at its line 2, column 2, $.n: \(integer)",
            ])
        #expect(CassetteLint.check(bytes: bytes, path: "x.json").isEmpty, "only --portable reports it")
    }

    @Test func nulInAStringIsReported() async throws {
        let (bytes, index) = try await cassette(responseBody: #"["a\u0000"]"#)
        let problems = CassetteLint.checkPortable(bytes: bytes, path: "x.json").map(\.message)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.allSatisfy { $0.contains("the string holds NUL (\\u0000)") })
        #expect(
            problems.last?.contains(
                "$.events[\(index)].response.body.text, the body's JSON at its line 1, column 2, $[0]:") == true)
    }

    /// A body with a repeated name has no `json` view (the reader refuses repeats): only the body
    /// tells, and the file itself is clean.
    @Test func aRepeatedNameInABodyIsReported() async throws {
        let (bytes, index) = try await cassette(responseBody: #"{"user": "a", "user": "b"}"#)
        let problems = CassetteLint.checkPortable(bytes: bytes, path: "x.json").map(\.message)
        #expect(
            problems == [
                "\(try place(JSONPath.root.member("events").index(index).member("response").member("body").member("text"), in: bytes)): "
                    + "$.events[\(index)].response.body.text, the body's JSON at its line 1, column 15, $.user: the member name \"user\" "
                    + "appears 2 times: jansson keeps the last value silently (with JSON_REJECT_DUPLICATES it refuses the document)"
            ])
    }

    /// A repeated name in the file itself: the cassette reader refuses it (plain lint says so), and
    /// --portable says where and what jansson would do.
    @Test func aRepeatedNameInTheFileIsReported() async throws {
        let (clean, _) = try await cassette(responseBody: "{}")
        var text = String(decoding: clean, as: UTF8.self)
        text = text.replacingOccurrences(
            of: "\"curve\": \"BN254CX\",", with: "\"curve\": \"BN254CX\",\n  \"curve\": \"BN254CX\",")
        let bytes = Array(text.utf8)
        #expect(!CassetteLint.check(bytes: bytes, path: "x.json").isEmpty)
        let problems = CassetteLint.checkPortable(bytes: bytes, path: "x.json").map(\.message)
        let line =
            try #require(
                text.split(separator: "\n", omittingEmptySubsequences: false).lastIndex { $0.contains("\"curve\"") })
            + 1
        #expect(
            problems.count == 1
                && problems[0].hasPrefix("line \(line), column 3: $.curve: the member name \"curve\" appears 2 times"),
            "\(problems)")
    }

    @Test func aBodyWithAByteOrderMarkIsChecked() async throws {
        var cassette = await Fixtures.record()
        let index = Fixtures.index(of: cassette, where: Fixtures.isHTTP("/rps/clientSettings"))
        guard case .http(var exchange) = cassette.events[index].payload else { throw CaseError() }
        // Invalid UTF-8 is no JSON (the body is kept as base64): nothing to compare.
        exchange.request.body = Array("{\"n\": 1e999, \"s\": \"".utf8) + [0xFF] + Array("\"}".utf8)
        cassette.events[index].payload = .http(exchange)
        #expect(CassetteLint.checkPortable(bytes: cassette.canonicalBytes, path: "x.json").isEmpty)
        exchange.request.body = [0xEF, 0xBB, 0xBF] + Array("{\"n\": 1e999}".utf8)
        cassette.events[index].payload = .http(exchange)
        // Columns count UTF-8 bytes: the mark is three.
        let problems = CassetteLint.checkPortable(bytes: cassette.canonicalBytes, path: "x.json").map(\.message)
        let text = "$.events[\(index)].request.body.text, the body's JSON at its line 1, column "
        #expect(
            problems.count == 3
                && problems[0].contains("$.events[\(index)].request.body.json.n: the number 1e999 is beyond a double"),
            "\(problems)")
        #expect(
            problems.dropFirst().map {
                $0.contains(text + "1, $: the text starts with a UTF-8 byte order mark")
                    || $0.contains(text + "5, $.n:")
            }
                == [true, true], "\(problems)")
    }

    /// A hand-written `base64` body is read as the bytes it stands for.
    @Test func aBase64BodyIsChecked() async throws {
        let (clean, index) = try await cassette(responseBody: "{}")
        var document = try JSONParser.parse(clean)
        guard case .object(var members) = document, case .array(var events) = document["events"],
            case .object(var event) = events[index],
            case .object(var response) = event.first(where: { $0.name == "response" })?.value
        else { throw CaseError() }
        let encoded = Data(#"{"s": "\u0000"}"#.utf8).base64EncodedString()
        response = response.map { $0.name == "body" ? .init("body", .object([.init("base64", .string(encoded))])) : $0 }
        event = event.map { $0.name == "response" ? .init("response", .object(response)) : $0 }
        events[index] = .object(event)
        members = members.map { $0.name == "events" ? .init("events", .array(events)) : $0 }
        document = .object(members)
        let bytes = Array(JSONWriter.canonical(document).utf8)
        let problems = CassetteLint.checkPortable(bytes: bytes, path: "x.json").map(\.message)
        #expect(
            problems.count == 1
                && problems[0].contains(
                    "$.events[\(index)].response.body.base64, the body's JSON at its line 1, column 2, $.s: "
                        + "the string holds NUL"),
            "\(problems)")
    }

    @Test func theCommittedRecordingsAreClean() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: RepoPaths.recordings).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(files.count >= 10, "only \(files.count) recordings found")
        for file in files {
            let problems = CassetteLint.checkPortable(path: RepoPaths.recordings + "/" + file)
            #expect(problems.isEmpty, "\(file): \(problems.map(\.message))")
        }
    }
}
