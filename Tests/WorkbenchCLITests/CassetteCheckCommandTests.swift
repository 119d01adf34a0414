import FlowRecording
import Foundation
import ProtocolChecks
import TestSupport
import Testing

@testable import WorkbenchCLI

/// `cassette check`: the M-Pin checks on the real system's artifacts, read from `../shared` (the
/// C++ SDK core's own recording, imported; the probe's exchanges with the open-source server),
/// with every finding pinned as (level, event, code); exit statuses; unreadable files.
@Suite struct CassetteCheckCommandTests {
    struct Finding: Hashable, CustomStringConvertible {
        var level: String
        var event: Int
        var code: String
        var description: String { "(\(level), \(event), \(code))" }

        init(level: String, event: Int, code: String) {
            self.level = level
            self.event = event
            self.code = code
        }

        init(_ level: String, _ event: Int, _ code: String) { self.init(level: level, event: event, code: code) }
    }

    /// The findings of `cassette check`'s output for `file`: `FILE: LEVEL [EVENT] … (CODE)`.
    static func findings(_ stdout: String, file: String) -> [Finding] {
        stdout.split(separator: "\n").compactMap { line -> Finding? in
            guard line.hasPrefix(file + ": ") else { return nil }
            let rest = line.dropFirst(file.count + 2)
            let words = rest.split(separator: " ", maxSplits: 2)
            guard words.count == 3, ["failure", "warning", "note"].contains(words[0]), words[1].hasPrefix("["),
                words[1].hasSuffix("]"),
                let event = Int(words[1].dropFirst().dropLast()), rest.hasSuffix(")"),
                let open = rest.lastIndex(of: "(")
            else { return nil }
            return Finding(
                level: String(words[0]), event: event, code: String(rest[rest.index(after: open)...].dropLast()))
        }
    }

    static let upstreamRecording = "interop/upstream-sdk-core/unit_tests_recorded_data.json"

