import MPinCrypto

/// The verdicts on one group of one of our files.
public struct SuiteGroupReport: Sendable, Equatable {
    public var index: Int
    public var type: String
    /// The group's shared parameters, `key=value` joined by commas.
    public var parameters: String
    public var verdicts: [VectorVerdict]
    public var passed: Int { verdicts.filter(\.passed).count }
    public var failed: Int { verdicts.count - passed }
}

/// The verdicts on one of our files: per group, plus the file's structure.
public struct SuiteFileReport: Sendable, Equatable {
    public var file: String
    public var suite: String
    public var curve: CurveID
    public var groups: [SuiteGroupReport]
    /// Schema, tcId and count problems (formatting is `lint`'s business).
    public var structure: [LintProblem]

    /// All verdicts, with the structure problems as one more failing vector named `file structure`.
    public var fileReport: FileReport {
        var verdicts = groups.flatMap(\.verdicts)
        if !structure.isEmpty {
            let failures = structure.map {
                FieldFailure(vector: "file structure", line: $0.line ?? 1, field: $0.path, expected: "", actual: $0.message)
            }
            verdicts.append(VectorVerdict(vector: "file structure", line: 1, checkedFields: failures.count, failures: failures))
        }
        return FileReport(file: file, format: "workbench-\(suite)", curve: curve, verdicts: verdicts)
    }
}

/// Verifies the workbench's own (Wycheproof-shaped) vector files: every test is recomputed from
/// its inputs, its `result` and `expectedError` are recomputed too, every data field must be
/// checked by something, and the tcIds must run 1…N. With `crossCheck`, the GMP oracle re-checks
/// curve membership, the group order and the scalar relations independently (`VectorCrossCheck`).
public enum SuiteFileVerifier {
    /// Whether a file's text is one of ours (a JSON object) rather than an AMCL list or text file.
    public static func isSuiteFile(_ text: String) -> Bool {
        text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{"
    }

    public static func verify(path: String, crossCheck: Bool = false) throws(VectorFileError) -> SuiteFileReport {
        let text = try VectorFileContents.read(path)
        return try verify(text: text, file: path, crossCheck: crossCheck)
    }

    public static func verify(text: String, file: String, crossCheck: Bool = false) throws(VectorFileError) -> SuiteFileReport {
        let parsed: ParsedVectorJSON
        do {
            parsed = try VectorJSONParser.parse(text)
        } catch {
            throw VectorFileError(file: file, line: error.line, message: "not JSON: \(error.message)")
        }
        guard let suiteName = parsed.value["suite"]?.stringValue, let suite = VectorSuite(rawValue: suiteName) else {
            throw VectorFileError(file: file, line: parsed.lines["suite"], message: "not a workbench vector file (no known `suite`)")
        }
        guard let groups = parsed.value["testGroups"]?.arrayValue else {
            throw VectorFileError(file: file, line: nil, message: "no testGroups")
        }
        let curve = parsed.value["curve"]?.stringValue.flatMap(CurveID.init(rawValue:)) ?? .bn254cx
        let checker = SuiteTestChecker(suite: suite, curve: curve)
        let oracle = crossCheck ? VectorCrossCheck(curve: curve) : nil

        struct Job {
            var group: Int
            var block: AMCLBlock
            var type: String
            var parameters: [String: VectorJSON]
            var meta: [String: VectorJSON]
        }
        var jobs: [Job] = []
        var groupInfo: [(type: String, parameters: String)] = []
        for (g, group) in groups.enumerated() {
            let members = group.objectValue ?? [:]
            let type = members["type"]?.stringValue ?? "?"
            var parameters = members
            for key in VectorMetaKeys.group where key != "type" { parameters[key] = nil }
            parameters["type"] = nil
            let summary = VectorJSON.sortedKeys(parameters).map { "\($0)=\(parameters[$0]!.fieldText ?? "…")" }
            groupInfo.append((type, summary.joined(separator: ", ")))
            for (t, test) in (members["tests"]?.arrayValue ?? []).enumerated() {
                let path = "testGroups[\(g)].tests[\(t)]"
                let fields = test.objectValue ?? [:]
                let name = fields["tcId"]?.intValue.map { "tcId \($0)" } ?? "test \(t + 1) of group \(g + 1)"
                let line = parsed.lines["\(path).tcId"] ?? parsed.lines[path + ".comment"] ?? 1
                var blockFields: [AMCLBlock.Field] = []
                for key in VectorJSON.sortedKeys(fields) where !VectorMetaKeys.test.contains(key) {
                    blockFields.append(AMCLBlock.Field(key: key, value: fields[key]!.fieldText ?? "", line: parsed.lines["\(path).\(key)"] ?? line))
                }
                jobs.append(Job(group: g, block: AMCLBlock(name: name, line: line, fields: blockFields), type: type,
                                parameters: parameters, meta: fields.filter { VectorMetaKeys.test.contains($0.key) }
                                    .merging([("__line_result", .integer(parsed.lines["\(path).result"] ?? line)),
                                              ("__line_error", .integer(parsed.lines["\(path).expectedError"] ?? line))]) { a, _ in a }))
            }
        }
        let verdicts = VectorVerifier.concurrentMap(jobs) { job -> VectorVerdict in
            let outcome = checker.check(job.block, groupType: job.type, parameters: job.parameters)
            var verdict = outcome.ledger.verdict
            let name = job.block.name
            let resultLine = job.meta["__line_result"]?.intValue ?? job.block.line
            let fileResult = job.meta["result"]?.stringValue ?? ""
            verdict.checkedFields += 1
            if fileResult != outcome.result.rawValue && fileResult != VectorResult.acceptable.rawValue {
                verdict.failures.append(FieldFailure(vector: name, line: resultLine, field: "result",
                                                     expected: fileResult, actual: outcome.result.rawValue))
            }
            let fileError = job.meta["expectedError"]?.stringValue
            if let fileError, fileError != outcome.expectedError {
                verdict.checkedFields += 1
                verdict.failures.append(FieldFailure(vector: name, line: job.meta["__line_error"]?.intValue ?? resultLine,
                                                     field: "expectedError", expected: fileError,
                                                     actual: outcome.expectedError ?? "none (the test passes)"))
            } else if fileError == nil, let computed = outcome.expectedError, outcome.result != .valid {
                verdict.failures.append(FieldFailure(vector: name, line: resultLine, field: "expectedError",
                                                     expected: "(missing)", actual: computed))
            }
            for key in outcome.ledger.unusedKeys {
                let line = job.block[key]?.line ?? job.block.line
                verdict.failures.append(FieldFailure(vector: name, line: line, field: key, expected: job.block[key]?.value ?? "",
                                                     actual: "a field no check reads (unknown to the \(checker.suite.rawValue) suite)"))
            }
            if let oracle {
                let extra = oracle.check(job.block, suite: checker.suite, groupType: job.type, parameters: job.parameters)
                verdict.checkedFields += extra.checked
                verdict.failures += extra.failures
            }
            return verdict
        }
        var reports = groupInfo.enumerated().map { g, info in
            SuiteGroupReport(index: g + 1, type: info.type, parameters: info.parameters, verdicts: [])
        }
        for (job, verdict) in zip(jobs, verdicts) { reports[job.group].verdicts.append(verdict) }
        return SuiteFileReport(file: file, suite: suite.rawValue, curve: curve, groups: reports,
                               structure: VectorLinter.structure(parsed, file: file))
    }
}
