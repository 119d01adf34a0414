import Foundation
import MPinCrypto
import OrderedJSON
import TestSupport
import Testing

@testable import TestVectors

/// `vectors generate --shard K/N` and `vectors merge`: the shards of a generation join into the
/// bytes one unsharded run writes, each shard checks on its own, and a set that is not complete,
/// not of one split or not of one generation is refused, naming the file, with nothing written.
@Suite("vector shards and merge")
struct VectorShardMergerTests {
    /// A scratch folder with the whole file and the N shard files of one generation.
    struct Generation {
        let directory: String
        let whole: String
        let shards: [String]
    }

    static func generate(
        _ suite: VectorSuite, curve: CurveID = .bn254cx, count: Int, seed: String = "shards",
        into directory: String, shards: Int
    ) async throws -> Generation {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let generator = VectorGenerator(suite: suite, curve: curve, count: count, seed: seed)
        let whole = directory + "/whole.json"
        _ = try await generator.write(to: whole, maxConcurrency: 2)
        var paths: [String] = []
        for index in 1...shards {
            var part = generator
            part.shard = Shard(index: index, count: shards)
            let path = directory + "/\(suite.rawValue)-\(index)-of-\(shards).json"
            _ = try await part.write(to: path, maxConcurrency: 2)
            paths.append(path)
        }
        return Generation(directory: directory, whole: whole, shards: paths)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Merges, expecting a refusal whose text holds `message` and names `file`; no output is left.
    static func expectRefusal(
        _ paths: [String], in directory: String, naming file: String, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let out = directory + "/refused.json"
        do {
            let summary = try VectorShardMerger.merge(paths, to: out)
            Issue.record(
                "merged \(summary.tests) tests, expected a refusal: \(message)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.file == file, "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(message), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is written", sourceLocation: sourceLocation)
        let leftovers =
            (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasSuffix(".tmp") } ?? []
        #expect(leftovers.isEmpty, "no temporary file is left", sourceLocation: sourceLocation)
    }

    @Test(
        "N = 1, 3 and 7 shards, given in any order, merge into the unsharded bytes",
        arguments: [
            (VectorSuite.accessNumber, CurveID.bn254cx, 20), (.pinMapping, .bn254cx, 6), (.mpinTwoPass, .bn254, 2),
        ])
    func byteIdentity(suite: VectorSuite, curve: CurveID, count: Int) async throws {
        for n in [1, 3, 7] {
            let directory = try TemporaryDirectory.make("shards")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let generation = try await Self.generate(suite, curve: curve, count: count, into: directory, shards: n)
            let out = directory + "/merged.json"
            let summary = try VectorShardMerger.merge(generation.shards.reversed(), to: out)
            #expect(summary.shards == n)
            #expect(try Self.bytes(out) == Self.bytes(generation.whole), "\(suite) with \(n) shards")
            #expect(
                summary.tests == VectorGenerator(suite: suite, curve: curve, count: count, seed: "shards").numberOfTests
            )
        }
    }

    @Test("a shard file equals the in-memory shard document, lints clean and verifies on its own")
    func shardChecksAlone() async throws {
        let directory = try TemporaryDirectory.make("shards")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generation = try await Self.generate(.accessNumber, count: 20, into: directory, shards: 3)
        var generator = VectorGenerator(suite: .accessNumber, count: 20, seed: "shards")
        generator.shard = Shard(index: 2, count: 3)
        let text = try String(contentsOfFile: generation.shards[1], encoding: .utf8)
        #expect(JSONWriter.canonical(await generator.generate()) == text)
        #expect(VectorLinter.lint(text: text, file: "2.json") == [])
        let report = try SuiteFileVerifier.verify(text: text, file: "2.json")
        #expect(report.structure == [])
        let range = Shard(index: 2, count: 3)!.range(of: generator.numberOfTests)
        #expect(report.fileReport.failed == 0 && report.fileReport.passed == range.count)
        let document = try JSONParser.parse(text)
        #expect(document["numberOfTests"]?.intValue == range.count)
        #expect(
            document["shard"]
                == JSONValue.sortedObject([
                    "count": 3, "index": 2, "firstTcId": .integer(range.lowerBound + 1),
                    "totalTests": .integer(generator.numberOfTests),
                ]))
    }

    @Test("the linter finds a shard whose shard member or tests do not match its range")
    func lintTamperedShard() async throws {
        let directory = try TemporaryDirectory.make("shards")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generation = try await Self.generate(.accessNumber, count: 20, into: directory, shards: 3)
        let text = try String(contentsOfFile: generation.shards[1], encoding: .utf8)
        let total = VectorGenerator(suite: .accessNumber, count: 20, seed: "shards").numberOfTests
        let wrongTotal = text.replacingOccurrences(of: "\"totalTests\": \(total)", with: "\"totalTests\": \(total + 3)")
        #expect(VectorLinter.lint(text: wrongTotal, file: "x").contains { $0.path.contains("shard") })
        let wrongIndex = text.replacingOccurrences(of: "\"index\": 2", with: "\"index\": 4")
        #expect(
            VectorLinter.lint(text: wrongIndex, file: "x").contains {
                $0.path.contains("shard") && $0.message.contains("from 1 to count")
            })
        let noShard = text.replacingOccurrences(of: "\"index\": 2", with: "\"index\": 1")
        #expect(
            !VectorLinter.lint(text: noShard, file: "x").isEmpty, "shard 1/3 does not start at this file's first tcId")
    }

    @Test("a missing shard, a shard given twice and shards of another split are refused, naming the file")
    func refusesIncompleteSets() async throws {
        let directory = try TemporaryDirectory.make("shards")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let g = try await Self.generate(.accessNumber, count: 20, into: directory, shards: 3)
        Self.expectRefusal([g.shards[0], g.shards[2]], in: directory, naming: g.shards[0], "missing 2/3 (1 of 3)")
        Self.expectRefusal(
            [g.shards[0], g.shards[1], g.shards[1], g.shards[2]], in: directory, naming: g.shards[1],
            "is shard 2/3, and so is \(g.shards[1])")
        let other = try await Self.generate(.accessNumber, count: 20, into: directory + "/four", shards: 4)
        Self.expectRefusal(
            [g.shards[0], other.shards[1], g.shards[2]], in: directory, naming: other.shards[1],
            "shards of different splits (N = 4 and 3)")
        Self.expectRefusal(
            [g.shards[0], g.whole, g.shards[2]], in: directory, naming: g.whole, "not a shard: it has no `shard` member"
        )
        Self.expectRefusal(
            [g.shards[0], directory + "/absent.json"], in: directory, naming: directory + "/absent.json", "no such file"
        )
    }

    @Test("shards of another seed, count, suite or curve are refused, naming what differs")
    func refusesOtherGenerations() async throws {
        let directory = try TemporaryDirectory.make("shards")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let g = try await Self.generate(.mpinTwoPass, curve: .bn254, count: 1, into: directory, shards: 3)
        let seed = try await Self.generate(
            .mpinTwoPass, curve: .bn254, count: 1, seed: "other", into: directory + "/seed", shards: 3)
        Self.expectRefusal(
            [g.shards[0], seed.shards[1], g.shards[2]], in: directory, naming: seed.shards[1],
            "`seed` is \"other\" here, \"shards\" there")
        let count = try await Self.generate(
            .mpinTwoPass, curve: .bn254, count: 2, into: directory + "/count", shards: 3)
        Self.expectRefusal(
            [g.shards[0], count.shards[1], g.shards[2]], in: directory, naming: count.shards[1],
            "--count (header[0]) is \"2\" here, \"1\" there")
        let curve = try await Self.generate(
            .mpinTwoPass, curve: .bn254cx, count: 1, into: directory + "/curve", shards: 3)
        Self.expectRefusal(
            [g.shards[0], curve.shards[1], g.shards[2]], in: directory, naming: curve.shards[1],
            "`curve` is \"bn254cx\" here, \"bn254\" there")
        let suite = try await Self.generate(
            .mpinOnePass, curve: .bn254, count: 1, into: directory + "/suite", shards: 3)
        Self.expectRefusal(
            [g.shards[0], suite.shards[1], g.shards[2]], in: directory, naming: suite.shards[1],
            "`suite` is \"mpin-one-pass\" here, \"mpin-two-pass\" there")
    }

    @Test("tampered shards are refused with the file and line, and an existing output is left as it was")
    func refusesTamperedShards() async throws {
        let directory = try TemporaryDirectory.make("shards")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let g = try await Self.generate(.accessNumber, count: 20, into: directory, shards: 3)
        let text = try String(contentsOfFile: g.shards[1], encoding: .utf8)
        let first = try #require(try JSONParser.parse(text)["shard"]?["firstTcId"]?.intValue)
        func variant(_ name: String, _ content: String) throws -> String {
            let path = directory + "/" + name
            try content.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        // A tcId out of sequence: found while the tests are written, and the output is abandoned.
        let renumbered = try variant(
            "renumbered.json",
            text.replacingOccurrences(of: "\"tcId\": \(first + 1)\n", with: "\"tcId\": \(first + 9)\n"))
        Self.expectRefusal(
            [g.shards[0], renumbered, g.shards[2]], in: directory, naming: renumbered,
            "a test with tcId \(first + 9) where shard 2/3 must have tcId \(first + 1)")
        // A test left out: the count is found before anything is written.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "        {"))
        let end = try #require(lines[start...].firstIndex(of: "        },"))
        let shortened = try variant("short.json", (lines[..<start] + lines[(end + 1)...]).joined(separator: "\n"))
        let held = Shard(index: 2, count: 3)!.range(
            of: VectorGenerator(suite: .accessNumber, count: 20, seed: "shards").numberOfTests
        ).count
        Self.expectRefusal(
            [g.shards[0], shortened, g.shards[2]], in: directory, naming: shortened,
            "holds \(held - 1) tests, but shard 2/3")
        // Not laid out as the generator writes it (the same JSON on one line).
        let compact = try variant("compact.json", JSONWriter.compact(try JSONParser.parse(text)) + "\n")
        Self.expectRefusal(
            [g.shards[0], compact, g.shards[2]], in: directory, naming: compact,
            "not laid out as `vectors generate --shard` writes it")
        // A test that is not JSON: its line is named.
        let broken = try variant(
            "broken.json", text.replacingOccurrences(of: "\"tcId\": \(first)\n", with: "\"tcId\": \(first)x\n"))
        do {
            _ = try VectorShardMerger.merge([g.shards[0], broken, g.shards[2]], to: directory + "/out.json")
            Issue.record("merged a shard with a broken test")
        } catch {
            let line = try #require(lines.firstIndex(of: "          \"tcId\": \(first)")) + 1
            #expect(error.file == broken && error.line == line, "\(error)")
        }
        // An existing output stays as it was when the merge fails.
        let out = directory + "/kept.json"
        try "kept\n".write(toFile: out, atomically: false, encoding: .utf8)
        #expect(throws: VectorFileError.self) {
            try VectorShardMerger.merge([g.shards[0], renumbered, g.shards[2]], to: out)
        }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "kept\n")
    }
}
