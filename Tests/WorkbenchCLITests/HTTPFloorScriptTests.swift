import Foundation
import TestSupport
import Testing

private let httpFloorToolsPresent = ["/usr/bin/python3", "/usr/bin/cc"].allSatisfy {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// `Scripts/http_floor.py`, the outside check of `serve --bench`'s HTTP floor: it builds its C
/// client, runs `serve` on a free loopback port, measures both sides and stops the server. Needs
/// python3 and a C compiler at /usr/bin (the suite is skipped without them) and libcurl's headers
/// (`make deps` installs those).
@Suite("Scripts/http_floor.py", .enabled(if: WorkbenchProcess.path != nil && httpFloorToolsPresent))
struct HTTPFloorScriptTests {
    /// Runs the script with 2 rounds of 40 exchanges, 4 at once, and `options`; its JSON object and
    /// the rounds of each mode, both modes there with 2 rounds each.
    private func measure(_ options: String) throws -> (object: [String: Any], results: [String: [[String: Double]]]) {
        let result = try WorkbenchProcess.run(
            shell:
                "python3 Scripts/http_floor.py --workbench \"$WORKBENCH\" --rounds 2 --exchanges 40 --concurrency 4 \(options) --json",
            seconds: 300)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("Traceback"), "\(result)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let results = try #require(object["results"] as? [String: [[String: Double]]])
        #expect(Set(results.keys) == ["serial", "4 at once"])
        for (mode, rounds) in results { #expect(rounds.count == 2, "\(mode)") }
        return (object, results)
    }

    @Test("--json gives the client's and the server's CPU per exchange, serial and concurrent")
    func measures() throws {
        let (object, results) = try measure("")
        #expect(object["exchanges"] as? Int == 40)
        for (mode, rounds) in results {
            for round in rounds {
                #expect((round["client"] ?? 0) > 0 && (round["perSecond"] ?? 0) > 0, "\(mode): \(round)")
                #expect((round["server"] ?? -1) >= 0, "\(mode): \(round)")
            }
        }
    }

    @Test("--peer measures nio-peer in the same rounds and gives the ratio of the two servers")
    func measuresThePeer() throws {
        for (mode, rounds) in try measure("--peer").results {
            for round in rounds {
                #expect((round["clientPeer"] ?? 0) > 0 && (round["perSecondPeer"] ?? 0) > 0, "\(mode): \(round)")
                let (server, peer) = (round["server"] ?? -1, round["peer"] ?? -1)
                #expect(peer >= 0, "\(mode): \(round)")
                // A ratio whenever the peer's CPU time moved by a tick in the round (40 exchanges may not).
                if peer > 0 { #expect(abs((round["ratio"] ?? -1) - server / peer) < 1e-9, "\(mode): \(round)") }
            }
        }
    }

    @Test("out-of-range options exit 2 naming the option and its range")
    func refusesBadOptions() throws {
        for (option, value, range) in [
            ("--exchanges", "0", "1 to 1000000"), ("--rounds", "101", "1 to 100"), ("--concurrency", "x", "1 to 256"),
        ] {
            let result = try WorkbenchProcess.run(
                shell: "python3 Scripts/http_floor.py --workbench \"$WORKBENCH\" \(option) \(value)")
            #expect(result.status == 2, "\(option) \(value): \(result)")
            #expect(result.stderr.contains("\(option) must be an integer from \(range)"), "\(result)")
        }
    }
}
