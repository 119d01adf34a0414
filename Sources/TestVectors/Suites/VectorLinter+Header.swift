import MPinCrypto
import OrderedJSON

/// The checks that tie a file to the command that made it: the header's first line must record
/// the `vectors generate` command with the file's own version, suite, curve and seed, and the
/// groups that command generates (their types, parameters and number of tests) must be the file's.
extension VectorLinter {
    /// The command recorded in `header[0]`, after checking it against the root; nil (with a problem)
    /// when it cannot be read.
    static func headerCommand(_ root: JSONValue, suite: VectorSuite?, problem: (String) -> Void) -> GenerateCommandLine?
    {
        guard let first = root["header"]?.arrayValue?.first?.stringValue else {
            problem("missing: the first header line records the command that made the file")
            return nil
        }
        let command: GenerateCommandLine
        switch GenerateCommandLine.parse(first) {
        case .success(let parsed): command = parsed
        case .failure(let error):
            problem("not the generator's header line: \(error.message)")
            return nil
        }
        var consistent = true
        func disagree(_ message: String) {
            consistent = false
            problem(message)
        }
        if let version = root["generatorVersion"]?.stringValue, version != command.version {
            disagree("records version \(command.version) but generatorVersion is \(version)")
        }
        if let name = root["suite"]?.stringValue, name != command.suite {
            disagree("records --suite \(command.suite) but suite is \(name)")
        }
        if CurveID(rawValue: command.curve) == nil {
            disagree("records --curve \(command.curve), not a curve")
        } else if suite?.dependsOnCurve == true, let curve = root["curve"]?.stringValue, curve != command.curve {
            disagree("records --curve \(command.curve) but curve is \(curve)")
        }
        if let seed = root["seed"]?.stringValue, seed != command.seed {
            disagree("records --seed \(command.seed) but seed is \(seed)")
        }
        if let count = Int(command.count) {
            if !VectorGenerator.countRange.contains(count) {
                disagree(
                    "records --count \(count), outside \(VectorGenerator.countRange.lowerBound)...\(VectorGenerator.countRange.upperBound)"
                )
            }
        } else {
            disagree("records --count \(command.count), not an integer")
        }
        return consistent ? command : nil
    }

    /// The groups the recorded command generates against the file's: their number, each group's
    /// type and parameters, and its number of tests (for a shard, of the tests in the shard's range,
    /// whose whole must be the command's).
    static func planProblems(
        _ groups: [JSONValue], testCounts: [Int: Int] = [:], suite: VectorSuite, command: GenerateCommandLine,
        shard: VectorShardInfo? = nil, problem: (JSONPath, String, Int?) -> Void
    ) {
        guard let count = Int(command.count), let curve = CurveID(rawValue: command.curve) else { return }
        let plan = VectorGenerator(suite: suite, curve: curve, count: count, seed: command.seed).plan()
        let made = "the header's command (--count \(count))"
        let plannedTotal = plan.reduce(0) { $0 + $1.jobs.count }
        if let shard, shard.totalTests != plannedTotal {
            problem(
                [.member(VectorShardInfo.member), "totalTests"],
                "\(made) makes \(plannedTotal) tests, not \(shard.totalTests)", nil)
            return
        }
        // The positions each group holds in the whole, clipped to the shard's.
        var start = 0
        let held = plan.map { group -> Int in
            defer { start += group.jobs.count }
            guard let range = shard?.range else { return group.jobs.count }
            return max(0, min(start + group.jobs.count, range.upperBound) - max(start, range.lowerBound))
        }
        if plan.count != groups.count {
            problem(["testGroups"], "\(made) makes \(plan.count) groups, the file has \(groups.count)", nil)
        }
        for (g, (planned, group)) in zip(plan, groups).enumerated() {
            let path: JSONPath = ["testGroups", .index(g)]
            guard group.objectMembers != nil else { continue }
            if let type = group["type"]?.stringValue, type != planned.type {
                problem(path.member("type"), "\(made) makes a \(planned.type) group here, not \(type)", nil)
            }
            for (name, value) in planned.parameters.sorted(by: { $0.key < $1.key }) {
                if let given = group[name], !given.semanticallyEquals(value) {
                    problem(path.member(name), "\(made) makes \(name) \(value.fieldText ?? "?") in this group", nil)
                }
            }
            if let tests = group["tests"]?.arrayValue, case let count = testCounts[g] ?? tests.count, count != held[g] {
                let which = shard.map { " of shard \($0.shard)" } ?? ""
                problem(
                    path.member("tests"), "\(made) makes \(held[g]) tests in this group\(which), the file has \(count)",
                    nil)
            }
        }
    }
}
