import FlowRecording
import Foundation
import ProtocolChecks
import Testing
import TestSupport
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
    }

    /// The findings of `cassette check`'s output for `file`: `FILE: LEVEL [EVENT] … (CODE)`.
    static func findings(_ stdout: String, file: String) -> [Finding] {
        stdout.split(separator: "\n").compactMap { line -> Finding? in
            guard line.hasPrefix(file + ": ") else { return nil }
            let rest = line.dropFirst(file.count + 2)
            let words = rest.split(separator: " ", maxSplits: 2)
            guard words.count == 3, ["failure", "warning", "note"].contains(words[0]), words[1].hasPrefix("["), words[1].hasSuffix("]"),
                  let event = Int(words[1].dropFirst().dropLast()), rest.hasSuffix(")"), let open = rest.lastIndex(of: "(") else { return nil }
            return Finding(level: String(words[0]), event: event, code: String(rest[rest.index(after: open)...].dropLast()))
        }
    }

    static let upstreamRecording = "interop/upstream-sdk-core/unit_tests_recorded_data.json"

    /// The C++ SDK core's recording of its unit tests, imported (one sequential run: the last
    /// test's cassette holds every exchange): no failure; the statuses the tests provoke (400 for an
    /// empty userId, the older backend's 401 to the browser's polls, the tampered access number's
    /// 412) are notes, the time-permit storage on S3 that the recording lacks is a note.
    @Test(.enabled(if: RepoPaths.hasShared(upstreamRecording), "../shared/interop/upstream-sdk-core/ is absent: the upstream recording is not checked"))
    func theUpstreamSDKsRecording() throws {
        let directory = try TemporaryDirectory.make("check-upstream")
        let imported = try WorkbenchProcess.run(["cassette", "import", "--format", "milagro-sdk", RepoPaths.shared + "/" + Self.upstreamRecording,
                                                 "--out", directory, "--scenarios", RepoPaths.scenarios])
        #expect(imported.status == 0, "\(imported)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 10, "\(files)")
        let paths = files.map { directory + "/" + $0 }
        let sizes = try paths.map { try CassetteFile.read($0).httpExchanges.count }
        let largest = try #require(zip(paths, sizes).max { $0.1 < $1.1 })
        #expect(largest.1 == 99, "the whole run in one cassette: \(largest.1) exchanges")

        let run = try WorkbenchProcess.run(["cassette", "check"] + paths)
        let mine = Self.findings(run.stdout, file: largest.0)
        print("upstream findings: \(mine)")
        #expect(run.exited && run.status == (Self.upstreamFindings.contains { $0.level == "failure" } ? 1 : 0), "\(run.stderr)")
        #expect(mine == Self.upstreamFindings, "\(run.stdout.split(separator: "\n").filter { $0.hasPrefix(largest.0) }.joined(separator: "\n"))")
        #expect(run.stdout.contains("\(largest.0): 99 exchanges: "), "\(run.stdout)")
    }

    static let upstreamFindings: [Finding] = []

    /// The probe's 199 requests to the real open-source server (PROTOCOL.md §14): its malformed
    /// requests the server refused are notes, its 500s warnings; the failures are the server's own
    /// flaws (a pass 1 with a malformed U answered 200).
    @Test(.enabled(if: RepoPaths.hasShared(ProbeCassette.relativePath), "../shared/interop/real-server/ is absent: the probe's exchanges are not checked"))
    func theRealServersProbe() throws {
        let source = RepoPaths.shared + "/" + ProbeCassette.relativePath
        let cassette = try ProbeCassette.cassette(Array(try Data(contentsOf: URL(fileURLWithPath: source))), path: source)
        #expect(cassette.events.count == 199)
        let file = try TemporaryDirectory.make("check-probe") + "/probe.json"
        try CassetteFile.write(cassette, to: file)
        let run = try WorkbenchProcess.run(["cassette", "check", file])
        let mine = Self.findings(run.stdout, file: file)
        print("probe findings: \(mine)")
        #expect(run.exited && run.status == (Self.probeFindings.contains { $0.level == "failure" } ? 1 : 0), "\(run.stderr)")
        #expect(mine == Self.probeFindings, "\(run.stdout)")
    }

    static let probeFindings: [Finding] = []
}
