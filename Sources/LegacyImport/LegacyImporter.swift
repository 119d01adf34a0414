import CommonFormats
import FileAccess
import FlowRecording
import MilagroProtocol
import OrderedJSON
import SDKSeams
import Scenarios

/// `cassette import --format milagro-sdk`: cassettes from recordings of the Milagro C++ SDK core's
/// test harness (`tests/common/http_recorder.cpp`, read by `LegacyRecording`).
///
/// The harness keys every request by `method url context`, the context naming the call's arguments
/// and the test (`<arguments>@<test><suffix>`, `tests/common/test_mpin_sdk.cpp`,
/// `test_context.cpp`), writes a key once, and its player answers by key. It recorded no request
/// headers, random draws, clock reads or crypto steps, and request bodies carry fresh randomness.
/// Exchanges of the access-number browser side (`/rps/getAccessNumber`, `/rps/accessnumber`,
/// `/rps/access`, `/rps/getQrUrl`, and `/mpinAuthenticate` whose context names no user in a test
/// that has opened a browser session with one of the former) get the actor `browser`.
///
/// Two kinds of files:
/// * tests that stand alone (each asks for the client settings before using the backend): one
///   cassette per test holding its own exchanges, replayed in mode `method-url` by the scenario
///   named after the test;
/// * a run of the harness's `suite` over one SDK instance, where tests use the state the earlier
///   ones left (the upstream `unit_tests_recorded_data.json`). Then every test the file holds gets a
///   cassette whose exchanges start with those of the tests before it in the file (their events'
///   steps named `setup …`), whose script runs those tests' steps as setup before its own
///   (`LegacySuite.script(running:bindings:description:)`), with each test's variables bound from
///   its own recorded requests (`LegacySuite.binding(of:requests:)`, what they cannot give written in
///   the cassette's `origin.unbound`), and which replays in mode
///   `context`, the harness player's rule. A context whose test part extends a suite test's name
///   (`testAuthenticate1SecondAuth`) belongs to that test. The SDK's clock is the date of the
///   test's first dated answer.
public struct LegacyImporter: Sendable {
    /// The format name on the command line.
    public static let formatName = "milagro-sdk"
    /// The suite description of the format's sequential runs (a script under a `suites/` folder of
    /// the scenario library).
    public static let suiteName = "milagro-sdk-unit-tests"
    /// The request members whose values come from the client's randomness: pass 1's `U = x·H(ID)`
    /// and `UT = x·(H(ID) + H(T|ID))`, pass 2's `V = −(x + y)·SEC` (docs/protocol.md §3.6, §6.4).
    /// Another run draws another `x`, so replay mode `context` compares their kind and length only
    /// (`ReplayMode.fresh`) and every other member by value.
    public static let freshRequestMembers = ["U", "UT", "V"]

    /// One imported test.
    public struct Imported: Sendable {
        public var test: String
        public var cassette: Cassette
        /// A file name for the cassette: the test name made safe, with `.json`; `-2`, `-3`, ... before
        /// `.json` when an earlier test of the file has that name (see `makeFileNamesUnique`).
        public var fileName: String
        /// Exchanges of earlier tests at the start of the cassette (0 when the test stands alone).
        public var setupExchanges: Int
        /// The test's own exchanges.
        public var ownExchanges: Int
    }

    /// What an import gives.
    public struct Outcome: Sendable {
        public var cassettes: [Imported]
        /// The suite whose run the file holds (its cassettes carry setup preludes); nil when each
        /// test stands alone.
        public var suite: String?
        /// What the import moved, or could not do, one line each.
        public var notes: [String]
    }

    public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        /// The line the problem is on, when it is one exchange's.
        public var line: Int?
        public var message: String

        public init(path: String, line: Int? = nil, message: String) {
            self.path = path
            self.line = line
            self.message = message
        }

