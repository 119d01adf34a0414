/// One check of one exchange: what was checked, in which category, and whether it passed.
package struct FlowFinding: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of check, each counted on its own in the summary.
    package enum Category: String, Sendable, Hashable, CaseIterable {
        /// The HTTP status against PROTOCOL.md §4 (200, or a status the table lists for the request).
        case status
        /// A body that must be JSON (PROTOCOL.md §1), and its members.
        case body
        /// Hex values: lowercase hex of the length CRYPTO.md §6.1 gives.
        case encoding
        /// G1 points (U, UT, V, shares, permits): 65 bytes `04||x||y` on the curve (PROTOCOL.md §6.1).
        case point
        /// Access numbers: seven digits with their check digit (PROTOCOL.md §5.1).
        case accessNumber
        /// Time-permit dates: the day of the server's clock, the same in the storage path (§3.4).
        case timePermitDate
        /// The order of the flow (PROTOCOL.md §3): settings first, pass 2 after pass 1, ...
        case order

        /// How the summary names the category.
        package var title: String {
            switch self {
            case .status: "statuses (PROTOCOL.md §4)"
            case .body: "JSON bodies"
            case .encoding: "hex and lengths"
            case .point: "points on the curve"
            case .accessNumber: "access-number check digits"
            case .timePermitDate: "time-permit dates"
            case .order: "order of the flow"
            }
        }
    }

    package var category: Category
    package var passed: Bool
    /// What was checked and what was found: `U: 65-byte point on the curve`.
    package var message: String

    package init(_ category: Category, _ passed: Bool, _ message: String) {
        self.category = category
        self.passed = passed
        self.message = message
    }

    package var description: String { (passed ? "ok " : "FAIL ") + message }
}
