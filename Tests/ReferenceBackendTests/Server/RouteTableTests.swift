import MilagroProtocol
import SDKSeams
import Testing

@testable import ReferenceBackend

/// Each profile's routes are the endpoint table's (MilagroProtocol's `Endpoint`): a backend of a
/// flavour and profile registers a handler for exactly the endpoints the table says it serves, and
/// over HTTP answers each of them from its handler (not "no such endpoint", not 405) and every
/// other one as a path it has no route for.
@Suite struct RouteTableTests {
    /// Each valid pairing of flavour and profile; the default profile's with code activation, which
    /// adds `/activationCode`.
    static let backends: [(BackendFlavour, BackendProfile)] = [
        (.milagro, .default), (.mfaPlatform, .default), (.milagro, .milagroOSS),
        (.milagro, .milagroHostedV3),
    ]

    static func configuration(_ flavour: BackendFlavour, _ profile: BackendProfile) -> BackendConfiguration {
        var configuration = BackendConfiguration(
            flavour: flavour, activation: profile == .default ? .code : .auto, seed: "tests")
        configuration.profile = profile
        return configuration
    }

    /// The endpoints a backend so configured registers a handler for: under `milagro-oss` the
    /// open-source server's routes and the workbench's own endpoints it leaves to `BackendRoutes`.
    static func registered(_ configuration: BackendConfiguration) -> Set<Endpoint> {
        let routes = BackendRoutes.index(for: configuration).endpoints
        guard configuration.profile == .milagroOSS else { return routes }
        return OpenSourceServer.endpoints.union(
            routes.filter { OpenSourceServer.workbenchSegments.contains($0.segments.first ?? "") })
    }

    @Test(arguments: backends)
    func eachProfileRegistersTheTablesEndpoints(flavour: BackendFlavour, profile: BackendProfile) {
        let served = Set(Endpoint.all.filter { $0.isServed(flavour: flavour, profile: profile) })
        let registered = Self.registered(Self.configuration(flavour, profile))
        #expect(
            registered.subtracting(served).isEmpty,
            "\(flavour) \(profile) registers \(registered.subtracting(served).map(\.description))")
        #expect(
            served.subtracting(registered).isEmpty,
            "\(flavour) \(profile) leaves \(served.subtracting(registered).map(\.description))")
    }

    /// The time-permit storages, which answer every GET with 404 by design (docs/protocol.md §8.4, §13).
    static let storages: [Endpoint] = [.timePermitsStorage, .openSourceTimePermitsStorage]

    /// A path that reaches the endpoint: with an M-Pin ID, a D-TA operation or a storage key
    /// (`<appID>/<day>/<hash>`, as the client asks) where it takes one.
    static func path(_ endpoint: Endpoint) -> String {
        if endpoint.takesID { return endpoint.path + "/" + String(repeating: "ab", count: 8) }
        if endpoint.tail == .operation { return endpoint.path + Endpoint.clientSecretOperation }
        if storages.contains(endpoint) { return endpoint.path + "/app/20784/" + String(repeating: "c", count: 64) }
        return endpoint.path
    }

    @Test(arguments: backends)
    func theServerAnswersTheTablesEndpoints(flavour: BackendFlavour, profile: BackendProfile) async throws {
        let harness = try await BackendHarness.start(flavour: flavour, activation: profile == .default ? .code : .auto)
        { $0.profile = profile }
        defer { Task { await harness.stop() } }
        for endpoint in Endpoint.all {
            let path = Self.path(endpoint)
            let method = HTTPMethod(rawValue: endpoint.method) ?? .get
            let answer = try await harness.send(
                method, path, body: method == .get ? nil : "{}", headers: ["X-MIRACL-CID": "tests"])
            // The router's 404 and 405; the open-source RPS's and D-TA's 404 and the demo RPA's (Tornado's).
            // The open-source D-TA's storage answers its own 404, "NOT FOUND", by design.
            let storageMiss =
                endpoint == .openSourceTimePermitsStorage && answer.status == 404 && answer.text.contains("D-TA server")
            let unrouted =
                answer.status == 405
                || (answer.status == 404 && !storageMiss
                    && ["No such endpoint", "NOT FOUND", "404: Not Found"].contains { answer.text.contains($0) })
            #expect(
                unrouted != endpoint.isServed(flavour: flavour, profile: profile),
                "\(flavour) \(profile): \(endpoint.method) \(path) answered \(answer.status) \(answer.text.prefix(120))"
            )
        }
    }
}
