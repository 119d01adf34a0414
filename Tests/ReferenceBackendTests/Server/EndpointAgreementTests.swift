import MilagroProtocol
import ProtocolChecks
import ReferenceBackend
import SDKSeams
import Testing

/// The endpoint table (MilagroProtocol's `Endpoint`) against the two that read paths: every
/// endpoint a backend of a flavour and profile serves is routed by that backend (not "no such
/// endpoint", not 405), every other one is not, and the flow checker recognises every path (not
/// an unknown path).
@Suite struct EndpointAgreementTests {
    static let backends: [(BackendFlavour, BackendProfile)] = [(.milagro, .default), (.mfaPlatform, .default), (.milagro, .milagroOSS),
                                                               (.milagro, .milagroHostedV3)]

    /// The time-permit storages, which answer every GET with 404 by design (PROTOCOL §8.4, §13).
    static let storages: [Endpoint] = [.timePermitsStorage, .openSourceTimePermitsStorage]

    /// A path that reaches the endpoint: with an M-Pin ID, a D-TA operation or a storage key
    /// (`<appID>/<day>/<hash>`, as the client asks) where it takes one.
    static func path(_ endpoint: Endpoint) -> String {
        if endpoint.takesID { return endpoint.path + "/" + String(repeating: "ab", count: 8) }
        if endpoint.path.hasSuffix("/") { return endpoint.path + Endpoint.clientSecretOperation }
        if storages.contains(endpoint) { return endpoint.path + "/app/20784/" + String(repeating: "c", count: 64) }
        return endpoint.path
    }

    @Test(arguments: backends)
    func theRouterServesExactlyTheTablesEndpoints(flavour: BackendFlavour, profile: BackendProfile) async throws {
        let harness = try await BackendHarness.start(flavour: flavour) { $0.profile = profile }
        defer { Task { await harness.stop() } }
        for endpoint in Endpoint.all {
            let path = Self.path(endpoint)
            let method = HTTPMethod(rawValue: endpoint.method) ?? .get
            let answer = try await harness.send(method, path, body: method == .get ? nil : "{}", headers: ["X-MIRACL-CID": "tests"])
            // The router's 404 and 405; the open-source RPS's and D-TA's 404 and the demo RPA's (Tornado's).
            // The open-source D-TA's storage answers its own 404, "NOT FOUND", by design.
            let storageMiss = endpoint == .openSourceTimePermitsStorage && answer.status == 404 && answer.text.contains("D-TA server")
            let unrouted = answer.status == 405 || (answer.status == 404 && !storageMiss
                && ["No such endpoint", "NOT FOUND", "404: Not Found"].contains { answer.text.contains($0) })
            #expect(unrouted != endpoint.isServed(flavour: flavour, profile: profile),
                    "\(flavour) \(profile): \(endpoint.method) \(path) answered \(answer.status) \(answer.text.prefix(120))")
        }
    }

    @Test(arguments: Endpoint.all)
    func theFlowCheckerKnowsEveryEndpoint(endpoint: Endpoint) {
        let kind = FlowChecker().kind(method: endpoint.method, path: Self.path(endpoint))
        #expect(kind != .other, "\(endpoint)")
    }

    /// Where the table and the checker name the same request, they agree on what it is.
    @Test func theCheckerReadsTheProtocolsRequests() {
        let checker = FlowChecker()
        let expected: [(Endpoint, RequestKind)] = [
            (.clientSettings, .clientSettings), (.register, .register), (.signature, .clientSecret1), (.timePermit, .timePermit1),
            (.pass1, .pass1), (.pass2, .pass2), (.mobileAuthenticate, .authenticate), (.rpaAuthenticate, .authenticate),
            (.getAccessNumber, .getAccessNumber), (.getQrURL, .getQrURL), (.accessNumberPoll, .accessNumberPoll),
            (.hostedAccessNumberPoll, .accessNumberPoll), (.codeStatus, .codeStatus), (.setupDone, .setupDone),
            (.dta2, .clientSecret2), (.hostedDTA2, .clientSecret2), (.timePermitsStorage, .timePermitStorage),
            (.openSourceTimePermitsStorage, .timePermitStorage), (.service, .serviceDetails),
            (.logout, .logout), (.authorize, .accessCode),
        ]
        for (endpoint, kind) in expected {
            #expect(checker.kind(method: endpoint.method, path: Self.path(endpoint)) == kind, "\(endpoint)")
        }
    }
}