        public var description: String { path + (line.map { ":\($0)" } ?? "") + ": " + message }
    }

    public var tool: Cassette.Tool
    public var curve: String
    /// The harness's suite, for files that hold one sequential run of it (nil: every test is
    /// imported on its own).
    public var suite: LegacySuite?
    /// The scenario attached to the cassette of a test that stands alone. The default names it
    /// after the test; the bundled scenarios hook in here (same name, with their script and path).
    public var scenarioName: @Sendable (String) -> Cassette.Scenario

    public init(
        tool: Cassette.Tool, curve: String = "BN254CX", suite: LegacySuite? = nil,
        scenarioName: @escaping @Sendable (String) -> Cassette.Scenario = { Cassette.Scenario(name: $0) }
    ) {
        self.tool = tool
        self.curve = curve
        self.suite = suite
        self.scenarioName = scenarioName
    }

    /// The cassettes of the file's bytes, one per test, in run order.
    public func importFile(_ bytes: [UInt8], path: String) throws(ImportError) -> [Imported] {
        try run(bytes, path: path).cassettes
    }

    /// The cassettes of the file's bytes, with what the import did.
    public func run(_ bytes: [UInt8], path: String) throws(ImportError) -> Outcome {
        let recording = try LegacyRecording.parse(bytes, path: path)
        // A sequential run gives each test a cassette with the earlier tests' exchanges as setup:
        // at most tests × exchanges events in all, bounded here before any is made.
        if let suite, recording.exchanges.count * suite.tests.count > Self.maximumEvents {
            throw ImportError(
                path: path,
                message: "\(recording.exchanges.count) exchanges against the \(suite.tests.count) tests of the "
                    + "suite \(suite.name) could need \(recording.exchanges.count * suite.tests.count) events in all; an import writes at most "
                    + "\(Self.maximumEvents)")
        }
        var outcome = importRecording(recording)
        Self.makeFileNamesUnique(&outcome, path: path)
        return outcome
    }

    /// Gives each cassette a file name of its own: test names whose safe forms are one name once
    /// compared after Unicode normalisation and without case (`é` and `e` + U+0301, `A` and `a`:
    /// one file on a file system that normalises names or ignores case) keep the first test's name,
    /// and each later one gets `-2`, `-3`, ... (the first number no cassette has), with a note
    /// naming both tests and the file written, so that no test's cassette overwrites another's.
    /// Every name stays within `SafeFileName.maximumBytes` with its number and `.json`: a longer
    /// test name is shortened with a hash of it (`SafeFileName.make`).
    static func makeFileNamesUnique(_ outcome: inout Outcome, path: String) {
        // Swift strings compare and hash by canonical equivalence: the keys are the normalised names.
        var owners: [String: String] = [:]
        for index in outcome.cassettes.indices {
            let item = outcome.cassettes[index]
            let base = SafeFileName.make(item.test, reserving: fileNameReserve)
            var name = base + ".json"
            var number = 1
            while owners[name.lowercased()] != nil {
                number += 1
                name = "\(base)-\(number).json"
            }
            if number > 1, let first = owners[(base + ".json").lowercased()] {
                let twoForms = first == item.test && Array(first.unicodeScalars) != Array(item.test.unicodeScalars)
                let same =
                    twoForms
                    ? "; the two are one name in two Unicode forms, \(Self.scalars(first)) and \(Self.scalars(item.test))"
                    : ""
                outcome.notes.append(
                    "\(path): the test \"\(item.test)\" and the test \"\(first)\" make one safe file name "
                        + "(\(base).json, compared after Unicode normalisation and without case\(same)): \"\(item.test)\" is written to \(name)"
                )
            }
            owners[name.lowercased()] = item.test
            outcome.cassettes[index].fileName = name
        }
    }

    /// A name with every scalar beyond ASCII written `\u{…}` (`testCafe\u{301}`), so that two
    /// Unicode forms of one name read apart.
    static func scalars(_ name: String) -> String {
        name.unicodeScalars.map {
            $0.isASCII ? String($0) : "\\u{" + String($0.value, radix: 16, uppercase: true) + "}"
        }.joined()
    }

    /// The bytes a file name keeps for what follows the test's safe name: `-<number>` and `.json`.
    static let fileNameReserve = 25

    /// The most events the cassettes of one import may hold in all (a sequential run repeats the
    /// earlier tests' exchanges in every later test's cassette).
    public static let maximumEvents = 2_000_000

    /// One recorded exchange as an event, with where it came from.
    struct Entry {
        var source: LegacyRecording.Exchange
        var event: CassetteEvent
    }

    /// The entries of each test, the tests told apart by their exact text (`LegacyRecording.tests`):
    /// `é` and `e` + U+0301, equal as Swift strings, are two tests.
    struct EntriesByTest {
        private var entries: [[UInt8]: [Entry]] = [:]

        subscript(test: String) -> [Entry] {
            get { entries[Array(test.utf8)] ?? [] }
            set { entries[Array(test.utf8)] = newValue }
        }
    }

    /// The cassettes of a read recording.
    package func importRecording(_ recording: LegacyRecording) -> Outcome {
        var notes: [String] = []
        var recording = recording
        if let suite {
            // The harness appends additional context data to a test's name (`@testAuthenticate1SecondAuth`):
            // such exchanges belong to the suite's test whose name they start with.
            for index in recording.exchanges.indices {
                let tail = recording.exchanges[index].test
                if let test = suite.test(named: tail), test != tail { recording.exchanges[index].test = test }
            }
        }
        var byTest = EntriesByTest()
        // Tests whose browser side has started (an access number or QR URL was asked for).
        var browserSessions: Set<[UInt8]> = []
        for exchange in recording.exchanges {
            let actor = Self.actor(
                url: exchange.url, context: exchange.context,
                browserSession: browserSessions.contains(Array(exchange.test.utf8)))
            if actor == .browser { browserSessions.insert(Array(exchange.test.utf8)) }
            byTest[exchange.test].append(
                Entry(source: exchange, event: CassetteEvent(actor: actor, .http(exchange.exchange))))
        }
        for test in recording.tests {
            byTest[test] = Self.movingHeldRequests(byTest[test], test: test, path: recording.path, notes: &notes)
        }
        let main = Self.mainBackend(recording)
        let reliant = recording.tests.filter { Self.reliesOnEarlierTests(byTest[$0], main: main) }
        if let suite, !reliant.isEmpty {
            let unknown = recording.tests.filter { suite.position(of: $0) == nil }
            if unknown.isEmpty {
                return suiteRun(recording, suite: suite, byTest: byTest, main: main, notes: notes)
            }
            notes.append(
                "\(recording.path): \(reliant.joined(separator: ", ")) use\(reliant.count == 1 ? "s" : "") the backend "
                    + "without asking for its client settings first, but \(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") "
                    + "not a test of the suite \(suite.name); each test is imported on its own")
        } else if !reliant.isEmpty {
            notes.append(
                "\(recording.path): \(reliant.joined(separator: ", ")) use\(reliant.count == 1 ? "s" : "") the backend without "
                    + "asking for its client settings first (state left by earlier tests of the run); without the suite description "
                    + "\(Self.suiteName) each test is imported on its own and such tests will not replay")
        }
        let cassettes = recording.tests.map { test -> Imported in
            let entries = byTest[test]
            let answered = entries.first { $0.source.exchange.response != nil } ?? entries.first
            let cassette = Cassette(
                tool: tool, curve: curve, scenario: scenarioName(test),
                backend: .init(
                    url: answered.map { URLText.origin(of: $0.source.url) } ?? "",
                    flavour: BackendFlavour.milagro.rawValue),
                replayMode: .methodURL, origin: .init(format: Self.formatName, file: recording.path, test: test),
                events: entries.map(\.event))
            return Imported(
                test: test, cassette: cassette, fileName: Self.fileName(test), setupExchanges: 0,
                ownExchanges: entries.count)
        }
        return Outcome(cassettes: cassettes, suite: nil, notes: notes)
    }

    /// The cassettes of a sequential run of `suite`: one per test the file holds, in the order they
    /// ran (the file's), each with the tests before it as setup, replayed in mode `context` by the
    /// harness's key. A test the suite describes but the file does not hold made no request in that
    /// run (or did not run): it gets no cassette and is no one's setup.
    func suiteRun(
        _ recording: LegacyRecording, suite: LegacySuite, byTest: EntriesByTest, main: String?,
        notes: [String]
    ) -> Outcome {
        var notes = notes
        let run = recording.tests
        // Each test's variables from its own requests (its contexts, the backends it asked).
        var bindings: [String: [String: String]] = [:]
        var unbound: [String: [LegacySuite.Unbound]] = [:]
        for test in run {
            let binding = suite.binding(
                of: test,
                requests: byTest[test].map {
                    LegacySuite.RecordedRequest(
                        method: $0.source.method, url: $0.source.url, context: $0.source.context)
                })
            bindings[test] = binding.values
            unbound[test] = binding.unbound
            for item in binding.unbound { notes.append("\(recording.path): not bound from the recording: \(item)") }
        }
        let flavour =
            suite.settings.first { $0.name == "flavour" }?.value.stringValue ?? BackendFlavour.milagro.rawValue
        var cassettes: [Imported] = []
        for (position, test) in run.enumerated() {
            let earlier =
                position == 0
                ? "the first test of the file"
                : position == 1
                    ? "the test before it in the file runs first as setup"
                    : "the \(position) tests before it in the file run first as setup"
            var composition = suite.script(
                running: Array(run[...position]), bindings: bindings,
                description:
                    "\(test) of the suite \(suite.name), imported from \(recording.path): \(earlier), over one SDK instance, as the "
                    + "harness ran them")
            // The SDK's clock: the time the test's first answer was dated (time permits are asked for
            // by day), else the script's own.
            if let time = (byTest[test]).lazy.compactMap({ Self.dated($0.source) }).first {
                composition.script = Self.setting(composition.script, "startTime", .string(String(time)))
            }
            var events: [CassetteEvent] = []
            var setup = 0
            var unplaced: [String] = []
            for (index, name) in composition.tests.enumerated() {
                let isOwn = index == composition.tests.count - 1
                let first = composition.firstSteps[index]
                let count = suite.tests.first { $0.name == name }?.steps.count ?? 0
                for entry in byTest[name] {
                    var event = entry.event
                    let stepIndex = first.flatMap {
                        Self.step(of: entry.source.context, in: composition, from: $0, count: count)
                    }
                    if stepIndex == nil, isOwn {
                        unplaced.append("#\(entry.source.index) \(entry.source.method) \(entry.source.path)")
                    }
                    let scriptSteps = composition.script["steps"]?.arrayValue ?? []
                    if let at = stepIndex ?? first, at < scriptSteps.count {
                        event.step = ScenarioStep(index: at, name: scriptSteps[at]["name"]?.stringValue ?? name)
                    }
                    events.append(event)
                    if !isOwn { setup += 1 }
                }
            }
            if !unplaced.isEmpty {
                notes.append(
                    "\(recording.path): \(test): no step of the suite's \(test) has the context of \(unplaced.count) exchange"
                        + "\(unplaced.count == 1 ? "" : "s") (\(unplaced.prefix(3).joined(separator: ", "))\(unplaced.count > 3 ? ", …" : "")): "
                        + "the run made requests the suite does not; the replay will report them unused")
            }
            let scenario = Cassette.Scenario(name: test, script: composition.script)
            let cassette = Cassette(
                tool: tool, curve: curve, scenario: scenario, backend: .init(url: main ?? "", flavour: flavour),
                replayMode: .context(fresh: Self.freshRequestMembers),
                origin: .init(
                    format: Self.formatName, file: recording.path, test: test,
                    unbound: run[...position].flatMap { unbound[$0] ?? [] }.map {
                        .init(variable: $0.variable, test: $0.test, value: $0.fallback, reason: $0.reason)
                    }),
                events: events)
            cassettes.append(
                Imported(
                    test: test, cassette: cassette, fileName: Self.fileName(test), setupExchanges: setup,
                    ownExchanges: events.count - setup))
        }
        return Outcome(cassettes: cassettes, suite: suite.name, notes: notes)
    }

    /// The step of a test (its steps `first..<first + count` of the composition) whose bound
    /// context spells `context`, its run variables matching anything.
    static func step(of context: String, in composition: LegacySuite.Composition, from first: Int, count: Int) -> Int? {
        for index in first..<min(first + count, composition.contexts.count) {
            guard let text = composition.contexts[index] else { continue }
            let template = ContextTemplate(text)
            if template.match(context, bound: [:], wildcards: Set(template.variables)) != nil { return index }
        }
        return nil
    }

    /// The milliseconds since 1970 of a recorded answer's `Date` header (IMF-fixdate), if it has one.
    static func dated(_ exchange: LegacyRecording.Exchange) -> Int64? {
        guard let text = exchange.exchange.response?.headers["Date"] else { return nil }
        return CivilTime.parseHTTPDate(text)
    }

    /// `script` with its top-level `name` set to `value` (added before `steps` when missing).
    static func setting(_ script: JSONValue, _ name: String, _ value: JSONValue) -> JSONValue {
        guard var members = script.objectMembers else { return script }
        if let at = members.firstIndex(where: { $0.name == name }) {
            members[at] = .init(name, value)
        } else {
            members.insert(.init(name, value), at: members.firstIndex { $0.name == "steps" } ?? members.count)
        }
        return .object(members)
    }

    // MARK: - The file's layout

    /// The main backend: the URL whose client settings were first answered (the part before
    /// `/<rps prefix>/clientSettings`), else the origin of the first answered request.
    static func mainBackend(_ recording: LegacyRecording) -> String? {
        let answered = recording.exchanges.filter { $0.exchange.response != nil }
        if let settings = answered.first(where: { settingsBase($0) != nil }) { return settingsBase(settings) }
        return answered.first.map { URLText.origin(of: $0.url) }
    }

    /// The backend URL a `GET <backend>/<prefix>/clientSettings` asked, nil for other requests.
    static func settingsBase(_ exchange: LegacyRecording.Exchange) -> String? {
        settingsBase(method: exchange.method, url: exchange.url)
    }

    /// The backend URL a `GET <backend>/<prefix>/clientSettings` asked, nil for other requests.
    static func settingsBase(method: String, url: String) -> String? {
        guard method.uppercased() == "GET" else { return nil }
        let origin = URLText.origin(of: url)
        var segments = URLText.path(url).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 3, segments.last.map(String.init) == Endpoint.clientSettings.lastSegment else {
            return nil
        }
        segments.removeLast(2)
        return origin + segments.joined(separator: "/")
    }

    /// Whether a test talks to the main backend without asking for its client settings first: it
    /// relies on an SDK the earlier tests initialised.
    static func reliesOnEarlierTests(_ entries: [Entry], main: String?) -> Bool {
        guard let main else { return false }
        let origin = URLText.origin(of: main)
        guard
            let first = entries.first(where: { $0.event.actor == .sdk && URLText.origin(of: $0.source.url) == origin })
        else {
            return false
        }
        return settingsBase(first.source) == nil
    }

    // MARK: - Events

    /// Who made a recorded request: `browserSession` tells whether the test's browser side has
    /// already asked for an access number or QR URL.
    static func actor(url: String, context: String, browserSession: Bool) -> EventActor {
        let path = URLText.path(url)
        if Endpoint.browserEndpoints.contains(where: { $0.path == path }) { return .browser }
        if path == Endpoint.rpaAuthenticate.path, browserSession {
            let user =
                context.split(separator: "@", omittingEmptySubsequences: false).first?
                .split(separator: "-", omittingEmptySubsequences: false).first ?? ""
            if user.isEmpty { return .browser }
        }
        return .sdk
    }

    /// The test's events with each held phone login moved to where its request was sent: an SDK
    /// `POST …/authenticate` written right after browser exchanges that include the browser's
    /// `/mpinAuthenticate` (the login that released it) goes before those browser exchanges.
    static func movingHeldRequests(_ entries: [Entry], test: String, path: String, notes: inout [String]) -> [Entry] {
        var out = entries
        var position = 0
        while position < out.count {
            let entry = out[position]
            let segment = entry.source.path.split(separator: "/").last
            guard entry.event.actor == .sdk, entry.source.method.uppercased() == "POST",
                segment.map(String.init) == Endpoint.mobileAuthenticate.lastSegment
            else {
                position += 1
                continue
            }
            var start = position
            while start > 0, out[start - 1].event.actor == .browser { start -= 1 }
            let browserRun = out[start..<position]
            if browserRun.contains(where: {
                $0.source.path.split(separator: "/").last.map(String.init) == Endpoint.rpaAuthenticate.lastSegment
            }) {
                out.remove(at: position)
                out.insert(entry, at: start)
                notes.append(
                    "\(path):\(entry.source.line): \(test): the phone's POST \(entry.source.path) (exchange \(entry.source.index)) "
                        + "was written after the \(browserRun.count) browser exchange\(browserRun.count == 1 ? "" : "s") that released it; "
                        + "moved back before \(browserRun.count == 1 ? "it" : "them"), where its request was sent")
            }
            position += 1
        }
        return out
    }

    static func errorKind(_ message: String) -> String {
        let lower = message.lowercased()
        if lower.contains("resolve") { return "hostNotFound" }
        if lower.contains("refused") || lower.contains("couldn't connect") { return "connectionRefused" }
        if lower.contains("timed out") || lower.contains("timeout") { return "timedOut" }
        if lower.contains("ssl") || lower.contains("tls") || lower.contains("certificate") { return "tls" }
        return "other"
    }

    /// A file name for a test's cassette: the rule every file name made from a free-form name follows
    /// (made unique among one import's cassettes by `makeFileNamesUnique`).
    static func fileName(_ test: String) -> String {
        SafeFileName.make(test, reserving: fileNameReserve) + ".json"
    }
}
