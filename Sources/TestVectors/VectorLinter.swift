import MPinCrypto

/// One problem `lint` (or the verifier's structure check) found in a vector file.
public struct LintProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// The JSON path of the offending member, e.g. `testGroups[0].tests[2].tcId`.
    public var path: String
    /// The test's tcId, when the problem is inside a test.
    public var tcId: Int?
    public var message: String

    public var description: String {
        var location = file
        if let line { location += ":\(line)" }
        let test = tcId.map { " (tcId \($0))" } ?? ""
        return "\(location): \(path)\(test): \(message)"
    }
}

/// Checks our vector files (`vectors lint`): the schema (root, group and test members and their
/// types, flags that name notes, results), tcIds numbered 1…N in file order, `numberOfTests`, and
/// canonical formatting (the bytes the generator would write for the same content).
public enum VectorLinter {
    /// Problems in the text of one file; empty when it is clean.
    public static func lint(text: String, file: String, checkFormatting: Bool = true) -> [LintProblem] {
        let parsed: ParsedVectorJSON
        do {
            parsed = try VectorJSONParser.parse(text)
        } catch {
            return [LintProblem(file: file, line: error.line, path: "$", tcId: nil, message: "not JSON: \(error.message)")]
        }
        var problems = structure(parsed, file: file)
        if checkFormatting, parsed.value.canonicalText != text {
            let line = firstDifferentLine(text, parsed.value.canonicalText)
            problems.append(LintProblem(file: file, line: line, path: "$", tcId: nil,
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
    static func structure(_ parsed: ParsedVectorJSON, file: String) -> [LintProblem] {
        var problems: [LintProblem] = []
        func problem(_ path: String, _ message: String, tcId: Int? = nil) {
            problems.append(LintProblem(file: file, line: parsed.lines[path], path: path, tcId: tcId, message: message))
        }
        guard let root = parsed.value.objectValue else {
            problem("$", "the root is not an object")
            return problems
        }
        for key in ["algorithm", "schema", "generatorVersion", "suite"] where root[key]?.stringValue == nil {
            problem(key, root[key] == nil ? "missing" : "must be a string")
        }
        if let schema = root["schema"]?.stringValue, schema != VectorMetaKeys.schema {
            problem("schema", "unknown schema \"\(schema)\" (expected \"\(VectorMetaKeys.schema)\")")
        }
        if root["formatVersion"]?.intValue != VectorMetaKeys.formatVersion {
            problem("formatVersion", "must be \(VectorMetaKeys.formatVersion)")
        }
        let suite = root["suite"]?.stringValue.flatMap(VectorSuite.init(rawValue:))
        if root["suite"]?.stringValue != nil, suite == nil { problem("suite", "unknown suite") }
        if let curve = root["curve"] {
            if curve.stringValue.flatMap(CurveID.init(rawValue:)) == nil { problem("curve", "unknown curve") }
        } else if suite?.dependsOnCurve == true {
            problem("curve", "missing")
        }
        if let header = root["header"] {
            if header.arrayValue?.allSatisfy({ $0.stringValue != nil }) != true { problem("header", "must be a list of strings") }
        } else {
            problem("header", "missing")
        }
        var noteNames: Set<String> = []
        if let notes = root["notes"]?.objectValue {
            for (name, note) in notes {
                noteNames.insert(name)
                if note["bugType"]?.stringValue == nil { problem("notes.\(name)", "a note needs a bugType") }
            }
        } else {
            problem("notes", "missing or not an object")
        }
        for key in root.keys where !VectorMetaKeys.root.contains(key) { problem(key, "unknown member") }
        guard let groups = root["testGroups"]?.arrayValue else {
            problem("testGroups", "missing or not a list")
            return problems
        }
        var expectedTcId = 1
        var seen: Set<Int> = []
        for (g, group) in groups.enumerated() {
            let groupPath = "testGroups[\(g)]"
            guard let members = group.objectValue else {
                problem(groupPath, "a group must be an object")
                continue
            }
            if members["type"]?.stringValue == nil { problem("\(groupPath).type", "missing") }
            guard let tests = members["tests"]?.arrayValue else {
                problem("\(groupPath).tests", "missing or not a list")
                continue
            }
            for (t, test) in tests.enumerated() {
                let path = "\(groupPath).tests[\(t)]"
                guard let fields = test.objectValue else {
                    problem(path, "a test must be an object")
                    continue
                }
                let tcId = fields["tcId"]?.intValue
                if let tcId {
                    if !seen.insert(tcId).inserted {
                        problem("\(path).tcId", "duplicate tcId \(tcId)", tcId: tcId)
                    } else if tcId != expectedTcId {
                        problem("\(path).tcId", "tcId \(tcId) out of sequence (expected \(expectedTcId))", tcId: tcId)
                    }
                } else {
                    problem("\(path).tcId", "missing or not an integer")
                }
                expectedTcId += 1
                if fields["comment"]?.stringValue == nil { problem("\(path).comment", "missing or not a string", tcId: tcId) }
                if let result = fields["result"]?.stringValue {
                    if VectorResult(rawValue: result) == nil {
                        problem("\(path).result", "must be valid, invalid or acceptable", tcId: tcId)
                    }
                } else {
                    problem("\(path).result", "missing or not a string", tcId: tcId)
                }
                if let flags = fields["flags"]?.arrayValue {
                    for flag in flags {
                        guard let name = flag.stringValue else {
                            problem("\(path).flags", "flags must be strings", tcId: tcId)
                            continue
                        }
                        if !noteNames.contains(name) { problem("\(path).flags", "flag \"\(name)\" has no note", tcId: tcId) }
                    }
                } else {
                    problem("\(path).flags", "missing or not a list", tcId: tcId)
                }
                if let error = fields["expectedError"], error.stringValue == nil {
                    problem("\(path).expectedError", "must be a string", tcId: tcId)
                }
                for (key, value) in fields where !VectorMetaKeys.test.contains(key) && value.fieldText == nil {
                    problem("\(path).\(key)", "a data field must be a string, an integer or a boolean", tcId: tcId)
                }
            }
        }
        let total = expectedTcId - 1
        if let count = root["numberOfTests"]?.intValue {
            if count != total { problem("numberOfTests", "says \(count) but the file holds \(total) tests") }
        } else {
            problem("numberOfTests", "missing or not an integer")
        }
        return problems
    }
}