    /// The C++ SDK core's recording of its unit tests, imported (16 cassettes, each with the tests
    /// before it as setup): no failure. The transport errors of testBackend and setBackend are
    /// warnings (in every cassette that has them as setup); testRegister3's 400 to an empty user id,
    /// the tampered access number 6419791 in pass 2 and the older backend's 401 to the browser's poll
    /// are notes; so are the origins the settings name that a cassette never asks.
    @Test(
        .enabled(
            if: RepoPaths.hasShared(upstreamRecording),
            "../shared/interop/upstream-sdk-core/ is absent: the upstream recording is not checked"))
    func theUpstreamSDKsRecording() throws {
        let directory = try TemporaryDirectory.make("check-upstream")
        let imported = try WorkbenchProcess.run([
            "cassette", "import", "--format", "milagro-sdk", RepoPaths.shared + "/" + Self.upstreamRecording,
            "--out", directory, "--scenarios", RepoPaths.scenarios,
        ])
        #expect(imported.status == 0, "\(imported)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
            .sorted()
        let paths = files.map { directory + "/" + $0 }
        let exchanges = try paths.reduce(0) { $0 + (try CassetteFile.read($1).httpExchanges.count) }
        #expect(exchanges >= 99, "every exchange of the recording in some cassette: \(exchanges)")

        let run = try WorkbenchProcess.run(["cassette", "check"] + paths)
        #expect(run.exited && run.status == 0, "no failure: \(run)")
        var found: [String: [Finding]] = [:]
        for (file, path) in zip(files, paths) {
            let mine = Self.findings(run.stdout, file: path)
            if !mine.isEmpty { found[file] = mine }
        }
        #expect(found == Self.upstreamFindings, "\(run.stdout)")
        // A finding says what was seen, then the rule: testAuthenticateAN2's browser logs in with
        // `{"mpinResponse": {}}`, its poll having been refused.
        #expect(
            run.stdout.contains(
                "the browser's login carries no authOTT; the rule: the browser's login carries an authOTT a pass 2 "
                    + "issued (order-login)"), "\(run.stdout)")
        for (file, path) in zip(files, paths) {
            #expect(run.stdout.contains("\(path): "), "no summary line for \(file)")
        }
    }

    static let upstreamFindings: [String: [Finding]] = [
        "setBackend.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testAuthenticate1.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testAuthenticate2.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testAuthenticateAN1.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testAuthenticateAN2.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"), .init("note", 89, "check-digit"),
            .init("note", 92, "check-digit"), .init("note", 97, "status-4xx"), .init("note", 98, "order-login"),
            .init("note", 98, "status-4xx"),
        ],
        "testAuthenticateOTP.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testBackend.json": [
            .init("note", 1, "unseen-origin"), .init("note", 1, "unseen-origin"), .init("note", 1, "unseen-origin"),
            .init("note", 1, "unseen-origin"), .init("warning", 2, "no-response"),
        ],
        "testInit.json": [
            .init("note", 0, "unseen-origin"), .init("note", 0, "unseen-origin"),
        ],
        "testRegister1.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testRegister2.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testRegister3.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testRegister4.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 22, "status-4xx"),
        ],
        "testUsers1.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testUsers2.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testUsers4.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
        "testUsers5.json": [
            .init("warning", 2, "no-response"), .init("warning", 3, "no-response"), .init("note", 4, "unseen-origin"),
            .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"), .init("note", 4, "unseen-origin"),
        ],
    ]

    /// The probe's 199 requests to the real open-source server (docs/protocol.md §14), D-TA 2 on its own
    /// origin: no failure. Its malformed requests the server refused are notes, those it answered
    /// with a 500 warnings; unknown paths and methods are notes. (The probe kept only the first 300
    /// characters of a body: passes 1 and 2 are not checked, so the server's acceptance of a U off
    /// the curve is not seen here.)
    @Test(
        .enabled(
            if: RepoPaths.hasShared(ProbeCassette.relativePath),
            "../shared/interop/real-server/ is absent: the probe's exchanges are not checked"))
    func theRealServersProbe() throws {
        let source = RepoPaths.shared + "/" + ProbeCassette.relativePath
        let cassette = try ProbeCassette.cassette(
            Array(try Data(contentsOf: URL(fileURLWithPath: source))), path: source)
        #expect(cassette.events.count == 199)
        let file = try TemporaryDirectory.make("check-probe") + "/probe.json"
        try CassetteFile.write(cassette, to: file)
        let run = try WorkbenchProcess.run(["cassette", "check", file])
        let mine = Self.findings(run.stdout, file: file)
        #expect(run.exited && run.status == 0, "no failure: \(run.stderr)")
        #expect(mine == Self.probeFindings, "\(run.stdout)")
        #expect(run.stdout.contains("\(file): 199 exchanges: 352 passed, 22 warnings, 78 notes"), "\(run.stdout)")
    }

    static let probeFindings: [Finding] = [
        .init("note", 4, "not-json"), .init("note", 4, "status-4xx"), .init("note", 5, "member"),
        .init("note", 5, "status-4xx"),
        .init("note", 6, "status-4xx"), .init("note", 7, "member"), .init("note", 7, "status-4xx"),
        .init("warning", 8, "member"),
        .init("warning", 8, "status-5xx"), .init("note", 9, "status-4xx"), .init("warning", 10, "member"),
        .init("warning", 10, "status-5xx"), .init("warning", 11, "not-object"), .init("warning", 11, "status-5xx"),
        .init("note", 12, "not-json"), .init("note", 12, "status-4xx"), .init("note", 14, "duplicate-member"),
        .init("warning", 19, "status-5xx"), .init("note", 23, "status-4xx"), .init("note", 25, "status-4xx"),
        .init("note", 30, "order-share1-id"), .init("warning", 31, "order-share1-id"),
        .init("warning", 31, "status-5xx"),
        .init("warning", 32, "order-share1-id"), .init("warning", 32, "status-5xx"),
        .init("note", 33, "order-share1-id"),
        .init("note", 33, "status-4xx"), .init("note", 39, "status-4xx"), .init("note", 40, "status-4xx"),
        .init("note", 41, "hex-length"),
        .init("note", 41, "status-4xx"), .init("note", 42, "hex"), .init("note", 42, "status-4xx"),
        .init("note", 43, "status-4xx"),
        .init("note", 44, "unknown-path"), .init("note", 45, "status-4xx"), .init("warning", 49, "status-5xx"),
        .init("note", 50, "status-4xx"), .init("note", 53, "status-4xx"), .init("note", 54, "status-4xx"),
        .init("note", 55, "status-4xx"),
        .init("note", 56, "status-4xx"), .init("note", 66, "not-json"), .init("note", 66, "status-4xx"),
        .init("note", 67, "status-4xx"),
        .init("note", 68, "status-4xx"), .init("note", 69, "status-4xx"), .init("note", 70, "status-4xx"),
        .init("warning", 71, "status-5xx"), .init("note", 73, "not-object"), .init("note", 73, "status-4xx"),
        .init("note", 80, "not-json"), .init("note", 80, "status-4xx"), .init("note", 81, "status-4xx"),
        .init("note", 82, "status-4xx"),
        .init("note", 83, "status-4xx"), .init("warning", 84, "status-5xx"), .init("warning", 85, "order-pass2"),
        .init("warning", 85, "status-5xx"), .init("warning", 86, "status-5xx"), .init("note", 93, "not-json"),
        .init("note", 93, "status-4xx"), .init("note", 94, "order-login"), .init("note", 94, "status-4xx"),
        .init("warning", 95, "order-login"), .init("warning", 95, "status-5xx"), .init("note", 96, "order-login"),
        .init("note", 120, "status-4xx"), .init("warning", 121, "status-5xx"), .init("note", 127, "status-4xx"),
        .init("note", 128, "status-4xx"), .init("note", 137, "status-4xx"), .init("warning", 138, "status-5xx"),
        .init("note", 140, "order-login"), .init("note", 141, "not-json"), .init("note", 141, "status-4xx"),
        .init("note", 142, "order-login"), .init("note", 142, "status-4xx"), .init("warning", 173, "status-5xx"),
        .init("note", 174, "unknown-path"), .init("note", 175, "unknown-path"), .init("note", 176, "unknown-path"),
        .init("note", 177, "unknown-path"), .init("note", 178, "unknown-path"), .init("note", 179, "not-json"),
        .init("note", 179, "status-4xx"), .init("note", 180, "not-json"), .init("note", 180, "status-4xx"),
        .init("note", 181, "not-json"),
        .init("note", 181, "status-4xx"), .init("note", 182, "status-4xx"), .init("note", 183, "unknown-path"),
        .init("note", 185, "unknown-path"), .init("note", 187, "status-4xx"), .init("note", 194, "status-4xx"),
        .init("note", 195, "not-json"), .init("note", 195, "status-4xx"), .init("note", 196, "not-json"),
        .init("note", 196, "status-4xx"),
        .init("note", 197, "unknown-path"),
    ]
}

