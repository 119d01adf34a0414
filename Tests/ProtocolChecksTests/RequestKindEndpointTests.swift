import MilagroProtocol
import Testing

@testable import ProtocolChecks

/// The flow checker recognises every endpoint of the table (MilagroProtocol's `Endpoint.all`) as
/// the table's kind for it (`RequestKind.ofEndpoint`), before any client settings.
@Suite struct RequestKindEndpointTests {
    /// A path that reaches the endpoint: with an M-Pin ID, a D-TA operation or a storage key
    /// (`<appID>/<day>/<hash>`, as the client asks) where it takes one.
    static func path(_ endpoint: Endpoint) -> String {
        if endpoint.takesID { return endpoint.path + "/" + String(repeating: "ab", count: 8) }
        if endpoint.tail == .operation { return endpoint.path + Endpoint.clientSecretOperation }
        if endpoint.tail == .subtree && endpoint.party == .dta2 {
            return endpoint.path + "/app/20784/" + String(repeating: "c", count: 64)
        }
        return endpoint.path
    }

    @Test func everyEndpointHasAKind() {
        #expect(Set(RequestKind.ofEndpoint.keys) == Set(Endpoint.all))
        #expect(!RequestKind.ofEndpoint.values.contains(.other))
    }

    /// The root routes are told by their first segment: every endpoint under one is of one kind.
    @Test func rootSegmentsHaveOneKind() {
        var kinds: [String: Set<RequestKind>] = [:]
        for (endpoint, kind) in RequestKind.ofEndpoint where endpoint.segments.count > 0 {
            kinds[endpoint.segments[0], default: []].insert(kind)
        }
        for (first, found) in kinds where first != "rps" && !FlowChecker.dtaMounts.contains(first) {
            #expect(found.count == 1, "/\(first): \(found)")
        }
    }

    @Test(arguments: Endpoint.all)
    func theCheckerReadsTheTablesKind(endpoint: Endpoint) {
        let kind = FlowChecker().kind(method: endpoint.method, path: Self.path(endpoint))
        #expect(kind == RequestKind.ofEndpoint[endpoint], "\(endpoint)")
    }
}
