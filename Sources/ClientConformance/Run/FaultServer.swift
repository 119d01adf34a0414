import CurlTransport
import Logging
import ReferenceBackend

/// One case's backend served by hand (`serve --fault CASE-ID`), so that a client's engineer can
/// reproduce a fault in a debugger: the reference backend with the case's activation mode, login
/// timeout, curve and faults over the given profile, and the two other origins the faults point
/// at (the trap and the alias, `OtherOrigin`), all on loopback.
package final class FaultServer: Sendable {
    package let clientCase: ClientCase
    package let backend: ReferenceBackend
    let trap: OtherOrigin
    let alias: OtherOrigin

    private init(clientCase: ClientCase, backend: ReferenceBackend, trap: OtherOrigin, alias: OtherOrigin) {
        self.clientCase = clientCase
        self.backend = backend
        self.trap = trap
        self.alias = alias
    }

    /// Why a fault cannot be served.
    package enum Problem: Error, Sendable, CustomStringConvertible {
        case unknownCase(String, suggestions: [String])
        case notUnder(String, ClientProfile, String)

        package var description: String {
            switch self {
            case .unknownCase(let id, let suggestions):
                "no client case \(id)"
                    + (suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?")
                    + " (conform --client builtin --list lists them)"
            case .notUnder(let id, let profile, let why):
                "the case \(id) cannot run under the profile \(profile): \(why)"
            }
        }
    }

    /// Starts the case's backend on `host` and `port` (0: a free one), the other origins on
    /// 127.0.0.1; `base` gives the seed and limits of `serve`'s own options.
    package static func start(
        caseID: String, profile: ClientProfile, base: BackendConfiguration, clock: any BackendClock,
        logger: Logger, onMail: @escaping @Sendable (ActivationMessage) -> Void
    ) async throws -> FaultServer {
        guard let clientCase = ClientCatalog.named(caseID) else {
            let prefix = caseID.split(separator: ".").first.map(String.init) ?? caseID
            let near = ClientCatalog.all.map(\.id).filter { $0.hasPrefix(prefix) || $0.contains(caseID) }
            throw Problem.unknownCase(caseID, suggestions: Array(near.prefix(5)))
        }
        if let why = clientCase.backend.problem(under: profile) { throw Problem.notUnder(caseID, profile, why) }
        let transport = CurlTransport(options: .init(defaultTimeout: 30, connectTimeout: 10))
        let trap = try await OtherOrigin.start(forwarding: false, transport: transport)
        let alias = try await OtherOrigin.start(forwarding: true, transport: transport)
        var configuration = clientCase.backend.configuration(
            profile: profile, origins: FaultOrigins(trap: trap.baseURL, alias: alias.baseURL), host: base.host,
            port: base.port, seed: base.seed)
        configuration.bodyTimeout = base.bodyTimeout
        configuration.allowsRemoteAdmin = base.allowsRemoteAdmin
        configuration.recordLimit = base.recordLimit
        configuration.clientRecordLimit = base.clientRecordLimit
        let backend: ReferenceBackend
        do {
            backend = try await ReferenceBackend.start(
                configuration, clock: clock, logger: logger, logRequests: true, onMail: onMail)
        } catch {
            await trap.stop()
            await alias.stop()
            throw error
        }
        alias.serve(log: nil, backendURL: backend.baseURL)
        return FaultServer(clientCase: clientCase, backend: backend, trap: trap, alias: alias)
    }

    /// What `serve` prints: the case, what its backend does and expects of the client, the other origins.
    package var banner: [String] {
        [
            "fault \(clientCase.id) (\(clientCase.level.rawValue), \(clientCase.source)): \(clientCase.title)",
            "  the backend: \(clientCase.backendDoes)",
            "  a client should: \(clientCase.expects)",
            "  another origin (the trap; no request should reach it): \(trap.baseURL)",
            "  another origin (the alias; it serves the backend): \(alias.baseURL)",
        ]
    }

    /// Waits until the backend stops.
    package func wait() async { await backend.wait() }

    /// Stops the backend and the other origins.
    package func stop() async {
        await backend.stop()
        await trap.stop()
        await alias.stop()
    }
}

/// The client profile that plays `serve`'s flavour and profile.
extension ClientProfile {
    package init(flavour: BackendFlavour, profile: BackendProfile) {
        switch (flavour, profile) {
        case (.mfaPlatform, _): self = .mfaPlatform
        case (.milagro, .default): self = .default
        case (.milagro, .milagroOSS): self = .milagroOSS
        case (.milagro, .milagroHostedV3): self = .milagroHostedV3
        }
    }
}
