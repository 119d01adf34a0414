import FileAccess
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
    /// With a shard K/N, only the K-th of N contiguous ranges of tcIds is generated, into a file that
    /// is the whole file's with the other tests left out, `numberOfTests` the shard's, and a `shard`
    /// member (`VectorShardInfo`) saying which part it is; `VectorShardMerger` joins the N files into
    /// the bytes of one unsharded run. Nil (the default): the whole file.
    public var shard: Shard?

    /// The `count`s the generator takes (`vectors generate --count`).
    public static let countRange = 0...100_000

    /// - Precondition: `count` is in `countRange` (callers check what users give them).
    public init(suite: VectorSuite, curve: CurveID = .bn254cx, count: Int? = nil, seed: String, command: String? = nil)
    {
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
    /// once) and assembled in tcId order. `progress` gets (tests done, total) after each chunk. The
    /// whole document is held in memory; `write(to:maxConcurrency:progress:)` streams the same bytes
    /// to a file instead. With a `shard`, the document is that shard's file (see `shard`).
    public func generate(
        maxConcurrency: Int? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async -> JSONValue {
        let groups = plan()
        let total = groups.reduce(0) { $0 + $1.jobs.count }
        let range = (shard ?? .whole).range(of: total)
        var results: [VectorTestCase] = []
        results.reserveCapacity(range.count)
        await compute(groups, range: range, maxConcurrency: maxConcurrency, progress: progress) { cases in
            results.append(contentsOf: cases)
            return true
        }
        var position = 0
        var testGroups: [JSONValue] = []
        for plan in groups {
            var tests: [JSONValue] = []
            for _ in 0..<plan.jobs.count {
                if range.contains(position) {
                    tests.append(Self.testObject(results[position - range.lowerBound], tcId: position + 1))
                }
                position += 1
            }
            var members = groupMembers(plan)
            members["tests"] = .array(tests)
            testGroups.append(.sortedObject(members))
        }
        return document(groups: testGroups, numberOfTests: range.count, shardOf: total)
    }

    /// Computes the tests at positions `range` of `groups` on all cores (at most `maxConcurrency`
    /// chunks at once) and hands them to `deliver` in tcId order, a chunk at a time; `deliver` returns false to stop (the chunks
    /// under way are finished and dropped). Chunks that finish before an earlier one wait for it, at
    /// most `4 × cores` of them (none is started beyond that), so what is held does not grow with
    /// the number of tests. Each test draws from its own stream (the seed, the suite, the curve and
    /// its position), so the tests do not depend on how they are chunked or scheduled.
    func compute(
        _ groups: [GroupPlan], range: Range<Int>, maxConcurrency: Int?, progress: (@Sendable (Int, Int) -> Void)?,
        deliver: ([VectorTestCase]) -> Bool
    ) async {
        let jobs = groups.reduce(into: VectorJobs()) { $0 += $1.jobs }
        precondition(range.lowerBound >= 0 && range.upperBound <= jobs.count, "compute: range outside the plan")
        let seedValue = SeededRandom.seedValue("\(seed)/\(suite.rawValue)/\(curve.rawValue)")
        let cores = max(1, maxConcurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        let chunkSize = max(1, min(8, range.count / (cores * 4)))
        let chunkCount = (range.count + chunkSize - 1) / chunkSize
        let window = 4 * cores
        await withTaskGroup(of: (Int, [VectorTestCase]).self) { group in
            var next = 0, running = 0, delivered = 0, done = 0
            var waiting: [Int: [VectorTestCase]] = [:]
            func fill() {
                while next < chunkCount, running < cores, next - delivered < window {
                    let chunk = next
                    let positions =
                        range.lowerBound + chunk * chunkSize..<range.lowerBound
                        + min((chunk + 1) * chunkSize, range.count)
                    next += 1
                    running += 1
                    group.addTask {
                        (
                            chunk,
                            positions.map { index in
                                var rng = SeededRandom(seed: seedValue, stream: UInt64(index))
                                return jobs[index](&rng)
                            }
                        )
                    }
                }
            }
            fill()
            for await (chunk, cases) in group {
                running -= 1
                waiting[chunk] = cases
                done += cases.count
                progress?(done, range.count)
                while let ready = waiting.removeValue(forKey: delivered) {
                    delivered += 1
                    guard deliver(ready) else {
                        group.cancelAll()
                        return
                    }
                }
                fill()
            }
        }
    }

    /// Generates the file and writes it to `path` as the tests are computed, through
    /// `AtomicFile.Writer` (a temporary file renamed into place at the end: a failure leaves no
    /// partial file). The bytes are those of `JSONWriter.canonical(await generate(...))`; memory
    /// holds the plan and the chunks under way, not the file. Returns the number of tests written
    /// (with a `shard`, that shard's).
    public func write(
        to path: String, maxConcurrency: Int? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws(FileAccessError) -> Int {
        let groups = plan()
        let total = groups.reduce(0) { $0 + $1.jobs.count }
        let range = (shard ?? .whole).range(of: total)
        let skeleton = groups.map { plan -> JSONValue in
            var members = groupMembers(plan)
            members["tests"] = .array([])
            return .sortedObject(members)
        }
        let layout = VectorFileLayout(document: document(groups: skeleton, numberOfTests: range.count, shardOf: total))
        var assembler = VectorFileAssembler(layout: layout, groupCount: groups.count)
        let writer = try AtomicFile.Writer(path: path)
        var failure: FileAccessError?
        func emit(_ text: String) -> Bool {
            do throws(FileAccessError) {
                try writer.append(text)
                return true
            } catch {
                failure = error
                return false
            }
        }
        // The position of the next test, its group, and where that group ends.
        var position = range.lowerBound, group = 0, groupEnd = groups.first?.jobs.count ?? 0
        guard emit(assembler.start()) else { throw failure! }
        await compute(groups, range: range, maxConcurrency: maxConcurrency, progress: progress) { cases in
            var out = ""
            for testCase in cases {
                while groupEnd <= position {
                    group += 1
                    groupEnd += groups[group].jobs.count
                }
                out += assembler.append(Self.testObject(testCase, tcId: position + 1), group: group)
                position += 1
            }
            return emit(out)
        }
        if let failure { throw failure }
        try writer.append(assembler.finish())
        try writer.commit()
        return range.count
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

    /// A group's members other than `tests`: its parameters, type, source and curve.
    func groupMembers(_ plan: GroupPlan) -> [String: JSONValue] {
        var members = plan.parameters
        members["type"] = .string(plan.type)
        members["source"] = .sortedObject(["name": .string("mpin-workbench"), "version": .string(toolVersion)])
        if suite.dependsOnCurve { members["curve"] = .string(curve.rawValue) }
        return members
    }

    /// The root object around `groups`; with a `shard`, its `shard` member (`VectorShardInfo`) for a
    /// generation of `total` tests.
    func document(groups: [JSONValue], numberOfTests: Int, shardOf total: Int) -> JSONValue {
        var notes: [String: JSONValue] = [:]
        for (flag, note) in suite.notes {
            notes[flag] = .sortedObject(["bugType": .string(note.bugType), "description": .string(note.description)])
        }
        let command =
            self.command
            ?? GenerateCommandLine.command(suite: suite.rawValue, curve: curve.rawValue, count: count, seed: seed)
        var header = [
            GenerateCommandLine.line(version: toolVersion, command: command),
            "Hex is big-endian. G1 = 65 bytes 04||x||y, G2 = 128 bytes x.re||x.im||y.re||y.im, GT = 384 bytes (w-powers 0,3,1,4,2,5, each re, im), scalars 32 bytes.",
            "Upper-case fields carry AMCL's vector key names (docs/crypto.md §5-§6); tcId, comment, flags, result and expectedError are Wycheproof's.",
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
        if let shard { root[VectorShardInfo.member] = VectorShardInfo(shard: shard, totalTests: total).json }
        return .sortedObject(root)
    }
}

/// A group of tests to generate: shared parameters and one job per test.
struct GroupPlan: Sendable {
    var type: String
    var parameters: [String: JSONValue]
    var jobs: VectorJobs
}
