import OrderedJSON

/// The client settings a backend of each flavour and profile answers (docs/protocol.md §2, §13), member
/// for member and in order: the one statement of their keys and values, which the reference
/// backend serves and the flow checker assumes until it has seen a flow's own.
public enum ClientSettingsLayout {
    /// The settings' members.
    ///
    /// * `default` profile, milagro flavour: relative URLs the client prefixes with the backend URL,
    ///   `usePermits`, and `requestOTP: true` (the demo RPA answers a login whose pass 2 asked for an
    ///   OTP with the OTP's validity); `accessNumberURL`/`getAccessNumberURL`, which the open-source
    ///   server adds only when `requestOTP` is false, are kept (docs/backend.md, "Reference backend").
    /// * `default` profile, MFA platform: relative URLs, `dta2URL`, no permits, `codeStatusURL` and
    ///   `getQrUrl`, the RPS's `/rps/authenticate` as the login, no check digit (`cSum` 0).
    /// * `milagro-oss`, the open-source server's (`ClientSettingsHandler.get`, docs/protocol.md §13) in its
    ///   order: absolute URLs (`baseURL` and the path) but a relative `authenticateURL`, the storage
    ///   under D-TA 2 (`/dta2/tpstorage`, or `dta2URL`'s `/tpstorage` and `certivoxURL` `dta2URL/`
    ///   when D-TA 2 has an origin of its own), no `usePermits` (permits always used), `requestOTP:
    ///   false`, and `seedValue`, `setupDoneURL`, `useNFC` and `useWebSocket` (false). Its JSON
    ///   member order is Python's dict order, which the backend's `OpenSourceServer` works out.
    /// * `milagro-hosted-v3`, as recorded by the SDK core's unit tests: relative URLs in the recorded
    ///   order, no `usePermits`, `requestOTP` false, `certivoxURL` the hosted D-TA's v3 base,
    ///   `accessNumberURL` the browser's `/rps/accessnumber`, and `seedValue`.
    ///
    /// `seedValue` is used by the `milagro-oss` and `milagro-hosted-v3` profiles only; `baseURL` by
    /// `milagro-oss` only. The MFA platform's flavour takes the default profile's members whatever
    /// the profile (the backend refuses that pairing, `BackendProfile.problem`).
    public static func members(
        flavour: BackendFlavour, profile: BackendProfile, appID: String, baseURL: String = "",
        seedValue: String = "", dta2URL: String? = nil
    ) -> [(String, JSONValue)] {
        typealias K = ClientSettingsKey
        typealias E = Endpoint
        let storage = JSONValue.string(E.timePermitsStorage.path)
        let pairs: [(ClientSettingsKey, JSONValue)]
        switch (flavour, profile) {
        case (.milagro, .milagroHostedV3):
            pairs = [
                (.requestOTP, false), (.mpinAuthServerURL, .string(E.rpsBase)),
                (.timePermitsURL, .string(E.timePermit.path)),
                (.useWebSocket, false), (.useNFC, false), (.setDeviceName, false), (.seedValue, .string(seedValue)),
                (.accessNumberDigits, 7), (.accessNumberURL, .string(E.hostedAccessNumberPoll.path)),
                (.setupDoneURL, .string(E.setupDone.path)), (.timePermitsStorageURL, storage),
                (.authenticateURL, .string(E.rpaAuthenticate.path)), (.certivoxURL, .string(E.hostedDTA2.path)),
                (.accessNumberUseCheckSum, true), (.registerURL, .string(E.register.path)), (.appID, .string(appID)),
                (.cSum, 1),
                (.signatureURL, .string(E.signature.path)), (.getAccessNumberURL, .string(E.getAccessNumber.path)),
                (.mobileAuthenticateURL, .string(E.mobileAuthenticate.path)),
            ]
        case (.milagro, .milagroOSS):
            // `ClientSettingsHandler.get` of servers/rps/rps.py, in its order: the dict literal's
            // 18 members, then the two it adds when `requestOTP` is off.
            let url = { (path: String) -> JSONValue in .string(baseURL + path) }
            pairs = [
                (.certivoxURL, dta2URL.map { .string($0 + "/") } ?? url(E.dta2.path)),
                (.signatureURL, url(E.signature.path)),
                (.registerURL, url(E.register.path)),
                (.timePermitsURL, url(E.timePermit.path)),
                (
                    .timePermitsStorageURL,
                    dta2URL.map { .string($0 + "/tpstorage") } ?? url(E.openSourceTimePermitsStorage.path)
                ),
                (.setupDoneURL, url(E.setupDone.path)), (.mpinAuthServerURL, url(E.rpsBase)),
                // The RPS's `RPAAuthenticateUserURL` option, relative as the demo's configuration gives it.
                (.authenticateURL, .string(E.rpaAuthenticate.path)),
                (.mobileAuthenticateURL, url(E.mobileAuthenticate.path)), (.setDeviceName, false),
                (.accessNumberUseCheckSum, true),
                (.appID, .string(appID)), (.requestOTP, false), (.seedValue, .string(seedValue)),
                (.useWebSocket, false),
                (.accessNumberDigits, 7), (.cSum, 1), (.useNFC, false),
                (.accessNumberURL, url(E.accessNumberPoll.path)), (.getAccessNumberURL, url(E.getAccessNumber.path)),
            ]
        case (.milagro, .default):
            pairs = [
                (.registerURL, .string(E.register.path)), (.signatureURL, .string(E.signature.path)),
                (.certivoxURL, .string(E.dta2.path)),
                (.timePermitsURL, .string(E.timePermit.path)), (.timePermitsStorageURL, storage),
                (.usePermits, true), (.appID, .string(appID)),
                (.mpinAuthServerURL, .string(E.rpsBase)), (.authenticateURL, .string(E.rpaAuthenticate.path)),
                (.mobileAuthenticateURL, .string(E.mobileAuthenticate.path)), (.accessNumberDigits, 7),
                (.accessNumberUseCheckSum, true), (.cSum, 1), (.setDeviceName, false), (.requestOTP, true),
                (.accessNumberURL, .string(E.accessNumberPoll.path)),
                (.getAccessNumberURL, .string(E.getAccessNumber.path)),
            ]
        case (.mfaPlatform, _):
            pairs = [
                (.registerURL, .string(E.register.path)), (.signatureURL, .string(E.signature.path)),
                (.certivoxURL, .string(E.dta2.path)),
                (.dta2URL, .string(E.dta2.path)), (.usePermits, false), (.appID, .string(appID)),
                (.mpinAuthServerURL, .string(E.rpsBase)),
                (.authenticateURL, .string(E.mobileAuthenticate.path)),
                (.mobileAuthenticateURL, .string(E.mobileAuthenticate.path)),
                (.codeStatusURL, .string(E.codeStatus.path)), (.accessNumberDigits, 0),
                (.accessNumberUseCheckSum, false),
                (.cSum, 0), (.setDeviceName, false), (.requestOTP, false),
                (.accessNumberURL, .string(E.accessNumberPoll.path)),
                (.getQrUrl, .string(E.getQrURL.path)),
            ]
        }
        return pairs.map { ($0.0.rawValue, $0.1) }
    }

    /// The paths the `default` profile's milagro settings give each URL member: what a flow is
    /// assumed to use until its own settings are seen.
    public static let defaultPaths: [String: String] = {
        var paths: [String: String] = [:]
        for (name, value) in members(flavour: .milagro, profile: .default, appID: "") where name.hasSuffix("URL") {
            if case .string(let path) = value { paths[name] = path }
        }
        return paths
    }()
}
