import Foundation
import TestSupport
import Testing
import Yams

/// `.github/workflows/ci.yml` cannot run here, so it is read with Yams and what it calls is run
/// here as written: every shard job's `run` steps for every matrix entry (the built executable as
/// `$WORKBENCH`, a scratch folder as `$OUT`, few vectors), the make targets it names dry-run.
@Suite("the CI workflow", .enabled(if: WorkbenchProcess.path != nil))
struct CIWorkflowTests {
    typealias Object = [String: Any]

    static func workflow() throws -> Object {
        let text = try String(contentsOfFile: RepoPaths.path(".github/workflows/ci.yml"), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? Object)
    }

    static func jobs(_ workflow: Object) throws -> [String: Object] {
        try #require(workflow["jobs"] as? [String: Object])
    }

    static func steps(_ job: Object) -> [Object] { job["steps"] as? [Object] ?? [] }

    /// The matrix entries of a job (one empty entry without a matrix), values as text.
    static func matrix(_ job: Object) -> [[String: String]] {
        guard let axes = (job["strategy"] as? Object)?["matrix"] as? Object else { return [[:]] }
        return axes.keys.sorted().reduce([[:]]) { entries, axis in
            let values = (axes[axis] as? [Any] ?? []).map { "\($0)" }
            return entries.flatMap { entry in values.map { entry.merging([axis: $0]) { $1 } } }
        }
    }

    @Test("it is YAML: .ci/run on push and pull requests, shard matrices of 1…SHARDS, JUnit reports uploaded")
    func shape() throws {
        let workflow = try Self.workflow()
        let triggers = try #require(workflow["on"] as? Object, "the trigger key is quoted, so YAML 1.1 reads it as a name")
        #expect(triggers.keys.sorted() == ["pull_request", "push"])
        let env = try #require(workflow["env"] as? [String: Any])
        let shards = try #require(Int("\(env["SHARDS"] ?? "")"))
        let jobs = try Self.jobs(workflow)
        let runs = { (job: Object) in Self.steps(job).compactMap { $0["run"] as? String } }
        // The workflow and .ci/run check the same things: its `checks` job runs .ci/run itself.
        #expect(runs(try #require(jobs["checks"])) == [".ci/run"])
        let sharded = jobs.filter { Self.matrix($0.value).contains { $0["shard"] != nil } }
        #expect(Set(sharded.keys) == ["replay", "vectors-verify", "vectors-generate"])
        for (name, job) in sharded {
            let values = Set(Self.matrix(job).compactMap { $0["shard"] })
            #expect(values == Set((1...shards).map(String.init)), "\(name)")
            let uploads = Self.steps(job).filter { ($0["uses"] as? String)?.hasPrefix("actions/upload-artifact@") == true }
            #expect(uploads.contains { "\($0["if"] ?? "")" == "always()" && "\(($0["with"] as? Object)?["name"] ?? "")".contains("${{ matrix.shard }}") },
                    "\(name) uploads its reports, also when it fails")
            #expect(runs(job).contains { $0.contains("--shard \"${{ matrix.shard }}/$SHARDS\"") }, "\(name)")
            #expect(runs(job).contains { $0.contains("--junit") }, "\(name)")
        }
        // Every job's `needs` names a job.
        for (name, job) in jobs {
            let needs = (job["needs"] as? String).map { [$0] } ?? job["needs"] as? [String] ?? []
            for need in needs { #expect(jobs[need] != nil, "\(name) needs \(need)") }
        }
    }

    @Test("the make targets it and .ci/run call exist (a dry run of each); .ci/run runs every check")
    func makeTargets() throws {
        let jobs = try Self.jobs(try Self.workflow())
        var runs = jobs.values.flatMap { Self.steps($0).compactMap { $0["run"] as? String } }
        runs.append(try String(contentsOfFile: RepoPaths.path(".ci/run"), encoding: .utf8))
        var targets: Set<String> = []
        for run in runs {
            for line in run.split(separator: "\n") where line.hasPrefix("make ") {
                targets.formUnion(line.split(separator: " ").dropFirst().filter { !$0.contains("=") }.map(String.init))
            }
        }
        #expect(targets.isSuperset(of: ["test", "examples", "ct-check", "fuzz", "docs", "deps", "build"]))
        for target in targets.sorted() {
            let result = try WorkbenchProcess.run(shell: "exec make -n \(target) >/dev/null", seconds: 30)
            #expect(result.status == 0, "make -n \(target): \(result)")
        }
    }

