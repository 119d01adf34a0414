/// Where the redactor put a placeholder: the scenario (its script and seed), a whole event (a
/// call, crypto step or random draw), or the request or the response of an HTTP exchange.
///
/// The cassette's `redactions` manifest lists each placeholder's slots (`at`), and
/// `Redactor.restore` fills a placeholder only in those: a `{{pin}}` planted in a response body by
/// whoever edited the file stays as it is, so `cassette serve --secret pin=…` never sends the PIN
/// to a client.
public struct RedactionSlot: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The part of an event.
    public enum Part: String, Sendable, Hashable, Comparable {
        case whole, request, response
        public static func < (a: Part, b: Part) -> Bool { a.order < b.order }
        private var order: Int {
            switch self {
            case .whole: 0
            case .request: 1
            case .response: 2
            }
        }
    }

    /// The event's index; nil for the scenario.
    public var event: Int?
    public var part: Part

    public static let scenario = RedactionSlot(event: nil, part: .whole)

    public init(event: Int?, part: Part) {
        self.event = event
        self.part = part
    }

    /// `scenario`, `events[N]`, `events[N].request` or `events[N].response`; nil for any other text
    /// or an index outside 0...`maximumEvent`.
    public init?(_ text: String, maximumEvent: Int = Int(Int32.max)) {
        if text == "scenario" {
            self = .scenario
            return
        }
        guard text.hasPrefix("events["), let close = text.firstIndex(of: "]") else { return nil }
        let digits = text[text.index(text.startIndex, offsetBy: 7)..<close]
        guard (1...10).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let index = Int(digits),
            (0...maximumEvent).contains(index)
        else { return nil }
        switch text[text.index(after: close)...] {
        case "": self.init(event: index, part: .whole)
        case ".request": self.init(event: index, part: .request)
        case ".response": self.init(event: index, part: .response)
        default: return nil
        }
    }

    public var description: String {
        guard let event else { return "scenario" }
        return "events[\(event)]" + (part == .whole ? "" : "." + part.rawValue)
    }

    public static func < (a: RedactionSlot, b: RedactionSlot) -> Bool {
        switch (a.event, b.event) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x != y ? x < y : a.part < b.part
        }
    }
}
