import OrderedJSON

/// Converts the JSON of a cassette of format version N to version N + 1.
///
/// Migrations run on read, in a chain, before the schema is checked; they see and return the whole
/// document (and must set `formatVersion` to N + 1).
public struct CassetteMigration: Sendable {
    /// The version this migration reads.
    public var from: Int
    public var convert: @Sendable (JSONValue) throws -> JSONValue

    public init(from: Int, convert: @escaping @Sendable (JSONValue) throws -> JSONValue) {
        self.from = from
        self.convert = convert
    }

    /// The built-in chain. Version 1 is the first format, so it is empty; a change of format adds
    /// `CassetteMigration(from: 1) { … }` here and bumps `Cassette.currentFormatVersion`.
    public static let builtIn: [CassetteMigration] = []

    /// Sets `formatVersion` in a document, for use inside migrations.
    public static func setting(version: Int, in document: JSONValue) -> JSONValue {
        guard case .object(var members) = document else { return document }
        members.removeAll { $0.name == "formatVersion" }
        members.append(.init("formatVersion", .integer(version)))
        return .object(members)
    }
}
