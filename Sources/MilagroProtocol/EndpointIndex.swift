/// The endpoints one party serves, each with what it registered for it (a backend's handler, a
/// checker's request kind), looked up by a request's path segments. The most specific endpoint
/// wins: the one with more segments of its own (`/dta2/v3/<operation>` before `/dta2/<operation>`,
/// `/admin/mailbox` before `/admin/<operation>`).
public struct EndpointIndex<Value: Sendable>: Sendable {
    /// What each endpoint registered.
    public let entries: [Endpoint: Value]
    /// The endpoints by their first segment ("" for the root, `/`), the most specific first.
    private let buckets: [String: [(endpoint: Endpoint, value: Value)]]

    public init(_ entries: [Endpoint: Value]) {
        self.entries = entries
        var buckets: [String: [(endpoint: Endpoint, value: Value)]] = [:]
        for (endpoint, value) in entries {
            buckets[endpoint.segments.first ?? "", default: []].append((endpoint, value))
        }
        self.buckets = buckets.mapValues { bucket in
            bucket.sorted {
                ($0.endpoint.segments.count, $1.endpoint.name) > ($1.endpoint.segments.count, $0.endpoint.name)
            }
        }
    }

    /// The endpoint whose path and tail `segments` (a request's path, split at `/` and decoded) are,
    /// and its value; nil when none is.
    public func lookup(_ segments: [String]) -> (endpoint: Endpoint, value: Value)? {
        buckets[segments.first ?? ""]?.first { $0.endpoint.matches(segments) }
    }

    /// The endpoints registered.
    public var endpoints: Set<Endpoint> { Set(entries.keys) }
}
