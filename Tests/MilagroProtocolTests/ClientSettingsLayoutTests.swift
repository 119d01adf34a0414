import MilagroProtocol
import OrderedJSON
import Testing

/// The client settings of each flavour and profile: their keys, and URLs taken from the endpoint table.
@Suite struct ClientSettingsLayoutTests {
    static let pairings: [(BackendFlavour, BackendProfile)] = [
        (.milagro, .default), (.milagro, .milagroOSS), (.milagro, .milagroHostedV3),
        (.mfaPlatform, .default),
    ]

    @Test func theDefaultProfilesMembersInOrder() {
        let names = ClientSettingsLayout.members(flavour: .milagro, profile: .default, appID: "a").map(\.0)
        #expect(
            names == [
                "registerURL", "signatureURL", "certivoxURL", "timePermitsURL", "timePermitsStorageURL", "usePermits",
                "appID",
                "mpinAuthServerURL", "authenticateURL", "mobileAuthenticateURL", "accessNumberDigits",
                "accessNumberUseCheckSum",
                "cSum", "setDeviceName", "requestOTP", "accessNumberURL", "getAccessNumberURL",
            ])
    }

    /// What the flow checker assumes before a flow's own settings: the reference backend's paths.
    @Test func theDefaultPaths() {
        #expect(
            ClientSettingsLayout.defaultPaths == [
                "registerURL": "/rps/user", "signatureURL": "/rps/signature", "certivoxURL": "/dta2/",
                "timePermitsURL": "/rps/timePermit",
                "timePermitsStorageURL": "/timePermitsStorage", "mpinAuthServerURL": "/rps",
                "authenticateURL": "/mpinAuthenticate",
                "mobileAuthenticateURL": "/rps/authenticate", "accessNumberURL": "/rps/access",
                "getAccessNumberURL": "/rps/getAccessNumber",
            ])
    }

    /// Every member is a `ClientSettingsKey`, named once; every URL is an endpoint's path (the
    /// RPS's base for `mpinAuthServerURL`), absolute under `milagro-oss` but for `authenticateURL`.
    @Test(arguments: pairings)
    func everyURLIsAnEndpointsPath(flavour: BackendFlavour, profile: BackendProfile) {
        let base = "http://127.0.0.1:8005"
        let members = ClientSettingsLayout.members(
            flavour: flavour, profile: profile, appID: "a", baseURL: base, seedValue: "5eed")
        #expect(members.allSatisfy { ClientSettingsKey(rawValue: $0.0) != nil })
        #expect(Set(members.map(\.0)).count == members.count)
        let paths = Set(Endpoint.all.map(\.path) + [Endpoint.rpsBase])
        for (name, value) in members where name.hasSuffix("URL") || name == ClientSettingsKey.getQrUrl.rawValue {
            guard case .string(var url) = value else {
                Issue.record("\(name) is not a string")
                continue
            }
            // Absolute under milagro-oss, but for the RPA's login (the demo's relative RPAAuthenticateUserURL).
            if profile == .milagroOSS && name != ClientSettingsKey.authenticateURL.rawValue {
                #expect(url.hasPrefix(base), "\(name)")
                url = String(url.dropFirst(base.count))
            }
            #expect(paths.contains(url), "\(flavour) \(profile): \(name) \(url)")
        }
    }

    @Test func theSeedValueAndAppIDAreTheCallers() {
        let hosted = Dictionary(
            ClientSettingsLayout.members(flavour: .milagro, profile: .milagroHostedV3, appID: "app", seedValue: "ab"),
            uniquingKeysWith: { $1 })
        #expect(hosted["seedValue"] == .string("ab") && hosted["appID"] == .string("app"))
        #expect(
            hosted["certivoxURL"] == .string("/dta2/v3/") && hosted["accessNumberURL"] == .string("/rps/accessnumber"))
        let platform = Dictionary(
            ClientSettingsLayout.members(flavour: .mfaPlatform, profile: .default, appID: "OIDC"),
            uniquingKeysWith: { $1 })
        #expect(
            platform["seedValue"] == nil && platform["usePermits"] == .bool(false) && platform["cSum"] == .number("0"))
    }
}
