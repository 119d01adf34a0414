import MPinCrypto
import OrderedJSON

/// Checks our vector files (`vectors lint`): the schema (root, group and test members and their
/// types, the suite's notes, flags that name notes, results), every group parameter and data field
/// against the suite's `VectorSuiteSchema` (kinds and ranges: `maxPIN`, `pinBits`, `DATE`, `PIN1`,
/// ...), the header's command against the file (`--seed` is `seed`, `--suite`, `--curve`, and the
/// groups and test counts `--count` makes), no repeated member names, integers as the only numbers,
/// tcIds numbered 1…N in file order, `numberOfTests`, at least one test, and canonical formatting
/// (the bytes `JSONWriter.canonical` writes for the same content, as the generator does).
///
/// Every problem names the JSON path of the offending value and, when the text has it, the line
/// where that value is written; problems inside a test also name its tcId.
public enum VectorLinter {
    /// Problems in the text of one file; empty when it is clean.
    public static func lint(text: String, file: String, checkFormatting: Bool = true) -> [LintProblem] {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(text)
        } catch {
            return [LintProblem(file: file, line: error.line, path: "$", tcId: nil, message: error.reportMessage)]
        }
        var problems = structure(document, file: file)
        let canonical = JSONWriter.canonical(document.value)
        if checkFormatting, canonical != text {
            let line = firstDifferentLine(text, canonical)
            problems.append(
                LintProblem(
                    file: file, line: line, path: "$", tcId: nil,
                    message: "not canonical (sorted keys, two-space indentation, a trailing newline)"))
        }
        return problems
    }

    static func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<min(x.count, y.count) where x[i] != y[i] { return i + 1 }
        return min(x.count, y.count)
    }

    /// The schema, tcId and count checks.
    static func structure(_ document: JSONDocument, file: String) -> [LintProblem] {
        var problems: [LintProblem] = []
        structure(document, file: file, tests: nil) { problems.append($0) }
        return problems
    }

    /// A test handed to the structure check by a reader of its own: the test, and the line of a
    /// path in it (relative to the test).
    typealias TestVisitor = (_ test: Int, _ value: JSONValue, _ line: (JSONPath) -> Int?) -> Void

    /// The schema, tcId and count checks, each problem passed to `report`. Without `tests`, the
    /// tests are those of `document`; with it, `document` is a skeleton whose groups' `tests` are
    /// empty, and `tests(g, visit)` visits group g's tests one at a time and returns their number.
    static func structure(
        _ document: JSONDocument, file: String,
        tests testReader: ((_ group: Int, _ visit: TestVisitor) -> Int?)?,
        report: (LintProblem) -> Void
    ) {
        var problems: [LintProblem] = []
        func problem(_ path: JSONPath, _ message: String, tcId: Int? = nil) {
            let problem = LintProblem(
                file: file, line: document.line(of: path), path: path.reportText, tcId: tcId,
                message: message)
            problems.append(problem)
            report(problem)
        }
        func testProblem(_ path: JSONPath, _ line: Int?, _ message: String, tcId: Int?) {
            report(LintProblem(file: file, line: line, path: path.reportText, tcId: tcId, message: message))
        }
        let root = document.value
        guard root.objectMembers != nil else {
            problem(.root, "the root is not an object")
            return
        }
        for key in ["algorithm", "schema", "generatorVersion", "suite"] where root[key]?.stringValue == nil {
            problem([.member(key)], root[key] == nil ? "missing" : "must be a string")
        }
        if let schema = root["schema"]?.stringValue, schema != VectorMetaKeys.schema {
            problem(["schema"], "unknown schema \"\(schema)\" (expected \"\(VectorMetaKeys.schema)\")")
        }
        if root["formatVersion"]?.intValue != VectorMetaKeys.formatVersion {
            problem(["formatVersion"], "must be \(VectorMetaKeys.formatVersion)")
        }
        let suite = root["suite"]?.stringValue.flatMap(VectorSuite.init(rawValue:))
        if root["suite"]?.stringValue != nil, suite == nil { problem(["suite"], "unknown suite") }
        if let curve = root["curve"] {
            if curve.stringValue.flatMap(CurveID.init(rawValue:)) == nil { problem(["curve"], "unknown curve") }
        } else if suite?.dependsOnCurve == true {
            problem(["curve"], "missing")
        }
        if root["seed"]?.stringValue == nil { problem(["seed"], root["seed"] == nil ? "missing" : "must be a string") }
        var command: GenerateCommandLine?
        if let header = root["header"] {
            if header.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true {
                problem(["header"], "must be a list of strings")
            } else {
                command = headerCommand(root, suite: suite, problem: { problem(["header", .index(0)], $0) })
            }
        } else {
            problem(["header"], "missing")
        }
        var noteNames: Set<String> = []
        if let notes = root["notes"], notes.objectMembers != nil {
            for (name, note) in distinctMembers(notes) {
                noteNames.insert(name)
                if note["bugType"]?.stringValue == nil { problem(["notes", .member(name)], "a note needs a bugType") }
            }
            if let suite {
                let expected = suite.notes
                for (name, note) in distinctMembers(notes) {
                    guard let wanted = expected[name] else {
                        problem(["notes", .member(name)], "not a note of the \(suite.rawValue) suite")
                        continue
                    }
                    if let bugType = note["bugType"]?.stringValue, bugType != wanted.bugType {
                        problem(["notes", .member(name), "bugType"], "must be \(wanted.bugType)")
                    }
                }
                for name in expected.keys.sorted() where notes[name] == nil {
                    problem(["notes"], "the \(suite.rawValue) suite's note \(name) is missing")
                }
            }
        } else {
            problem(["notes"], "missing or not an object")
        }
        for (key, _) in distinctMembers(root) where !VectorMetaKeys.root.contains(key) {
            problem([.member(key)], "unknown member")
        }
        // A shard of a generation (`vectors generate --shard`): its tests are a range of the whole's.
        var shard: VectorShardInfo?
        if let member = root[VectorShardInfo.member] {
            switch VectorShardInfo.read(member) {
            case .success(let info): shard = info
            case .failure(let error):
                let field = error.field.split(separator: ".").dropFirst().first.map {
                    JSONPath.Component.member(String($0))
                }
                problem(JSONPath([.member(VectorShardInfo.member)] + (field.map { [$0] } ?? [])), error.message)
            }
        }
        repeatsAndNumbers(in: root, at: .root, root: root, problem: problem)
        guard let groups = root["testGroups"]?.arrayValue else {
            problem(["testGroups"], "missing or not a list")
            return
        }
        let schema = suite.map(VectorSuiteSchema.init)
        let curve = root["curve"]?.stringValue
        if groups.isEmpty { problem(["testGroups"], "holds no groups: nothing to check") }
        var expectedTcId = shard?.firstTcId ?? 1
        var seen: Set<Int> = []
        var testCounts: [Int: Int] = [:]
        for (g, group) in groups.enumerated() {
            let groupPath: JSONPath = ["testGroups", .index(g)]
            guard group.objectMembers != nil else {
                problem(groupPath, "a group must be an object")
                continue
            }
            if group["type"]?.stringValue == nil { problem(groupPath.member("type"), "missing") }
            for (member, message) in schema?.groupProblems(group, curve: curve) ?? []
            where group[member]?.isNonInteger != true {
                problem(groupPath.member(member), message)
            }
            guard let tests = group["tests"]?.arrayValue else {
                problem(groupPath.member("tests"), "missing or not a list")
                continue
            }
            // A shard holds a range of the whole's tests, and none of the groups outside it.
            func check(_ t: Int, _ test: JSONValue, _ line: (JSONPath) -> Int?) {
                let path = JSONPath.test(group: g, test: t)
                checkTest(
                    test, at: path, noteNames: noteNames, schema: schema, expectedTcId: &expectedTcId, seen: &seen,
                    checkRepeats: testReader != nil
                ) { relative, message, tcId in
                    testProblem(JSONPath(path.components + relative.components), line(relative), message, tcId: tcId)
                }
            }
            let count: Int
            if let testReader {
                guard let read = testReader(g, check) else {
                    problem(groupPath.member("tests"), "missing or not a list")
                    continue
                }
                count = read
            } else {
                for (t, test) in tests.enumerated() {
                    let path = JSONPath.test(group: g, test: t)
                    check(t, test) { document.line(of: JSONPath(path.components + $0.components)) }
                }
                count = tests.count
            }
            testCounts[g] = count
            if count == 0, shard == nil { problem(groupPath.member("tests"), "holds no tests: nothing to check") }
        }
        if let suite, let command {
            // What the schema already said about a member is not said again.
            let reported = Set(problems.map(\.path))
            planProblems(groups, testCounts: testCounts, suite: suite, command: command, shard: shard) {
                path, message, tcId in
                if !reported.contains(path.reportText) { problem(path, message, tcId: tcId) }
            }
        }
        let total = expectedTcId - (shard?.firstTcId ?? 1)
        if let count = root["numberOfTests"]?.intValue {
            if count != total { problem(["numberOfTests"], "says \(count) but the file holds \(total) tests") }
            if let shard, count == total, total != shard.range.count {
                problem(
                    ["numberOfTests"],
                    "shard \(shard.shard) of \(shard.totalTests) tests holds \(shard.range.count), not \(total)")
            }
        } else {
            problem(["numberOfTests"], "missing or not an integer")
        }
    }

    /// The checks of one test, written at `path`; each problem is passed with its path relative to
    /// the test. With `checkRepeats`, also its repeated member names and numbers that are not
    /// integers (which the walk over the whole file finds otherwise).
    static func checkTest(
        _ test: JSONValue, at path: JSONPath, noteNames: Set<String>, schema: VectorSuiteSchema?,
        expectedTcId: inout Int, seen: inout Set<Int>, checkRepeats: Bool,
        problem report: (JSONPath, String, Int?) -> Void
    ) {
        guard test.objectMembers != nil else {
            report(.root, "a test must be an object", nil)
            return
        }
        let tcId = test["tcId"]?.intValue
        func problem(_ relative: JSONPath, _ message: String, tcId: Int?) { report(relative, message, tcId) }
        let path = JSONPath.root
        if checkRepeats {
            repeatsAndNumbers(in: test, at: .root, root: test) { relative, message, _ in report(relative, message, tcId)
            }
        }
        if let tcId {
            if !seen.insert(tcId).inserted {
                problem(path.member("tcId"), "duplicate tcId \(tcId)", tcId: tcId)
            } else if tcId != expectedTcId {
                problem(path.member("tcId"), "tcId \(tcId) out of sequence (expected \(expectedTcId))", tcId: tcId)
            }
        } else {
            problem(path.member("tcId"), "missing or not an integer", tcId: nil)
        }
        expectedTcId += 1
        if test["comment"]?.stringValue == nil {
            problem(path.member("comment"), "missing or not a string", tcId: tcId)
        }
        if let result = test["result"]?.stringValue {
            if VectorResult(rawValue: result) == nil {
                problem(path.member("result"), "must be valid, invalid or acceptable", tcId: tcId)
            }
        } else {
            problem(path.member("result"), "missing or not a string", tcId: tcId)
        }
        if let flags = test["flags"]?.arrayValue {
            var named: Set<String> = []
            for flag in flags {
                guard let name = flag.stringValue else {
                    problem(path.member("flags"), "flags must be strings", tcId: tcId)
                    continue
                }
                if !noteNames.contains(name) {
                    problem(path.member("flags"), "flag \"\(name)\" has no note", tcId: tcId)
                }
                if !named.insert(name).inserted {
                    problem(path.member("flags"), "flag \"\(name)\" repeated", tcId: tcId)
                }
            }
        } else {
            problem(path.member("flags"), "missing or not a list", tcId: tcId)
        }
        if let error = test["expectedError"], error.stringValue == nil {
            problem(path.member("expectedError"), "must be a string", tcId: tcId)
        }
        for (key, value) in distinctMembers(test) where !VectorMetaKeys.test.contains(key) {
            if value.fieldText == nil {
                problem(path.member(key), "a data field must be a string, an integer or a boolean", tcId: tcId)
            } else if let schema, !value.isNonInteger {
                if let kind = schema.dataFields[key] {
                    if let message = VectorSuiteSchema.problem(value, kind) {
                        problem(path.member(key), message, tcId: tcId)
                    }
                } else {
                    problem(path.member(key), "not a field of the \(schema.suite.rawValue) suite", tcId: tcId)
                }
            }
        }
    }

    /// The members of an object by name, each name once (its last value, as lookups see it), in the
    /// order the names first appear.
    static func distinctMembers(_ object: JSONValue) -> [(name: String, value: JSONValue)] {
        var seen: Set<String> = []
        return (object.objectMembers ?? []).compactMap { member in
            seen.insert(member.name).inserted ? (member.name, object[member.name]!) : nil
        }
    }

    /// Repeated member names and numbers that are not integers, anywhere under `value` (at `path` in
    /// `root`); a problem inside a test names the test's tcId.
    private static func repeatsAndNumbers(
        in value: JSONValue, at path: JSONPath, root: JSONValue,
        problem: (JSONPath, String, Int?) -> Void
    ) {
        switch value {
        case .number where !value.isIntegerNumber:
            problem(
                path, "a number must be an integer (no fraction or exponent, at most 64 bits)", tcId(at: path, in: root)
            )
        case .array(let items):
            for (index, item) in items.enumerated() {
                repeatsAndNumbers(in: item, at: path.index(index), root: root, problem: problem)
            }
        case .object(let members):
            var count: [String: Int] = [:]
            for member in members { count[member.name, default: 0] += 1 }
            for (name, member) in distinctMembers(value) {
                if let times = count[name], times > 1 {
                    problem(
                        path.member(name), "named \(times) times in one object (the last one counts)",
                        tcId(at: path, in: root))
                }
                repeatsAndNumbers(in: member, at: path.member(name), root: root, problem: problem)
            }
        default: break
        }
    }

    /// The tcId of the test that holds `path` (`testGroups[g].tests[t]...`), if it has one.
    private static func tcId(at path: JSONPath, in root: JSONValue) -> Int? {
        let components = path.components
        guard components.count >= 4, components[0] == "testGroups", components[2] == "tests" else { return nil }
        return root.value(at: JSONPath(Array(components.prefix(4))))?["tcId"]?.intValue
    }
}
