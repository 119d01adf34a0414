import Foundation
import OrderedJSON
import SDKSeams
import TestSupport
import Testing

@testable import FlowRecording

@Suite struct CassetteFileTests {
    @Test func roundTripIsByteIdentical() async throws {
        let cassette = await Fixtures.record()
        let directory = try TemporaryDirectory.make("flowrecording-tests")
        defer { FileManagerShim.remove(directory) }
        let path = directory + "/toy.json"
        try CassetteFile.write(cassette, to: path)
        let first = try CassetteFile.readBytes(path)
        let read = try CassetteFile.read(path)
        #expect(read == cassette)
        try CassetteFile.write(read, to: path)
        #expect(try CassetteFile.readBytes(path) == first)
        #expect(first.last == UInt8(ascii: "\n"))
        #expect(read.canonicalBytes == first)
    }

    @Test func scriptsWithUnsortedMembersReadBackEqual() throws {
        var cassette = Fixtures.header()
        cassette.scenario = .init(
            name: "s",
            script: .object([.init("steps", [.object([.init("z", 1), .init("a", 2)])]), .init("name", "s")]))
        #expect(try CassetteFile.decode(cassette.canonicalBytes) == cassette)
    }

    /// An imported cassette's variables its source did not show, and the fresh members of its
    /// context mode, survive the file; `cassette show` prints both.
    @Test func unboundVariablesAndFreshMembersSurvive() throws {
        var cassette = Fixtures.header()
        cassette.replayMode = .context(fresh: ["U", "UT", "V"])
        cassette.origin = .init(
            format: "milagro-sdk", file: "run.json", test: "testRegister1",
            unbound: [
                .init(variable: "pin", test: "testRegister1", value: "1234", reason: "no request shows it"),
                .init(variable: "otherBackend", reason: "no settings request"),
            ])
        let read = try CassetteFile.decode(cassette.canonicalBytes)
        #expect(read == cassette)
        let text = String(decoding: cassette.canonicalBytes, as: UTF8.self)
        #expect(text.contains(#""fresh": ["#) && text.contains(#""unbound": ["#))
        let shown = CassetteTimeline.text(read)
        #expect(shown.contains("replays in mode context (fresh randomness in U, UT, V)"), "\(shown)")
        #expect(
            shown.contains(#"not bound from the recording: $pin of testRegister1 ("1234" used): no request shows it"#)
                && shown.contains("not bound from the recording: $otherBackend (no value): no settings request"),
            "\(shown)")
        // A member of the wrong type is a schema error naming it.
        let broken = text.replacingOccurrences(of: #""reason": "no settings request""#, with: #""reason": 5"#)
        #expect(throws: CassetteError.self) { try CassetteFile.decode(Array(broken.utf8)) }
    }

    @Test func binaryBodiesAndTransportErrorsSurvive() throws {
        var cassette = Fixtures.header()
        cassette.events = [
            CassetteEvent(
                .http(
                    .init(
                        request: .init(
                            method: "POST", url: "http://x/bin", headers: ["A": "1", "a": "2"],
                            body: [0xFF, 0x00, 0x80]),
                        response: .init(status: 200, body: [0xC3, 0x28])))),
            CassetteEvent(
                actor: .browser, step: .init(index: 3, name: "unreachable"),
                .http(
                    .init(
                        request: .init(method: "GET", url: "https://unreachable.example/"),
                        error: .init(kind: "hostNotFound", message: "Couldn't resolve host name", code: 6)))),
            CassetteEvent(.random(.init(purpose: "x", bytes: [1, 2, 255]))),
            CassetteEvent(.clock(.init(purpose: "date", milliseconds: 1))),
        ]
        let text = cassette.canonicalText
        #expect(text.contains("\"base64\": \"/wCA\""))
        #expect(text.contains("\"utc\": \"1970-01-01T00:00:00.001Z\""))
        let read = try CassetteFile.decode(Array(text.utf8))
        #expect(read == cassette)
        guard case .http(let failed) = read.events[1].payload else {
            Issue.record("not http")
            return
        }
        #expect(failed.error?.transportError(url: "u").kind == .hostNotFound)
    }

    @Test func jsonBodiesGetAReadersView() throws {
        var cassette = Fixtures.header()
        cassette.events = [
            CassetteEvent(
                .http(
                    .init(
                        request: .init(
                            method: "PUT", url: "http://x/rps/user",
                            body: Array("{\n\t\"userId\" : \"a\"\n}".utf8)),
                        response: .init(status: 200, body: Array("[1,2]".utf8)))))
        ]
        let document = try JSONParser.parse(cassette.canonicalText)
        let event = document["events"]!.arrayValue![0]
        #expect(event["request"]?["body"]?["json"] == .object([.init("userId", "a")]))
        #expect(event["request"]?["body"]?["text"] == "{\n\t\"userId\" : \"a\"\n}")
        #expect(event["response"]?["body"]?["json"] == [1, 2])
    }

    @Test func writeIsAtomicAndLeavesNoTemporaryFile() async throws {
        let directory = try TemporaryDirectory.make("flowrecording-tests")
        defer { FileManagerShim.remove(directory) }
        let path = directory + "/toy.json"
        FileManagerShim.write("old content", to: path)
        try CassetteFile.write(await Fixtures.record(), to: path)
        #expect(FileManagerShim.list(directory) == ["toy.json"])
        #expect(FileManagerShim.read(path).hasPrefix("{\n  \"backend\": {"))
        #expect(throws: CassetteError.self) {
            try CassetteFile.write(Fixtures.header(), to: directory + "/no/such/dir/x.json")
        }
        do {
            try CassetteFile.write(Fixtures.header(), to: directory + "/no/such/dir/x.json")
        } catch {
            #expect(error.kind == .writeFailed)
        }
    }

