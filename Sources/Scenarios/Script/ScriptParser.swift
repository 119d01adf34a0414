import FileAccess
import FlowRecording
import Foundation
import MPinSDK
import MilagroProtocol
import MilagroRecording
import OrderedJSON

/// Reads scenario scripts (YAML, or JSON, which YAML reads too) into `ScenarioScript`, checking
/// keys, actors, actions and arguments; every error names the file, the line and the step.
///
/// Values the code has types for are parsed into them here: the flavour, activation and profile
/// (MilagroProtocol's `BackendFlavour`, `ActivationMode`, `BackendProfile`), `checks`, each step's
/// action (`StepAction`) and expected user state (`UserState`). A misspelt one is a load error
/// naming its line, with the nearest known value ("did you mean X?").
public enum ScriptParser {
    static let topKeys = [
        "name", "description", "flavour", "activation", "profile", "clientID", "startTime", "seed", "aliases", "checks",
        "variables", "steps",
    ]
    static let stepKeys =
        ["name", "with", "expect", "capture", "note", "context", ScriptStep.backgroundKey, ScriptStep.awaitKey]
        + ScriptAction.actors
    static let expectKeys = ["status", "state", "values"]

    /// Reads and parses the script at `path`.
    public static func parse(file path: String) throws(ScriptError) -> ScenarioScript {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: ScriptLimits.maximumFileBytes)
        } catch {
            switch error.kind {
            case .missing: throw ScriptError(file: path, message: "no such scenario file")
            case .tooLarge:
                throw ScriptError(
                    file: path,
                    message: "is larger than \(ScriptLimits.maximumFileBytes) bytes, the most a script may have")
            default: throw ScriptError(file: path, message: "\(error.action): \(error.reason)")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ScriptError(file: path, message: "cannot be read as UTF-8 text")
        }
        var script = try parse(text, file: path)
        script.path = path
        return script
    }

    /// Parses script text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ScriptError) -> ScenarioScript {
        try checkShape(text, file: file)
        let composed: YAMLNode?
        do {
            composed = try YAMLReader.compose(text)
        } catch {
            throw ScriptError(
                file: file, line: error.mark?.line, column: error.mark?.column,
                message: "not valid YAML: \(error.problem)")
        }
        guard let root = composed else { throw ScriptError(file: file, line: 1, message: "the script is empty") }
        try checkDuplicateKeys(root, file: file)
        guard let top = root.mapping else {
            throw ScriptError(
                file: file, line: root.mark.line, column: root.mark.column,
                message: "expected a mapping at the top (name, steps, ...), found \(kind(root))")
        }
        for (key, _) in top {
            let name = key.string ?? ""
            if !topKeys.contains(name) {
                throw ScriptError(
                    file: file, line: key.mark.line, column: key.mark.column,
                    message: "unknown key \"\(name)\"; expected one of \(topKeys.joined(separator: ", "))"
                        + NameSuggestion.hint(for: name, among: topKeys))
            }
        }
        func scalar(_ key: String) throws(ScriptError) -> String? {
            guard let node = top[key] else { return nil }
            guard let value = node.scalar?.string else {
                throw ScriptError(
                    file: file, line: node.mark.line,
                    message: "\"\(key)\" should be a single value, found \(kind(node))")
            }
            return value
        }
        let fileStem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        /// The value of `key` as one of the type's cases (by raw value), `fallback` when not given.
        func value<Value: RawRepresentable & CaseIterable>(_ key: String, _ what: String, default fallback: Value)
            throws(ScriptError)
            -> Value where Value.RawValue == String
        {
            guard let text = try scalar(key) else { return fallback }
            if let value = Value(rawValue: text) { return value }
            let known = Value.allCases.map(\.rawValue)
            throw ScriptError(
                file: file, line: top[key]?.mark.line, column: top[key]?.mark.column,
                message:
                    "\(what) \"\(text)\" is not \(Self.alternatives(known))\(NameSuggestion.hint(for: text, among: known))"
            )
        }
        let flavour: BackendFlavour = try value("flavour", "flavour", default: .milagro)
        let activation: ActivationMode = try value("activation", "activation", default: .auto)
        let profile: BackendProfile = try value("profile", "profile", default: .default)
        if let problem = profile.problem(flavour: flavour, activation: activation) {
            throw ScriptError(file: file, line: top["profile"]?.mark.line, message: problem)
        }
        var startTime = ScenarioScript.defaultStartTime
        if let text = try scalar("startTime") {
            let range = ScriptLimits.startTime
            guard let value = Int64(text), range.contains(value) else {
                throw ScriptError(
                    file: file, line: top["startTime"]?.mark.line,
                    message:
                        "startTime should be whole milliseconds since 1970 from \(range.lowerBound) to \(range.upperBound) "
                        + "(9999-12-31T23:59:59.999Z), found \"\(text)\"")
            }
            startTime = value
        }
        var aliases: [String] = []
        if let node = top["aliases"] {
            guard let items = node.sequence else {
                throw ScriptError(file: file, line: node.mark.line, message: "aliases should be a list of names")
            }
            for item in items {
                guard let name = item.scalar?.string else {
                    throw ScriptError(
                        file: file, line: item.mark.line,
                        message: "aliases should be a list of names, found \(kind(item)) in it")
                }
                aliases.append(name)
            }
        }
        let checks: ScenarioScript.Checks = try value("checks", "checks", default: .stop)
        var variables: [(name: String, value: String)] = []
        if let node = top["variables"] {
            guard let pairs = node.mapping else {
                throw ScriptError(
                    file: file, line: node.mark.line,
                    message: "\"variables\" should be a mapping of variable names to values")
            }
            for (key, value) in pairs {
                let name = key.string ?? ""
                guard Variables.isName(name) else {
                    throw ScriptError(
                        file: file, line: key.mark.line,
                        message: "\"\(name)\" is not a variable name (letters, digits, _)")
                }
                guard let text = value.scalar?.string else {
                    throw ScriptError(
                        file: file, line: value.mark.line,
                        message: "variable \(name) should be a single value, found \(kind(value))")
                }
                variables.append((name, text))
            }
        }
        guard let stepsNode = top["steps"] else {
            throw ScriptError(file: file, line: root.mark.line, message: "the script has no \"steps\"")
        }
        guard let stepNodes = stepsNode.sequence else {
            throw ScriptError(
                file: file, line: stepsNode.mark.line, message: "\"steps\" should be a list, found \(kind(stepsNode))")
        }
        var steps: [ScriptStep] = []
        for (index, node) in stepNodes.enumerated() {
            steps.append(try step(node, index: index, file: file))
        }
        try checkBackgroundSteps(steps, file: file)
        return ScenarioScript(
            name: try scalar("name") ?? fileStem, description: try scalar("description") ?? "", path: nil,
            flavour: flavour, activation: activation, profile: profile, clientID: try scalar("clientID"),
            startTime: startTime, seed: try scalar("seed"), aliases: aliases, checks: checks, variables: variables,
            steps: steps, source: json(root))
    }

    static func step(_ node: YAMLNode, index: Int, file: String) throws(ScriptError) -> ScriptStep {
        let line = node.mark.line
        guard let map = node.mapping else {
            throw ScriptError(
                file: file, line: line, column: node.mark.column, stepIndex: index,
                message: "a step should be a mapping (sdk: ACTION, with: ..., expect: ...), found \(kind(node))")
        }
        let givenName = map["name"]?.scalar?.string
        func fail(_ at: YAMLNode?, _ message: String) -> ScriptError {
            ScriptError(
                file: file, line: at?.mark.line ?? line, column: at?.mark.column, stepIndex: index, stepName: givenName,
                message: message)
        }
        for (key, _) in map where !stepKeys.contains(key.string ?? "") {
            let name = key.string ?? ""
            throw fail(
                key,
                "unknown key \"\(name)\"; a step has one of \(ScriptAction.actors.joined(separator: ", ")) "
                    + "and optionally name, with, expect, capture, note, context, background; or it is an await step"
                    + NameSuggestion.hint(for: name, among: stepKeys))
        }
        let (expectation, capture) = try expectationAndCapture(map, fail)
        if let awaited = map[ScriptStep.awaitKey] {
            let extra = map.filter {
                ![ScriptStep.awaitKey, "name", "expect", "capture", "note"].contains($0.key.string ?? "")
            }
            if let (key, _) = extra.first {
                throw fail(key, "an await step takes only name, expect, capture and note, not \"\(key.string ?? "")\"")
            }
            guard let lane = awaited.scalar?.string, Variables.isName(lane) else {
                throw fail(awaited, "await names a background step (letters, digits, _)")
            }
            return ScriptStep(
                index: index, name: givenName ?? "await \(lane)", kind: .await(lane), arguments: [],
                expect: expectation, capture: capture, line: line)
        }
        var background: String?
        if let node = map[ScriptStep.backgroundKey] {
            guard let lane = node.scalar?.string, Variables.isName(lane) else {
                throw fail(node, "background names the step for a later await (letters, digits, _)")
            }
            background = lane
        }
        let actors = ScriptActor.allCases.filter { map[$0.rawValue] != nil }
        guard actors.count == 1, let actor = actors.first, let actionNode = map[actor.rawValue] else {
            throw fail(
                node,
                actors.isEmpty
                    ? "the step names no actor (\(Self.alternatives(ScriptAction.actors)))"
                    : "the step names several actors (\(actors.map(\.rawValue).joined(separator: ", "))); give one")
        }
        guard let actionName = actionNode.scalar?.string else { throw fail(actionNode, "the action should be a name") }
        guard let stepAction = StepAction(actor: actor, name: actionName) else {
            let known = ScriptAction.names(for: actor.rawValue)
            throw fail(
                actionNode,
                "unknown \(actor.rawValue) action \"\(actionName)\"; known: \(known.joined(separator: ", "))"
                    + NameSuggestion.hint(for: actionName, among: known))
        }
        let action = ScriptAction(stepAction)
        var arguments: [(name: String, value: String)] = []
        if let with = map["with"] {
            guard let pairs = with.mapping else { throw fail(with, "\"with\" should be a mapping of arguments") }
            for (key, value) in pairs {
                let name = key.string ?? ""
                guard action.allowed.contains(name) else {
                    let known = action.allowed.sorted()
                    throw fail(
                        key,
                        "\(actionName) takes no argument \"\(name)\""
                            + (known.isEmpty ? "" : "; it takes \(known.joined(separator: ", "))")
                            + NameSuggestion.hint(for: name, among: known))
                }
                let argument = try text(value, fail)
                // Numbers are checked here when written out; `$variables` are checked when the step runs.
                if !argument.contains("$"),
                    let problem = ScriptLimits.problem(action: stepAction, argument: name, value: argument)
                {
                    throw fail(value, problem)
                }
                arguments.append((name, argument))
            }
        }
        for name in action.required where !arguments.contains(where: { $0.name == name }) {
            throw fail(map["with"] ?? actionNode, "\(actionName) needs the argument \"\(name)\"")
        }
        var context: String?
        if let node = map["context"] {
            guard let text = node.scalar?.string else {
                throw fail(node, "\"context\" should be a single value (a request context)")
            }
            context = text
        }
        let name = givenName ?? "\(actor.rawValue) \(actionName)"
        return ScriptStep(
            index: index, name: name, kind: .action(stepAction), background: background, arguments: arguments,
            expect: expectation, capture: capture, line: line, context: context)
    }

    /// A step's `expect` and `capture`.
    static func expectationAndCapture(_ map: YAMLNode.Mapping, _ fail: (YAMLNode?, String) -> ScriptError)
        throws(ScriptError)
        -> (Expectation, [(variable: String, output: String)])
    {
        var expectation = Expectation()
        if let expect = map["expect"] {
            guard let pairs = expect.mapping else {
                throw fail(expect, "\"expect\" should be a mapping (status, state, values)")
            }
            expectation.line = expect.mark.line
            for (key, value) in pairs {
                switch key.string ?? "" {
                case "status": expectation.status = try text(value, fail)
                case "state":
                    let name = try text(value, fail)
                    guard let state = UserState(rawValue: name) else {
                        let known = UserState.allCases.map(\.rawValue)
                        throw fail(
                            value,
                            "state \"\(name)\" is not a user state (\(alternatives(known)))\(NameSuggestion.hint(for: name, among: known))"
                        )
                    }
                    expectation.state = state
                case "values":
                    guard let members = value.mapping else {
                        throw fail(value, "\"values\" should be a mapping of output names to values")
                    }
                    for (name, wanted) in members {
                        expectation.values.append((name.string ?? "", try text(wanted, fail)))
                    }
                default:
                    let name = key.string ?? ""
                    throw fail(
                        key,
                        "unknown expectation \"\(name)\"; expected status, state or values"
                            + NameSuggestion.hint(for: name, among: expectKeys))
                }
            }
        }
        var capture: [(variable: String, output: String)] = []
        if let node = map["capture"] {
            guard let pairs = node.mapping else {
                throw fail(node, "\"capture\" should be a mapping of variable names to output names")
            }
            for (key, value) in pairs {
                let variable = key.string ?? ""
                guard Variables.isName(variable) else {
                    throw fail(key, "\"\(variable)\" is not a variable name (letters, digits, _)")
                }
                capture.append((variable, try text(value, fail)))
            }
        }
        return (expectation, capture)
    }

    /// Every `background: NAME` is awaited by a later `await: NAME`, and every await names a
    /// background step that runs at that point (names may be reused once awaited).
    static func checkBackgroundSteps(_ steps: [ScriptStep], file: String) throws(ScriptError) {
        var running: [String: ScriptStep] = [:]
        for step in steps {
            func fail(_ message: String) -> ScriptError {
                ScriptError(file: file, line: step.line, stepIndex: step.index, stepName: step.name, message: message)
            }
            if step.isAwait {
                guard running.removeValue(forKey: step.action) != nil else {
                    throw fail(
                        "await \(step.action): no step runs in the background under that name here"
                            + (running.isEmpty ? "" : "; running: \(running.keys.sorted().joined(separator: ", "))"))
                }
            } else if let lane = step.background {
                if let other = running[lane] {
                    throw fail(
                        "background \(lane): step \(other.index) (line \(other.line)) runs under that name and is not awaited yet"
                    )
                }
                guard step.stepAction?.actor != .clock else { throw fail("a clock step cannot run in the background") }
                running[lane] = step
            }
        }
        if let (lane, step) = running.min(by: { $0.value.index < $1.value.index }) {
            throw ScriptError(
                file: file, line: step.line, stepIndex: step.index, stepName: step.name,
                message: "background \(lane) is never awaited; add a step \"await: \(lane)\" after it")
        }
    }

    /// Refuses text larger than `ScriptLimits.maximumTextBytes`, nested deeper than
    /// `ScriptLimits.maximumDepth`, or whose aliases expand past `ScriptLimits.maximumValues` values or
    /// `ScriptLimits.maximumExpandedBytes` bytes, before the composer builds anything from it.
    static func checkShape(_ text: String, file: String) throws(ScriptError) {
        guard text.utf8.count <= ScriptLimits.maximumTextBytes else {
            throw ScriptError(
                file: file,
                message: "the script is larger than \(ScriptLimits.maximumTextBytes) bytes, the most a script may have")
        }
        switch YAMLShape.firstExcess(
            in: text, maximumDepth: ScriptLimits.maximumDepth, maximumValues: ScriptLimits.maximumValues,
            maximumExpandedBytes: ScriptLimits.maximumExpandedBytes)
        {
        case nil:
            return
        case .depth(let line):
            throw ScriptError(
                file: file, line: line,
                message:
                    "mappings and lists nest deeper than \(ScriptLimits.maximumDepth) levels here, the most a script may have"
            )
        case .values(let line):
            throw ScriptError(
                file: file, line: line,
                message:
                    "the script holds more than \(ScriptLimits.maximumValues) values once its aliases are written out "
                    + "(reached here), the most a script may have")
        case .expandedBytes(let line):
            throw ScriptError(
                file: file, line: line,
                message:
                    "the script holds more than \(ScriptLimits.maximumExpandedBytes) bytes of text once its aliases are "
                    + "written out (reached here), the most a script may have")
        }
    }

    /// Refuses a mapping (at any depth) that gives one key twice: YAML and JSON readers differ on which
    /// one counts, so neither does. The error names the line of each.
    static func checkDuplicateKeys(_ node: YAMLNode, file: String) throws(ScriptError) {
        if let list = node.sequence {
            for item in list { try checkDuplicateKeys(item, file: file) }
        } else if let pairs = node.mapping {
            var seen: [String: YAMLNode] = [:]
            for (key, value) in pairs {
                if let name = key.string {
                    if let first = seen[name] {
                        let place = "line \(first.mark.line)"
                        throw ScriptError(
                            file: file, line: key.mark.line, column: key.mark.column,
                            message:
                                "duplicate key \"\(name)\": it is also given at \(place) of the same mapping; keep one")
                    }
                    seen[name] = key
                }
                try checkDuplicateKeys(value, file: file)
            }
        }
    }

    static func text(_ node: YAMLNode, _ fail: (YAMLNode?, String) -> ScriptError) throws(ScriptError) -> String {
        if let scalar = node.scalar { return scalar.string }
        if let list = node.sequence, list.allSatisfy({ $0.scalar != nil }) {
            return list.map { $0.scalar!.string }.joined(separator: "\n")
        }
        // A mapping (a request body, say) becomes compact JSON with its keys sorted: a cassette keeps
        // its script with sorted keys, so only this order is the same live and when replayed from
        // the cassette's copy. A body in another order is given as a string.
        if node.mapping != nil { return JSONWriter.compact(json(node).sortingMembers()) }
        throw fail(node, "expected a value, found \(kind(node))")
    }

    /// `a, b or c`.
    static func alternatives(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    static func kind(_ node: YAMLNode) -> String {
        switch node {
        case .scalar: "a single value"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// The node as JSON, every scalar a string, mappings in script order.
    static func json(_ node: YAMLNode) -> JSONValue {
        switch node {
        case .scalar(let scalar): .string(scalar.string)
        case .sequence(let list): .array(list.nodes.map(json))
        case .mapping(let pairs): .object(pairs.map { JSONValue.Member($0.key.string ?? "", json($0.value)) })
        }
    }
}
