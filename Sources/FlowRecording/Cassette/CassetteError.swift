/// Why a cassette could not be read or written.
///
/// The kinds are distinct so that callers (and the CLI's exit codes) can tell a missing file from
/// a broken one, a too-new one or one that breaks the schema; `description` is a complete message
/// naming the file and, where known, the line and column or the event index and field.
public struct CassetteError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case missingFile, unreadableFile, invalidJSON, newerFormatVersion, unsupportedFormatVersion,
                schema, writeFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// No file at the path.
        public static let missingFile = Kind(.missingFile)
        /// The file exists but could not be read (a directory, no permission, ...).
        public static let unreadableFile = Kind(.unreadableFile)
        /// The content is not JSON; `line` and `column` point at the problem.
        public static let invalidJSON = Kind(.invalidJSON)
        /// The file's `formatVersion` is newer than this tool reads.
        public static let newerFormatVersion = Kind(.newerFormatVersion)
        /// The file's `formatVersion` is older and no migration exists for it (or is not a version).
        public static let unsupportedFormatVersion = Kind(.unsupportedFormatVersion)
        /// Valid JSON that is not a cassette: `eventIndex` and `field` name the place.
        public static let schema = Kind(.schema)
        /// The file could not be written.
        public static let writeFailed = Kind(.writeFailed)

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// The file, when the cassette came from or went to one.
    public var path: String?
    /// What is wrong, without the location.
    public var message: String
    public var line: Int?
    public var column: Int?
    /// The index of the offending event in `events`.
    public var eventIndex: Int?
    /// The offending field, as a path (`request.headers[1].value`, `formatVersion`).
    public var field: String?
    /// For version errors: the file's version and the newest this tool reads.
    public var foundVersion: Int?
    public var supportedVersion: Int?

    public init(
        kind: Kind, path: String? = nil, message: String, line: Int? = nil, column: Int? = nil,
        eventIndex: Int? = nil, field: String? = nil, foundVersion: Int? = nil, supportedVersion: Int? = nil
    ) {
        self.kind = kind
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.eventIndex = eventIndex
        self.field = field
        self.foundVersion = foundVersion
        self.supportedVersion = supportedVersion
    }

    public var description: String {
        var location = path ?? "cassette"
        if let line { location += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        var place = ""
        if let eventIndex { place += "event \(eventIndex)" }
        if let field { place += (place.isEmpty ? "field " : ", field ") + field }
        return location + ": " + (place.isEmpty ? "" : place + ": ") + message
    }

    func at(path: String?) -> CassetteError {
        var copy = self
        copy.path = path
        return copy
    }
}
