/// A status code with its message: what every SDK call ends with (the C++ `MPinSDK::Status`).
public struct MPinStatus: Sendable, Hashable, CustomStringConvertible {
    public var code: StatusCode
    public var message: String

    public init(_ code: StatusCode, _ message: String? = nil) {
        self.code = code
        self.message = message ?? code.defaultMessage
    }

    public static let ok = MPinStatus(.ok)

    public var description: String { "\(code.name): \(message)" }
}
