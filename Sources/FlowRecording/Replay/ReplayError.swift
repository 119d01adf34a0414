/// A re-run that did not match its cassette, or could not start.
///
/// `kind` tells the cases apart; `report` holds everything the message says, and `description` is
/// the full divergence report.
public struct ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case missingPlaceholders, requestMismatch, callMismatch, cryptoMismatch, randomMismatch,
                unexpectedEvent, cassetteExhausted, unusedEvents, noSource, actorOrder
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The cassette has placeholders without a value.
        public static let missingPlaceholders = Kind(.missingPlaceholders)
        /// A request differs from the recorded one at its place.
        public static let requestMismatch = Kind(.requestMismatch)
        /// An API call's arguments, status, user state or outputs differ.
        public static let callMismatch = Kind(.callMismatch)
        /// A crypto intermediate differs.
        public static let cryptoMismatch = Kind(.cryptoMismatch)
        /// A random draw of another size than recorded.
        public static let randomMismatch = Kind(.randomMismatch)
        /// The re-run did something else than the recorded event (another type or actor).
        public static let unexpectedEvent = Kind(.unexpectedEvent)
        /// The re-run went on after the last recorded event.
        public static let cassetteExhausted = Kind(.cassetteExhausted)
        /// The re-run ended with recorded events left over.
        public static let unusedEvents = Kind(.unusedEvents)
        /// A random draw or clock read, and the cassette has none and no fallback was given.
        public static let noSource = Kind(.noSource)
        /// A background step waits for events of other steps that the re-run does not make before
        /// awaiting it: the cassette orders the concurrent actors' events otherwise.
        public static let actorOrder = Kind(.actorOrder)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    public var report: DivergenceReport

    public init(kind: Kind, report: DivergenceReport) {
        self.kind = kind
        self.report = report
    }

    public var description: String { report.text }
}

/// What a divergence report says: where (cassette, event index, step), what was expected and what
/// came, the differences, the closest recorded request, and how to re-record.
public struct DivergenceReport: Sendable, Hashable {
    /// The cassette file, or its scenario name.
    public var cassette: String
    public var mode: ReplayMode
    /// The index of the recorded event where the re-run diverged (for unused events: the first unused one).
    public var eventIndex: Int?
    public var step: ScenarioStep?
    public var actor: EventActor?
    /// The API call that was running when the re-run diverged: the first call the cassette records
    /// at or after the event (a call is recorded when it returns), if any.
    public var call: String?
    public var summary: String
    public var expected: String?
    public var actual: String?
    /// One line per difference (JSON paths for JSON bodies).
    public var differences: [String]
    /// The recorded request nearest to the one sent, with what differed from it.
    public var closest: String?
    /// The command line that records the cassette again.
    public var rerecord: String?
    /// The replay could not start (placeholders without a value): nothing diverged yet.
    public var beforeStart: Bool

    public init(
        cassette: String, mode: ReplayMode, eventIndex: Int? = nil, step: ScenarioStep? = nil, actor: EventActor? = nil,
        call: String? = nil, summary: String, expected: String? = nil, actual: String? = nil,
        differences: [String] = [],
        closest: String? = nil, rerecord: String? = nil, beforeStart: Bool = false
    ) {
        self.cassette = cassette
        self.mode = mode
        self.eventIndex = eventIndex
        self.step = step
        self.actor = actor
        self.call = call
        self.summary = summary
        self.expected = expected
        self.actual = actual
        self.differences = differences
        self.closest = closest
        self.rerecord = rerecord
        self.beforeStart = beforeStart
    }

    /// Where and what, on one line: `diverged at event 12 (sdk, step 2 "log in", in the call
    /// finishAuthentication): the crypto step client1 differs from the recorded one`.
    public var headline: String {
        if beforeStart { return "cannot start: \(summary)" }
        var location = eventIndex.map { "event \($0)" } ?? "the end"
        var details: [String] = []
        if let actor { details.append(actor.rawValue) }
        if let step { details.append(step.description) }
        if let call { details.append("in the call \(call)") }
        if !details.isEmpty { location += " (" + details.joined(separator: ", ") + ")" }
        return "diverged at \(location): \(summary)"
    }

    /// The message of a request the replay refuses once it has diverged: `not sent: the replay
    /// diverged at event 12 (…): …`.
    public var refusal: String { "not sent: the replay " + headline }

    /// The report as text, several lines.
    public var text: String {
        if beforeStart { return "\(cassette): replay (\(mode)) cannot start: \(summary)" }
        var lines = ["\(cassette): replay (\(mode)) \(headline)"]
        if let expected { lines.append("  expected: \(expected)") }
        if let actual { lines.append("  actual:   \(actual)") }
        if !differences.isEmpty {
            lines.append("  differences:")
            lines += differences.map { "    " + $0 }
        }
        if let closest { lines.append("  closest recorded request: \(closest)") }
        if let rerecord {
            lines.append("  if the change is intended, record the cassette again:")
            lines.append("    \(rerecord)")
        }
        return lines.joined(separator: "\n")
    }
}
