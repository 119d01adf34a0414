import Foundation
import Testing

/// `vectors generate`, `verify` and `lint` through the executable (skipped when it was not built).
@Suite("mpin-workbench vectors generate/lint", .enabled(if: TestPaths.workbenchExecutable != nil))
struct VectorsCommandTests {
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TestPaths.workbenchExecutable))
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("generate twice gives identical bytes; verify and lint pass")
    func generateTwice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.json").path, b = directory.appendingPathComponent("b.json").path
        for (path, jobs) in [(a, "1"), (b, "2")] {
            let result = try run(["vectors", "generate", "--suite", "mpin-one-pass", "--curve", "bn254", "--count", "3",
                                  "--seed", "cli", "--out", path, "--jobs", jobs])
            #expect(result.status == 0)
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let verify = try run(["vectors", "verify", "--cross-check", a])
        #expect(verify.status == 0)
        #expect(verify.stdout.contains("\(a): 3 passed, 0 failed"))
        #expect(verify.stdout.contains("  group 1 MPinOnePassTest"))
        #expect(try run(["vectors", "lint", a]).status == 0)
    }

    @Test("lint and verify exit 1 on a broken file, naming the file and the tcId")
    func broken() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("an.json").path
        #expect(try run(["vectors", "generate", "--suite", "access-number", "--count", "1", "--seed", "cli", "--out", path]).status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"tcId\": 4\n", with: "\"tcId\": 40\n").write(toFile: path, atomically: true, encoding: .utf8)
        let lint = try run(["vectors", "lint", path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains(path) && lint.stdout.contains("(tcId 40)"))
        #expect(try run(["vectors", "verify", path]).status == 1)
    }
}
