import Foundation
import MPinCrypto
import OrderedJSON
import Testing

@testable import TestVectors

/// Our own files: every output must be present, `acceptable` is never taken on trust, group
/// parameters and numeric fields are range-checked (lint and verify), flags are recomputed, the
/// header's seed and command must be the file's, and a file or group with nothing to check fails.
@Suite("workbench vector files: what cannot be checked fails")
struct SuiteFileStrictnessTests {
    /// `value` at `path` in `document` (nil removes the member).
    static func setting(_ value: JSONValue?, at path: [JSONPath.Component], in document: JSONValue) -> JSONValue {
        guard let first = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (first, document) {
        case (.member(let name), .object(var members)):
            if let index = members.firstIndex(where: { $0.name == name }) {
                if rest.isEmpty, value == nil {
                    members.remove(at: index)
                } else {
                    members[index].value = setting(value, at: rest, in: members[index].value)
                }
            } else if let value, rest.isEmpty {
                members.append(JSONValue.Member(name, value))
            }
            return JSONValue.sortedObject(Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0.value) }))
        case (.index(let position), .array(var items)) where items.indices.contains(position):
            items[position] = setting(value, at: rest, in: items[position])
            return .array(items)
        default:
            return document
        }
    }

    static func generated(_ suite: VectorSuite, count: Int = 2) async -> JSONValue {
        await VectorGenerator(suite: suite, count: count, seed: "strict").generate()
    }

    static func report(_ document: JSONValue) throws -> SuiteFileReport {
        try SuiteFileVerifier.verify(text: JSONWriter.canonical(document), file: "strict.json")
    }

    static func lint(_ document: JSONValue) -> [LintProblem] {
        VectorLinter.lint(text: JSONWriter.canonical(document), file: "strict.json")
    }

    static func test(_ document: JSONValue, group: Int, index: Int) -> JSONValue {
        document["testGroups"]!.arrayValue![group]["tests"]!.arrayValue![index]
    }

    @Test(
        "deleting any data field of a test fails that test (inputs and outputs alike)",
        arguments: [
            (VectorSuite.mpinTwoPass, 0, 2), (.mpinTwoPass, 1, 0), (.mpinOnePass, 0, 1), (.mpinFull, 0, 2),
            (.mpinFull, 1, 0),
            (.pairing, 0, 0), (.pairing, 1, 1), (.pairing, 2, 0), (.hashToG1, 0, 1), (.hashToG1, 1, 0),
            (.encoding, 0, 0), (.encoding, 1, 0), (.accessNumber, 0, 0), (.pinMapping, 0, 0),
        ])
    func deletedField(suite: VectorSuite, group: Int, index: Int) async throws {
        let document = await Self.generated(suite, count: 6)
        #expect(try Self.report(document).fileReport.failed == 0)
        let test = Self.test(document, group: group, index: index)
        let keys = (test.objectMembers ?? []).map(\.name).filter { !VectorMetaKeys.test.contains($0) }
        #expect(!keys.isEmpty)
        for key in keys {
            let path: [JSONPath.Component] = ["testGroups", .index(group), "tests", .index(index), .member(key)]
            let report = try Self.report(Self.setting(nil, at: path, in: document))
            let verdict = report.groups[group].verdicts[index]
            #expect(!verdict.passed, "\(suite) \(key) deleted but the test still passes")
            if key != "MESSAGE" {
                #expect(
                    verdict.failures.contains { $0.field == key }, "\(suite) \(key): \(verdict.failures.map(\.field))")
            }
        }
    }

    @Test(
        "TOKEN, V, E/F/KANGAROO and POINT deleted: each fails, naming the field and showing the computed value",
        arguments: [
            (VectorSuite.mpinTwoPass, "TOKEN"), (.mpinTwoPass, "V"), (.mpinTwoPass, "E"), (.mpinTwoPass, "F"),
            (.mpinTwoPass, "KANGAROO"), (.encoding, "POINT"),
        ])
    func issueExamples(suite: VectorSuite, key: String) async throws {
        let document = await Self.generated(suite, count: 6)
        // Test 3 of the two-pass suite has a wrong PIN (E, F, KANGAROO); test 1 of encoding is valid.
        let index = suite == .mpinTwoPass ? 2 : 0
        #expect(Self.test(document, group: 0, index: index)[key] != nil)
        let path: [JSONPath.Component] = ["testGroups", 0, "tests", .index(index), .member(key)]
        let failures = try Self.report(Self.setting(nil, at: path, in: document)).groups[0].verdicts[index].failures
        let failure = try #require(failures.first { $0.field == key })
        #expect(failure.expected.hasPrefix("(missing"))
        #expect(!failure.actual.isEmpty)
    }

    @Test("result \"acceptable\" fails on a valid and on an invalid test")
    func acceptable() async throws {
        let document = await Self.generated(.mpinTwoPass, count: 6)
        for index in [0, 2] {
            #expect(
                Self.test(document, group: 0, index: index)["result"]?.stringValue == (index == 0 ? "valid" : "invalid")
            )
            let path: [JSONPath.Component] = ["testGroups", 0, "tests", .index(index), "result"]
            let verdict = try Self.report(Self.setting("acceptable", at: path, in: document)).groups[0].verdicts[index]
            #expect(verdict.failures.map(\.field) == ["result"])
            #expect(verdict.failures.first?.expected == "acceptable")
        }
    }

    @Test(
        "group parameters out of range fail lint (file:line: path) and every test of the group in verify",
        arguments: [
            (VectorSuite.mpinTwoPass, "maxPIN", JSONValue.integer(-1)), (.mpinTwoPass, "pinBits", .integer(99)),
            (.mpinOnePass, "timePermits", .string("yes")), (.mpinFull, "maxPIN", .number("1e400")),
            (.accessNumber, "accessNumberDigits", .number("1e400")),
            (.accessNumber, "accessNumberDigits", .integer(-7)),
            (.accessNumber, "accessNumberUseCheckSum", .string("false")), (.pinMapping, "mapping", .string("octal")),
            (.encoding, "group", .string("G3")), (.hashToG1, "hash", .string("SHA-1")),
            (.pairing, "curve", .string("bn254")),
            (.mpinTwoPass, "curve", .string("bls12")),
        ])
    func groupParameters(suite: VectorSuite, name: String, value: JSONValue) async throws {
        let document = await Self.generated(suite)
        let broken = Self.setting(value, at: ["testGroups", 0, .member(name)], in: document)
        let problems = Self.lint(broken)
        let problem = try #require(problems.first { $0.path == "testGroups[0].\(name)" }, "\(problems)")
        #expect(problem.line != nil)
        #expect(problem.description.hasPrefix("strict.json:\(problem.line!): testGroups[0].\(name): "))
        let report = try Self.report(broken)
        #expect(report.groups[0].passed == 0)
        #expect(
            report.groups[0].verdicts.allSatisfy { $0.failures.first?.actual.contains("testGroups[0].\(name)") == true }
        )
    }

    @Test("an unknown group type, a G2 group without the subgroup check, an unknown group member fail")
    func groupShape() async throws {
        let encoding = await Self.generated(.encoding)
        let cases: [([JSONPath.Component], JSONValue)] = [
            (["testGroups", 1, "subgroupCheck"], .bool(false)), (["testGroups", 0, "type"], "G1DecodingTest"),
            (["testGroups", 0, "extra"], .integer(1)),
        ]
        for (path, value) in cases {
            let broken = Self.setting(value, at: path, in: encoding)
            #expect(!Self.lint(broken).isEmpty)
            let group = path[1] == .index(1) ? 1 : 0
            #expect(try Self.report(broken).groups[group].passed == 0, "\(path)")
        }
    }

    @Test(
        "numeric data fields are range-checked by lint, with file, line, path and tcId",
        arguments: [
            (VectorSuite.mpinTwoPass, "DATE", JSONValue.integer(4_294_967_296)),
            (.mpinTwoPass, "PIN1", .integer(10_000)),
            (.mpinTwoPass, "SERVER_OUTPUT", .integer(5)), (.mpinTwoPass, "KANGAROO", .integer(10_000)),
            (.mpinOnePass, "TIME_VALUE", .integer(-1)), (.hashToG1, "MAP_INCREMENTS", .integer(-1)),
            (.accessNumber, "CHECK_DIGIT", .integer(10)), (.pinMapping, "MULTIPLIER", .integer(16_384)),
            (.pairing, "PRODUCT_IS_ONE", .string("yes")), (.mpinTwoPass, "X", .string("xyz")),
        ])
    func dataRanges(suite: VectorSuite, key: String, value: JSONValue) async throws {
        let document = await Self.generated(suite, count: 6)
        let groups = document["testGroups"]!.arrayValue!
        let (g, t) = try #require(
            groups.indices.lazy.compactMap { g in
                groups[g]["tests"]!.arrayValue!.firstIndex { $0[key] != nil }.map { (g, $0) }
            }.first)
        let broken = Self.setting(value, at: ["testGroups", .index(g), "tests", .index(t), .member(key)], in: document)
        let problem = try #require(Self.lint(broken).first { $0.path == "testGroups[\(g)].tests[\(t)].\(key)" })
        #expect(problem.line != nil)
        #expect(problem.tcId != nil)
        #expect(try Self.report(broken).fileReport.failed > 0)
    }

    @Test("a number no type can hold (1e400) in a data field is an error naming line and field, never 0")
    func hugeNumber() async throws {
        let document = await Self.generated(.mpinTwoPass)
        let broken = Self.setting(.number("1e400"), at: ["testGroups", 0, "tests", 0, "DATE"], in: document)
        let problem = try #require(Self.lint(broken).first { $0.path == "testGroups[0].tests[0].DATE" })
        #expect(problem.message.contains("integer"))
        let failure = try #require(try Self.report(broken).groups[0].verdicts[0].failures.first { $0.field == "DATE" })
        #expect(failure.expected == "1e400")
        #expect(failure.actual.hasPrefix("not a decimal integer"))
    }

    static let headerCases: [(String, String)] = [
        ("seed", "another seed"), ("generatorVersion", "9.9.9"),
        (
            "header",
            "Generated by mpin-workbench 0.1.0: mpin-workbench vectors generate --suite pin-mapping --curve bn254cx --count 2 --seed strict"
        ),
        (
            "header",
            "Generated by mpin-workbench 0.1.0: mpin-workbench vectors generate --suite mpin-two-pass --curve bn254 --count 2 --seed strict"
        ),
        (
            "header",
            "Generated by mpin-workbench 0.1.0: mpin-workbench vectors generate --suite mpin-two-pass --curve bn254cx --count 9 --seed strict"
        ),
        ("header", "made by hand"),
    ]

    @Test("the header's seed and command must agree with the file", arguments: headerCases)
    func header(member: String, text: String) async throws {
        let path: [JSONPath.Component] = member == "header" ? ["header", 0] : [.member(member)]
        let value = JSONValue.string(text)
        let document = await Self.generated(.mpinTwoPass)
        let line = try #require(document["header"]?.arrayValue?.first?.stringValue)
        #expect(line.hasSuffix("--count 2 --seed strict"))
        let broken = Self.setting(value, at: path, in: document)
        #expect(!Self.lint(broken).isEmpty)
        let report = try Self.report(broken)
        #expect(
            report.structure.contains {
                $0.path.hasPrefix("header") || $0.path == "testGroups" || $0.path.hasSuffix(".tests")
            })
        #expect(report.fileReport.failed > 0)
    }

    @Test("a test removed and the rest renumbered no longer matches the command in the header")
    func removedTest() async throws {
        var root = await Self.generated(.pinMapping, count: 2).uniqueMembers
        var group = root["testGroups"]!.arrayValue![0].uniqueMembers
        var tests = group["tests"]!.arrayValue!
        tests.removeLast()
        group["tests"] = .array(tests)
        var groups = root["testGroups"]!.arrayValue!
        groups[0] = .sortedObject(group)
        var tcId = 0
        groups = groups.map { group in
            var members = group.uniqueMembers
            members["tests"] = .array(
                members["tests"]!.arrayValue!.map { test in
                    tcId += 1
                    var fields = test.uniqueMembers
                    fields["tcId"] = .integer(tcId)
                    return .sortedObject(fields)
                })
            return .sortedObject(members)
        }
        root["testGroups"] = .array(groups)
        root["numberOfTests"] = .integer(tcId)
        let report = try Self.report(.sortedObject(root))
        #expect(report.structure.map(\.path) == ["testGroups[0].tests"])
        #expect(report.fileReport.failed == 1)
    }

    @Test(
        "flags are recomputed: a flag the recomputation does not give, or one it gives that is missing, fails",
        arguments: [
            (VectorSuite.mpinTwoPass, 0, 0, ["WrongPIN", "TimePermits"]), (.mpinTwoPass, 1, 0, ["GoodPIN"]),
            (.mpinFull, 0, 0, ["GoodPIN", "TimePermits", "KeysDiffer"]),
            (.pairing, 1, 0, ["Bilinearity", "WrongExponent"]),
            (.hashToG1, 0, 0, ["HashId"]), (.encoding, 0, 0, ["Compressed"]),
            (.accessNumber, 0, 0, ["Valid", "Empty"]),
            (.pinMapping, 0, 0, ["LegacyStringHash"]),
        ])
    func flags(suite: VectorSuite, group: Int, index: Int, flags: [String]) async throws {
        let document = await Self.generated(suite)
        let path: [JSONPath.Component] = ["testGroups", .index(group), "tests", .index(index), "flags"]
        #expect(Self.test(document, group: group, index: index)["flags"] != .array(flags.map(JSONValue.string)))
        let broken = Self.setting(.array(flags.map(JSONValue.string)), at: path, in: document)
        let verdict = try Self.report(broken).groups[group].verdicts[index]
        #expect(verdict.failures.map(\.field) == ["flags"])
    }

    @Test("a file without groups, and a group without tests, have nothing to check and fail")
    func empty() async throws {
        let document = await Self.generated(.accessNumber, count: 1)
        let noGroups = Self.setting(
            .integer(0), at: ["numberOfTests"], in: Self.setting(.array([]), at: ["testGroups"], in: document))
        let report = try Self.report(noGroups)
        #expect(report.fileReport.passed == 0)
        #expect(report.fileReport.failed == 1)
        #expect(report.structure.contains { $0.message.contains("nothing to check") })
        let noTests = Self.setting(.array([]), at: ["testGroups", 1, "tests"], in: document)
        #expect(
            Self.lint(noTests).contains { $0.path == "testGroups[1].tests" && $0.message.contains("nothing to check") })
    }

    @Test("notes must be the suite's: an extra note, a missing one, a wrong bugType are found")
    func notes() async throws {
        let document = await Self.generated(.pinMapping)
        let cases: [([JSONPath.Component], JSONValue?)] = [
            (["notes", "Made", "bugType"], "BASIC"), (["notes", "Integer"], nil),
            (["notes", "Integer", "bugType"], "EDGE_CASE"),
        ]
        for (path, value) in cases {
            var broken = document
            if path.count == 3, document.value(at: JSONPath(Array(path.prefix(2)))) == nil {
                broken = Self.setting(
                    .sortedObject(["bugType": value!, "description": "x"]), at: Array(path.prefix(2)), in: document)
            } else {
                broken = Self.setting(value, at: path, in: document)
            }
            #expect(Self.lint(broken).contains { $0.path.hasPrefix("notes") }, "\(path)")
        }
    }

    @Test("--count 0 and 1 give every M-Pin group a test, and the files verify", arguments: [0, 1])
    func smallCounts(count: Int) async throws {
        for suite in VectorSuite.allCases {
            let document = await VectorGenerator(suite: suite, count: count, seed: "small").generate()
            let groups = try #require(document["testGroups"]?.arrayValue)
            #expect(groups.allSatisfy { !($0["tests"]?.arrayValue ?? []).isEmpty }, "\(suite)")
            let report = try Self.report(document)
            #expect(report.fileReport.failed == 0, "\(suite): \(report.structure)")
        }
    }
}
