import Foundation
import MPinCrypto
import OrderedJSON

/// Generates a suite's vector file, deterministically from the seed.
///
/// The file is the document written by `JSONWriter.canonical` (members sorted by the UTF-8 bytes of
/// their names, two-space indentation, a trailing newline), the form `vectors lint` expects. The
/// document holds strings, integers, booleans and nested arrays and objects only, and each object's
/// members are already in canonical order.
///
/// ```swift
/// let generator = VectorGenerator(suite: .mpinTwoPass, curve: .bn254cx, count: 24, seed: "workbench-1")
/// let text = JSONWriter.canonical(await generator.generate())   // the same bytes for the same arguments
/// ```
public struct VectorGenerator: Sendable {
    public var suite: VectorSuite
    public var curve: CurveID
    public var count: Int
    public var seed: String
    /// The command line written into the header (what produced the file).
    public var command: String?
    /// The tool version written into the file (`generatorVersion`, each group's `source`).
    public var toolVersion: String = "0.1.0"

    /// The `count`s the generator takes (`vectors generate --count`).
    public static let countRange = 0...100_000

    /// - Precondition: `count` is in `countRange` (callers check what users give them).
    public init(suite: VectorSuite, curve: CurveID = .bn254cx, count: Int? = nil, seed: String, command: String? = nil) {
        precondition(count.map(Self.countRange.contains) ?? true, "count outside VectorGenerator.countRange")
        self.suite = suite
        self.curve = curve
        self.count = count ?? suite.defaultCount
        self.seed = seed
        self.command = command
    }

    var mpin: MPin { MPin(curve: curve) }

    /// The groups and their jobs; cheap, nothing is computed yet.
    func plan() -> [GroupPlan] {
        guard Self.countRange.contains(count) else { return [] }
        switch suite {
        case .pairing: return pairingPlan()
        case .hashToG1: return hashToG1Plan()
        case .mpinTwoPass: return mpinPlan(flow: .twoPass)
        case .mpinOnePass: return mpinPlan(flow: .onePass)
        case .mpinFull: return mpinPlan(flow: .full)
        case .encoding: return encodingPlan()
        case .accessNumber: return accessNumberPlan()
        case .pinMapping: return pinMappingPlan()
        }
    }

    /// The number of tests the file will hold.
    public var numberOfTests: Int { plan().reduce(0) { $0 + $1.jobs.count } }

    /// Generates the document: the tests are computed on all cores (at most `maxConcurrency` chunks at
    /// once) and assembled in tcId order. `progress` gets (tests done, total) after each chunk.
    public func generate(maxConcurrency: Int? = nil,
                         progress: (@Sendable (Int, Int) -> Void)? = nil) async -> JSONValue {
        let groups = plan()
        let jobs = groups.flatMap(\.jobs)
        let seedValue = SeededRandom.seedValue("\(seed)/\(suite.rawValue)/\(curve.rawValue)")
        let cores = max(1, maxConcurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        let chunkSize = max(1, min(8, jobs.count / (cores * 4)))
        let chunks = stride(from: 0, to: jobs.count, by: chunkSize).map { $0..<min($0 + chunkSize, jobs.count) }
        var results = [VectorTestCase?](repeating: nil, count: jobs.count)
        await withTaskGroup(of: (Range<Int>, [VectorTestCase]).self) { group in
            var next = 0
            func add() {
                let range = chunks[next]
                next += 1
                group.addTask {
                    (range, range.map { index in
                        var rng = SeededRandom(seed: seedValue, stream: UInt64(index))
                        return jobs[index](&rng)
                    })
                }
            }
            while next < chunks.count && next < cores { add() }
            var done = 0
            for await (range, cases) in group {
                for (offset, testCase) in cases.enumerated() { results[range.lowerBound + offset] = testCase }
                done += cases.count
                progress?(done, jobs.count)
                if next < chunks.count { add() }
            }
        }
        var tcId = 0
        var index = 0
        var testGroups: [JSONValue] = []
        for plan in groups {
            var tests: [JSONValue] = []
            for _ in plan.jobs {
                tcId += 1
                tests.append(Self.testObject(results[index]!, tcId: tcId))
                index += 1
            }
            var members = plan.parameters
            members["type"] = .string(plan.type)
            members["source"] = .sortedObject(["name": .string("mpin-workbench"), "version": .string(toolVersion)])
            if suite.dependsOnCurve { members["curve"] = .string(curve.rawValue) }
            members["tests"] = .array(tests)
            testGroups.append(.sortedObject(members))
        }
        return document(groups: testGroups, numberOfTests: tcId)
    }

    static func testObject(_ test: VectorTestCase, tcId: Int) -> JSONValue {
        var members = test.fields
        members["tcId"] = .integer(tcId)
        members["comment"] = .string(test.comment)
        members["flags"] = .array(test.flags.map(JSONValue.string))
        members["result"] = .string(test.result.rawValue)
        if let error = test.expectedError { members["expectedError"] = .string(error) }
        return .sortedObject(members)
    }

    func document(groups: [JSONValue], numberOfTests: Int) -> JSONValue {
        var notes: [String: JSONValue] = [:]
        for (flag, note) in suite.notes {
            notes[flag] = .sortedObject(["bugType": .string(note.bugType), "description": .string(note.description)])
        }
        let command = self.command ?? GenerateCommandLine.command(suite: suite.rawValue, curve: curve.rawValue, count: count, seed: seed)
        var header = [
            GenerateCommandLine.line(version: toolVersion, command: command),
            "Hex is big-endian. G1 = 65 bytes 04||x||y, G2 = 128 bytes x.re||x.im||y.re||y.im, GT = 384 bytes (w-powers 0,3,1,4,2,5, each re, im), scalars 32 bytes.",
            "Upper-case fields carry AMCL's vector key names (CRYPTO.md §5-§6); tcId, comment, flags, result and expectedError are Wycheproof's.",
        ]
        if !suite.dependsOnCurve { header.append("The values do not depend on the curve.") }
        var root: [String: JSONValue] = [
            "algorithm": .string(suite.algorithm),
            "schema": .string(VectorMetaKeys.schema),
            "formatVersion": .integer(VectorMetaKeys.formatVersion),
            "generatorVersion": .string(toolVersion),
            "numberOfTests": .integer(numberOfTests),
            "header": .array(header.map(JSONValue.string)),
            "notes": .sortedObject(notes),
            "suite": .string(suite.rawValue),
            "seed": .string(seed),
            "testGroups": .array(groups),
        ]
        if suite.dependsOnCurve { root["curve"] = .string(curve.rawValue) }
        return .sortedObject(root)
    }
}

/// A group of tests to generate: shared parameters and one job per test.
struct GroupPlan: Sendable {
    var type: String
    var parameters: [String: JSONValue]
    var jobs: [@Sendable (inout SeededRandom) -> VectorTestCase]
}
