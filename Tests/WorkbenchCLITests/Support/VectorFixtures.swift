import Foundation
import TestSupport

/// Vector files for the executable's tests: the small hand-made ones of
/// `Tests/TestVectorsTests/Fixtures` (read from the source tree, as the executable sees them), and
/// two-pass files in milagro-crypto-c's text layout made from the workbench's generated suite
/// (`AMCLLayoutFile`), written where a test asks.
enum VectorFixtures {
    /// `Tests/TestVectorsTests/Fixtures/<name>`.
    static func path(_ name: String) -> String { RepoPaths.path("Tests/TestVectorsTests/Fixtures/\(name)") }

    /// Two two-pass files of three vectors: `passing`, and `flipped` where CS1 of the second vector
    /// (`block 2`) has its last digit changed.
    struct TwoPass {
        var passing: String
        var flipped: String
        /// CS1 as `flipped` writes it, as the verifier computes it, and its line.
        var writtenCS1: String
        var computedCS1: String
        var cs1Line: Int
    }

    static func twoPass(in directory: String) throws -> TwoPass {
        let layout = AMCLLayoutFile.cTwoPassText
        let vectors = try layout.vectors(count: 3)
        var flippedVectors = vectors
        flippedVectors[1].flipLastDigit(of: "CS1")
        let flippedText = layout.render(flippedVectors)
        let passing = directory + "/two_pass_BN254CX.txt"
        let flipped = directory + "/two_pass_flipped_cs1_BN254CX.txt"
        try layout.render(vectors).write(toFile: passing, atomically: true, encoding: .utf8)
        try flippedText.write(toFile: flipped, atomically: true, encoding: .utf8)
        let written = flippedVectors[1]["CS1"]?.text ?? ""
        let line =
            flippedText.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0 == "CS1 = \(written)," }.map { $0 + 1 } ?? 0
        return TwoPass(
            passing: passing, flipped: flipped, writtenCS1: written,
            computedCS1: vectors[1]["CS1"]?.text ?? "", cs1Line: line)
    }
}
