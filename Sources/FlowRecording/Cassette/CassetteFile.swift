import FileAccess
import OrderedJSON

/// Reading and writing cassette files.
///
/// Writing is atomic (`AtomicFile`): the canonical bytes go to a temporary file in the same
/// directory, which is then renamed over the target, so a reader never sees half a cassette. Reading tells a missing
/// file, an unreadable one, invalid JSON (with line and column), a newer format version and a
/// schema error apart (`CassetteError.Kind`), and migrates older versions.
public enum CassetteFile {
    /// Reads and decodes the cassette at `path`.
    public static func read(_ path: String, migrations: [CassetteMigration] = CassetteMigration.builtIn)
        throws(CassetteError) -> Cassette
    {
        let bytes = try readBytes(path)
        do {
            return try decode(consume bytes, migrations: migrations)
        } catch {
            throw error.at(path: path)
        }
    }

    /// The raw bytes of a file, with the file errors of `CassetteError`: a regular file, or a pipe,
    /// FIFO or device such as `/dev/stdin` (bounded, see `InputFile`); a directory or a socket is
    /// refused, and any other failure gives the operating system's reason.
    public static func readBytes(_ path: String) throws(CassetteError) -> [UInt8] {
        do {
            return try InputFile.read(path)
        } catch {
            if case .missing = error.kind {
                throw CassetteError(kind: .missingFile, path: path, message: "no such file")
            }
            throw CassetteError(kind: .unreadableFile, path: path, message: "\(error.action): \(error.reason)")
        }
    }

    /// Decodes cassette bytes: JSON syntax, format version (newer refused, older migrated), schema.
    ///
    /// Each event is read as soon as its JSON is parsed, and that JSON let go
    /// (`JSONParser.parse(_:streaming:element:)`), so that the events' JSON is never held whole
    /// beside the events; the bytes are let go before the cassette is returned. A file that is not
    /// a readable cassette of the current format (an older one to migrate, a newer one, any schema
    /// error) is parsed again whole and read as a document, so that every error and migration is
    /// what it always was.
    public static func decode(_ bytes: consuming [UInt8], migrations: [CassetteMigration] = CassetteMigration.builtIn)
        throws(CassetteError) -> Cassette
    {
        var events: [CassetteEvent] = []
        var eventsRead = true
        let streamed: JSONValue
        do {
            streamed = try JSONParser.parse(bytes, streaming: "events") { index, item in
                guard eventsRead else { return }
                do {
                    events.append(try CassetteEvent(jsonValue: item, index: index))
                } catch {
                    eventsRead = false
                }
            }
        } catch {
            throw invalidJSON(error)
        }
        if eventsRead, streamed["formatVersion"]?.intValue == Cassette.currentFormatVersion {
            // Every event was read and no migration needs them: the header alone (its events
            // empty) gives the cassette, or the error a whole read would give.
            bytes = []
            var cassette = try decode(document: streamed, migrations: migrations)
            cassette.events = events
            return cassette
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw invalidJSON(error)
        }
        bytes = []
        return try decode(document: consume document, migrations: migrations)
    }

    private static func invalidJSON(_ error: JSONSyntaxError) -> CassetteError {
        CassetteError(
            kind: .invalidJSON, message: "not valid JSON: \(error.message)", line: error.line, column: error.column)
    }

    /// Reads a parsed document: format version (newer refused, older migrated), schema.
    private static func decode(document: consuming JSONValue, migrations: [CassetteMigration])
        throws(CassetteError) -> Cassette
    {
        guard case .object = document else {
            throw CassetteError(kind: .schema, message: "expected a JSON object at the top, found \(document.kindName)")
        }
        guard let versionValue = document["formatVersion"] else {
            throw CassetteError(
                kind: .unsupportedFormatVersion, message: "missing; not a cassette of this tool", field: "formatVersion"
            )
        }
        guard var version = versionValue.intValue else {
            throw CassetteError(
                kind: .unsupportedFormatVersion, message: "expected an integer, found \(JSONDiff.brief(versionValue))",
                field: "formatVersion")
        }
        let current = Cassette.currentFormatVersion
        if version > current {
            let writer =
                (document["tool"]?["name"]?.stringValue ?? "the tool")
                + (document["tool"]?["version"]?.stringValue.map { " " + $0 } ?? "")
            let needed =
                document["tool"]?["version"]?.stringValue.map { "mpin-workbench \($0) or newer" }
                ?? "a newer mpin-workbench"
            throw CassetteError(
                kind: .newerFormatVersion,
                message:
                    "format version \(version) is newer than this tool reads (up to \(current)); the file was written by "
                    + "\(writer); reading it needs \(needed) (this is mpin-workbench with format \(current))",
                field: "formatVersion", foundVersion: version, supportedVersion: current)
        }
        while version < current {
            guard let step = migrations.first(where: { $0.from == version }) else {
                throw CassetteError(
                    kind: .unsupportedFormatVersion,
                    message: "format version \(version) is older than \(current) and no migration from it exists",
                    field: "formatVersion", foundVersion: version, supportedVersion: current)
            }
            do {
                document = try step.convert(document)
            } catch {
                throw CassetteError(
                    kind: .unsupportedFormatVersion, message: "migration from format \(version) failed: \(error)",
                    field: "formatVersion", foundVersion: version, supportedVersion: current)
            }
            guard let next = document["formatVersion"]?.intValue, next == version + 1 else {
                throw CassetteError(
                    kind: .unsupportedFormatVersion,
                    message: "migration from format \(version) did not produce format \(version + 1)",
                    field: "formatVersion", foundVersion: version, supportedVersion: current)
            }
            version = next
        }
        return try Cassette(jsonValue: consume document)
    }

    /// Writes the cassette's canonical bytes to `path` atomically (temporary file, then rename).
    ///
    /// The bytes are made and written event by event (`Cassette.writeCanonical`), so that writing
    /// takes about one event's JSON and a megabyte of buffer beyond the cassette itself: a proxy's
    /// or a recording's big cassette is not held a second and third time as a JSON value and text.
    public static func write(_ cassette: Cassette, to path: String) throws(CassetteError) {
        do {
            let writer = try AtomicFile.Writer(path: path)
            try cassette.writeCanonical { (bytes: [UInt8]) throws(FileAccessError) in try writer.append(bytes) }
            try writer.commit()
        } catch {
            throw CassetteError(kind: .writeFailed, path: path, message: "\(error.action): \(error.reason)")
        }
    }

    /// Writes bytes to `path` atomically through `AtomicFile` (through symbolic links, refusing what
    /// is not a regular file, the operating system's reason on failure).
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CassetteError) {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw CassetteError(kind: .writeFailed, path: path, message: "\(error.action): \(error.reason)")
        }
    }
}

/// Random bytes for temporary file names (not for anything a flow sees).
enum SystemRandomBytes {
    static func make(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
