import Foundation
import MPinCrypto
import TestSupport
import Testing

@testable import TestVectors

/// AMCL's published vector files, read at test time from `../shared/vectors` (never copied into the
/// repository): every vector of every file passes, and every key of every M-Pin file is read.
/// Without that folder these tests are skipped, and the skip names it.
@Suite("VectorVerifier: the published files in ../shared/vectors")
struct SharedVectorFilesTests {
    let verifier = VectorVerifier()

    /// The files, relative to `../shared/vectors`, so that each is reported by a short name.
    static let files: [String] = SharedData.vectorFiles().map { String($0.dropFirst(SharedData.vectors.count + 1)) }

    @Test(
        "../shared/vectors holds the published files",
        .enabled(if: SharedData.hasVectors, "needs ../shared/vectors, absent here"))
    func folderIsNotEmpty() {
        #expect(!Self.files.isEmpty, "no .txt or .json file under \(SharedData.vectors)")
        #expect(Self.files.contains("amcl/js/MPIN_BN254.json"))
    }

    @Test(
        "every vector of every published file passes",
        .enabled(if: SharedData.hasVectors, "needs ../shared/vectors, absent here"),
        arguments: files)
    func filePasses(file: String) throws {
        let loaded = try verifier.load(path: SharedData.vectorPath(file))
        let verdicts = verifier.check(loaded)
        let failures = verdicts.flatMap(\.failures).prefix(5).map { "\($0.vector) \($0.field): \($0.actual)" }
        #expect(!verdicts.isEmpty)
        #expect(verdicts.allSatisfy { $0.passed }, "\(file): \(failures)")
        #expect(verifier.unusedKeys(loaded).isEmpty, "\(file): unused \(verifier.unusedKeys(loaded))")
        if file.contains("/arith/") {
            #expect(loaded.curve == (file.hasSuffix("BN254CX.txt") ? .bn254cx : .bn254))
        }
    }

    static let jsTwoPass = SharedData.vectorPath("amcl/js/MPIN_BN254.json")

    @Test(
        "milagro-crypto-js MPIN_BN254.json: one changed digit of ServerSecret fails that field of that vector",
        .enabled(
            if: FileManager.default.fileExists(atPath: jsTwoPass),
            "needs ../shared/vectors/amcl/js/MPIN_BN254.json, absent here"))
    func serverSecretMutation() throws {
        let text = try String(contentsOfFile: Self.jsTwoPass, encoding: .utf8)
        let pattern = try Regex("\"ServerSecret\": \"([0-9a-f]*)([0-9a-f])\"")
        let match = try #require(text.firstMatch(of: pattern))
        let original = String(text[match.range])
        let last = original.dropLast().last!
        let changed = String(original.dropLast(2)) + (last == "0" ? "1" : "0") + "\""
        let mutated = text.replacingCharacters(in: match.range, with: changed)
        let directory = try TemporaryDirectory.make("shared-mutation")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/MPIN_BN254.json"
        try Data(mutated.utf8).write(to: URL(fileURLWithPath: path))
        let report = try verifier.verify(path: path)
        #expect(report.failed == 1)
        #expect(report.verdicts.flatMap(\.failures).map(\.field) == ["ServerSecret"])
    }
}
