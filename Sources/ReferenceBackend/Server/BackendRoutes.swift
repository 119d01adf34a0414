import MilagroProtocol

/// Each profile's handler for each endpoint it serves: the reference backend's routes, one map from
/// `Endpoint` to `Route` (docs/backend.md, "Reference backend"). The default profile's, the MFA
/// platform's additions, and `milagro-hosted-v3`'s own answers over them (`hostedV3Routes`); the
/// `milagro-oss` profile answers through `OpenSourceServer`'s routes but for the workbench's own
/// endpoints (the session page, the operator's, the DeviceSecurity service's), which are these.
enum BackendRoutes {
    /// The routes of a backend so configured.
    static func index(for configuration: BackendConfiguration) -> EndpointIndex<Route> {
        var routes = common
        switch configuration.flavour {
        case .milagro: routes.merge(milagro) { $1 }
        case .mfaPlatform: routes.merge(mfaPlatform) { $1 }
        }
        if configuration.activation == .code {
            routes[.activationCode] = Route { core, call, _ throws(APIError) in
                try await core.requestActivationCode(call)
            }
        }
        if configuration.profile == .milagroHostedV3 { routes.merge(BackendCore.hostedV3Routes) { $1 } }
        if configuration.operatorMount != .some("") {
            // Off, or under a prefix of their own: no endpoint at the table's `/admin/*` paths.
            for endpoint in operatorEndpoints { routes[endpoint] = nil }
        }
        return EndpointIndex(routes)
    }

    /// The endpoints of every flavour.
    static let common: [Endpoint: Route] = [
        .clientSettings: Route { core, call, _ throws(APIError) in core.clientSettings(origin: call.header("Origin")) },
        .register: Route { core, call, id throws(APIError) in try await core.profiledRegistration(call, restarting: id)
        },
        .signature: Route { core, call, id throws(APIError) in try await core.signature(call, mpinIDHex: id ?? "") },
        .pass1: Route { core, call, _ throws(APIError) in try await core.pass1(call) },
        .pass2: Route { core, call, _ throws(APIError) in try await core.pass2(call) },
        .mobileAuthenticate: Route { core, call, _ throws(APIError) in try await core.mobileAuthenticate(call) },
        .getAccessNumber: Route { core, call, _ throws(APIError) in try await core.getAccessNumber(call) },
        .getQrURL: Route { core, call, _ throws(APIError) in try await core.getQrURL(call) },
        .accessNumberPoll: Route { core, call, _ throws(APIError) in try await core.access(call) },
        .codeStatus: Route { core, call, _ throws(APIError) in try await core.codeStatus(call) },
        .dta1: Route { core, call, operation throws(APIError) in
            try core.authorityRequest(core.dta1, operation ?? "", call.query)
        },
        .dta2: Route { core, call, operation throws(APIError) in
            try core.authorityRequest(core.dta2, operation ?? "", call.query)
        },
        .service: Route { core, _, _ throws(APIError) in core.service() },
        .rpaAuthenticate: Route { core, call, _ throws(APIError) in try await core.rpaAuthenticate(call) },
        .session: Route { core, call, _ throws(APIError) in try await core.browserSession(call) },
        .activate: Route(checksMethod: false) { core, call, _ throws(APIError) in try await core.activate(call) },
        .logout: Route { core, call, _ throws(APIError) in try await core.logout(call) },
        .adminMailbox: operatorRoute, .adminRevoke: operatorRoute, .adminRestore: operatorRoute,
        .adminCounts: operatorRoute,
        .adminOperation: operatorRoute,
        .deviceSecurity: Route(checksMethod: false) { core, call, _ throws(APIError) in
            try await core.deviceSecurity.handle(call, core: core)
        },
    ]

    /// The milagro flavour's: time permits and their storage.
    static let milagro: [Endpoint: Route] = [
        .timePermit: Route { core, _, id throws(APIError) in try await core.timePermit(mpinIDHex: id ?? "") },
        .timePermitsStorage: Route { core, call, _ throws(APIError) in try core.timePermitStorage(call) },
    ]

    /// The MFA platform's: the authorization URL and the token endpoint.
    static let mfaPlatform: [Endpoint: Route] = [
        .authorize: Route(checksMethod: false) { core, call, _ throws(APIError) in try await core.authorize(call) },
        .token: Route { core, call, _ throws(APIError) in try await core.token(call) },
    ]

    /// The operator's endpoints (`/admin/*`).
    static let operatorEndpoints: [Endpoint] = [
        .adminMailbox, .adminRevoke, .adminRestore, .adminCounts, .adminOperation,
    ]

    /// The operator's endpoints alone, looked up with their prefix taken off.
    static let operatorIndex = EndpointIndex(
        Dictionary(uniqueKeysWithValues: operatorEndpoints.map { ($0, operatorRoute) }))

    /// `/admin/<operation>`: the operator's service, which answers each method and operation itself.
    static let operatorRoute = Route(checksMethod: false) { core, call, _ throws(APIError) in
        try await core.admin(call, call.segments.last ?? "")
    }
}
