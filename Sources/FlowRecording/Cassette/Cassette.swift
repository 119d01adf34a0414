import OrderedJSON

/// One recorded flow: metadata and the ordered list of everything that happened.
///
/// A cassette is a value; `CassetteFile` reads and writes it in the canonical JSON form (format
/// version `Cassette.currentFormatVersion`), `Recorder` builds one, `Replayer` checks a re-run
/// against one. Secrets may be replaced by `{{name}}` placeholders (see `Redactor`); the
/// `redactions` manifest lists them.
public struct Cassette: Sendable, Hashable {
    /// The format version this tool writes and reads.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// The tool that wrote the file.
    public var tool: Tool
    /// The pairing curve of the flow (`BN254CX` for Milagro MFA).
    public var curve: String
    /// The scenario script that was run.
    public var scenario: Scenario
    /// The backend the flow ran against.
    public var backend: Backend
    /// The replay mode the cassette asks for when none is given (imported cassettes ask for a loose one).
    public var replayMode: ReplayMode?
    /// Where an imported cassette came from.
    public var origin: Origin?
    /// The placeholders written in place of secrets.
    public var redactions: [RedactionEntry]
    public var events: [CassetteEvent]

    public init(
        formatVersion: Int = Cassette.currentFormatVersion, tool: Tool, curve: String, scenario: Scenario,
        backend: Backend, replayMode: ReplayMode? = nil, origin: Origin? = nil,
        redactions: [RedactionEntry] = [], events: [CassetteEvent] = []
    ) {
        self.formatVersion = formatVersion
        self.tool = tool
        self.curve = curve
        self.scenario = scenario
        self.backend = backend
        self.replayMode = replayMode
        self.origin = origin
        self.redactions = redactions
        self.events = events
    }

    /// Name and version of the writing tool.
    public struct Tool: Sendable, Hashable {
        public var name: String
        public var version: String
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// The scenario that was run: its name, the file it came from, the seed, and the script itself
    /// as an opaque JSON value (this layer does not interpret scripts).
    public struct Scenario: Sendable, Hashable {
        public var name: String
        /// The script's path as given to `record`, if it came from a file.
        public var path: String?
        /// The seed of the run, if seeded.
        public var seed: String?
        public var script: JSONValue?
        public init(name: String, path: String? = nil, seed: String? = nil, script: JSONValue? = nil) {
            self.name = name
            self.path = path
            self.seed = seed
            // Members sorted as in the file, so a cassette equals itself read back.
            self.script = script?.sortingMembers()
        }
    }

    /// The backend: its URL, its flavour (e.g. `milagro` or `mfa-platform`), and whether it was
    /// the reference backend started in-process.
    public struct Backend: Sendable, Hashable {
        public var url: String
        public var flavour: String
        public var embedded: Bool
        /// For a recording proxy's cassette (whose `url` is the proxy's own, as the client saw it):
        /// the backend the proxy forwarded to, where the flow can be recorded again. Written only
        /// when set.
        public var upstream: String?
        public init(url: String, flavour: String, embedded: Bool = false, upstream: String? = nil) {
            self.url = url
            self.flavour = flavour
            self.embedded = embedded
            self.upstream = upstream
        }
    }

    /// The source of an imported cassette: format, file and the test it belongs to, and the
    /// variables of its script that the source gave no value (written only when there are any).
    public struct Origin: Sendable, Hashable {
        public var format: String
        public var file: String
        public var test: String?
        public var unbound: [Unbound]
        public init(format: String, file: String, test: String? = nil, unbound: [Unbound] = []) {
            self.format = format
            self.file = file
            self.test = test
            self.unbound = unbound
        }

        /// A variable of the imported script whose value the source does not show (`unbound` in
        /// the file): the test whose steps use it, the value the script uses in its place (nil:
        /// none), and why the source could not give one.
        public struct Unbound: Sendable, Hashable {
            public var variable: String
            public var test: String?
            public var value: String?
            public var reason: String
            public init(variable: String, test: String? = nil, value: String? = nil, reason: String) {
                self.variable = variable
                self.test = test
                self.value = value
                self.reason = reason
            }
        }
    }

    /// One placeholder of the manifest: `{{placeholder}}` stands for a value found under `field`,
    /// written `occurrences` times.
    public struct RedactionEntry: Sendable, Hashable {
        public var placeholder: String
        public var field: String
        public var occurrences: Int
        /// Where the redactor put the placeholder (`at` in the file), sorted: `Redactor.restore`
        /// fills it nowhere else.
        public var slots: [RedactionSlot]
        public init(placeholder: String, field: String, occurrences: Int, slots: [RedactionSlot] = []) {
            self.placeholder = placeholder
            self.field = field
            self.occurrences = occurrences
            self.slots = slots
        }
    }

    /// The `http` events, with their indices in `events`.
    public var httpExchanges: [(index: Int, exchange: CassetteEvent.HTTPExchange)] {
        events.enumerated().compactMap { offset, event in
            if case .http(let exchange) = event.payload { return (offset, exchange) }
            return nil
        }
    }
}