    @Test("docs/vectors.md's Kubernetes indexed Job parses, its script's N is completions, and the script runs for the first and last index")
    func kubernetesJob() throws {
        let readme = try String(contentsOfFile: RepoPaths.path("docs/vectors.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
        let manifest = try #require(blocks.first { $0.contains("completionMode: Indexed") }, "docs/vectors.md shows an indexed Job")
        let job = try #require(try Yams.load(yaml: manifest) as? Object)
        #expect(job["kind"] as? String == "Job")
        let spec = try #require(job["spec"] as? Object)
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect((spec["parallelism"] as? Int).map { (1...completions).contains($0) } == true)
        let pod = try #require((spec["template"] as? Object)?["spec"] as? Object)
        #expect(pod["restartPolicy"] as? String == "Never")
        let container = try #require((pod["containers"] as? [Object])?.first)
        let script = try #require((container["args"] as? [String])?.first)
        #expect(script.contains("K=$((JOB_COMPLETION_INDEX + 1))"))
        let shardOptions = script.components(separatedBy: "--shard ").dropFirst()
        #expect(!shardOptions.isEmpty && shardOptions.allSatisfy { $0.hasPrefix("\"$K/\(completions)\"") }, "every --shard is K/completions")
        let results = try TemporaryDirectory.make("k8s")
        defer { try? FileManager.default.removeItem(atPath: results) }
        let local = script.replacingOccurrences(of: "/results", with: results)
            .replacingOccurrences(of: "--count 100000", with: "--count 2")
        for index in [0, completions - 1] {
            let run = try WorkbenchProcess.run(shell: """
                set -e
                mkdir -p '\(results)/bin' && ln -sf "$WORKBENCH" '\(results)/bin/mpin-workbench' && PATH='\(results)/bin':"$PATH"
                JOB_COMPLETION_INDEX=\(index)
                \(local)
                """, seconds: 300)
            #expect(run.status == 0, "index \(index): \(run)")
            let report = try JUnitXML(contentsOf: results + "/reports/replay-\(index + 1).xml")
            #expect(report.suites.map { $0["name"] } == ["replay (shard \(index + 1)/\(completions))"])
            #expect(FileManager.default.fileExists(atPath: results + "/shards/mpin-two-pass.shard-\(index + 1).json"))
        }
    }

    @Test("every shard's commands run here as written: a report per shard, the parts cover everything once, merged vectors are one run's bytes")
    func runsLocally() throws {
        let workflow = try Self.workflow()
        let jobs = try Self.jobs(workflow)
        let env = try #require(workflow["env"] as? [String: Any])
        let shards = try #require(Int("\(env["SHARDS"] ?? "")"))
        let out = try TemporaryDirectory.make("ci")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // The workflow's environment, with the executable built here, a scratch folder and few vectors.
        let exports = env.keys.sorted().map { key -> String in
            let value: String = switch key {
            case "WORKBENCH": "$WORKBENCH"
            case "OUT": out
            case "VECTOR_COUNT": "2"
            default: "\(env[key]!)"
            }
            return "export \(key)=\"\(value)\""
        }
        for name in ["replay", "vectors-verify", "vectors-generate", "vectors-merge"] {
            let job = try #require(jobs[name], "job \(name)")
            for entry in Self.matrix(job) {
                for step in Self.steps(job) {
                    guard var script = step["run"] as? String, !script.hasPrefix("make ") else { continue }
                    for (axis, value) in entry { script = script.replacingOccurrences(of: "${{ matrix.\(axis) }}", with: value) }
                    #expect(!script.contains("${{"), "\(name): only matrix values are substituted: \(script)")
                    let result = try WorkbenchProcess.run(shell: "set -e\n" + exports.joined(separator: "\n") + "\n" + script, seconds: 300)
                    #expect(result.status == 0 && result.exited, "\(name) \(entry): \(result)")
                }
            }
        }
        // Replay: one report per shard, named with it; together every cassette once.
        let cassettes = try FileManager.default.contentsOfDirectory(atPath: RepoPaths.recordings).filter { $0.hasSuffix(".json") }
        var replayed: [String] = []
        for shard in 1...shards {
            let report = try JUnitXML(contentsOf: out + "/reports/replay-\(shard).xml")
            #expect(report.suites.map { $0["name"] } == ["replay (shard \(shard)/\(shards))"])
            #expect(report.testCases.allSatisfy { $0.child("failure") == nil && $0.child("error") == nil })
            replayed += report.testCases.compactMap { $0["name"].map { ($0 as NSString).lastPathComponent } }
        }
        #expect(replayed.sorted() == cassettes.sorted())
        // Verify: together every file once.
        var verified: Set<String> = []
        var verifiedCount = 0
        for shard in 1...shards {
            let report = try JUnitXML(contentsOf: out + "/reports/verify-\(shard).xml")
            #expect(report.suites.map { $0["name"] } == ["vectors verify (shard \(shard)/\(shards))"])
            let files = Set(report.testCases.compactMap { $0["classname"] })
            verifiedCount += files.count
            verified.formUnion(files)
        }
        #expect(verified.count == verifiedCount, "no file in two shards")
        // The committed generated files (AMCL's published ones are not in the repository).
        let generated = try FileManager.default.subpathsOfDirectory(atPath: RepoPaths.path("Vectors/generated"))
            .filter { $0.hasSuffix(".json") }
        #expect(generated.count >= 14)
        #expect(verified.count == generated.count)
        // Generate: a verified report per suite and shard; the merge step compared each merged file
        // with one unsharded run (cmp), so they exist and are the same bytes.
        let suites = Set(Self.matrix(try #require(jobs["vectors-generate"])).compactMap { $0["suite"] })
        for suite in suites {
            let merged = try Data(contentsOf: URL(fileURLWithPath: out + "/merged/\(suite).json"))
            #expect(try merged == Data(contentsOf: URL(fileURLWithPath: out + "/whole/\(suite).json")))
            for shard in 1...shards {
                let report = try JUnitXML(contentsOf: out + "/reports/generate-\(suite)-\(shard).xml")
                #expect(report.testCases.allSatisfy { $0.child("failure") == nil && $0.child("error") == nil }, "\(suite) \(shard)")
            }
        }
    }
}