/// Usage and unreadable files, and a failure's exit status.
@Suite struct CassetteCheckUsageTests {
    @Test func statuses() throws {
        let directory = try TemporaryDirectory.make("check-usage")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let missing = try WorkbenchProcess.run(["cassette", "check", directory + "/missing.json"])
        #expect(missing.exited && missing.status == 2 && missing.stderr.contains("missing.json"), "\(missing)")
        let none = try WorkbenchProcess.run(["cassette", "check"])
        #expect(none.exited && none.status == 2, "\(none)")
        // A committed recording with a time permit off the curve in a 200 answer: a failure, status 1.
        var cassette = try CassetteFile.read(RepoPaths.recordings + "/authenticate.json")
        let (index, exchange) = try #require(
            cassette.httpExchanges.first { $0.exchange.request.url.contains("/dta2/timePermit") })
        var broken = exchange
        let text = String(decoding: broken.response!.body, as: UTF8.self)
        broken.response!.body = Array(text.replacing(#""timePermit":"04"#, with: #""timePermit":"05"#).utf8)
        cassette.events[index].payload = .http(broken)
        let file = directory + "/broken.json"
        try CassetteFile.write(cassette, to: file)
        let run = try WorkbenchProcess.run(["cassette", "check", file, RepoPaths.recordings + "/otp.json"])
        #expect(run.exited && run.status == 1, "\(run)")
        #expect(
            run.stdout.contains("\(file): failure [\(index)] GET /dta2/timePermit (sdk): timePermit: "), "\(run.stdout)"
        )
        #expect(
            run.stdout.contains(RepoPaths.recordings + "/otp.json: ") && run.stdout.contains(" passed\n"),
            "\(run.stdout)")
    }
}
