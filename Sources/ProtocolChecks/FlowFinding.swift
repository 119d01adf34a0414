/// One check of one exchange: what was checked, in which category, and at which level it ended.
package struct FlowFinding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of check, each counted on its own in the summary.
    package enum Category: String, Sendable, Hashable, CaseIterable {
        /// The HTTP status against docs/protocol.md §4 (200, or a status the table lists for the request).
        case status
        /// A body that must be JSON (docs/protocol.md §1), and its members.
        case body
        /// Hex values: lowercase hex of the length docs/protocol.md §6.1 gives.
        case encoding
        /// G1 points (U, UT, V, shares, permits): 65 bytes `04||x||y` on the curve (docs/protocol.md §6.1).
        case point
        /// Access numbers: seven digits with their check digit (docs/protocol.md §5.1).
        case accessNumber
        /// Time-permit dates: the day of the server's clock, the same in the storage path (§3.4).
        case timePermitDate
        /// The order of the flow (docs/protocol.md §3): settings first, pass 2 after pass 1, ...
        case order
        /// What the request is and who sent it: a path no M-Pin party serves, an actor other than
        /// the one the request's path and body name.
        case request

        /// How the summary names the category.
        package var title: String {
            switch self {
            case .status: "statuses (docs/protocol.md §4)"
            case .body: "JSON bodies"
            case .encoding: "hex and lengths"
            case .point: "points on the curve"
            case .accessNumber: "access-number check digits"
            case .timePermitDate: "time-permit dates"
            case .order: "order of the flow"
            case .request: "requests and actors"
            }
        }
    }

    /// How much a finding weighs, from a check that passed to what is certainly wrong.
    ///
    /// * `failure`: certainly wrong by the protocol: malformed hex or points where docs/protocol.md
    ///   demands them in a server's 200 answer, a 2xx other than 200, a request the server accepted
    ///   (200) although it breaks the protocol, an order of requests the SDK never produces that
    ///   the server went along with.
    /// * `warning`: suspect, but a system may do it: a server error (5xx) or a redirect where the
    ///   protocol lists neither, no response at all, a malformed request the server answered with
    ///   an error of its own (5xx) instead of refusing it.
    /// * `note`: a legitimate outcome worth telling: a 4xx the table of docs/protocol.md §4 does not list
    ///   (the SDK's HTTP_REQUEST_ERROR, e.g. 400 for an empty userId), a malformed or out-of-order
    ///   request the server refused (4xx), a value the protocol leaves to the server's verdict (an
    ///   access number's check digit in pass 2, which the server answers with 412).
    package enum Level: String, Sendable, Hashable, Comparable, CaseIterable {
        case passed, note, warning, failure

        private var rank: Int {
            switch self {
            case .passed: 0
            case .note: 1
            case .warning: 2
            case .failure: 3
            }
        }

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    package var category: Category
    package var level: Level
    /// The check's short, stable name (`point-off-curve`, `status-4xx`, `order-pass2`): what tests
    /// pin and scripts match, where the message may change.
    package var code: String
    /// What was checked and what was found: `U: on the curve`.
    package var message: String

    package init(_ category: Category, _ level: Level, _ code: String, _ message: String) {
        self.category = category
        self.level = level
        self.code = code
        self.message = message
    }

    /// Whether the check passed (no note, warning or failure).
    package var passed: Bool { level == .passed }

    package var description: String { (passed ? "ok" : level.rawValue) + " " + message + " (" + code + ")" }
}
