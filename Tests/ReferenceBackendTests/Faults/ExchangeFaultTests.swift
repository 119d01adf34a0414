import CurlTransport
import MilagroProtocol
import ReferenceBackend
import SDKSeams
import Synchronization
import Testing

/// Faults on the one routing table: a fault answers for its endpoint only (the others answer as
/// the backend does), can change the backend's own answer, cut it short or drop the connection,
/// and the observer hears of every exchange with the answer that was sent.
@Suite struct ExchangeFaultTests {
    final class Heard: Sendable {
        let exchanges = Mutex<[ObservedExchange]>([])
        func add(_ exchange: ObservedExchange) { exchanges.withLock { $0.append(exchange) } }
        var all: [ObservedExchange] { exchanges.withLock { $0 } }
    }

    static let curl = CurlTransport(options: .init(defaultTimeout: 20, connectTimeout: 10))

    func backend(_ faults: [Endpoint: ExchangeFault], heard: Heard? = nil) async throws -> ReferenceBackend {
        var configuration = BackendConfiguration(seed: "faults")
        configuration.faults = faults
        if let heard { configuration.exchangeObserver = { heard.add($0) } }
        return try await ReferenceBackend.start(configuration)
    }

    func get(_ backend: ReferenceBackend, _ path: String) async throws(TransportError) -> HTTPResponse {
        try await Self.curl.send(HTTPRequest(method: .get, url: backend.baseURL + path, timeout: 60))
    }

    @Test func aFaultAnswersForItsEndpointOnly() async throws {
        let backend = try await backend([
            .pass1: ExchangeFault { _, _, _ in FaultAnswer(status: 503, body: Array("down".utf8)) }
        ])
        let pass1 = try await Self.curl.send(
            HTTPRequest(method: .post, url: backend.baseURL + "/rps/pass1", body: Array("{}".utf8), timeout: 60))
        #expect(pass1.status == 503)
        #expect(pass1.bodyText == "down")
        #expect(try await get(backend, "/rps/clientSettings").status == 200)
        await backend.stop()
    }

    @Test func aFaultChangesTheBackendsOwnAnswer() async throws {
        let backend = try await backend([
            .clientSettings: ExchangeFault { request, _, next in
                var answer = await next()
                answer.headers.set(name: "X-Fault", value: request.endpoint?.name ?? "none")
                return answer
            }
        ])
        let settings = try await get(backend, "/rps/clientSettings")
        #expect(settings.status == 200)
        #expect(settings.headers["X-Fault"] == "clientSettings")
        #expect(settings.bodyText?.contains("registerURL") == true)
        await backend.stop()
    }

    @Test func aDroppedConnectionIsATransportError() async throws {
        let backend = try await backend([
            .clientSettings: ExchangeFault { _, _, next in
                var answer = await next()
                answer.delivery = .dropped
                return answer
            }
        ])
        await #expect(throws: TransportError.self) { try await get(backend, "/rps/clientSettings") }
        // The next request, on another endpoint, gets the backend's own answer (405: pass 1 is a POST).
        #expect(try await get(backend, "/rps/pass1").status == 405)
        await backend.stop()
    }

    @Test func aCutBodyIsATransportError() async throws {
        let backend = try await backend([
            .clientSettings: ExchangeFault { _, _, next in
                var answer = await next()
                answer.body = Array(answer.body.prefix(10))
                answer.delivery = .truncated(declared: 100)
                return answer
            }
        ])
        await #expect(throws: TransportError.self) { try await get(backend, "/rps/clientSettings") }
        await backend.stop()
    }

    @Test func theObserverHearsEveryExchange() async throws {
        let heard = Heard()
        let backend = try await backend(
            [.pass1: ExchangeFault { _, _, _ in FaultAnswer(status: 418) }], heard: heard)
        _ = try await get(backend, "/rps/clientSettings")
        _ = try await get(backend, "/no/such/path")
        _ = try await Self.curl.send(
            HTTPRequest(method: .post, url: backend.baseURL + "/rps/pass1", body: Array("{}".utf8), timeout: 60))
        await backend.stop()
        let all = heard.all
        #expect(all.map(\.answer.status) == [200, 404, 418])
        #expect(all.map { $0.request.endpoint?.name } == ["clientSettings", nil, "pass1"])
        #expect(all[0].request.url == backend.baseURL + "/rps/clientSettings")
    }

    @Test func theServicesMakeTheClientSecretOfAnID() async throws {
        let backend = try await backend([:])
        let id = Array(#"{"userID":"alice@example.com"}"#.utf8)
        let services = backend.faultServices
        let cs = try #require(services.clientSecret(mpinID: id))
        let hash = services.hashedID(id)
        let shares = (
            services.clientSecretShare(authority: 1, hashedID: hash),
            services.clientSecretShare(authority: 2, hashedID: hash)
        )
        #expect(cs.count == 65)
        #expect(shares.0 != shares.1)
        #expect(services.today > 19_000)
        await backend.stop()
    }
}
