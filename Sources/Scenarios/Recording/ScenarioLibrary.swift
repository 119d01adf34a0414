import FlowRecording
import Foundation
import OrderedJSON

/// The bundled scenarios: every `.yaml`, `.yml` and `.json` script under a folder (by default
/// `Scenarios/` of the working directory, or `$MPIN_WORKBENCH_SCENARIOS`), found by name or alias.
/// Replay uses it for cassettes that carry no script (imported ones name their test).
///
/// Scripts under a `suites/` folder are not scenarios of their own: each describes the test suite
/// of a harness that recorded one sequential run of all its tests (`suite(named:)`), and the
/// import of such a run composes one script per test from it.
public struct ScenarioLibrary: Sendable {
    public let directory: String

    /// The folder name of suite descriptions.
    public static let suitesFolder = "suites"

    public init(directory: String? = nil) {
        self.directory = directory ?? ProcessInfo.processInfo.environment["MPIN_WORKBENCH_SCENARIOS"] ?? "Scenarios"
    }

    /// Every scenario file, sorted by path (suite descriptions left out).
    public func files() -> [String] {
        scripts().filter { !Self.isSuiteFile($0) }
    }

    /// Every suite description, sorted by path.
    public func suiteFiles() -> [String] {
        scripts().filter(Self.isSuiteFile)
    }

    /// Every script file under the folder, sorted by path.
    func scripts() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var out: [String] = []
        while let entry = enumerator.nextObject() as? String {
            if ["yaml", "yml", "json"].contains((entry as NSString).pathExtension.lowercased()) {
                out.append((directory as NSString).appendingPathComponent(entry))
            }
        }
        return out.sorted()
    }

    static func isSuiteFile(_ path: String) -> Bool {
        (path as NSString).deletingLastPathComponent.split(separator: "/").last == Substring(suitesFolder)
    }

    /// The script named (or aliased) `name`.
    public func find(_ name: String) throws(ScriptError) -> ScenarioScript? {
        for file in files() {
            let script = try ScriptParser.parse(file: file)
            if script.name == name || script.aliases.contains(name) { return script }
        }
        return nil
    }

    /// The suite description named `name`, nil when there is none.
    public func suite(named name: String) throws(ScriptError) -> LegacySuite? {
        for file in suiteFiles() {
            let script = try ScriptParser.parse(file: file)
            if script.name == name { return try Self.suite(from: script) }
        }
        return nil
    }

    /// A suite description: a script whose every step is named `<test>: …`, the steps of one test
    /// together, the tests in the order they ran.
    public static func suite(from script: ScenarioScript) throws(ScriptError) -> LegacySuite {
        let file = script.path ?? script.name
        guard let sourceSteps = script.source["steps"]?.arrayValue, sourceSteps.count == script.steps.count else {
            throw ScriptError(file: file, message: "the suite's steps cannot be read back from its script")
        }
        var tests: [LegacySuite.Test] = []
        for (step, source) in zip(script.steps, sourceSteps) {
            func fail(_ message: String) -> ScriptError {
                ScriptError(file: file, line: step.line, stepIndex: step.index, stepName: step.name, message: message)
            }
            guard source["name"]?.stringValue != nil, let colon = step.name.firstIndex(of: ":"),
                  case let test = String(step.name[..<colon]), !test.isEmpty, !test.contains(" ") else {
                throw fail("a step of a suite is named \"<test>: …\" after the test it belongs to")
            }
            if tests.last?.name == test {
                tests[tests.count - 1].steps.append(source)
            } else if tests.contains(where: { $0.name == test }) {
                throw fail("the steps of \(test) should be together; another test's steps come between")
            } else {
                tests.append(.init(name: test, steps: [source]))
            }
        }
        let settings = (script.source.objectMembers ?? []).filter { !["name", "description", "aliases", "steps"].contains($0.name) }
        return LegacySuite(name: script.name, path: script.path, settings: settings, tests: tests)
    }
}
