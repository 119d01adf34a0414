import CommonFormats
import SDKSeams

/// The outcome of a DeviceSecurity operation as bit flags, with the values of the MVID
/// connector's `ServiceResult` enumeration.
///
/// Results combine bitwise:
/// * one service invocation answers its own flags, e.g. `[.success, .serviceSuccess]` (65) for a
///   granted application login, `[.accessDenied, .serviceSuccess]` (68) for a refused one;
/// * an offline login answered from the device's stored state carries `.networkError` with
///   `.success` (129) inside the borrow times, or with the expired borrow time(s) after them
///   (`[.networkError, .applicationBorrowTimeExpired]`, 136);
/// * `doLogin` ORs the results of every call it made (`applicationLogin`, then `registerDevice`
///   and `applicationLogin` again when the device had to be registered), as the document says:
///   "all ServiceResult codes are bitwise candidates of the final login result".
public struct ServiceResult: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Successful operation (`registerDevice` registered the device; `applicationLogin` granted access).
    public static let success = ServiceResult(rawValue: 1)
    /// The MV session id given to `registerDevice` is unknown or too old.
    public static let invalidMVSessionID = ServiceResult(rawValue: 2)
    /// The device hash is good but the user mapped to the device has no access to the application.
    public static let accessDenied = ServiceResult(rawValue: 4)
    /// The time since the last online `applicationLogin` of the application exceeds its borrow time.
    public static let applicationBorrowTimeExpired = ServiceResult(rawValue: 8)
    /// The time since the last online `applicationLogin` on the device exceeds the device borrow
    /// time, or the device has no device hash: a login is required.
    public static let deviceBorrowTimeExpired = ServiceResult(rawValue: 16)
    /// The service answered with a fault (or with something that is not a service answer).
    public static let serviceFault = ServiceResult(rawValue: 32)
    /// The service method was invoked without a fault (whatever its verdict).
    public static let serviceSuccess = ServiceResult(rawValue: 64)
    /// No answer: no link, refused connection, or the 2 s time limit passed.
    public static let networkError = ServiceResult(rawValue: 128)

    /// Every flag with its document name, in value order.
    public static let names: [(ServiceResult, String)] = [
        (.success, "Success"), (.invalidMVSessionID, "InvalidMVSessionID"), (.accessDenied, "AccessDenied"),
        (.applicationBorrowTimeExpired, "ApplicationBorrowTimeExpired"),
        (.deviceBorrowTimeExpired, "DeviceBorrowTimeExpired"),
        (.serviceFault, "ServiceFault"), (.serviceSuccess, "ServiceSuccess"), (.networkError, "NetworkError"),
    ]

    /// The flags' names joined by `|` in value order (`Success|ServiceSuccess`); `None` for no flag;
    /// unknown bits as a number.
    public var description: String {
        var parts = Self.names.filter { contains($0.0) }.map(\.1)
        let unknown = rawValue & ~Self.names.reduce(0) { $0 | $1.0.rawValue }
        if unknown != 0 { parts.append(String(unknown)) }
        return parts.isEmpty ? "None" : parts.joined(separator: "|")
    }

    /// Parses `Success|ServiceSuccess` (names in any order), a decimal number, or `None`.
    public init?(names text: String) {
        if let number = Int(text) {
            self.init(rawValue: number)
            return
        }
        if text == "None" {
            self.init(rawValue: 0)
            return
        }
        var value = 0
        for part in text.split(separator: "|") {
            guard let flag = Self.names.first(where: { $0.1 == part.trimmingOptionalWhitespace }) else { return nil }
            value |= flag.0.rawValue
        }
        self.init(rawValue: value)
    }

    /// Whether access was granted (the `Success` flag).
    public var isSuccess: Bool { contains(.success) }
}
