import ArgumentParser
import Logging

/// `--log-level` of `serve`, `cassette serve` and `proxy`: the request log (one line per request:
/// method, path, status, duration, bytes) and the server's own messages, through swift-log's
/// handler on standard error, at this level and above (default info). Anything but one of
/// swift-log's level names is a usage error (exit status 2) naming them.
struct LogLevelOption: ParsableArguments {
    @Option(
        name: .customLong("log-level"), parsing: .unconditional,
        help: ArgumentHelp(
            """
            Log each request (method, path, status, duration, bytes) and the server's own messages at this level and above, \
            to standard error: trace, debug, info, notice, warning, error or critical (default info).
            """),
        completion: .list(LogLevelOption.names),
        transform: LogLevelOption.level)
    var given: Logger.Level?

    /// The level given, else info.
    var level: Logger.Level { given ?? .info }

    /// swift-log's level names, in increasing severity.
    static let names = Logger.Level.allCases.map(\.rawValue)

    /// Reads a level name, in any case; anything else is refused with the names.
    @Sendable static func level(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw BoundedNumber.Refusal(description: "must be one of \(names.joined(separator: ", "))")
        }
        return level
    }

    /// A logger with swift-log's handler (standard error) at `level`, labelled `mpin-workbench.<label>`.
    static func logger(_ label: String, _ level: Logger.Level) -> Logger {
        var logger = Logger(label: "mpin-workbench." + label)
        logger.logLevel = level
        return logger
    }
}
