import MPinCrypto
import OrderedJSON

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
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(text)
        } catch {
            throw VectorFileError(file: file, line: error.line, message: error.reportMessage)
        }
        let root = document.value
        guard let suiteName = root["suite"]?.stringValue, let suite = VectorSuite(rawValue: suiteName) else {
            throw VectorFileError(file: file, line: document.line(of: ["suite"]), message: "not a workbench vector file (no known `suite`)")
        }
        guard let groups = root["testGroups"]?.arrayValue else {
            throw VectorFileError(file: file, line: nil, message: "no testGroups")
        }
        let curve = root["curve"]?.stringValue.flatMap(CurveID.init(rawValue:)) ?? .bn254cx
        let checker = SuiteTestChecker(suite: suite, curve: curve)
        let oracle = crossCheck ? VectorCrossCheck(curve: curve) : nil

        /// One test to check: its data fields as a block, its group's parameters, and what the file
        /// says about its outcome, with the lines where it says so.
        struct Job {
            var group: Int
            var block: AMCLBlock
            var type: String
            var parameters: [String: JSONValue]
            var result: String?
            var resultLine: Int
            var expectedError: String?
            var expectedErrorLine: Int
        }
        var jobs: [Job] = []
        var groupInfo: [(type: String, parameters: String)] = []
        for (g, group) in groups.enumerated() {
            let type = group["type"]?.stringValue ?? "?"
            var parameters = group.uniqueMembers
            for key in VectorMetaKeys.group { parameters[key] = nil }
            let summary = sortedByName(parameters).map { "\($0.key)=\($0.value.fieldText ?? "…")" }
            groupInfo.append((type, summary.joined(separator: ", ")))
            for (t, test) in (group["tests"]?.arrayValue ?? []).enumerated() {
                let path = JSONPath.test(group: g, test: t)
                let name = test["tcId"]?.intValue.map { "tcId \($0)" } ?? "test \(t + 1) of group \(g + 1)"
                let line = document.line(of: path.member("tcId")) ?? document.line(of: path.member("comment"))
                    ?? document.line(of: path) ?? 1
                let fields = sortedByName(test.uniqueMembers).filter { !VectorMetaKeys.test.contains($0.key) }.map {
                    AMCLBlock.Field(key: $0.key, value: $0.value.fieldText ?? "", line: document.line(of: path.member($0.key)) ?? line)
                }
                let resultLine = document.line(of: path.member("result")) ?? line
                jobs.append(Job(group: g, block: AMCLBlock(name: name, line: line, fields: fields), type: type,
                                parameters: parameters, result: test["result"]?.stringValue, resultLine: resultLine,
                                expectedError: test["expectedError"]?.stringValue,
                                expectedErrorLine: document.line(of: path.member("expectedError")) ?? resultLine))
            }
        }
        let verdicts = VectorVerifier.concurrentMap(jobs) { job -> VectorVerdict in
            let outcome = checker.check(job.block, groupType: job.type, parameters: job.parameters)
            var verdict = outcome.ledger.verdict
            let name = job.block.name
            let fileResult = job.result ?? ""
            verdict.checkedFields += 1
            if fileResult != outcome.result.rawValue && fileResult != VectorResult.acceptable.rawValue {
                verdict.failures.append(FieldFailure(vector: name, line: job.resultLine, field: "result",
                                                     expected: fileResult, actual: outcome.result.rawValue))
            }
            if let fileError = job.expectedError, fileError != outcome.expectedError {
                verdict.checkedFields += 1
                verdict.failures.append(FieldFailure(vector: name, line: job.expectedErrorLine,
                                                     field: "expectedError", expected: fileError,
                                                     actual: outcome.expectedError ?? "none (the test passes)"))
            } else if job.expectedError == nil, let computed = outcome.expectedError, outcome.result != .valid {
                verdict.failures.append(FieldFailure(vector: name, line: job.resultLine, field: "expectedError",
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
                               structure: VectorLinter.structure(document, file: file))
    }

    /// Members sorted by the UTF-8 bytes of their names, as the files write them.
    private static func sortedByName(_ members: [String: JSONValue]) -> [(key: String, value: JSONValue)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
