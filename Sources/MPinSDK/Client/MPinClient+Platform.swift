import MilagroProtocol
import OrderedJSON

extension MPinClient {
    /// Sets the client (customer) id sent with every request: `X-MIRACL-CID` on the MFA platform,
    /// `X-MIRACL-Client-ID` in the Milagro flavour.
    public func setClientID(_ clientID: String) async throws(MPinError) {
        try await perform("setClientID", [NamedValue("clientID", clientID)]) { () async throws(MPinError) in
            self.clientID = clientID
        }
    }

    /// Restricts requests to https URLs whose host is in this domain (or another trusted one);
    /// anything else fails with UNTRUSTED_DOMAIN_ERROR without being sent. `domain` may be a host
    /// (`miracl.net`) or a URL (`https://miracl.net`). A host is in the domain when it is the
    /// domain's host or ends in `.` + it (`api.miracl.net`, not `evilmiracl.net`); with
    /// `Options.trustedDomainMatching` `.legacySuffix`, any host ending in it, as the MFA-platform
    /// core matches.
    public func addTrustedDomain(_ domain: String) async throws(MPinError) {
        try await perform("addTrustedDomain", [NamedValue("domain", domain)]) { () async throws(MPinError) in
            let host = Self.trustedHost(domain)
            guard !host.isEmpty else { throw MPinError.flow("The trusted domain is empty") }
            if !trustedDomains.contains(host) { trustedDomains.append(host) }
        }
    }

    /// Forgets the trusted domains (every URL is allowed again).
    public func clearTrustedDomains() async throws(MPinError) {
        try await perform("clearTrustedDomains", []) { () async throws(MPinError) in trustedDomains = [] }
    }

    /// Reads `GET <url>/service` (docs/protocol.md §3.0); needs an initialized SDK but no backend.
    /// - Throws: RESPONSE_PARSE_ERROR unless all five keys are strings and `type` is `online`;
    ///   BAD_CLIENT_VERSION on 412 (MFA platform).
    public func getServiceDetails(url: String) async throws(MPinError) -> ServiceDetails {
        try await perform(
            "getServiceDetails", [NamedValue("url", url)],
            outputs: { details in
                [
                    NamedValue("name", details.name), NamedValue("url", details.backendURL),
                    NamedValue("rpsPrefix", details.rpsPrefix), NamedValue("logoURL", details.logoURL),
                ]
            }
        ) { () async throws(MPinError) in
            let answer = try await request(.getServiceDetails, .get, Self.trimmedURL(url) + Endpoint.service.path)
            var values: [String: String] = [:]
            for key in ["name", "url", "rps_prefix", "logo_url", "type"] {
                guard let value = answer.string(key) else {
                    throw MPinError(.responseParseError, "The service details have no string '\(key)'")
                }
                values[key] = value
            }
            guard values["type"] == "online" else {
                throw MPinError(.responseParseError, "The service type is '\(values["type"]!)', not 'online'")
            }
            return ServiceDetails(
                name: values["name"]!, backendURL: values["url"]!, rpsPrefix: values["rps_prefix"]!,
                logoURL: values["logo_url"]!)
        }
    }

    /// Details of the browser session of an access code (docs/protocol.md §3.7); empty details when the
    /// backend has no `codeStatusURL`. Also tells the backend the code was scanned. Reads the
    /// platform's `prerollId`, `appName`, `appLogoURL` and, when absent, the open-source RPS's
    /// `PrerollId`, `AppName`, `AppLogoUrl`.
    public func getSessionDetails(accessCode: String) async throws(MPinError) -> SessionDetails {
        try await perform(
            "getSessionDetails", [NamedValue("accessCode", accessCode)],
            outputs: { details in
                [
                    NamedValue("prerollId", details.prerollID), NamedValue("appName", details.appName),
                    NamedValue("appIconURL", details.appIconURL), NamedValue("customerId", details.customerID),
                    NamedValue("customerName", details.customerName),
                    NamedValue("customerIconURL", details.customerIconURL),
                ]
            }
        ) { () async throws(MPinError) in
            let settings = try requireBackend()
            guard !settings.codeStatusURL.isEmpty else { return SessionDetails() }
            let answer = try await request(
                .getSessionDetails, .post, settings.codeStatusURL,
                body: .fields([
                    "status": .string("wid"), "wid": .string(accessCode),
                ]))
            // The open-source RPS capitalises the first three (`PrerollId`, `AppName`, `AppLogoUrl`, docs/protocol.md §3.7).
            return SessionDetails(
                prerollID: answer.string("prerollId") ?? answer.string("PrerollId") ?? "",
                appName: answer.string("appName") ?? answer.string("AppName") ?? "",
                appIconURL: answer.string("appLogoURL") ?? answer.string("AppLogoUrl") ?? "",
                customerID: answer.string("customerId") ?? "",
                customerName: answer.string("customerName") ?? "",
                customerIconURL: answer.string("customerLogoURL") ?? "")
        }
    }

    /// Tells the backend the browser session of an access code is abandoned (`AbortSession`); a
    /// no-op without `codeStatusURL`.
    public func abortSession(accessCode: String) async throws(MPinError) {
        try await perform("abortSession", [NamedValue("accessCode", accessCode)]) { () async throws(MPinError) in
            let settings = try requireBackend()
            guard !settings.codeStatusURL.isEmpty else { return }
            _ = try await request(
                .abortSession, .post, settings.codeStatusURL,
                body: .fields([
                    "status": .string("abort"), "wid": .string(accessCode),
                ]), expectJSON: false)
        }
    }

    /// Starts an in-app login at an OIDC authorization URL (`GetAccessCode`, docs/protocol.md §3.8): posts
    /// `{}` and returns the access code, the part of `qrURL` after its last `#`.
    public func getAccessCode(authorizationURL: String) async throws(MPinError) -> String {
        try await perform(
            "getAccessCode", [NamedValue("authorizationURL", authorizationURL)],
            outputs: { [NamedValue("accessCode", $0)] }
        ) { () async throws(MPinError) in
            let answer = try await request(.getAccessCode, .post, authorizationURL, body: .object([]))
            let qrURL = try answer.required("qrURL", context: .getAccessCode)
            guard let hash = qrURL.lastIndex(of: "#"), qrURL.index(after: hash) < qrURL.endIndex else {
                throw MPinError(.responseParseError, "The qrURL '\(qrURL)' has no access code after '#'")
            }
            return String(qrURL[qrURL.index(after: hash)...])
        }
    }
}
