import Foundation
import MPinCrypto
import OrderedJSON
import TestSupport
import Testing

@testable import TestVectors

/// `VectorGenerator.write(to:)`: the file streamed to disk as the tests are computed holds exactly
/// the bytes of the in-memory document (`JSONWriter.canonical(await generate())`).
@Suite("vector file streaming")
struct VectorFileStreamingTests {
    static func streamed(_ generator: VectorGenerator, concurrency: Int? = nil) async throws -> (
        text: String, tests: Int
    ) {
        let directory = try TemporaryDirectory.make("streaming")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.json"
        let tests = try await generator.write(to: path, maxConcurrency: concurrency)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.json"], "no temporary file is left")
        return (try String(contentsOfFile: path, encoding: .utf8), tests)
    }

    @Test(
        "every suite streams the in-memory bytes, on one core or several, for 0 to 3 random cases",
        arguments: VectorSuite.allCases)
    func sameBytesAsInMemory(suite: VectorSuite) async throws {
        for count in 0...3 {
            let generator = VectorGenerator(
                suite: suite, curve: suite.dependsOnCurve ? .bn254 : .bn254cx, count: count,
                seed: "stream-\(count)")
            let inMemory = JSONWriter.canonical(await generator.generate())
            for concurrency in [1, 3] {
                let (text, tests) = try await Self.streamed(generator, concurrency: concurrency)
                #expect(text == inMemory, "\(suite) --count \(count) on \(concurrency) cores")
                #expect(tests == generator.numberOfTests)
            }
        }
    }

    @Test("the committed files in Vectors/generated are streamed byte for byte from their header's command")
    func streamsCommittedFiles() async throws {
        let files = SuiteFileVerifierTests.committedFiles
        #expect(files.count >= 14)
        for file in files {
            let committed = try String(contentsOfFile: file, encoding: .utf8)
            let document = try JSONParser.parse(committed)
            let suite = try #require(document["suite"]?.stringValue.flatMap(VectorSuite.init(rawValue:)))
            let curve = try #require(CurveID(rawValue: document["curve"]?.stringValue ?? "bn254cx"))
            let header = try #require(document["header"]?.arrayValue?.first?.stringValue)
            let command = String(try #require(header.firstRange(of: ": ").map { header[$0.upperBound...] }))
            let words = command.split(separator: " ")
            let count = try #require(words.firstIndex(of: "--count").flatMap { Int(words[$0 + 1]) })
            var generator = VectorGenerator(
                suite: suite, curve: curve, count: count,
                seed: try #require(document["seed"]?.stringValue), command: command)
            generator.toolVersion = try #require(document["generatorVersion"]?.stringValue)
            #expect(try await Self.streamed(generator).text == committed, "\(file)")
        }
    }

    /// Shapes the generator does not make (an empty group, no group, members after `tests` and
    /// `testGroups`, `tests` first, strings with line breaks) assemble to the canonical text too.
    @Test("the layout's pieces are the canonical text of any such document")
    func layoutEdgeCases() {
        let test1 = JSONValue.sortedObject([
            "tcId": .integer(1), "comment": .string("two\nlines \"quoted\""),
            "flags": .array([.string("A"), .string("B")]), "nested": .sortedObject(["x": .array([])]),
        ])
        let test2 = JSONValue.sortedObject(["tcId": .integer(2), "empty": .sortedObject([:])])
        let documents: [(groups: [[String: JSONValue]], tests: [[JSONValue]], root: [String: JSONValue])] = [
            (
                [["type": .string("T"), "zeta": .bool(true)], ["type": .string("U")]], [[test1, test2], []],
                ["algorithm": .string("a"), "zzz": .array([.string("after")])]
            ),
            ([[:], ["a": .integer(1)]], [[], [test2]], [:]),
            ([], [], ["header": .array([.string("only")])]),
            ([], [], [:]),
        ]
        for (groups, tests, root) in documents {
            func document(_ filled: Bool) -> JSONValue {
                var members = root
                members["testGroups"] = .array(
                    zip(groups, tests).map { group, tests in
                        var group = group
                        group["tests"] = .array(filled ? tests : [])
                        return .sortedObject(group)
                    })
                return .sortedObject(members)
            }
            let layout = VectorFileLayout(document: document(false))
            var text = layout.head
            for (index, groupTests) in tests.enumerated() {
                text += layout.groupStart(index)
                for (position, test) in groupTests.enumerated() { text += layout.test(test, first: position == 0) }
                text += layout.groupEnd(index, empty: groupTests.isEmpty)
            }
            text += layout.tail(empty: groups.isEmpty)
            #expect(text == JSONWriter.canonical(document(true)))
        }
    }

    @Test("a file that cannot be written is an error naming it, and leaves nothing behind")
    func unwritable() async throws {
        let directory = try TemporaryDirectory.make("streaming")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generator = VectorGenerator(suite: .pinMapping, count: 1, seed: "fail")
        let missing = directory + "/no/such/out.json"
        do {
            _ = try await generator.write(to: missing)
            Issue.record("writing into a missing directory succeeded")
        } catch {
            #expect(
                error.description
                    == "\(missing): cannot create a file in \(directory)/no/such: No such file or directory")
        }
        try FileManager.default.createDirectory(atPath: directory + "/dir.json", withIntermediateDirectories: false)
        do {
            _ = try await generator.write(to: directory + "/dir.json")
            Issue.record("writing over a directory succeeded")
        } catch {
            #expect(error.description.contains("is a directory, not a regular file"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["dir.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/dir.json").isEmpty)
    }
}
