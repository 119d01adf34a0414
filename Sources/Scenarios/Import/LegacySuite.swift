import FlowRecording
import OrderedJSON

/// The test suite of a harness that recorded one sequential run of all its tests over one SDK
/// instance (the Milagro SDK core's `unit_tests.cpp`): the tests in run order, each with the
/// scenario steps that do what it did.
///
/// A recorded test relies on the state the earlier tests left (the SDK initialised, users made and
/// registered), so `script(upTo:bindings:description:)` composes the script of one test as it ran:
/// the steps of every earlier test, renamed `setup <step name>`, then the test's own steps. Steps
/// are kept as the JSON objects of the suite's script (the opaque script form of a cassette); this
/// layer only renames them and fills in bound variables.
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

    /// The run position of `test`.
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
    }

    /// The script of the test at `position`: named after it, the steps of the tests before it
    /// renamed `setup …`, then its own. `bindings` fill in `$name` / `${name}` in step values
    /// (names the recording determines, such as the other backends a test talked to); other
    /// variables are left to the run.
    public func script(upTo position: Int, bindings: [String: String], description: String) -> Composition {
        var steps: [JSONValue] = []
        var names: [String] = [], firsts: [Int?] = []
        for (index, test) in tests.prefix(position + 1).enumerated() {
            names.append(test.name)
            firsts.append(test.steps.isEmpty ? nil : steps.count)
            for step in test.steps {
                let bound = Self.bind(step, bindings)
                guard index < position, case .object(let members) = bound else {
                    steps.append(bound)
                    continue
                }
                steps.append(.object(members.map { member in
                    guard member.name == "name", let name = member.value.stringValue else { return member }
                    return .init("name", .string(Self.setupPrefix + name))
                }))
            }
        }
        var members: [JSONValue.Member] = [.init("name", .string(tests[position].name)), .init("description", .string(description))]
        members += settings
        members.append(.init("steps", .array(steps)))
        return Composition(script: .object(members), tests: names, firstSteps: firsts)
    }

    /// `value` with the bound variables replaced in every string but step names.
    static func bind(_ value: JSONValue, _ bindings: [String: String], key: String? = nil) -> JSONValue {
        switch value {
        case .string(let text) where key != "name": return .string(substitute(text, bindings))
        case .array(let items): return .array(items.map { bind($0, bindings) })
        case .object(let members): return .object(members.map { .init($0.name, bind($0.value, bindings, key: $0.name)) })
        default: return value
        }
    }

    /// `text` with `$name` and `${name}` of the bound names replaced by their values (a `$` in a
    /// value is written `$$`, the run's escape); `$$`, filters (`${name|…}`) and other names stay.
    static func substitute(_ text: String, _ bindings: [String: String]) -> String {
        guard !bindings.isEmpty, text.contains("$") else { return text }
        func isNameCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                out += "$$"
                rest = after.dropFirst()
                continue
            }
            var name: Substring, remainder: Substring
            if after.first == "{", let close = after.firstIndex(of: "}") {
                name = after[after.index(after: after.startIndex)..<close]
                remainder = after[after.index(after: close)...]
            } else {
                let end = after.firstIndex { !isNameCharacter($0) } ?? after.endIndex
                name = after[..<end]
                remainder = after[end...]
            }
            if let value = bindings[String(name)] {
                out += value.replacing("$", with: "$$")
                rest = remainder
            } else {
                out += "$"
                rest = after
            }
        }
        return out + rest
    }
}
