import Foundation
import TestSupport
import Testing

/// `vectors verify` stays bounded on a file of many failing vectors (issue 26, point 7): at most
/// `VectorReportPrinter.shownPerFile` failing vectors are printed per file, the rest counted, and
/// the memory does not grow with what is not printed.
@Suite("vectors verify on many failing vectors", .enabled(if: WorkbenchProcess.path != nil))
struct VectorsVerifyMemoryExecutableTests {
    /// A one-pass JSON list of `count` entries with only a time value: every one fails.
    static func failingFile(count: Int, in directory: String) throws -> String {
        let path = directory + "/many.json"
        let text = "[\n" + Array(repeating: #"{"TimeValue": 5}"#, count: count).joined(separator: ",\n") + "\n]\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the details printed are capped, and the summary counts every vector")
    func capped() throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.failingFile(count: 1_000, in: directory)
        let result = try WorkbenchProcess.run(["vectors", "verify", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(path): 0 passed, 1000 failed"))
        #expect(result.stdout.components(separatedBy: "  FAIL entry").count - 1 == 100, "\(result.stdout.prefix(300))")
        #expect(result.stdout.contains("  ... 900 more failing vectors not shown (at most 100 a file)"))
    }

    /// Measured with `/usr/bin/time` (skipped without it): 100,000 failing vectors took 757 MB and
    /// printed 103 MB before the cap.
    @Test(
        "100,000 failing vectors stay under 200 MB and print under 200 KB",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time measures the peak memory")
    )
    func boundedMemory() throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.failingFile(count: 100_000, in: directory)
        let kilobytes = try Self.verifyPeakKilobytes(path, output: directory + "/out.txt")
        #expect(kilobytes < 200_000, "peak memory \(kilobytes) KB")
        let printed = try FileManager.default.attributesOfItem(atPath: directory + "/out.txt")[.size] as? Int ?? .max
        #expect(printed < 200_000, "printed \(printed) bytes")
    }

    /// Runs `vectors verify FILE` under `/usr/bin/time`, its output into `output`; expects exit 1
    /// (the vectors fail) and returns the peak memory in KB.
    static func verifyPeakKilobytes(_ path: String, output: String) throws -> Int {
        let result = try WorkbenchProcess.run(
            shell: "/usr/bin/time -f 'maxrss %M' \"$WORKBENCH\" vectors verify '\(path)' > '\(output)'", seconds: 300)
        #expect(result.status == 1, "\(result)")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("maxrss ") })
        return try #require(Int(line.dropFirst("maxrss ".count)))
    }

    /// One of the workbench's own files (pin-mapping, one group) whose `count` tests each fail and
    /// break its structure: every test's PIN_VALUE is "00".
    static func failingSuiteFile(count: Int, in directory: String) throws -> String {
        let path = directory + "/suite.json"
        let generated = try WorkbenchProcess.run([
            "vectors", "generate", "--suite", "pin-mapping", "--count", "1", "--seed", "m",
            "--out", path,
        ])
        #expect(generated.status == 0, "\(generated)")
        var root = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var groups = try #require(root["testGroups"] as? [[String: Any]])
        let test = try #require((groups[0]["tests"] as? [[String: Any]])?.first)
        groups[0]["tests"] = (1...count).map { index -> [String: Any] in
            var copy = test
            copy["tcId"] = index
            copy["PIN_VALUE"] = "00"
            return copy
        }
        root["testGroups"] = [groups[0]]
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// Measured with `/usr/bin/time`: a suite file of 100,000 failing tests (14 MB) took 435 MB when
    /// it was parsed whole with the position of every value, 59 MB read one test at a time.
    @Test(
        "a suite file of 100,000 failing tests stays under 150 MB, its details capped",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time measures the peak memory")
    )
    func suiteFileBoundedMemory() throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try Self.failingSuiteFile(count: 100_000, in: directory)
        let kilobytes = try Self.verifyPeakKilobytes(path, output: directory + "/out.txt")
        #expect(kilobytes < 150_000, "peak memory \(kilobytes) KB")
        let output = try String(contentsOfFile: directory + "/out.txt", encoding: .utf8)
        #expect(output.contains("\(path): 0 passed, 100001 failed"), "\(output.prefix(300))")
        #expect(
            output.contains("  group 1 PINMappingTest (mapping=integer): 0 passed, 100000 failed"),
            "\(output.prefix(300))")
        #expect(output.components(separatedBy: "    FAIL tcId").count - 1 == 100)
        #expect(output.components(separatedBy: "  FAIL file structure:").count - 1 == 100)
        #expect(
            output.contains("  ... 99900 more failing vectors not shown (at most 100 a file)"), "\(output.suffix(600))")
        #expect(
            output.contains("  ... 99903 more file structure problems not shown (at most 100 a file)"),
            "\(output.suffix(600))")
        #expect(output.utf8.count < 200_000, "printed \(output.utf8.count) bytes")
    }

    /// One of the workbench's own files with 1,000 tests that fail and break its structure: at most
    /// 100 failing tests and 100 structure problems are printed (all 1,000 of each were before).
    @Test("a suite file's failing tests and structure problems are capped alike")
    func suiteFileCapped() async throws {
        let directory = try TemporaryDirectory.make("verify-many")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/suite.json"
        let generated = try WorkbenchProcess.run([
            "vectors", "generate", "--suite", "pin-mapping", "--count", "1", "--seed", "m",
            "--out", path,
        ])
        #expect(generated.status == 0, "\(generated)")
        var root = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var groups = try #require(root["testGroups"] as? [[String: Any]])
        let test = try #require((groups[0]["tests"] as? [[String: Any]])?.first)
        groups[0]["tests"] = (1...1_000).map { index -> [String: Any] in
            var copy = test
            copy["tcId"] = index
            copy["PIN_VALUE"] = "00"
            return copy
        }
        root["testGroups"] = [groups[0]]
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
        let result = try WorkbenchProcess.run(["vectors", "verify", path])
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: "    FAIL tcId").count - 1 == 100, "\(result.stdout.prefix(300))")
        #expect(result.stdout.components(separatedBy: "  FAIL file structure:").count - 1 == 100)
        #expect(
            result.stdout.contains("  ... 900 more failing vectors not shown (at most 100 a file)"),
            "\(result.stdout.suffix(600))")
        #expect(
            result.stdout.contains("more file structure problems not shown (at most 100 a file)"),
            "\(result.stdout.suffix(600))")
    }
}