    /// A second `"events": []` would silently empty the cassette; it is refused, naming both places.
    @Test func aRepeatedMemberNameIsRefusedNamingBothPlaces() throws {
        var cassette = Fixtures.header()
        cassette.events = [CassetteEvent(.clock(.init(purpose: "date", milliseconds: 5)))]
        let text = String(cassette.canonicalText.dropLast(2)) + ",\n  \"events\": []\n}\n"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0.hasPrefix("  \"events\": [") }) + 1
        let again = try #require(lines.lastIndex { $0.hasPrefix("  \"events\": [") }) + 1
        #expect(first < again)
        #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { error in
            let error = error as! CassetteError
            return error.kind == .invalidJSON && error.line == again && error.column == 3
                && error.description
                    == "cassette:\(again):3: not valid JSON: repeated member name \"events\" at $.events: first at line "
                    + "\(first), column 3, again at line \(again), column 3 (names in an object must be unique)"
        }
    }

    @Test func writesThroughALinkAndRefusesAFIFO() async throws {
        let directory = try TemporaryDirectory.make("flowrecording-tests")
        defer { FileManagerShim.remove(directory) }
        FileManagerShim.write("old", to: directory + "/target.json")
        #expect(symlink("target.json", directory + "/link.json") == 0)
        try CassetteFile.write(Fixtures.header(), to: directory + "/link.json")
        #expect(FileManagerShim.read(directory + "/target.json") == Fixtures.header().canonicalText)
        #expect(FileManagerShim.list(directory) == ["link.json", "target.json"])
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect { try CassetteFile.write(Fixtures.header(), to: directory + "/fifo") } throws: { error in
            let error = error as! CassetteError
            return error.kind == .writeFailed
                && error.description
                    == "\(directory)/fifo: cannot write: is a FIFO (named pipe), not a regular file; refusing to replace it"
        }
    }

    @Test func missingFile() {
        #expect { try CassetteFile.read("/nonexistent/cassette.json") } throws: { error in
            let error = error as! CassetteError
            return error.kind == .missingFile && error.description == "/nonexistent/cassette.json: no such file"
        }
    }

    @Test func directoryIsUnreadable() throws {
        let directory = try TemporaryDirectory.make("flowrecording-tests")
        defer { FileManagerShim.remove(directory) }
        #expect { try CassetteFile.read(directory) } throws: { ($0 as! CassetteError).kind == .unreadableFile }
    }

    @Test func invalidJSONNamesLineAndColumn() {
        let text = "{\n  \"formatVersion\": 1,\n  \"events\": [,]\n}\n"
        #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { error in
            let error = error as! CassetteError
            return error.kind == .invalidJSON && error.line == 3 && error.column == 14
                && error.description.hasPrefix("cassette:3:14: not valid JSON")
        }
    }

    @Test func newerFormatVersionSaysWhichToolIsNeeded() {
        let text = #"{"formatVersion": 4, "tool": {"name": "mpin-workbench", "version": "2.3.0"}, "events": []}"#
        #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { error in
            let error = error as! CassetteError
            return error.kind == .newerFormatVersion && error.foundVersion == 4 && error.supportedVersion == 1
                && error.description.contains("needs mpin-workbench 2.3.0 or newer")
        }
    }

    @Test func schemaErrorsNameEventAndField() throws {
        var document = try JSONParser.parse(Fixtures.header().canonicalText)
        let bad: JSONValue = .object([
            .init("type", "http"), .init("actor", "sdk"),
            .init(
                "request",
                .object([
                    .init("method", 5), .init("url", "u"), .init("headers", []),
                    .init("body", .object([.init("text", "")])),
                ])),
            .init(
                "response",
                .object([
                    .init("status", 200), .init("headers", []),
                    .init("body", .object([.init("text", "")])),
                ])),
        ])
        let good: JSONValue = .object([.init("type", "clock"), .init("actor", "sdk"), .init("milliseconds", 5)])
        if case .object(var members) = document {
            members.removeAll { $0.name == "events" }
            members.append(.init("events", [good, bad]))
            document = .object(members)
        }
        #expect { try CassetteFile.decode(Array(JSONWriter.canonical(document).utf8)) } throws: { error in
            let error = error as! CassetteError
            return error.kind == .schema && error.eventIndex == 1 && error.field == "request.method"
                && error.description == "cassette: event 1, field request.method: expected a string, found number"
        }
    }

    /// Events are read as they are parsed; a file with a bad event and a bad header field still
    /// names what reading it whole names first (the event, then `curve`, which is read after the
    /// events), and a bad header alone is named as before.
    @Test func errorsComeInTheOrderOfAWholeRead() throws {
        let header = try JSONParser.parse(Fixtures.header().canonicalText)
        let good: JSONValue = .object([.init("type", "clock"), .init("actor", "sdk"), .init("milliseconds", 5)])
        let bad: JSONValue = .object([.init("type", "clock"), .init("actor", 7), .init("milliseconds", 5)])
        func file(events: [JSONValue], curve: JSONValue) -> [UInt8] {
            guard case .object(var members) = header else { return [] }
            members.removeAll { $0.name == "events" || $0.name == "curve" }
            members += [.init("events", .array(events)), .init("curve", curve)]
            return Array(JSONWriter.canonical(.object(members)).utf8)
        }
        #expect { try CassetteFile.decode(file(events: [good, bad], curve: 3)) } throws: { error in
            let error = error as! CassetteError
            return error.eventIndex == 1 && error.field == "actor"
        }
        #expect { try CassetteFile.decode(file(events: [good, good], curve: 3)) } throws: { error in
            let error = error as! CassetteError
            return error.eventIndex == nil && error.field == "curve" && error.kind == .schema
        }
        let read = try CassetteFile.decode(file(events: [good, good], curve: "BN254CX"))
        #expect(read.events.count == 2 && read.curve == "BN254CX")
    }

    @Test func unknownEventTypeAndMissingResponse() throws {
        for (event, field) in [
            (#"{"type": "dance", "actor": "sdk"}"#, "type"),
            (
                #"{"type": "http", "actor": "sdk", "request": {"method": "GET", "url": "u", "headers": [], "body": {"text": ""}}}"#,
                "response"
            ),
            (#"{"type": "random", "actor": "sdk", "bytes": "xyz"}"#, "bytes"),
        ] {
            let text =
                #"{"formatVersion": 1, "tool": {"name": "t", "version": "1"}, "curve": "c", "scenario": {"name": "s"},"#
                + #" "backend": {"url": "u", "flavour": "f"}, "events": ["# + event + "]}"
            #expect { try CassetteFile.decode(Array(text.utf8)) } throws: { error in
                let error = error as! CassetteError
                return error.kind == .schema && error.eventIndex == 0 && error.field == field
            }
        }
    }

    @Test func olderVersionsMigrateThroughTheHook() throws {
        // A made-up format 0 that called the events "interactions".
        let old =
            #"{"formatVersion": 0, "tool": {"name": "t", "version": "0.0.1"}, "curve": "BN254CX", "scenario": {"name": "s"},"#
            + #" "backend": {"url": "http://x", "flavour": "milagro"}, "interactions": []}"#
        #expect { try CassetteFile.decode(Array(old.utf8)) } throws: {
            ($0 as! CassetteError).kind == .unsupportedFormatVersion
        }
        let migration = CassetteMigration(from: 0) { document in
            guard case .object(let members) = document else { return document }
            let renamed = JSONValue.object(members.map { $0.name == "interactions" ? .init("events", $0.value) : $0 })
            return CassetteMigration.setting(version: 1, in: renamed)
        }
        let cassette = try CassetteFile.decode(Array(old.utf8), migrations: [migration])
        #expect(cassette.formatVersion == 1 && cassette.events.isEmpty && cassette.scenario.name == "s")
    }
}
