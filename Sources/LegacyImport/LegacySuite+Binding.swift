import OrderedJSON

extension LegacySuite {
    /// One request a recorded test made, in the order of the recording: what a binding reads.
    public struct RecordedRequest: Sendable, Hashable {
        public var method: String
        public var url: String
        /// The harness's request context (`<call arguments>@<test><suffix>`).
        public var context: String

        public init(method: String, url: String, context: String) {
            self.method = method
            self.url = url
            self.context = context
        }
    }

    /// A variable of a test's steps that the recording gave no value, why, and what the composed
    /// script uses in its place.
    public struct Unbound: Sendable, Hashable, CustomStringConvertible {
        public var test: String
        public var variable: String
        /// The suite's default (its `variables`), which the script keeps; nil when it has none (the
        /// step that uses it cannot run).
        public var fallback: String?
        public var reason: String

        public init(test: String, variable: String, fallback: String?, reason: String) {
            self.test = test
            self.variable = variable
            self.fallback = fallback
            self.reason = reason
        }

        /// `$pin of testRegister1: <reason>; the suite's default "1234" is used`.
        public var description: String {
            "$\(variable) of \(test): \(reason); "
                + (fallback.map { "the suite's default \"\($0)\" is used" }
                    ?? "the suite has no default, so the step that uses it cannot run")
        }
    }

    /// What a recorded test gives the variables of its steps: their values, and the variables it
    /// could not give one, each with why.
    public struct Binding: Sendable, Hashable {
        public var values: [String: String]
        public var unbound: [Unbound]

        public init(values: [String: String], unbound: [Unbound] = []) {
            self.values = values
            self.unbound = unbound
        }
    }

    /// The calls whose argument names a backend, and that argument: each asks that backend for its
    /// client settings (`GET <url>/<rps prefix>/clientSettings`, docs/protocol.md §2, §3.10).
    static let backendArguments = ["initialize": "backend", "testBackend": "url", "setBackend": "url"]

    /// The values the test's own recorded requests give its steps' variables (docs/cassettes.md,
    /// "Importing the upstream file"), in step order:
    /// * a step's context template is matched against the test's recorded contexts (in the order
    ///   they first came), from the one after the context the step before matched, and binds the
    ///   variables it names (`bindings(of:contexts:)`);
    /// * a step with a context whose call names a backend (`backendArguments`) by a variable
    ///   takes the backend of the test's next client-settings request in the step's context: its
    ///   URL up to the RPS prefix, answered or not, so that a run whose "other backend" is the main
    ///   one, or got no answer, binds what that run asked;
    /// * the test's name is bound to `test`.
    ///
    /// A variable the steps use that neither binds, and that is not the run's (`runVariables`), is
    /// listed in `unbound` with the reason and the suite's default, which the script keeps: a
    /// FinishRegistration PIN in a test whose requests name no PIN (the call sends nothing).
    public func binding(of test: String, requests: [RecordedRequest]) -> Binding {
        var bound = [Self.testVariable: test]
        guard let steps = tests.first(where: { $0.name == test })?.steps else { return Binding(values: bound) }
        let wildcards = runVariables
        var contexts: [String] = []
        for request in requests where !contexts.contains(request.context) { contexts.append(request.context) }
        var position = 0
        let asked = requests.filter { LegacyImporter.settingsBase(method: $0.method, url: $0.url) != nil }
        var settingsRequests = asked[...]
        var reasons: [String: String] = [:]
        for step in steps {
            let name = step["name"]?.stringValue ?? test
            let contextText = step["context"]?.stringValue
            let template = contextText.map(ContextTemplate.init)
            if let template, let contextText {
                var matched = false
                for index in contexts.indices.dropFirst(position) {
                    if let found = template.match(contexts[index], bound: bound, wildcards: wildcards) {
                        bound = found
                        position = index + 1
                        matched = true
                        break
                    }
                }
                if !matched {
                    for variable in template.variables where bound[variable] == nil && reasons[variable] == nil {
                        reasons[variable] =
                            "no recorded context of \(test) matches the context \"\(contextText)\" of the step "
                            + "\"\(name)\" (it sent nothing, or the harness had written its key before)"
                    }
                }
            }
            // A step without a context sends nothing (the suite names the context of every step
            // that sends requests): only a backend call with one made a settings request.
            guard let call = step["sdk"]?.stringValue, let argument = Self.backendArguments[call],
                let value = step["with"]?[argument]?.stringValue, let template
            else { continue }
            let parts = ContextTemplate(value).parts
            var variable: String?
            if parts.count == 1, case .variable(let name, filtered: false, _) = parts[0] { variable = name }
            // The step's own request: the next client-settings request of its context.
            let index = settingsRequests.firstIndex { request in
                template.match(request.context, bound: bound, wildcards: wildcards) != nil
            }
            guard let index else {
                if let variable, bound[variable] == nil, !wildcards.contains(variable) {
                    reasons[variable] =
                        "the recording holds no client-settings request of \(test) for the step \"\(name)\" (it sent none, "
                        + "or the harness had written its key before)"
                }
                continue
            }
            let request = settingsRequests[index]
            settingsRequests = settingsRequests[settingsRequests.index(after: index)...]
            guard let variable, !wildcards.contains(variable), bound[variable] == nil,
                let base = LegacyImporter.settingsBase(method: request.method, url: request.url)
            else { continue }
            bound[variable] = base
        }
        var unbound: [Unbound] = []
        let defaults = (setting(named: "variables")?.objectMembers ?? []).reduce(into: [String: String]()) {
            $0[$1.name] = $1.value.stringValue ?? JSONWriter.compact($1.value)
        }
        for (variable, steps) in Self.variableUses(steps) where bound[variable] == nil && !wildcards.contains(variable)
        {
            let reason =
                reasons[variable]
                ?? "no request of \(test) shows it: it appears only in \(steps.count == 1 ? "the step" : "the steps") "
                + steps.map { "\"\($0)\"" }.joined(separator: ", ")
                + ", which name\(steps.count == 1 ? "s" : "") it in no request context"
            unbound.append(Unbound(test: test, variable: variable, fallback: defaults[variable], reason: reason))
        }
        return Binding(values: bound, unbound: unbound)
    }

    /// A top-level member of the suite's script other than its steps (`variables`, `flavour`, ...).
    func setting(named name: String) -> JSONValue? {
        settings.first { $0.name == name }?.value
    }

    /// The variables the steps' values name (step names aside), each with the names of the steps
    /// that use it, in order of first use.
    static func variableUses(_ steps: [JSONValue]) -> [(String, [String])] {
        var out: [(String, [String])] = []
        func visit(_ value: JSONValue, step: String, key: String?) {
            switch value {
            case .string(let text) where key != "name":
                for variable in ContextTemplate(text).variables {
                    if let at = out.firstIndex(where: { $0.0 == variable }) {
                        if !out[at].1.contains(step) { out[at].1.append(step) }
                    } else {
                        out.append((variable, [step]))
                    }
                }
            case .array(let items): for item in items { visit(item, step: step, key: nil) }
            case .object(let members): for member in members { visit(member.value, step: step, key: member.name) }
            default: break
            }
        }
        for step in steps {
            // A captured variable is the run's; what the step reads is what counts.
            visit(step, step: step["name"]?.stringValue ?? "", key: nil)
        }
        return out
    }
}
