/// How strictly a re-run must match a cassette.
///
/// * `strict` (the default): every request byte-identical (method, URL, headers in order, body) and
///   in order; random draws and clock reads served in order with the same sizes; every `call` and
///   `crypto` event equal to the recorded one, in one global order.
/// * `method-url`: method and URL, in order; headers and bodies are not compared.
/// * `json`: method and URL; headers compared as a set (name case and order ignored); JSON bodies
///   compared by meaning (member order and formatting ignored), other bodies byte for byte.
/// * `ignore`: as `json`, minus the listed names: JSON members (anywhere, or a dotted path from the
///   body's root), headers, query parameters, and call and crypto field names.
/// * `context`: the rule of the Milagro SDK core's test harness (`tests/common/http_player.cpp`,
///   `http_recorded_data.cpp`): a request is looked up by its method, URL and request context (the
///   scenario step's `context`), in any order and from any actor; a request whose key comes again is
///   answered again from the one recorded exchange (the harness writes a key once); every recorded
///   exchange must be asked for by the end. What the client's randomness does not change is
///   compared as well (docs/cassettes.md, "Context replay"): the path and query (in the key), and
///   the body, JSON by meaning, every member's value but those of the `fresh` members (the values the
///   client draws afresh, the harness's pass-1 `U`, `UT` and pass-2 `V`), whose kind and length
///   only are compared; a body that is not JSON byte for byte. Headers are not compared (the
///   harness kept none).
///
/// In the loose modes each kind of event keeps its own order (requests among requests, crypto
/// steps among crypto steps), and `call`, `crypto`, `random` and `clock` events are only checked or
/// served when the cassette has any of that kind (cassettes from other implementations have none).
public struct ReplayMode: Sendable, Hashable, CustomStringConvertible {
    public enum Matching: String, Sendable, Hashable, CaseIterable {
        case strict
        case methodURL = "method-url"
        case json
        case ignore
        case context
    }

    public var matching: Matching
    /// Names to ignore in `ignore` mode.
    public var ignored: [String]
    /// Mode `context`: the JSON members (by name, anywhere in a request body) whose values come
    /// from the client's randomness, so that another run draws others: their kind and length are
    /// compared, not their values.
    public var fresh: [String]

    public init(_ matching: Matching, ignoring ignored: [String] = [], fresh: [String] = []) {
        self.matching = matching
        self.ignored = matching == .ignore ? ignored : []
        self.fresh = matching == .context ? fresh : []
    }

    public static let strict = ReplayMode(.strict)
    public static let methodURL = ReplayMode(.methodURL)
    public static let json = ReplayMode(.json)
    public static func ignore(_ names: [String]) -> ReplayMode { ReplayMode(.ignore, ignoring: names) }
    public static let context = ReplayMode(.context)
    /// Mode `context` with the request members whose values are fresh randomness.
    public static func context(fresh: [String]) -> ReplayMode { ReplayMode(.context, fresh: fresh) }

    /// Parses `strict`, `method-url` (also `loose`: method + URL + order, the mode of cassettes from
    /// other implementations), `json`, `ignore` (with the names to ignore) or `context`.
    public init?(name: String, ignoring: [String] = [], fresh: [String] = []) {
        guard let matching = name == "loose" ? .methodURL : Matching(rawValue: name) else { return nil }
        self.init(matching, ignoring: ignoring, fresh: fresh)
    }

    public var isStrict: Bool { matching == .strict }

    public var description: String {
        matching == .ignore ? "ignore(\(ignored.joined(separator: ", ")))" : matching.rawValue
    }
}
