import MPinCrypto
import ReferenceBackend

/// The backend a case grades the client against: the run's profile, with the case's activation
/// mode, held-login timeout and curve, and its faults (each on one endpoint of the table,
/// `ExchangeFault`), made once the other origins are known.
package struct CaseBackend: Sendable {
    package var activation: ActivationMode
    /// Seconds the phone's access-number login is held waiting for the browser; the backend's
    /// default (10) when nil.
    package var loginTimeout: Double?
    package var curve: CurveID
    /// The flavours the case applies to; on another it is `unimplemented`. Nil: both.
    package var flavours: Set<BackendFlavour>?
    /// With email activation: whether the user opens the mailed link before the client asks for
    /// its shares (the suite then opens it when the signature is asked for, as a fault on that
    /// endpoint would), or never.
    package var opensActivationLinks = true
    /// The faults, by endpoint.
    package var faults: @Sendable (FaultOrigins) -> [Endpoint: ExchangeFault]

    package init(
        activation: ActivationMode = .auto, loginTimeout: Double? = nil, curve: CurveID = .bn254cx,
        flavours: Set<BackendFlavour>? = nil,
        faults: @escaping @Sendable (FaultOrigins) -> [Endpoint: ExchangeFault] = { _ in [:] }
    ) {
        self.activation = activation
        self.loginTimeout = loginTimeout
        self.curve = curve
        self.flavours = flavours
        self.faults = faults
    }

    /// A backend with the same fault on each of `endpoints`.
    package static func fault(
        on endpoints: [Endpoint], activation: ActivationMode = .auto, flavours: Set<BackendFlavour>? = nil,
        _ fault: @escaping @Sendable (FaultOrigins) -> ExchangeFault
    ) -> CaseBackend {
        CaseBackend(activation: activation, flavours: flavours) { origins in
            let made = fault(origins)
            return Dictionary(uniqueKeysWithValues: endpoints.map { ($0, made) })
        }
    }

    /// Why the case cannot run under `profile` (its flavour, or an activation mode the profile's
    /// server does not have), or nil.
    package func problem(under profile: ClientProfile) -> String? {
        if let flavours, !flavours.contains(profile.flavour) {
            return
                "the case is for the \(flavours.map(\.rawValue).sorted().joined(separator: ", ")) flavour, not \(profile.flavour.rawValue)"
        }
        return profile.backendProfile.problem(flavour: profile.flavour, activation: activation)
    }

    /// The reference backend's configuration for the case under `profile`, on 127.0.0.1 and
    /// `port` (0: a free one).
    package func configuration(
        profile: ClientProfile, origins: FaultOrigins, host: String = "127.0.0.1", port: Int = 0, seed: String? = nil
    ) -> BackendConfiguration {
        var configuration = BackendConfiguration(
            host: host, port: port, flavour: profile.flavour, activation: activation, seed: seed, curve: curve,
            profile: profile.backendProfile)
        if profile == .mfaPlatform { configuration.clientID = ClientProfile.platformClientID }
        if let loginTimeout { configuration.loginTimeout = loginTimeout }
        var faults = faults(origins)
        if activation == .email && opensActivationLinks {
            let inner = faults[.signature] ?? .none
            faults[.signature] = ExchangeFault { request, services, next in
                if let id = request.tail { _ = await services.openActivationLink(mpinIDHex: id) }
                return await inner.handle(request, services, next)
            }
        }
        configuration.faults = faults
        return configuration
    }
}
