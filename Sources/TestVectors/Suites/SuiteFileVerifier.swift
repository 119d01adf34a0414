import MPinCrypto
import OrderedJSON

/// Verifies the workbench's own (Wycheproof-shaped) vector files: every test is recomputed from
/// its inputs (which must all be there), every output they determine must be present and equal,
/// its `result` (never `acceptable`: the recomputation decides) and `expectedError` are recomputed,
/// and so are the flags of `VectorSuite.recomputedFlags`; every data field must be checked by
/// something. The file's structure (`VectorLinter.structure`: the schema, group parameters and
/// field ranges, the header's command and seed, tcIds 1…N, at least one test) is part of the
/// report. A group whose parameters the recomputation does not support fails each of its tests
/// instead of being checked with defaults. With `crossCheck`, the GMP oracle re-checks curve
/// membership, the group order and the scalar relations independently (`VectorCrossCheck`).
public enum SuiteFileVerifier {
    /// Whether a file's text is one of ours (a JSON object) rather than an AMCL list or text file.
    public static func isSuiteFile(_ text: String) -> Bool {
        text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{"
    }

    public static func verify(
        path: String, crossCheck: Bool = false,
        keeping limit: Int = .max
    ) throws(VectorFileError) -> SuiteFileReport {
        let text = try VectorFileContents.read(path)
        return try verify(text: text, file: path, crossCheck: crossCheck, keeping: limit)
    }

    /// The report on a file's text; `file` names it in the report and in errors. At most `limit`
    /// failing tests (and as many passing ones) and `limit` structure problems are kept, the rest
    /// counted.
    ///
    /// A file of the expected shape is read one test at a time (`SuiteSplitter`): only its skeleton
    /// and one test are parsed at once, so that the positions of every value of a large file are
    /// never held (100,000 failing tests took 440 MB that way). Anything else, or a test that does
    /// not parse, is read whole, which reports the exact error.
    public static func verify(
        text: String, file: String, crossCheck: Bool = false,
        keeping limit: Int = .max
    ) throws(VectorFileError) -> SuiteFileReport {
        var text = text
        let streamed: Result<SuiteFileReport, VectorFileError>? = text.withUTF8 { bytes in
            guard let layout = SuiteSplitter.split(bytes),
                let skeleton = try? JSONParser.parseDocument(layout.skeleton)
            else { return nil }
            var unreadable = false
            let result = Result { () throws(VectorFileError) -> SuiteFileReport in
                try verify(root: skeleton, file: file, crossCheck: crossCheck, limit: limit) { visitTest, report in
                    withoutActuallyEscaping(visitTest) { visitTest in
                        VectorLinter.structure(
                            skeleton, file: file,
                            tests: { g, lintTest in
                                guard g < layout.groups.count, let entries = layout.groups[g] else { return nil }
                                for (t, entry) in entries.enumerated() where !unreadable {
                                    guard let document = try? JSONParser.parseDocument(Array(bytes[entry.range])) else {
                                        unreadable = true
                                        break
                                    }
                                    let line = { (path: JSONPath) in document.line(of: path).map { $0 + entry.line - 1 }
                                    }
                                    lintTest(t, document.value, line)
                                    visitTest(g, t, document.value, line)
                                }
                                return entries.count
                            }, report: report)
                    }
                }
            }
            return unreadable ? nil : result
        }
        if let streamed { return try streamed.get() }
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(text)
        } catch {
            throw VectorFileError(file: file, line: error.line, message: error.reportMessage)
        }
        return try verify(root: document, file: file, crossCheck: crossCheck, limit: limit) { visitTest, report in
            VectorLinter.structure(document, file: file, tests: nil, report: report)
            for (g, group) in (document.value["testGroups"]?.arrayValue ?? []).enumerated() {
                for (t, test) in (group["tests"]?.arrayValue ?? []).enumerated() {
                    let path = JSONPath.test(group: g, test: t)
                    visitTest(g, t, test) { document.line(of: JSONPath(path.components + $0.components)) }
                }
            }
        }
    }

    /// A test to check: its group and position, the test, and the line of a path in it.
    typealias TestVisit = (_ group: Int, _ test: Int, _ value: JSONValue, _ line: (JSONPath) -> Int?) -> Void

