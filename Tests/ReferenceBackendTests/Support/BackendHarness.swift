import CurlTransport
import Foundation
import MPinSDK
import ReferenceBackend
import SDKSeams

/// A reference backend on a free loopback port, with a raw HTTP client (libcurl) and a factory
/// of SDK clients pointed at it.
struct BackendHarness {
    let backend: ReferenceBackend
    let transport = CurlTransport(options: .init(defaultTimeout: 300, connectTimeout: 30))

    static func start(
        flavour: BackendFlavour = .milagro, activation: ActivationMode = .auto, seed: String? = "tests",
        clientID: String? = nil, clock: any BackendClock = SystemBackendClock(),
        configure: (inout BackendConfiguration) -> Void = { _ in }
    ) async throws -> BackendHarness {
        var configuration = BackendConfiguration(
            flavour: flavour, activation: activation, seed: seed, clientID: clientID)
        configure(&configuration)
        return BackendHarness(backend: try await ReferenceBackend.start(configuration, clock: clock))
    }

    var baseURL: String { backend.baseURL }

    func stop() async { await backend.stop() }

    /// One raw exchange; `path` may carry a query, `body` is sent as it is.
    func send(
        _ method: HTTPMethod, _ path: String, body: String? = nil, bytes: [UInt8]? = nil,
        headers: HTTPHeaders = [:]
    ) async throws -> RawResponse {
        var all = headers
        if method != .get, body != nil || bytes != nil {
            all.addIfAbsent(name: "Content-Type", value: "application/json")
        }
        let request = HTTPRequest(
            method: method, url: baseURL + path, headers: all, body: bytes ?? Array((body ?? "").utf8))
        let response = try await transport.send(request)
        return RawResponse(response: response)
    }

    /// A JSON body from members (compact, keys sorted).
    static func json(_ members: [String: Any]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// An initialized SDK client with this backend set.
    func client(flavour: MPinClient.Flavour = .milagro, clientID: String? = nil) async throws -> MPinClient {
        let client = MPinClient(transport: transport, storage: MemoryStorage(), options: .init(flavour: flavour))
        try await client.initialize(configuration: [:])
        if let clientID { try await client.setClientID(clientID) }
        try await client.setBackend(baseURL)
        return client
    }

    /// Registers a user through the SDK in auto mode and returns it REGISTERED.
    func registeredUser(_ client: MPinClient, id: String, pin: String = "1234", accessCode: String = "") async throws
        -> User
    {
        let user = try await client.makeNewUser(id: id)
        try await client.startRegistration(user, accessCode: accessCode)
        try await client.confirmRegistration(user)
        try await client.finishRegistration(user, pin: pin)
        return user
    }
}

/// A raw response with its body parsed as a JSON object when it is one.
struct RawResponse: @unchecked Sendable {
    let response: SDKSeams.HTTPResponse
    var status: Int { response.status }
    var text: String { response.bodyText ?? "" }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:] }
    func string(_ key: String) -> String { json[key] as? String ?? "" }
    var message: String { string("message") }
    var header: (String) -> String? {
        { name in response.headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }
}

extension MPinError {
    /// The SDK status of a thrown error, for `#expect(throws:)` checks.
    static func code<T>(_ body: () async throws -> T) async -> StatusCode? {
        do {
            _ = try await body()
            return nil
        } catch let error as MPinError {
            return error.code
        } catch {
            return nil
        }
    }
}
