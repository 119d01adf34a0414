import CurlTransport
import MPinSDK

/// An app's login with M-Pin: enrols a user with a PIN and logs them in, in the app's own terms.
///
/// The app makes it with `LoginService.live(backend:storageDirectory:)` (libcurl, the users in a
/// folder); tests hand it an `MPinClient` on other seams (a cassette session's).
public struct LoginService: Sendable {
    /// What a login came to.
    public enum Outcome: Sendable, Equatable {
        /// Logged in; the relying party's answer (its JSON text).
        case loggedIn(String)
        /// The PIN was wrong; the user may try again.
        case wrongPIN
        /// The PIN was wrong too often: the user must enrol again.
        case blocked
    }

    /// Why the service could not do what was asked.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var status: String
        public var message: String
        public var description: String { "\(status): \(message)" }
    }

    private let sdk: MPinClient
    private let backend: String

    public init(backend: String, client: MPinClient) {
        self.backend = backend
        self.sdk = client
    }

    /// The service of a real app: libcurl with 30 s per request, users kept under `storageDirectory`.
    public static func live(backend: String, storageDirectory: String) -> LoginService {
        LoginService(
            backend: backend,
            client: MPinClient(
                transport: CurlTransport(options: .init(defaultTimeout: 30)),
                storage: FileStorage(directory: storageDirectory)))
    }

    /// Connects to the backend (reads its client settings).
    public func start() async throws(Failure) {
        try await call { () async throws(MPinError) in try await sdk.initialize(configuration: ["backend": backend]) }
    }

    /// Enrols `email` on this device with `pin`: registration, activated at once by the backend.
    public func enrol(email: String, pin: String) async throws(Failure) {
        try await call { () async throws(MPinError) in
            let user = try await sdk.makeNewUser(id: email, deviceName: "MPinConsumer")
            try await sdk.startRegistration(user)
            try await sdk.confirmRegistration(user)
            try await sdk.finishRegistration(user, pin: pin)
        }
    }

    /// Logs `email` in with `pin`.
    public func logIn(email: String, pin: String) async throws(Failure) -> Outcome {
        let user = try await call { () async throws(MPinError) -> User in
            guard let user = try await sdk.listUsers().first(where: { $0.id == email }) else {
                throw MPinError(.flowError, "\(email) is not enrolled on this device")
            }
            return user
        }
        do throws(MPinError) {
            try await sdk.startAuthentication(user)
            return .loggedIn(try await sdk.finishAuthentication(user, pin: pin))
        } catch  where error.status.code == .incorrectPIN {
            let state = try? await sdk.listUsers().first(where: { $0.id == email })?.state
            return state == .blocked ? .blocked : .wrongPIN
        } catch {
            throw Failure(status: error.status.code.name, message: error.status.message)
        }
    }

    private func call<T>(_ body: () async throws(MPinError) -> T) async throws(Failure) -> T {
        do {
            return try await body()
        } catch {
            throw Failure(status: error.status.code.name, message: error.status.message)
        }
    }
}
