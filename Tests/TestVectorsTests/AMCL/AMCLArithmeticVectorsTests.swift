import Foundation
import GMPOracle
import MPinCrypto
import TestSupport
import Testing

@testable import TestVectors

/// AMCL's arithmetic vector files (../shared/vectors/amcl/arith, 12 files of 10 tests, read at test
/// time and never copied into the repository) checked field by field; the tests that read them are
/// skipped, with a message naming the folder, when it is absent.
@Suite("AMCLArithmeticVectors")
struct AMCLArithmeticVectorsTests {
    /// A minimal reader for these files, independent of the project's file reader: `# test N` or
    /// `#test N` starts block `test N`; `#KEY = value` inside a block is a field the file withholds;
    /// other `#` lines are comments; `KEY = value` lines are fields.
    static func blocks(_ text: String) -> (header: String, blocks: [AMCLBlock]) {
        var header: [String] = []
        var blocks: [AMCLBlock] = []
        var number = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                let rest = line.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
                if rest.hasPrefix("test"), let n = Int(rest.dropFirst(4).trimmingCharacters(in: .whitespaces)) {
                    number = n
                    blocks.append(AMCLBlock(name: "test \(n)", line: index + 2, fields: []))
                } else if blocks.isEmpty {
                    header.append(String(line.dropFirst()))
                } else if let equals = line.firstIndex(of: "=") {
                    let key = line[line.index(after: line.startIndex)..<equals].trimmingCharacters(in: .whitespaces)
                    let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                    blocks[blocks.count - 1].withheld.append(AMCLBlock.Field(key: key, value: value, line: index + 1))
                }
                continue
            }
            guard let equals = line.firstIndex(of: "="), !blocks.isEmpty, number > 0 else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            blocks[blocks.count - 1].fields.append(AMCLBlock.Field(key: key, value: value, line: index + 1))
        }
        return (header.joined(separator: "\n"), blocks)
    }

    /// ../shared/vectors/amcl/arith.
    static var arithDirectory: URL { URL(fileURLWithPath: SharedData.vectorPath("amcl/arith")) }
    static var hasFiles: Bool { FileManager.default.fileExists(atPath: arithDirectory.path) }

    struct File: CustomStringConvertible, Sendable {
        var kind: AMCLArithmeticKind
        var curve: CurveID
        var path: String { arithDirectory.appendingPathComponent("\(kind.rawValue)/test_vector_\(curveName).txt").path }
        var curveName: String { curve == .bn254cx ? "BN254CX" : "BN254" }
        var description: String { "\(kind.rawValue)/\(curveName)" }
        static let all = AMCLArithmeticKind.allCases.flatMap { kind in
            [CurveID.bn254cx, .bn254].map { File(kind: kind, curve: $0) }
        }
        func load() throws -> (header: String, blocks: [AMCLBlock]) {
            try AMCLArithmeticVectorsTests.blocks(String(contentsOfFile: path, encoding: .utf8))
        }
    }

    @Test(
        "every field of every file passes", .enabled(if: hasFiles, "needs ../shared/vectors/amcl/arith, absent here"),
        arguments: File.all)
    func allPass(file: File) throws {
        let (header, blocks) = try file.load()
        #expect(blocks.count == 10)
        let keys = Set(blocks.flatMap { $0.fields.map(\.key) })
        #expect(AMCLArithmeticKind.detect(header: header, keys: keys) == file.kind)
        let verdicts = AMCLArithmeticVectors.check(blocks: blocks, kind: file.kind, curve: file.curve)
        #expect(verdicts.count == 10)
        for verdict in verdicts {
            let failures = verdict.failures.map { "\($0.field): \($0.actual)" }
            #expect(verdict.passed, "\(file) \(verdict.vector): \(failures)")
            // every field of the block is accounted for; all but the inputs are compared
            let block = try #require(blocks.first { $0.name == verdict.vector })
            let inputs = block.fields.filter { Self.inputKeys[file.kind]!.contains($0.key) }.count
            #expect(verdict.checkedFields == block.fields.count - inputs, "\(file) \(verdict.vector)")
        }
    }

    static let inputKeys: [AMCLArithmeticKind: Set<String>] = [
        .fp: ["FP_1", "FP_2"],
        .fp2: ["FP2_1", "FP2_2", "BIGsc"],
        .fp4: ["FP4_1", "FP4_2", "FP12_1", "FP12_2", "FP12_3", "FP12_4", "FP2sc", "BIGsc1", "BIGsc2"],
        .fp12: [
            "FP12_1", "FP12_2", "FP12_3", "FP12_4", "FP12_c", "BIGsc1", "BIGsc2", "BIGsc3", "BIGsc4",
            "BIGscs", "BIGsco",
        ],
        .ecp: ["ECP1", "ECP2", "BIGscalar1", "BIGscalar2"],
        .ecp2: ["ECP21", "ECP22", "ECP23", "ECP24", "BIGscalar1", "BIGscalar2", "BIGscalar3", "BIGscalar4"],
    ]

    /// Changes one hex digit in the middle of `value` (never making it a non-hex string).
    static func flipDigit(_ value: String) -> String {
        var characters = Array(value)
        let hexIndices = characters.indices.filter { characters[$0].isHexDigit }
        let index = hexIndices[hexIndices.count / 2]
        characters[index] = characters[index] == "1" ? "2" : "1"
        return String(characters)
    }

    /// For each file, one output field of test 3 with a flipped digit fails that field only.
    @Test(
        "a flipped hex digit in an output fails that field",
        .enabled(if: hasFiles, "needs ../shared/vectors/amcl/arith, absent here"),
        arguments: [
            ("fp", "FPexp"), ("fp2", "FP2_div_ip"), ("fp4", "FP4_xtrpow2"), ("fp12", "FP12compow"),
            ("ecp", "ECPmul2"), ("ecp2", "ECP2set1"),
        ])
    func flippedDigit(kindName: String, field: String) throws {
        let kind = try #require(AMCLArithmeticKind(rawValue: kindName))
        for curve in [CurveID.bn254cx, .bn254] {
            var (_, blocks) = try File(kind: kind, curve: curve).load()
            let fieldIndex = try #require(blocks[2].fields.firstIndex { $0.key == field })
            let original = blocks[2].fields[fieldIndex].value
            blocks[2].fields[fieldIndex].value = Self.flipDigit(original)
            let verdicts = AMCLArithmeticVectors.check(blocks: blocks, kind: kind, curve: curve)
            #expect(verdicts.filter(\.passed).count == 9)
            let failures = verdicts.flatMap(\.failures)
            #expect(failures.count == 1)
            let failure = try #require(failures.first)
            #expect(failure.vector == "test 3")
            #expect(failure.field == field)
            #expect(failure.line == blocks[2].fields[fieldIndex].line)
            #expect(failure.expected == blocks[2].fields[fieldIndex].value)
            #expect(failure.actual == original)
        }
    }

    @Test(
        "a flipped digit in an input point is reported on that input",
        .enabled(if: hasFiles, "needs ../shared/vectors/amcl/arith, absent here"))
    func flippedInputPoint() throws {
        var (_, blocks) = try File(kind: .ecp, curve: .bn254cx).load()
        let index = try #require(blocks[0].fields.firstIndex { $0.key == "ECP1" })
        blocks[0].fields[index].value = Self.flipDigit(blocks[0].fields[index].value)
        let verdict = try #require(AMCLArithmeticVectors.check(blocks: [blocks[0]], kind: .ecp, curve: .bn254cx).first)
        #expect(verdict.failures.contains { $0.field == "ECP1" && $0.actual.contains("not on the curve") })
        #expect(verdict.failures.contains { $0.field == "ECPsum" && $0.actual.hasPrefix("not computed") })
    }

    @Test(
        "an unknown field, the wrong curve, and a point that is on the curve are failures",
        .enabled(if: hasFiles, "needs ../shared/vectors/amcl/arith, absent here"))
    func otherFailures() throws {
        var (_, blocks) = try File(kind: .fp2, curve: .bn254).load()
        blocks[0].fields.append(AMCLBlock.Field(key: "FP2mull", value: "[00,00]", line: 99))
        var verdict = try #require(AMCLArithmeticVectors.check(blocks: [blocks[0]], kind: .fp2, curve: .bn254).first)
        #expect(verdict.failures.map(\.field) == ["FP2mull"])

        let (_, cx) = try File(kind: .fp, curve: .bn254cx).load()
        let wrongCurve = AMCLArithmeticVectors.check(blocks: cx, kind: .fp, curve: .bn254)
        #expect(wrongCurve.allSatisfy { !$0.passed })

        var (_, points) = try File(kind: .ecp, curve: .bn254cx).load()
        let wrong = try #require(points[0].fields.firstIndex { $0.key == "ECPwrong" })
        points[0].fields[wrong].value = try #require(points[0]["ECP1"]?.value)
        verdict = try #require(AMCLArithmeticVectors.check(blocks: [points[0]], kind: .ecp, curve: .bn254cx).first)
        #expect(Set(verdict.failures.map(\.field)) == ["ECPwrong", "ECPinf"])
    }

    @Test("kind detection from keys and headers")
    func detection() {
        #expect(AMCLArithmeticKind.detect(header: "", keys: ["FP4_1", "FP12_1"]) == .fp4)
        #expect(AMCLArithmeticKind.detect(header: "", keys: ["FP12_1", "FP12mul"]) == .fp12)
        #expect(AMCLArithmeticKind.detect(header: "", keys: ["ECP1", "ECP2", "ECPsum"]) == .ecp)
        #expect(AMCLArithmeticKind.detect(header: "", keys: ["ECP21", "ECP2sum"]) == .ecp2)
        #expect(AMCLArithmeticKind.detect(header: "FP2 ARITHMETICS - CURVE: BN254_CX", keys: []) == .fp2)
        #expect(AMCLArithmeticKind.detect(header: "FP ARITHMETICS - CURVE: BN254_T", keys: []) == .fp)
        #expect(AMCLArithmeticKind.detect(header: "Choice: BN254_CX, Type: WEIERSTRASS", keys: ["X"]) == nil)
    }

    @Test("AMCL's notation: whole bytes, upper case, 00 for zero")
    func notation() throws {
        #expect(ArithNotation.hex([0, 0, 3]) == "03")
        #expect(ArithNotation.hex([0, 0]) == "00")
        #expect(ArithNotation.hex([0x0F, 0xDE]) == "0FDE")
        #expect(ArithNotation.number("00F63C49").map { ArithNotation.hex($0.bytes(atLeast: 1)) } == "F63C49")
        #expect(ArithNotation.number("00").map { $0.bytes(atLeast: 32) } == [UInt8](repeating: 0, count: 32))
        let big = try #require(ArithNotation.number("2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3"))
        let (q, r) = big.quotientAndRemainder(dividingBy: GMPInteger(15))
        #expect(
            q * GMPInteger(15) + r == big && r < GMPInteger(15) && big.halved * GMPInteger(2) + GMPInteger(1) == big)
        #expect(ArithNotation.number("1" + String(repeating: "0", count: 64)) == nil, "more than 256 bits")
        #expect(ArithNotation.number("-01") == nil && ArithNotation.number("0x01") == nil)
        #expect(ArithNotation.value("[[01,02],[03,04]]") != nil)
        #expect(ArithNotation.value("[01,02") == nil)
    }
}
