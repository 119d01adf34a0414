import CommonFormats
import FlowRecording
import MPinCrypto

extension Redactor {
    /// The secrets of a Milagro M-Pin flow (docs/protocol.md, docs/security.md), and what each
    /// can be derived from: the PIN, the token and the client-secret shares, SEC (CLIENT_1's token +
    /// pin·H(ID) + permit: minus the public time permit it is the client secret), the ephemeral x
    /// and every random draw it comes from (with x, y and the public V, −(x+y)⁻¹·V is SEC), the
    /// seed of a seeded run (`scenario.seed` and the script's: it makes every draw again) and the
    /// backend's `seedValue` (which a client may mix into its generator), the one-time tokens
    /// (regOTT, authOTT, webOTT), OTPs, access numbers and codes (and the QR URL that carries the
    /// access code), activation codes and keys (`s` in an activation link) and the mailbox
    /// messages that carry them, OpenID Connect codes, session tokens, cookies and HTTP
    /// credentials, and DeviceSecurity's password, session id, device hash and device id. `record`
    /// redacts them by default for backends that are not on loopback; `cassette redact --redact
    /// default` adds them.
    public static let milagroFields = [
        "pin", "token", "regOTT", "clientSecretShare", "clientSecret", "clientSecret1", "clientSecret2", "sec", "x",
        drawField, seedField,
        "seedValue", "authOTT", "webOTT", "otp", "accessNumber", "accessCode", "qrUrl", "authorizationCode", "code",
        "activateCode",
        "activateKey", "s", "value", "session", "sessionToken", "Authorization", "Cookie", "Set-Cookie", "password",
        "mvSessionId",
        "deviceHash", "deviceId",
    ]

    /// The fields a `--redact` option names (`record`, `proxy`, `conform`): none for `none`, the
    /// Milagro secrets for `default` (and, given nothing, for a backend `live` that is not on
    /// loopback, `Loopback`), plus any names given.
    public static func milagroFields(for redact: [String], live: String?) -> [String] {
        if redact.contains("none") { return [] }
        if redact.contains("default") || (redact.isEmpty && live.map { !Loopback.isLoopback(url: $0) } == true) {
            return milagroFields + redact.filter { $0 != "default" }
        }
        return redact
    }

    /// The secrets only the client holds, which no M-Pin backend ever sends in an answer: the PIN,
    /// the token, SEC, x, the random draws and the seed. `cassette serve` never fills them into an
    /// answer it serves, whatever the file's manifest says (docs/security.md): a file edited along
    /// with its manifest cannot make it send the PIN.
    public static let milagroClientOnly = ["pin", "token", "sec", "x", drawField, seedField]

    /// The fields of a Milagro flow that stay in clear after the default redaction, each with why
    /// it gives no secret away. `cassette audit` names any other field it finds in clear.
    public static let milagroPublic: [String: String] = {
        var out: [String: String] = [:]
        func add(_ reason: String, _ names: String...) { for name in names { out[name] = reason } }
        add(
            "HTTP framing and content negotiation, the same for every user", "Content-Type", "Content-Length", "Date",
            "Accept")
        add(
            "the client ID of the customer's app, sent in clear by every SDK of that app", "X-MIRACL-CID", "clientID",
            "clientId",
            "app_id", "appID", "appId", "customerId", "customerName", "appName", "name")
        add(
            "an address or a path of the backend's published settings", "backend", "url", "landingURL", "registerURL",
            "signatureURL",
            "certivoxURL", "dta2URL", "timePermitsURL", "timePermitsStorageURL", "mpinAuthServerURL", "authenticateURL",
            "mobileAuthenticateURL", "accessNumberURL", "getAccessNumberURL", "codeStatusURL", "getQrUrl", "rps_prefix",
            "rpsPrefix",
            "type", "logoURL", "logo_url", "accessURL", "redirectURL", "logoutURL", "authorizationURL")
        add(
            "the user's identity as the user typed it, and the M-Pin ID built from it: sent in clear with every request (docs/protocol.md)",
            "id", "user", "userId", "mpinId", "mpin_id")
        add(
            "H(ID) and its point on G1: computed by anyone from the public M-Pin ID", "hash", "point", "hash_mpin_id",
            "storageId")
        add(
            "times of the flow, and the day number of a time permit", "expireTime", "nowTime", "date", "expires",
            "localTimeStart",
            "localTimeEnd", "ttlSeconds")
        add(
            "the D-TA's time permit share s·H(date‖ID): with SEC redacted, SEC − TP cannot be formed, and a permit alone gives no client secret",
            "timePermit", "timePermit1", "timePermit2")
        add(
            "U = x·H(ID), UT = x·(H(ID)+H(date‖ID)), y and V = −(x+y)·SEC travel in clear in pass 1 and 2: with x and SEC redacted, "
                + "recovering either from them is a discrete logarithm", "u", "ut", "U", "UT", "y", "v", "V")
        add(
            "the RPS's signature of a D-TA request, which expires a minute after it is issued (`expires`)", "signature",
            "params")
        add(
            "a status, message, version or counter of the protocol", "message", "version", "status", "statusCode",
            "until", "WID", "wid",
            "mobile", "pass")
        add("the data the RPA returns after a login, which is no credential", "authResultData", "someUserData")
        add("a yes/no or a count the flow reports", "canLogout", "loggedOut", "count", "kind")
        add(
            "the method, path and body of a request a step sends, and the mailbox listing: the secrets in them are redacted string by string",
            "method", "path", "body", "messages")
        add(
            "a parameter of the authorization URL the app chooses (OpenID Connect), which no login can be made with",
            "client_id", "redirect_uri", "response_type", "scope", "state")
        add(
            "an HTTP header of caching, cross-origin rules or the server's name, the same for every user",
            "Cache-Control", "Etag",
            "Expires", "Pragma", "Server", "Access-Control-Allow-Credentials", "Access-Control-Allow-Headers",
            "Access-Control-Allow-Methods", "Access-Control-Allow-Origin")
        add("an activation link's M-Pin ID (`i`, public as `mpinId`) and expiry time (`e`)", "i", "e")
        add(
            "an empty or app-chosen SDK argument (device name, user data, push token, second factor)", "deviceName",
            "userData",
            "pushToken", "pushMessageIdentifier", "secondFactor", "prerollId")
        add(
            "an address of the app's or customer's published branding, or of the backend's setup", "appIconURL",
            "appLogoURL",
            "customerIconURL", "customerLogoURL", "setupDoneURL", "origin", "service_name")
        add(
            "DeviceSecurity's user name, group and application identifiers, which the operator publishes to every device of the group",
            "username", "group", "accessIdentifier", "applications", "operation")
        add(
            "a DeviceSecurity setting, count or result code, the same for every device of the group", "borrowTime",
            "defaultApplicationBorrowTime", "deviceBorrowTime", "sessionLifetime", "hasAccess", "loginShown", "resCode",
            "resMsg",
            "serviceResult", "granted", "revoked", "devices", "faults", "sessions", "users", "result", "seconds")
        add(
            "a member of the scenario script that says what the run does (its name, description, flavour, profile, activation, "
                + "checks), not what it drew", "description", "flavour", "profile", "activation", "checks", "clientID",
            "startTime")
        add(
            "the operator's lists (counts, M-Pin IDs, device mappings): the secrets in them are redacted string by string",
            "mpinIds", "mappings")
        return out
    }()
}

