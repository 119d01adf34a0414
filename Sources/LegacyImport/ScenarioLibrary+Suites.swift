import OrderedJSON
import Scenarios

/// The suite descriptions of the scenario library: scripts under its `suites/` folder, each the
/// test suite of a harness that recorded one sequential run of all its tests.
extension ScenarioLibrary {
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
                case let test = String(step.name[..<colon]), !test.isEmpty, !test.contains(" ")
            else {
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
        let settings = (script.source.objectMembers ?? []).filter {
            !["name", "description", "aliases", "steps"].contains($0.name)
        }
        return LegacySuite(name: script.name, path: script.path, settings: settings, tests: tests)
    }
}
