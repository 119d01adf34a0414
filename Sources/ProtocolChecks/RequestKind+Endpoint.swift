import MilagroProtocol

extension RequestKind {
    /// What a request to each endpoint of the table (MilagroProtocol's `Endpoint.all`) is: the
    /// flow checker recognises the servers' own routes from it (`FlowChecker.rpsRoutes`,
    /// `FlowChecker.rootRoutes`), whatever the client settings say.
    package static let ofEndpoint: [Endpoint: RequestKind] = {
        var kinds: [Endpoint: RequestKind] = [
            .clientSettings: .clientSettings, .register: .register, .signature: .clientSecret1,
            .timePermit: .timePermit1,
            .pass1: .pass1, .pass2: .pass2, .mobileAuthenticate: .authenticate, .codeStatus: .codeStatus,
            .setupDone: .setupDone,
            .getAccessNumber: .getAccessNumber, .getQrURL: .getQrURL, .accessNumberPoll: .accessNumberPoll,
            .hostedAccessNumberPoll: .accessNumberPoll, .mobileConfig: .auxiliary,
            .dta1: .serverCall, .dta2: .clientSecret2, .hostedDTA2: .clientSecret2,
            .timePermitsStorage: .timePermitStorage, .openSourceTimePermitsStorage: .timePermitStorage,
            .rpaAuthenticate: .authenticate, .logout: .logout, .session: .auxiliary, .service: .serviceDetails,
            .authorize: .accessCode, .token: .auxiliary, .activate: .auxiliary, .activationCode: .auxiliary,
            .demoIndex: .auxiliary, .demoLogin: .auxiliary, .demoProtected: .auxiliary, .demoAbout: .auxiliary,
            .demoLogoutWait: .auxiliary, .verifyUser: .serverCall, .permitUser: .serverCall,
            .adminMailbox: .auxiliary, .adminRevoke: .auxiliary, .adminRestore: .auxiliary, .adminCounts: .auxiliary,
            .adminOperation: .auxiliary, .deviceSecurity: .auxiliary,
        ]
        let recognised: [String: RequestKind] = [
            "dtaClientSecret": .clientSecret2, "dtaTimePermit": .timePermit2, "dtaStorage": .timePermitStorage,
            "rpsAuthenticate": .serverCall, "loginResult": .serverCall, "rpsUser": .serverCall,
            "serverSecret": .serverCall,
            "timePermits": .serverCall,
        ]
        for endpoint in Endpoint.recognisedOnly { kinds[endpoint] = recognised[endpoint.name] ?? .auxiliary }
        return kinds
    }()
}
