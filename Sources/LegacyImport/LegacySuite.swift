import FlowRecording
import OrderedJSON
import Scenarios

/// The test suite of a harness that recorded one sequential run of all its tests over one SDK
/// instance (the Milagro SDK core's `unit_tests.cpp`): the tests in run order, each with the
/// scenario steps that do what it did.
///
/// A recorded test relies on the state the earlier tests of its run left (the SDK initialised), so
/// `script(running:bindings:description:)` composes the script of one test as it ran: the steps of
/// every test the recording shows before it, renamed `setup <step name>`, then the test's own.
/// Steps are kept as the JSON objects of the suite's script (the opaque script form of a cassette);
/// this layer only renames them and fills in the variables the recording binds
/// (`binding(of:requests:)`: the users, PINs, backends and other call arguments of that run).
public struct LegacySuite: Sendable, Hashable {
    /// One test and its steps.
    public struct Test: Sendable, Hashable {
        public var name: String
        /// The test's steps, each a JSON object of the suite's script (`name`, an actor key, `with`, ...).
        public var steps: [JSONValue]

        public init(name: String, steps: [JSONValue]) {
            self.name = name
            self.steps = steps
        }
    }

    /// The suite script's name.
    public var name: String
    /// The file it came from.
    public var path: String?
    /// The script's top-level members other than `name`, `description`, `aliases` and `steps`
    /// (`flavour`, `startTime`, ...), copied into every composed script.
    public var settings: [JSONValue.Member]
    /// The tests in run order.
    public var tests: [Test]

    /// What the steps of earlier tests are renamed with in a composed script.
    public static let setupPrefix = "setup "

    public init(name: String, path: String? = nil, settings: [JSONValue.Member] = [], tests: [Test]) {
        self.name = name
        self.path = path
        self.settings = settings
        self.tests = tests
    }

    /// The run position of `test` in the suite's own order.
    public func position(of test: String) -> Int? {
        tests.firstIndex { $0.name == test }
    }

    /// A composed script and where each of its tests starts.
    public struct Composition: Sendable, Hashable {
        /// The script, in the JSON form a cassette keeps.
        public var script: JSONValue
        /// The tests of the script, in run order.
        public var tests: [String]
        /// Per test, the index of its first step (nil for a test without steps).
        public var firstSteps: [Int?]
        /// Per step of the script, its request context with the bound variables filled in (nil for
        /// a step without one).
        public var contexts: [String?]
    }

    /// The variable every test binds to its own name (`context: "…@${test}"`).
    public static let testVariable = "test"

    /// Variables a recording cannot bind: those the steps capture while the run goes (an access
    /// number, a webOTT) and the run's own (`backend`, `seed`).
    public var runVariables: Set<String> {
        var names: Set<String> = ["backend", "seed"]
        for test in tests {
            for step in test.steps {
                for member in step["capture"]?.objectMembers ?? [] { names.insert(member.name) }
            }
        }
        return names
    }

    /// The values a recorded run gave the variables of `test`'s step contexts: each step's context
    /// template is matched, in step order, against the test's recorded contexts (`contexts`, in the
    /// order they first came), from the one after the context the step before matched: each
    /// recorded context binds one step at most, as each call's requests carry their own (two calls
    /// with one context, as ConfirmRegistration and StartAuthentication of one user, share it: the
    /// second binds nothing new). A step whose context the recording does not hold (it sent
    /// nothing, or the harness wrote its key before) binds nothing. The test's name is bound to `test`.
    public func bindings(of test: String, contexts: [String]) -> [String: String] {
        binding(of: test, requests: contexts.map { RecordedRequest(method: "", url: "", context: $0) }).values
    }

    /// The script that runs `run` (test names of this suite, in the order they ran) over one SDK
    /// instance: named after the last, the steps of the others renamed `setup …` before its own,
    /// their checks left to their own tests' cassettes (`expect: {status: any}`).
    /// `bindings` gives each test's variables (`bindings(of:contexts:)`); they fill in `$name` /
    /// `${name}` in that test's step values, other variables are left to the run (the script's
    /// `variables` give their defaults).
    public func script(running run: [String], bindings: [String: [String: String]], description: String) -> Composition
    {
        var steps: [JSONValue] = []
        var names: [String] = [], firsts: [Int?] = [], contexts: [String?] = []
        for (index, name) in run.enumerated() {
            let test = tests.first { $0.name == name } ?? Test(name: name, steps: [])
            names.append(test.name)
            firsts.append(test.steps.isEmpty ? nil : steps.count)
            for step in test.steps {
                let bound = Self.bind(step, bindings[name] ?? [Self.testVariable: name])
                contexts.append(bound["context"]?.stringValue)
                guard index < run.count - 1, case .object(let members) = bound else {
                    steps.append(bound)
                    continue
                }
                // A setup step brings the SDK to where the test starts; its checks are its own
                // test's, judged in that test's cassette, so here it only has to run.
                var renamed = members.compactMap { member -> JSONValue.Member? in
                    if member.name == "expect" { return nil }
                    guard member.name == "name", let name = member.value.stringValue else { return member }
                    return .init("name", .string(Self.setupPrefix + name))
                }
                if !renamed.contains(where: { $0.name == "await" }) || members.contains(where: { $0.name == "expect" })
                {
                    renamed.append(.init("expect", .object([.init("status", .string("any"))])))
                }
                steps.append(.object(renamed))
            }
        }
        var members: [JSONValue.Member] = [
            .init("name", .string(run.last ?? name)), .init("description", .string(description)),
        ]
        members += settings
        members.append(.init("steps", .array(steps)))
        return Composition(script: .object(members), tests: names, firstSteps: firsts, contexts: contexts)
    }

    /// The test of this suite a recorded context's test part names: the longest test name it
    /// starts with (the harness appends additional context data to the name, as
    /// `testAuthenticate1SecondAuth`), nil when none.
    public func test(named tail: String) -> String? {
        tests.map(\.name).filter { tail.hasPrefix($0) }.max { $0.count < $1.count }
    }

    /// `value` with the bound variables replaced in every string but step names.
    static func bind(_ value: JSONValue, _ bindings: [String: String], key: String? = nil) -> JSONValue {
        switch value {
        case .string(let text) where key != "name": return .string(substitute(text, bindings))
        case .array(let items): return .array(items.map { bind($0, bindings) })
        case .object(let members):
            return .object(members.map { .init($0.name, bind($0.value, bindings, key: $0.name)) })
        default: return value
        }
    }

    /// `text` with `$name` and `${name}` of the bound names replaced by their values (a `$` in a
    /// value is written `$$`, the run's escape); `$$`, filters (`${name|…}`) and other names stay
    /// as written. The variable syntax is read by `ContextTemplate`, its one home here.
    static func substitute(_ text: String, _ bindings: [String: String]) -> String {
        guard !bindings.isEmpty, text.contains("$") else { return text }
        return ContextTemplate(text).parts.map { part in
            if case .variable(let name, filtered: false, _) = part, let value = bindings[name] {
                return value.replacing("$", with: "$$")
            }
            return part.source
        }.joined()
    }
}