extension Redactor {
    /// A stand-in for each placeholder of `cassette`, shaped as the secret it hides, for a replay
    /// without the secrets: a PIN is four digits (a different PIN for each placeholder), OTPs,
    /// access numbers and activation codes are digits, shares, SEC and the token are G1 points
    /// (mapToG1 of the placeholder's name), x is a scalar, a random draw is 8 bytes, a QR URL is the
    /// backend's URL, `#` and the access code's stand-in of the same number, a Set-Cookie the MFA
    /// platform's `mpinSession` cookie with the session's stand-in, anything else 32 hex
    /// digits. None is a secret: each is derived from the placeholder's name.
    public static func milagroStandIns(for cassette: Cassette) -> [String: String] {
        let mpin = MPin(curve: cassette.curve.uppercased() == "BN254" ? .bn254 : .bn254cx)
        let fields = Dictionary(cassette.redactions.map { ($0.placeholder, $0.field.lowercased()) }) { first, _ in first
        }
        var out: [String: String] = [:]
        let names = (Redactor.placeholderNames(in: cassette) + cassette.redactions.map(\.placeholder)).reduce(
            into: [String]()
        ) {
            if !$0.contains($1) { $0.append($1) }
        }
        func hex(_ name: some StringProtocol) -> String {
            Hex.encode(Array(mpin.hashID(Array(("stand-in " + name).utf8)).prefix(16)))
        }
        for (number, name) in names.enumerated() {
            let digest = mpin.hashID(Array(("stand-in " + name).utf8))
            let digits = digest.map { String($0 % 10) }.joined()
            switch fields[name] ?? name.split(separator: "_").first.map(String.init)?.lowercased() ?? name {
            case "pin": out[name] = String(1000 + number % 9000)
            case "accessnumber": out[name] = AccessNumber.complete(String(digits.prefix(6))) ?? String(digits.prefix(7))
            case "otp", "activatecode": out[name] = String(digits.prefix(8))
            case "clientsecretshare", "clientsecret", "sec", "token": out[name] = Hex.encode(mpin.mapToG1(digest))
            case "qrurl":
                // The browser reads the access code after the `#`: the one of the same number.
                out[name] = cassette.backend.url + "#" + hex("accessCode" + name.dropFirst("qrUrl".count))
            case "set-cookie":
                // The browser reads the session from the MFA platform's cookie (docs/protocol.md).
                out[name] = "mpinSession=" + hex("session" + name.dropFirst("Set-Cookie".count)) + "; Path=/; HttpOnly"
            case "x": out[name] = Hex.encode(Array(digest.prefix(31)))
            case drawField.lowercased(): out[name] = Hex.encode(Array(digest.prefix(8)))
            default: out[name] = hex(name)
            }
        }
        return out
    }
}
