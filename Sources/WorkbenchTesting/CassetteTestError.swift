/// Why a cassette test could not run as asked: a record mode in the environment that is not one,
/// a backend that would not start, a cassette that could not be written, a test shape the trait
/// does not support. The message says what and where.
///
/// Divergences from a cassette are not errors of this type: they are recorded as the test's
/// issues, with the replayer's report.
public struct CassetteTestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole message.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
