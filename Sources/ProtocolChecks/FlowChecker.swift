import CommonFormats
import FlowRecording
import Foundation
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// Checks the HTTP exchanges of an M-Pin flow against the protocol, one exchange at a time, in the
/// order they completed: the engine of `mpin-workbench proxy`'s per-exchange report and summary and
/// of `mpin-workbench cassette check`.
///
/// It recognises each request from the client settings it has seen (`RequestKind`; the reference
/// backend's paths until then, and the open-source servers' routes whatever the settings say) and
/// checks, for each:
/// * the status against docs/protocol.md §4 (`FlowFinding.Category.status`): 200, or a status the table
///   lists for that request (a 401 on the login is INCORRECT_PIN); any other 4xx is a note (the
///   SDK's HTTP_REQUEST_ERROR, a legitimate answer to bad input), a 5xx, a redirect or no response
///   a warning, a 2xx other than 200 a failure (docs/protocol.md §1);
/// * JSON bodies and their members (§3), hex values and their lengths (§6.1), the G1 points of the
///   registration, the time permits and passes 1 and 2 (U, UT, V: on the curve, through the crypto
///   core's decoder), the access numbers' check digits (§5.1, when the settings ask for them), the
///   time-permit dates (the day of the response's `Date`, the same in the storage path);
/// * the order of the flow: settings first, share 2 after share 1, pass 1 after a time permit when
///   permits are used, pass 2 after pass 1 of the same M-Pin ID, the login with pass 2's authOTT;
/// * that the path is one an M-Pin party serves.
///
/// Levels (`FlowFinding.Level`): a problem in a server's 200 answer is a failure. A problem in a
/// request takes its level from what the server made of it: refused (4xx), a note; a server error
/// or no answer, a warning; accepted (2xx), a failure, except in pass 2, which the server answers
/// 200 whatever V is (the login gives the verdict, docs/protocol.md §3.6, §8.2), a note. An access
/// number's check digit in pass 2 is always a note: the SDK does not check it there and the server
/// answers a wrong one with 412 (§5.2). Values that are placeholders (`{{name}}`, a redacted
/// cassette) and bodies that are one placeholder are not checked.
///
/// At the end (`summary`) it names the origins the client settings point at that no request of
/// the flow went to (`FlowCheckSummary.unseenOrigins`): a client talking to a D-TA around the proxy.
package struct FlowChecker: Sendable {
    private var settings: [String: JSONValue] = [:]
    private var seenSettings = false
    /// Whether a request before any client settings has been noted (once per flow).
    private var notedMissingSettings = false
    /// The event index of the last client settings.
    private var settingsIndex: Int?
    private var registered: Set<String> = []
    private var shareOne: Set<String> = []
    /// Time permit share 1 per M-Pin ID: its date.
    private var permitDates: [String: Int] = [:]
    private var lastPermitDate: Int?
    private var pass1IDs: [String] = []
    private var lastAuthOTT: String?
    /// Every authOTT a pass 2 answered.
    private var issuedAuthOTTs: Set<String> = []
    private var logoutPath: String?
    /// The origins requests went to.
    private var requestOrigins: Set<String> = []
    /// Per origin that the settings name with an absolute URL: the settings naming it, and how
    /// many exchanges with it the client certainly made (share 2 after each share 1) and may have
    /// made (time permit share 2 after each share 1).
    private var namedOrigins: [String: (keys: [String], certain: Int, possible: Int)] = [:]
    /// Every report so far.
    package private(set) var reports: [ExchangeReport] = []
    /// The previous exchange's request and status (nil: no answer), for `checkBrowser`'s resend note.
    var previousExchange: (index: Int, request: CassetteEvent.HTTPExchange.Request, status: Int?)?

    package init() {}

    /// The reference backend's paths (its default profile's settings, `ClientSettingsLayout`), used
    /// until the client settings have been seen.
    static let defaultPaths = ClientSettingsLayout.defaultPaths

    /// The path of a client setting (relative or absolute URL).
    private func path(_ key: ClientSettingsKey) -> String? {
        if let text = settings[key.rawValue]?.stringValue, !text.isEmpty { return URLText.path(text) }
        return seenSettings ? nil : Self.defaultPaths[key.rawValue]
    }

    /// Paths under the RPS prefix (their segment after it) the servers serve, whatever the settings
    /// say: the table's endpoints under `Endpoint.rpsBase` (`RequestKind.ofEndpoint`).
    static let rpsRoutes: [String: RequestKind] = {
        let rps = Endpoint.rpsBase.split(separator: "/").map(String.init)
        var routes: [String: RequestKind] = [:]
        for (endpoint, kind) in RequestKind.ofEndpoint where endpoint.segments.count == rps.count + 1 {
            if Array(endpoint.segments.prefix(rps.count)) == rps { routes[endpoint.lastSegment] = kind }
        }
        return routes
    }()

    /// The first segments of the D-TAs the reference backend mounts (`/dta1/`, `/dta2/`).
    static let dtaMounts: Set<String> = Set([Endpoint.dta1, Endpoint.dta2].compactMap { $0.segments.first })

    /// Paths at the root of the servers, by their first segment, whatever the settings say: the
    /// table's endpoints outside the RPS prefix and the D-TA mounts (the open-source servers', the
    /// reference backend's, the MFA platform's of docs/protocol.md §10). Every endpoint under one
    /// first segment is of one kind (`RequestKindEndpointTests`).
    static let rootRoutes: [String: RequestKind] = {
        let rps = Endpoint.rpsBase.split(separator: "/").first.map(String.init)
        var routes: [String: RequestKind] = [:]
        for (endpoint, kind) in RequestKind.ofEndpoint {
            guard let first = endpoint.segments.first, first != rps, !dtaMounts.contains(first) else { continue }
            routes[first] = kind
        }
        return routes
    }()

    /// What the request is, from its method and path: the client settings' URLs first, then the
    /// servers' own routes.
    package func kind(method: String, path: String) -> RequestKind {
        func joined(_ base: String, _ tail: String) -> String {
            (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + tail
        }
        func under(_ base: String?) -> Bool { base.map { path.hasPrefix(joined($0, "")) } ?? false }
        if method == "OPTIONS" { return .auxiliary }  // a CORS preflight
        if path.hasSuffix("/clientSettings") { return method == "GET" ? .clientSettings : .other }
        if let base = self.path(.mpinAuthServerURL) {
            if path == joined(base, "pass1") { return .pass1 }
            if path == joined(base, "pass2") { return .pass2 }
        }
        if let dta = self.path(.certivoxURL) {
            if path == joined(dta, "clientSecret") { return .clientSecret2 }
            if path == joined(dta, "timePermit") { return .timePermit2 }
        }
        if let register = self.path(.registerURL), method == "PUT", path == register || under(register) {
            return .register
        }
        if under(self.path(.signatureURL)) { return .clientSecret1 }
        if under(self.path(.timePermitsStorageURL)) { return .timePermitStorage }
        if let permits = self.path(.timePermitsURL), path == permits || under(permits) { return .timePermit1 }
        if [self.path(.authenticateURL), self.path(.mobileAuthenticateURL)].contains(path) { return .authenticate }
        if path == self.path(.getAccessNumberURL) { return .getAccessNumber }
        if path == self.path(.accessNumberURL) { return .accessNumberPoll }
        if path == self.path(.getQrUrl) { return .getQrURL }
        if path == self.path(.codeStatusURL) { return .codeStatus }
        if let done = self.path(.setupDoneURL), path == done || under(done) { return .setupDone }
        if let logoutPath, path == logoutPath, method != "GET" { return .logout }
        let segments = path.split(separator: "/").map(String.init)
        let rps = (self.path(.mpinAuthServerURL) ?? Endpoint.rpsBase).split(separator: "/").map(String.init)
        if segments.count > rps.count, Array(segments.prefix(rps.count)) == rps {
            if let kind = Self.rpsRoutes[segments[rps.count]] {
                return kind == .register && method != "PUT" ? .other : kind
            }
        }
        guard let first = segments.first else { return .auxiliary }  // `/`: the demo RPA's page
        if Self.dtaMounts.contains(first), segments.count == 2 {
            // The reference backend's D-TAs; dta1 is the RPS's own (docs/protocol.md §8.4).
            if first == Endpoint.dta1.lastSegment { return .serverCall }
            return segments[1] == Endpoint.clientSecretOperation
                ? .clientSecret2 : segments[1] == Endpoint.timePermitOperation ? .timePermit2 : .other
        }
        // The demo RPA's browser logout page.
        if first == Endpoint.logout.lastSegment, method == "GET" { return .auxiliary }
        guard let kind = Self.rootRoutes[first] else { return Self.dtaKind(method: method, segments: segments) }
        switch kind {
        case .clientSecret2, .timePermit2, .authenticate, .serviceDetails, .accessCode, .logout:
            return segments.count == 1 ? kind : .other
        default: return kind
        }
    }

    /// A D-TA or time-permit storage request told by its shape, for D-TAs under a path of their own
    /// (`/v3/clientSecret` of the SDK core's recording) before the settings name them: `…/clientSecret`,
    /// `…/timePermit`, or `…/<appID>/<day number>/<64 hex digits>`.
    static func dtaKind(method: String, segments: [String]) -> RequestKind {
        guard method == "GET", let last = segments.last else { return .other }
        if last == "clientSecret" { return .clientSecret2 }
        if last == "timePermit" { return .timePermit2 }
        if segments.count >= 3, Int(segments[segments.count - 2]) != nil, last.count == 64, isLowercaseHex(last) {
            return .timePermitStorage
        }
        return .other
    }

    /// Who sent a request, from what it is: the browser for its access-number and QR requests and
    /// polls, for its login (`{"mpinResponse": {"authOTT": …}}` and nothing else: the SDK sends the
    /// whole pass 2 answer or adds `authzRequest`, docs/protocol.md §3.6, §13) and for the session pages;
    /// the operator (`admin`) for `/admin/…`; the DeviceSecurity connector for `/devicesecurity…`;
    /// else the SDK.
    package func actor(method: String, path: String, body: [UInt8]) -> EventActor {
        // A CORS preflight: only a browser sends OPTIONS (the SDKs never do).
        if method == "OPTIONS" { return .browser }
        let kind = kind(method: method, path: path)
        if kind.isBrowser { return .browser }
        if kind == .authenticate { return Self.isBrowserLogin(body) ? .browser : .sdk }
        let first = path.split(separator: "/").first.map(String.init) ?? ""
        if kind == .auxiliary {
            if first == "admin" { return .admin }
            if first == "devicesecurity" { return .device }
            if ["", "session", "login", "protected", "about", "logoutWait", "logout"].contains(first) {
                return .browser
            }
        }
        return .sdk
    }

    /// Whether a login body is the browser's PIN pad's: `mpinResponse` holding `authOTT` alone (or
    /// nothing, when its poll gave none: the SDK core's test helper), and nothing beside it.
    static func isBrowserLogin(_ body: [UInt8]) -> Bool {
        guard let json = try? JSONParser.parse(body), let members = json.objectMembers, members.count == 1,
            members[0].name == "mpinResponse", let inner = members[0].value.objectMembers
        else { return false }
        return inner.allSatisfy { $0.name == "authOTT" }
    }

    /// Whether access numbers carry a check digit, as the client decides it (`CheckDigitRule`,
    /// docs/protocol.md §2, §5.2): `cSum` not 0, `accessNumberUseCheckSum` (default true) and
    /// `accessNumberDigits` (default 7) 7. Before any client settings, the reference backend's
    /// default ones (`ClientSettingsLayout`), which ask for a check digit.
    private var accessNumbersHaveCheckDigits: Bool {
        guard seenSettings else { return Self.defaultChecksDigit }
        return CheckDigitRule.checksDigit(
            cSum: settings[ClientSettingsKey.cSum.rawValue],
            useCheckSum: settings[ClientSettingsKey.accessNumberUseCheckSum.rawValue],
            digits: settings[ClientSettingsKey.accessNumberDigits.rawValue])
    }

    /// Whether the reference backend's default settings ask for a check digit.
    static let defaultChecksDigit: Bool = {
        let members = Dictionary(
            ClientSettingsLayout.members(flavour: .milagro, profile: .default, appID: ""), uniquingKeysWith: { $1 })
        return CheckDigitRule.checksDigit(
            cSum: members[ClientSettingsKey.cSum.rawValue],
            useCheckSum: members[ClientSettingsKey.accessNumberUseCheckSum.rawValue],
            digits: members[ClientSettingsKey.accessNumberDigits.rawValue])
    }()

    /// Whether the flow uses time permits, as the client reads `usePermits` (default true).
    private var usesPermits: Bool { SettingValue.bool(settings[ClientSettingsKey.usePermits.rawValue], default: true) }

    /// How findings are added: category, level when the check fails, code, whether it passed, message.
    typealias Add = (FlowFinding.Category, FlowFinding.Level, String, Bool, String) -> Void

    /// The level of a problem in a request, from what the server made of it (see the type):
    /// `verdictLater` when a 200 does not mean the server accepted the value (pass 2's V).
    static func requestProblemLevel(_ exchange: CassetteEvent.HTTPExchange, verdictLater: Bool = false)
        -> FlowFinding.Level
    {
        guard let status = exchange.response?.status else { return .warning }
        switch status {
        case 200..<300: return verdictLater ? .note : .failure
        case 400..<500: return .note
        default: return .warning
        }
    }

    /// Checks one exchange (event `index` of the cassette) and keeps its report. `recordedActor`,
    /// when given, is compared with the actor the request's path and body name.
    @discardableResult
    package mutating func check(_ exchange: CassetteEvent.HTTPExchange, index: Int, recordedActor: EventActor? = nil)
        -> ExchangeReport
    {
        let method = exchange.request.method
        let path = URLText.path(exchange.request.url)
        let kind = kind(method: method, path: path)
        let actor = actor(method: method, path: path, body: exchange.request.body)
        if exchange.request.url.contains("://") { requestOrigins.insert(URLText.origin(of: exchange.request.url)) }
        var findings: [FlowFinding] = []
        let add: Add = { category, level, code, passed, message in
            findings.append(FlowFinding(category, passed ? .passed : level, code, message))
        }
        let requestLevel = Self.requestProblemLevel(exchange, verdictLater: kind == .pass2)
        // Before any client settings the cassette holds the middle of a flow (a test that goes on
        // from where an earlier one left off): what came before is unknown, so order is only noted.
        let orderLevel = seenSettings ? Self.requestProblemLevel(exchange) : .note
        if kind == .other {
            add(
                .request, .note, "unknown-path", false,
                "no M-Pin party serves \(method) \(ExchangeReport.brief(path)) (docs/protocol.md §8)")
        }
        if let recordedActor, recordedActor != actor, [EventActor.sdk, .browser].contains(recordedActor) {
            add(
                .request, .note, "actor", false,
                "recorded as the \(recordedActor)'s; its path and body make it the \(actor)'s")
        }
        if kind.isSDKs, kind != .clientSettings, kind != .serviceDetails, kind != .accessCode, !seenSettings,
            !notedMissingSettings
        {
            notedMissingSettings = true
            add(
                .order, .note, "order-settings", false,
                "the client settings were not fetched before this request (docs/protocol.md §2): the flow starts in the middle"
            )
        }
        checkBrowser(exchange, index: index, path: path, add)
        checkRequest(
            kind, exchange, path: path, level: requestLevel, orderLevel: orderLevel, browser: actor == .browser, add)
        checkStatus(kind, exchange, add)
        if let response = exchange.response, response.status == 200 {
            checkResponse(kind, exchange.request, response, index: index, add)
        }
        let report = ExchangeReport(
            index: index, method: method, path: path, status: exchange.response?.status, kind: kind,
            actor: actor, findings: findings)
        reports.append(report)
        return report
    }

    /// Checks every HTTP exchange of a cassette, in its order, comparing each event's actor with the
    /// one its request names: what `cassette check` prints.
    package static func summary(of cassette: Cassette) -> FlowCheckSummary {
        var checker = FlowChecker()
        for (index, event) in cassette.events.enumerated() {
            guard case .http(let exchange) = event.payload else { continue }
            checker.check(exchange, index: index, recordedActor: event.actor)
        }
        return checker.summary
    }

    /// The summary of every exchange checked so far, with the origins the settings name that no
    /// request went to.
    package var summary: FlowCheckSummary {
        let unseen = namedOrigins.filter { !requestOrigins.contains($0.key) }.sorted { $0.key < $1.key }.map {
            origin, named in
            FlowCheckSummary.UnseenOrigin(
                origin: origin, settings: named.keys, settingsIndex: settingsIndex ?? 0,
                certainExchanges: named.certain, possibleExchanges: named.possible)
        }
        return FlowCheckSummary(reports: reports, unseenOrigins: unseen)
    }

    // MARK: - Statuses

    private func checkStatus(_ kind: RequestKind, _ exchange: CassetteEvent.HTTPExchange, _ add: Add) {
        guard let response = exchange.response else {
            let failure = exchange.error.map { "\($0.kind): \($0.message)" } ?? "nothing"
            return add(
                .status, .warning, "no-response", false, "no response (\(failure)): the SDK reports NETWORK_ERROR")
        }
        let status = response.status
        if status == 200 { return add(.status, .failure, "status", true, "status 200") }
        if (200..<300).contains(status) {
            return add(
                .status, .failure, "status-2xx", false,
                "status \(status): the SDK takes only 200 as success (docs/protocol.md §1); answer 200")
        }
        guard let context = kind.context else {
            if kind == .other || kind == .auxiliary || kind == .serverCall {
                return add(.status, .note, "status", true, "status \(status)")
            }
            return add(
                .status, status >= 500 || status < 400 ? .warning : .note,
                status >= 500 ? "status-5xx" : status < 400 ? "status-3xx" : "status-4xx",
                false, "status \(status) for the \(kind.title)")
        }
        if kind == .timePermitStorage {
            return add(
                .status, .note, "status", true,
                "status \(status): the SDK fetches share 2 from the D-TA instead (docs/protocol.md §3.4)")
        }
        let sdk = HTTPStatusMapping.status(forHTTPStatus: status, in: context)
        let generic = HTTPStatusMapping.status(forHTTPStatus: status, in: .getClientSettings)
        if sdk != generic || status == 406 { return add(.status, .note, "status", true, "status \(status) → \(sdk)") }
        switch status {
        case 400..<500:
            add(
                .status, .note, "status-4xx", false,
                "status \(status) → \(sdk): a refusal docs/protocol.md §4 does not list for the \(kind.title)")
        case 500...:
            add(
                .status, .warning, "status-5xx", false,
                "status \(status) → \(sdk): a server error for the \(kind.title)")
        default:
            add(
                .status, .warning, "status-3xx", false,
                "status \(status) → \(sdk): the SDK follows no redirect (docs/protocol.md §4)")
        }
    }

    // MARK: - Requests

    private mutating func checkRequest(
        _ kind: RequestKind, _ exchange: CassetteEvent.HTTPExchange, path: String, level: FlowFinding.Level,
        orderLevel: FlowFinding.Level, browser: Bool, _ add: Add
    ) {
        let request = exchange.request
        let lastSegment = path.split(separator: "/").last.map(String.init) ?? ""
        switch kind {
        case .clientSecret1:
            if !registered.isEmpty {
                let holds = registered.contains(lastSegment)
                add(
                    .order, orderLevel, "order-share1-id", holds,
                    Self.rule(
                        "share 1 for an M-Pin ID registered before", holds: holds,
                        seen:
                            "share 1 for the M-Pin ID \(ExchangeReport.brief(lastSegment)), which no registration before it gave"
                    ))
            }
        case .clientSecret2:
            add(
                .order, orderLevel, "order-share2", !shareOne.isEmpty,
                Self.rule(
                    "share 2 after share 1 (its signed parameters)", holds: !shareOne.isEmpty,
                    seen: "share 2 with no share 1 before it"))
            let hash = URLText.queryItems(request.url).first { $0.0 == "hash_mpin_id" }?.1 ?? ""
            hex("hash_mpin_id", hash, bytes: 32, level, add)
        case .timePermitStorage:
            let segments = path.split(separator: "/").map(String.init)
            if segments.count >= 3, let date = Int(segments[segments.count - 2]) {
                let expected = lastPermitDate
                add(
                    .timePermitDate, orderLevel, "storage-date", expected == date,
                    "storage path date \(date)"
                        + (expected.map { $0 == date ? " is share 1's" : ", share 1 said \($0)" }
                            ?? ", no share 1 before it")
                        + (expected == date ? "" : "; the rule: the storage path's date is share 1's"))
            } else {
                add(.body, level, "storage-path", false, "the storage path is not …/appID/date/storageId")
            }
        case .timePermit2:
            add(
                .order, orderLevel, "order-permit2", lastPermitDate != nil,
                Self.rule(
                    "share 2 after share 1", holds: lastPermitDate != nil,
                    seen: "time permit share 2 with no share 1 before it"))
        case .pass1:
            guard let body = json(request.body, "pass 1 request", level, add) else { return }
            add(
                .body, level, "member", body["pass"]?.intValue == 1,
                Self.rule("pass is 1", holds: body["pass"]?.intValue == 1, seen: "pass is " + Self.seen(body["pass"])))
            let id = body["mpin_id"]?.stringValue ?? ""
            hex("mpin_id", id, bytes: nil, level, add)
            point("U", body["U"]?.stringValue, level, add)
            let ut = body["UT"]?.stringValue
            if ut == nil || ut == "" {
                add(
                    .body, level, "member", !usesPermits,
                    usesPermits
                        ? "UT is " + (ut == nil ? "missing" : "empty")
                            + "; the rule: UT is a point when the client settings use time permits (docs/protocol.md §3.6)"
                        : "UT empty (no time permits)")
            } else {
                point("UT", ut, level, add)
            }
            if usesPermits {
                add(
                    .order, orderLevel, "order-pass1", permitDates[id] != nil,
                    Self.rule(
                        "pass 1 after a time permit for this M-Pin ID (docs/protocol.md §3.4)",
                        holds: permitDates[id] != nil,
                        seen: permitDates.isEmpty
                            ? "pass 1 with no time permit before it"
                            : "pass 1 for an M-Pin ID no time permit was fetched for"
                    ))
            }
            pass1IDs.append(id)
        case .pass2:
            guard let body = json(request.body, "pass 2 request", level, add) else { return }
            add(
                .body, level, "member", body["pass"]?.intValue == 2,
                Self.rule("pass is 2", holds: body["pass"]?.intValue == 2, seen: "pass is " + Self.seen(body["pass"])))
            let id = body["mpin_id"]?.stringValue ?? ""
            add(
                .order, orderLevel, "order-pass2", pass1IDs.contains(id),
                Self.rule(
                    "pass 2 after pass 1 of the same M-Pin ID", holds: pass1IDs.contains(id),
                    seen: pass1IDs.isEmpty
                        ? "pass 2 with no pass 1 before it" : "pass 2 for an M-Pin ID no pass 1 before it sent"
                ))
            point("V", body["V"]?.stringValue, level, add)
            let wid = body["WID"]?.stringValue ?? body["WID"].map { JSONWriter.compact($0) } ?? ""
            if wid != "0", !wid.isEmpty { accessNumber("WID", wid, .note, add) }
        case .authenticate:
            guard let body = json(request.body, "login request", level, add) else { return }
            let authOTT = body["mpinResponse"]?["authOTT"]?.stringValue
            if Placeholder.whole(authOTT ?? "") != nil { return }
            let carried = authOTT.map { "authOTT " + Self.short($0) } ?? "no authOTT"
            if browser {
                let holds = authOTT.map { issuedAuthOTTs.contains($0) } ?? false
                add(
                    .order, orderLevel, "order-login", holds,
                    Self.rule(
                        "the browser's login carries an authOTT a pass 2 issued", holds: holds,
                        seen: "the browser's login carries \(carried)"
                            + (authOTT == nil
                                ? ""
                                : issuedAuthOTTs.isEmpty ? ", and no pass 2 before it" : ", which no pass 2 issued")
                    ))
            } else {
                let holds = authOTT != nil && authOTT == lastAuthOTT
                add(
                    .order, orderLevel, "order-login", holds,
                    Self.rule(
                        "the login carries the authOTT of the pass 2 before it", holds: holds,
                        seen: "the login carries \(carried)"
                            + (authOTT == nil
                                ? ""
                                : lastAuthOTT.map { ", the pass 2 before it issued \(Self.short($0))" }
                                    ?? ", and no pass 2 before it")
                    ))
            }
        case .register:
            guard let body = json(request.body, "registration request", level, add) else { return }
            add(
                .body, level, "member", body["userId"]?.stringValue != nil,
                Self.rule(
                    "userId is a string", holds: body["userId"]?.stringValue != nil,
                    seen: "userId is " + Self.seen(body["userId"])))
        default:
            break
        }
    }

    // MARK: - Responses

    private mutating func checkResponse(
        _ kind: RequestKind, _ request: CassetteEvent.HTTPExchange.Request,
        _ response: CassetteEvent.HTTPExchange.Response, index: Int, _ add: Add
    ) {
        switch kind {
        case .clientSettings:
            guard let body = json(response.body, "client settings", .failure, add), let members = body.objectMembers
            else { return }
            settings = [:]
            for member in members { settings[member.name] = member.value }
            seenSettings = true
            settingsIndex = index
            let required =
                ([
                    .registerURL, .signatureURL, .certivoxURL, .mpinAuthServerURL, .authenticateURL,
                    .mobileAuthenticateURL,
                ]
                + (usesPermits ? [.timePermitsURL] : [])).map { (key: ClientSettingsKey) in key.rawValue }
            let missing = required.filter { settings[$0]?.stringValue == nil }
            add(
                .body, .failure, "settings-member", missing.isEmpty,
                Self.rule(
                    "the settings the SDK reads", holds: missing.isEmpty,
                    seen: "no \(missing.joined(separator: ", "))"))
            if let dta = settings[ClientSettingsKey.certivoxURL.rawValue]?.stringValue {
                add(
                    .body, .failure, "settings-dta", dta.hasSuffix("/"),
                    Self.rule("certivoxURL ends with /", holds: dta.hasSuffix("/"), seen: "certivoxURL is \(dta)"))
            }
            for member in members {
                guard let url = member.value.stringValue, url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    continue
                }
                namedOrigins[URLText.origin(of: url), default: ([], 0, 0)].keys.append(member.name)
            }
        case .register:
            guard let body = json(response.body, "registration", .failure, add) else { return }
            let id = body["mpinId"]?.stringValue ?? ""
            hex("mpinId", id, bytes: nil, .failure, add)
            hex("regOTT", body["regOTT"]?.stringValue ?? "", bytes: nil, .failure, add)
            add(
                .body, .failure, "member", body["active"]?.boolValue != nil,
                Self.rule(
                    "active is a boolean", holds: body["active"]?.boolValue != nil,
                    seen: "active is " + Self.seen(body["active"])))
            registered.insert(id)
        case .clientSecret1:
            guard let body = json(response.body, "share 1", .failure, add) else { return }
            point("clientSecretShare", body["clientSecretShare"]?.stringValue, .failure, add)
            add(
                .body, .failure, "member", body["params"]?.stringValue != nil,
                Self.rule(
                    "params is a string", holds: body["params"]?.stringValue != nil,
                    seen: "params is " + Self.seen(body["params"])))
            shareOne.insert(URLText.path(request.url))
            expect(settings: .certivoxURL, certain: true)
        case .clientSecret2:
            guard let body = json(response.body, "share 2", .failure, add) else { return }
            point("clientSecret", body["clientSecret"]?.stringValue, .failure, add)
        case .timePermit1:
            guard let body = json(response.body, "time permit share 1", .failure, add) else { return }
            point("timePermit", body["timePermit"]?.stringValue, .failure, add)
            hex("storageId", body["storageId"]?.stringValue ?? "", bytes: 32, .failure, add)
            hex("signature", body["signature"]?.stringValue ?? "", bytes: nil, .failure, add)
            expect(settings: .timePermitsStorageURL, certain: false)
            expect(settings: .certivoxURL, certain: false)
            guard let date = body["date"]?.intValue else {
                return add(
                    .timePermitDate, .failure, "permit-date", false,
                    "date is " + Self.seen(body["date"]) + "; the rule: date is an integer day number")
            }
            if let day = Self.day(ofHTTPDate: response.headers["Date"]) {
                add(
                    .timePermitDate, .failure, "permit-date", date == day,
                    "date \(date)"
                        + (date == day
                            ? " is the day of the response"
                            : ", the response's Date is day \(day); the rule: the date is the day of the response"))
            } else {
                add(
                    .timePermitDate, .failure, "permit-date", date > 0,
                    "date \(date) (no Date field to compare with)"
                        + (date > 0 ? "" : "; the rule: a day number from 1970 on")
                )
            }
            let id = URLText.path(request.url).split(separator: "/").last.map(String.init) ?? ""
            permitDates[id] = date
            lastPermitDate = date
        case .timePermitStorage:
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            point("time permit share 2", text, .failure, add)
        case .timePermit2:
            guard let body = json(response.body, "time permit share 2", .failure, add) else { return }
            point("timePermit", body["timePermit"]?.stringValue, .failure, add)
        case .pass1:
            guard let body = json(response.body, "pass 1 response", .failure, add) else { return }
            hex("y", body["y"]?.stringValue ?? "", bytes: MPin.scalarSize, .failure, add)
        case .pass2:
            guard let body = json(response.body, "pass 2 response", .failure, add) else { return }
            let authOTT = body["authOTT"]?.stringValue ?? ""
            hex("authOTT", authOTT, bytes: 16, .failure, add)
            lastAuthOTT = authOTT
            issuedAuthOTTs.insert(authOTT)
        case .authenticate:
            guard !response.body.isEmpty, let body = try? JSONParser.parse(response.body) else { return }
            if let url = body["logoutURL"]?.stringValue { logoutPath = URLText.path(url) }
        case .getAccessNumber:
            guard let body = json(response.body, "access number", .failure, add) else { return }
            if let number = body["accessNumber"].map({ $0.stringValue ?? JSONWriter.compact($0) }) {
                accessNumber("accessNumber", number, .failure, add)
            } else {
                add(.body, .failure, "member", false, "no accessNumber; the rule: the answer holds an accessNumber")
            }
        case .accessNumberPoll:
            // `/rps/access` answers `authOTT` once the phone's login is ready, `/rps/accessnumber` too.
            guard !response.body.isEmpty, let body = try? JSONParser.parse(response.body),
                let authOTT = body["authOTT"]?.stringValue, !authOTT.isEmpty
            else { return }
            hex("authOTT", authOTT, bytes: 16, .failure, add)
        default:
            break
        }
    }

    /// Counts an exchange the client makes next with the origin of the setting `key`, when absolute.
    private mutating func expect(settings key: ClientSettingsKey, certain: Bool) {
        guard let url = settings[key.rawValue]?.stringValue, url.hasPrefix("http://") || url.hasPrefix("https://")
        else { return }
        let origin = URLText.origin(of: url)
        if certain { namedOrigins[origin]?.certain += 1 } else { namedOrigins[origin]?.possible += 1 }
    }

    // MARK: - Single values

    /// Parses a JSON body, a finding at `level` when it is not JSON (the SDK: RESPONSE_PARSE_ERROR
    /// on a response). A body that is one placeholder (`{{name}}`, redacted or left out) is not checked.
    private func json(_ bytes: [UInt8], _ what: String, _ level: FlowFinding.Level, _ add: Add) -> JSONValue? {
        if Placeholder.whole(String(decoding: bytes, as: UTF8.self)) != nil { return nil }
        do {
            // Repeated member names are kept, the last one counting, as the SDK and the servers read them.
            let value = try JSONParser.parse(bytes, duplicateMembers: .keep)
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                add(
                    .body, .note, "duplicate-member", false,
                    "the \(what) repeats a member name, the last one counts (\(error))")
            }
            guard value.objectMembers != nil else {
                add(.body, level, "not-object", false, "the \(what) is JSON but not an object")
                return nil
            }
            return value
        } catch {
            add(.body, level, "not-json", false, "the \(what) is not JSON (\(error))")
            return nil
        }
    }

    private static func isLowercaseHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Lowercase hex of `bytes` bytes (any even length when nil).
    private func hex(_ name: String, _ text: String, bytes: Int?, _ level: FlowFinding.Level, _ add: Add) {
        if Placeholder.whole(text) != nil { return }
        guard !text.isEmpty, text.count % 2 == 0, Self.isLowercaseHex(text) else {
            return add(.encoding, level, "hex", false, "\(name): not lowercase hex (\(text.count) characters)")
        }
        if let bytes, text.count != 2 * bytes {
            return add(.encoding, level, "hex-length", false, "\(name): \(text.count / 2) bytes, not \(bytes)")
        }
        add(.encoding, level, "hex", true, "\(name): \(text.count / 2) bytes of hex")
    }

    /// A G1 point: 65 bytes of lowercase hex that decode on the curve (the crypto core's decoder).
    private func point(_ name: String, _ text: String?, _ level: FlowFinding.Level, _ add: Add) {
        guard let text else { return add(.point, level, "point-missing", false, "\(name): missing") }
        if Placeholder.whole(text) != nil { return }
        guard text.count == 2 * MPin.g1Size, Self.isLowercaseHex(text), let bytes = Hex.decode(text) else {
            return add(
                .encoding, level, "point-encoding", false,
                "\(name): not \(MPin.g1Size) bytes of lowercase hex (\(text.count) characters)")
        }
        switch MPin().decodeG1(bytes) {
        case .success: add(.point, level, "point", true, "\(name): on the curve")
        case .failure(let error): add(.point, level, "point-off-curve", false, "\(name): \(error)")
        }
    }

    /// An access number's check digit, when the settings ask for one.
    private func accessNumber(_ name: String, _ number: String, _ level: FlowFinding.Level, _ add: Add) {
        if Placeholder.whole(number) != nil { return }
        guard accessNumbersHaveCheckDigits else {
            return add(
                .accessNumber, level, "access-number", !number.isEmpty,
                number.isEmpty
                    ? "\(name) is empty; the rule: \(name) is a number (the settings ask for no check digit)"
                    : "\(name) \(number) (the settings ask for no check digit)")
        }
        if let problem = AccessNumber.problem(with: number) {
            let verdict = level == .note ? " (the server's answer to it is what counts, docs/protocol.md §5.2)" : ""
            add(.accessNumber, level, "check-digit", false, "\(name) \(number): \(problem)" + verdict)
        } else {
            add(.accessNumber, level, "check-digit", true, "\(name) \(number): check digit ok")
        }
    }

    /// A finding's message of a rule: the rule when it holds, else what was seen, then the rule
    /// (`the login carries no authOTT; the rule: the login carries the authOTT of the pass 2 before it`).
    static func rule(_ rule: String, holds: Bool, seen: @autoclosure () -> String) -> String {
        holds ? rule : seen() + "; the rule: " + rule
    }

    /// A member's value as a finding tells it: `missing`, `2`, `the string "1"`, `null`, `an object`.
    static func seen(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .string(let text)?: "the string \(JSONWriter.quoted(short(text)))"
        case .number(let literal)?: literal
        case .bool(let flag)?: flag ? "true" : "false"
        case .null?: "null"
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// A long value shortened to its ends (`7362…5e93`), for findings.
    static func short(_ text: String) -> String {
        text.count > 16 ? String(text.prefix(8)) + "…" + String(text.suffix(4)) : text
    }

    /// The day number (days since 1970-01-01) of an HTTP date (`Thu, 01 Jan 2026 00:00:00 GMT`).
    static func day(ofHTTPDate text: String?) -> Int? {
        guard let text, let milliseconds = CivilTime.parseHTTPDate(text) else { return nil }
        return Int(milliseconds / 86_400_000)  // from 1970 on: never negative
    }
}