    /// The report on a file whose root (or skeleton) is `root`: `drive` calls its first argument on
    /// every test in file order and its second on every structure problem.
    private static func verify(
        root document: JSONDocument, file: String, crossCheck: Bool, limit: Int,
        drive: (TestVisit, (LintProblem) -> Void) -> Void
    ) throws(VectorFileError) -> SuiteFileReport {
        let root = document.value
        guard let suiteName = root["suite"]?.stringValue, let suite = VectorSuite(rawValue: suiteName) else {
            throw VectorFileError(
                file: file, line: document.line(of: ["suite"]),
                message: "not a workbench vector file (no known `suite`)")
        }
        guard let groups = root["testGroups"]?.arrayValue else {
            throw VectorFileError(file: file, line: document.line(of: ["testGroups"]), message: "no testGroups list")
        }
        let curveName = root["curve"]?.stringValue
        let fileCurve = curveName.flatMap(CurveID.init(rawValue:))
        // The curve-independent suites compute the same on either curve.
        let curve = fileCurve ?? .bn254cx
        let curveProblem: String? =
            suite.dependsOnCurve && fileCurve == nil
            ? "cannot be checked: the file's curve is \(curveName.map { "\"\($0)\", not a curve" } ?? "missing")" : nil
        let checker = SuiteTestChecker(suite: suite, curve: curve)
        let schema = VectorSuiteSchema(suite)
        let oracle = crossCheck ? VectorCrossCheck(curve: curve) : nil

        /// One test to check: its data fields as a block, its group's parameters, and what the file
        /// says about its outcome, with the lines where it says so.
        struct Job {
            var group: Int
            var block: AMCLBlock
            var type: String
            var parameters: [String: JSONValue]
            /// Why the group's tests cannot be recomputed (its parameters, the file's curve).
            var groupProblem: String?
            var result: String?
            var resultLine: Int
            var expectedError: String?
            var expectedErrorLine: Int
            var flags: [String]
            var flagsLine: Int
        }
        struct GroupInfo {
            var type: String
            var parameters: [String: JSONValue]
            var summary: String
            var problem: String?
        }
        let groupInfo = groups.enumerated().map { g, group -> GroupInfo in
            let type = group["type"]?.stringValue ?? "?"
            var parameters = group.uniqueMembers
            for key in VectorMetaKeys.group { parameters[key] = nil }
            let summary = sortedByName(parameters).map { "\($0.key)=\($0.value.fieldText ?? "…")" }
            var problems = schema.groupProblems(group, curve: curveName).map {
                "testGroups[\(g)].\($0.member): \($0.message)"
            }
            if group["type"]?.stringValue == nil { problems.append("testGroups[\(g)].type: missing") }
            let groupProblem =
                curveProblem ?? (problems.isEmpty ? nil : "cannot be checked: " + problems.joined(separator: "; "))
            return GroupInfo(
                type: type, parameters: parameters, summary: summary.joined(separator: ", "), problem: groupProblem)
        }
        var reports = groupInfo.enumerated().map { g, info in
            SuiteGroupReport(index: g + 1, type: info.type, parameters: info.summary, verdicts: [])
        }
        var keptPassed = 0, keptFailed = 0
        var structure: [LintProblem] = []
        var unkeptStructure = 0
        let recomputedFlags = suite.recomputedFlags
        var jobs: [Job] = []

        /// Checks the jobs on all cores at once and tallies their verdicts.
        func flush() {
            let verdicts = VectorVerifier.concurrentMap(jobs) { job -> VectorVerdict in
                let name = job.block.name
                if let problem = job.groupProblem {
                    let failure = FieldFailure(
                        vector: name, line: job.block.line, field: "(group)",
                        expected: "parameters the recomputation supports", actual: problem)
                    return VectorVerdict(vector: name, line: job.block.line, checkedFields: 1, failures: [failure])
                }
                let outcome = checker.check(job.block, groupType: job.type, parameters: job.parameters)
                var ledger = outcome.ledger
                ledger.failUnusedKeys()
                let fileResult = job.result ?? "(missing)"
                if let computed = outcome.result {
                    if fileResult != computed.rawValue {
                        let why =
                            fileResult == VectorResult.acceptable.rawValue
                            ? " (the recomputation decides every test: none is acceptable)" : ""
                        ledger.fail(
                            field: "result", line: job.resultLine, expected: fileResult, actual: computed.rawValue + why
                        )
                    }
                    if let fileError = job.expectedError, fileError != outcome.expectedError {
                        ledger.fail(
                            field: "expectedError", line: job.expectedErrorLine, expected: fileError,
                            actual: outcome.expectedError ?? "none (the test passes)")
                    } else if job.expectedError == nil, let computedError = outcome.expectedError {
                        ledger.fail(
                            field: "expectedError", line: job.resultLine, expected: "(missing)", actual: computedError)
                    }
                } else {
                    ledger.fail(
                        field: "result", line: job.resultLine, expected: fileResult,
                        actual: "cannot be checked: the recomputation needs inputs this test lacks or that are invalid")
                }
                if let expected = outcome.flags {
                    let carried = Set(job.flags).intersection(recomputedFlags)
                    if carried != expected {
                        ledger.fail(
                            field: "flags", line: job.flagsLine, expected: "[\(job.flags.joined(separator: ", "))]",
                            actual: "the recomputation gives [\(expected.sorted().joined(separator: ", "))]"
                                + " of [\(recomputedFlags.sorted().joined(separator: ", "))]")
                    }
                }
                var verdict = ledger.verdict(alsoCompared: outcome.result == nil ? 0 : 1)
                if let oracle {
                    let extra = oracle.check(
                        job.block, suite: checker.suite, groupType: job.type, parameters: job.parameters)
                    verdict.checkedFields += extra.checked
                    verdict.failures += extra.failures
                }
                return verdict
            }
            for (job, verdict) in zip(jobs, verdicts) {
                if verdict.passed {
                    if keptPassed < limit {
                        keptPassed += 1
                        reports[job.group].verdicts.append(verdict)
                    } else {
                        reports[job.group].unkeptPassed += 1
                    }
                } else if keptFailed < limit {
                    keptFailed += 1
                    reports[job.group].verdicts.append(verdict)
                } else {
                    reports[job.group].unkeptFailed += 1
                }
            }
            jobs.removeAll(keepingCapacity: true)
        }

        drive(
            { g, t, test, lineOf in
                guard g < groupInfo.count else { return }
                let info = groupInfo[g]
                let name = test["tcId"]?.intValue.map { "tcId \($0)" } ?? "test \(t + 1) of group \(g + 1)"
                let line = lineOf(["tcId"]) ?? lineOf(["comment"]) ?? lineOf(.root) ?? 1
                let fields = sortedByName(test.uniqueMembers).filter { !VectorMetaKeys.test.contains($0.key) }.map {
                    AMCLBlock.Field(
                        key: $0.key, value: $0.value.fieldText ?? "", line: lineOf([.member($0.key)]) ?? line)
                }
                let resultLine = lineOf(["result"]) ?? line
                jobs.append(
                    Job(
                        group: g, block: AMCLBlock(name: name, line: line, fields: fields), type: info.type,
                        parameters: info.parameters, groupProblem: info.problem, result: test["result"]?.stringValue,
                        resultLine: resultLine, expectedError: test["expectedError"]?.stringValue,
                        expectedErrorLine: lineOf(["expectedError"]) ?? resultLine,
                        flags: test["flags"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                        flagsLine: lineOf(["flags"]) ?? line))
                if jobs.count >= VectorVerifier.chunkSize { flush() }
            },
            { problem in
                if structure.count < limit {
                    structure.append(problem)
                } else {
                    unkeptStructure += 1
                }
            })
        flush()
        var report = SuiteFileReport(
            file: file, suite: suite.rawValue, curve: curve, groups: reports, structure: structure)
        report.unkeptStructure = unkeptStructure
        return report
    }

    /// Members sorted by the UTF-8 bytes of their names, as the files write them.
    private static func sortedByName(_ members: [String: JSONValue]) -> [(key: String, value: JSONValue)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
