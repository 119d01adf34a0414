import Foundation
import Scenarios
import TestSupport
import Testing

/// `.github/workflows/ci.yml` cannot run here, so it is read with the scenario scripts' YAML reader
/// (`YAMLReader`, every scalar as text) and what it calls is run
/// here as written: every shard job's `run` steps for every matrix entry (the built executable as
/// `$WORKBENCH`, a scratch folder as `$OUT`, few vectors), the make targets it names dry-run.
@Suite("the CI workflow", .enabled(if: WorkbenchProcess.path != nil))
struct CIWorkflowTests {
    typealias Object = YAMLNode.Mapping

    static func workflow() throws -> Object {
        let text = try String(contentsOfFile: RepoPaths.path(".github/workflows/ci.yml"), encoding: .utf8)
        return try #require(try YAMLReader.compose(text)?.mapping)
    }

    static func jobs(_ workflow: Object) throws -> [String: Object] {
        let jobs = try #require(workflow["jobs"]?.mapping)
        return try Dictionary(
            uniqueKeysWithValues: jobs.map { (try #require($0.key.string), try #require($0.value.mapping)) })
    }

    static func steps(_ job: Object) -> [Object] { job["steps"]?.sequence?.compactMap(\.mapping) ?? [] }

    /// The text of a mapping's values by key (the workflow's `env`).
    static func texts(_ mapping: Object) -> [String: String] {
        Dictionary(
            mapping.compactMap { pair in pair.key.string.flatMap { key in pair.value.string.map { (key, $0) } } }
        ) { $1 }
    }

    /// The matrix entries of a job (one empty entry without a matrix), values as text.
    static func matrix(_ job: Object) -> [[String: String]] {
        guard let axes = job["strategy"]?["matrix"]?.mapping else { return [[:]] }
        let names = axes.compactMap(\.key.string).sorted()
        return names.reduce([[:]]) { entries, axis in
            let values = (axes[axis]?.sequence ?? []).compactMap(\.string)
            return entries.flatMap { entry in values.map { entry.merging([axis: $0]) { $1 } } }
        }
    }

    @Test("it is YAML: .ci/run on push and pull requests, shard matrices of 1…SHARDS, JUnit reports uploaded")
    func shape() throws {
        let workflow = try Self.workflow()
        // The trigger key is quoted: YAML 1.1 reads a plain `on` as true, not as a name.
        let trigger = try #require(workflow.first { $0.key.string == "on" }, "the workflow has no trigger key")
        #expect(trigger.key.scalar?.isPlain == false, "the trigger key is quoted, so YAML 1.1 reads it as a name")
        let triggers = try #require(trigger.value.mapping)
        #expect(triggers.compactMap(\.key.string).sorted() == ["pull_request", "push"])
        let env = Self.texts(try #require(workflow["env"]?.mapping))
        let shards = try #require(Int(env["SHARDS"] ?? ""))
        let jobs = try Self.jobs(workflow)
        let runs = { (job: Object) in Self.steps(job).compactMap { $0["run"]?.string } }
        // The workflow and .ci/run check the same things: its `checks` job runs .ci/run itself.
        #expect(runs(try #require(jobs["checks"])) == [".ci/run"])
        let sharded = jobs.filter { Self.matrix($0.value).contains { $0["shard"] != nil } }
        #expect(Set(sharded.keys) == ["replay", "vectors-verify", "vectors-generate"])
        for (name, job) in sharded {
            let values = Set(Self.matrix(job).compactMap { $0["shard"] })
            #expect(values == Set((1...shards).map(String.init)), "\(name)")
            let uploads = Self.steps(job).filter { $0["uses"]?.string?.hasPrefix("actions/upload-artifact@") == true }
            #expect(
                uploads.contains {
                    $0["if"]?.string == "always()"
                        && $0["with"]?["name"]?.string?.contains("${{ matrix.shard }}") == true
                },
                "\(name) uploads its reports, also when it fails")
            #expect(runs(job).contains { $0.contains("--shard \"${{ matrix.shard }}/$SHARDS\"") }, "\(name)")
            #expect(runs(job).contains { $0.contains("--junit") }, "\(name)")
        }
        // Every job's `needs` names a job.
        for (name, job) in jobs {
            let needs = job["needs"]?.string.map { [$0] } ?? job["needs"]?.sequence?.compactMap(\.string) ?? []
            for need in needs { #expect(jobs[need] != nil, "\(name) needs \(need)") }
        }
    }

    @Test("the make targets it and .ci/run call exist (a dry run of each); .ci/run runs every check")
    func makeTargets() throws {
        let jobs = try Self.jobs(try Self.workflow())
        var runs = jobs.values.flatMap { Self.steps($0).compactMap { $0["run"]?.string } }
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

    @Test(
        "docs/vectors.md's Kubernetes indexed Job parses, its script's N is completions, and the script runs for the first and last index"
    )
    func kubernetesJob() throws {
        let readme = try String(contentsOfFile: RepoPaths.path("docs/vectors.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```yaml\n").dropFirst().map {
            $0.components(separatedBy: "\n```").first ?? ""
        }
        let manifest = try #require(
            blocks.first { $0.contains("completionMode: Indexed") }, "docs/vectors.md shows an indexed Job")
        let job = try #require(try YAMLReader.compose(manifest)?.mapping)
        #expect(job["kind"]?.string == "Job")
        let spec = try #require(job["spec"]?.mapping)
        #expect(spec["completionMode"]?.string == "Indexed")
        let completions = try #require(spec["completions"]?.string.flatMap { Int($0) })
        #expect(spec["parallelism"]?.string.flatMap { Int($0) }.map { (1...completions).contains($0) } == true)
        let pod = try #require(spec["template"]?["spec"]?.mapping)
        #expect(pod["restartPolicy"]?.string == "Never")
        let container = try #require(pod["containers"]?.sequence?.first?.mapping)
        let script = try #require(container["args"]?.sequence?.first?.string)
        #expect(script.contains("K=$((JOB_COMPLETION_INDEX + 1))"))
        let shardOptions = script.components(separatedBy: "--shard ").dropFirst()
        #expect(
            !shardOptions.isEmpty && shardOptions.allSatisfy { $0.hasPrefix("\"$K/\(completions)\"") },
            "every --shard is K/completions")
        let results = try TemporaryDirectory.make("k8s")
        defer { try? FileManager.default.removeItem(atPath: results) }
        let local = script.replacingOccurrences(of: "/results", with: results)
            .replacingOccurrences(of: "--count 100000", with: "--count 2")
        for index in [0, completions - 1] {
            let run = try WorkbenchProcess.run(
                shell: """
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

    @Test(
        "every shard's commands run here as written: a report per shard, the parts cover everything once, merged vectors are one run's bytes"
    )
    func runsLocally() throws {
        let workflow = try Self.workflow()
        let jobs = try Self.jobs(workflow)
        let env = Self.texts(try #require(workflow["env"]?.mapping))
        let shards = try #require(Int(env["SHARDS"] ?? ""))
        let out = try TemporaryDirectory.make("ci")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // The workflow's environment, with the executable built here, a scratch folder and few vectors.
        let exports = env.keys.sorted().map { key -> String in
            let value: String =
                switch key {
                case "WORKBENCH": "$WORKBENCH"
                case "OUT": out
                case "VECTOR_COUNT": "2"
                default: env[key]!
                }
            return "export \(key)=\"\(value)\""
        }
        for name in ["replay", "vectors-verify", "vectors-generate", "vectors-merge"] {
            let job = try #require(jobs[name], "job \(name)")
            for entry in Self.matrix(job) {
                for step in Self.steps(job) {
                    guard var script = step["run"]?.string, !script.hasPrefix("make ") else { continue }
                    for (axis, value) in entry {
                        script = script.replacingOccurrences(of: "${{ matrix.\(axis) }}", with: value)
                    }
                    #expect(!script.contains("${{"), "\(name): only matrix values are substituted: \(script)")
                    let result = try WorkbenchProcess.run(
                        shell: "set -e\n" + exports.joined(separator: "\n") + "\n" + script, seconds: 300)
                    #expect(result.status == 0 && result.exited, "\(name) \(entry): \(result)")
                }
            }
        }
        // Replay: one report per shard, named with it; together every cassette once.
        let cassettes = try FileManager.default.contentsOfDirectory(atPath: RepoPaths.recordings).filter {
            $0.hasSuffix(".json")
        }
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
                #expect(
                    report.testCases.allSatisfy { $0.child("failure") == nil && $0.child("error") == nil },
                    "\(suite) \(shard)")
            }
        }
    }
}
