import FlowRecording
import Foundation
import MPinCrypto
import MPinSDK
import OrderedJSON
import SDKSeams

/// Checks the HTTP exchanges of an M-Pin flow against the protocol, one exchange at a time, in the
/// order they completed: the engine of `mpin-workbench proxy`'s per-exchange report and summary.
///
/// It recognises each request from the client settings it has seen (`RequestKind`; the reference
/// backend's paths until then) and checks, for each:
/// * the status against PROTOCOL.md §4 (`FlowFinding.Category.status`): 200, or a status the table
///   lists for that request (a 401 on the login is INCORRECT_PIN); any other is flagged with the SDK
///   status it gives, a transport error as NETWORK_ERROR;
/// * JSON bodies and their members (§3), hex values and their lengths (§6.1), the G1 points of the
///   registration, the time permits and passes 1 and 2 (U, UT, V: on the curve, through the crypto
///   core's decoder), the access numbers' check digits (§5.1, when the settings ask for them), the
///   time-permit dates (the day of the response's `Date`, the same in the storage path);
/// * the order of the flow: settings first, share 2 after share 1, pass 1 after a time permit when
///   permits are used, pass 2 after pass 1 of the same M-Pin ID, the login with pass 2's authOTT.
package struct FlowChecker: Sendable {
    private var settings: [String: JSONValue] = [:]
    private var seenSettings = false
    private var registered: Set<String> = []
    private var shareOne: Set<String> = []
    /// Time permit share 1 per M-Pin ID: its date.
    private var permitDates: [String: Int] = [:]
    private var lastPermitDate: Int?
    private var pass1IDs: [String] = []
    private var lastAuthOTT: String?
    private var logoutPath: String?
    /// Every report so far.
    package private(set) var reports: [ExchangeReport] = []

    package init() {}

    /// The reference backend's paths, used until the client settings have been seen.
    static let defaultPaths: [String: String] = [
        "registerURL": "/rps/user", "signatureURL": "/rps/signature", "certivoxURL": "/dta2/", "timePermitsURL": "/rps/timePermit",
        "timePermitsStorageURL": "/timePermitsStorage", "mpinAuthServerURL": "/rps", "authenticateURL": "/mpinAuthenticate",
        "mobileAuthenticateURL": "/rps/authenticate", "accessNumberURL": "/rps/access", "getAccessNumberURL": "/rps/getAccessNumber",
    ]

    /// The path of a client setting (relative or absolute URL).
    private func path(_ key: String) -> String? {
        if let text = settings[key]?.stringValue, !text.isEmpty { return URLText.path(text) }
        return seenSettings ? nil : Self.defaultPaths[key]
    }

    /// What the request is, from its method and path.
    package func kind(method: String, path: String) -> RequestKind {
        func joined(_ base: String, _ tail: String) -> String { (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + tail }
        if path.hasSuffix("/clientSettings") { return .clientSettings }
        if path.hasSuffix("/service") { return .serviceDetails }
        if let base = self.path("mpinAuthServerURL") {
            if path == joined(base, "pass1") { return .pass1 }
            if path == joined(base, "pass2") { return .pass2 }
        }
        if let dta = self.path("certivoxURL") {
            if path == joined(dta, "clientSecret") { return .clientSecret2 }
            if path == joined(dta, "timePermit") { return .timePermit2 }
        }
        if let register = self.path("registerURL"), method == "PUT", path == register || path.hasPrefix(joined(register, "")) { return .register }
        if let signature = self.path("signatureURL"), path.hasPrefix(joined(signature, "")) { return .clientSecret1 }
        if let storage = self.path("timePermitsStorageURL"), path.hasPrefix(joined(storage, "")) { return .timePermitStorage }
        if let permits = self.path("timePermitsURL"), path.hasPrefix(joined(permits, "")) { return .timePermit1 }
        if [self.path("authenticateURL"), self.path("mobileAuthenticateURL")].contains(path) { return .authenticate }
        if path == self.path("getAccessNumberURL") { return .getAccessNumber }
        if path == self.path("accessNumberURL") { return .accessNumberPoll }
        if let logoutPath, path == logoutPath { return .logout }
        return .other
    }

    /// Who sent a request: the browser for its access-number requests, for a non-GET request without
    /// the `Accept: text/plain` the SDK puts on each (PROTOCOL.md §1) and for a request with a cookie
    /// (the SDK sends none); else the SDK.
    package func actor(method: String, path: String, headers: HTTPHeaders) -> EventActor {
        if kind(method: method, path: path).isBrowser { return .browser }
        if method != "GET", headers["Accept"]?.lowercased() != "text/plain" { return .browser }
        return headers.contains("Cookie") ? .browser : .sdk
    }

    /// Whether access numbers carry a check digit: `accessNumberUseCheckSum` (default true), `cSum`
    /// not 0 and `accessNumberDigits` 7 (PROTOCOL.md §5.2).
    private var accessNumbersHaveCheckDigits: Bool {
        let use = settings["accessNumberUseCheckSum"]?.boolValue ?? true
        let sum = settings["cSum"]?.intValue ?? (seenSettings ? 0 : 1)
        let digits = settings["accessNumberDigits"]?.intValue ?? 7
        return use && sum != 0 && digits == 7
    }

    private var usesPermits: Bool { settings["usePermits"]?.boolValue ?? true }

    /// Checks one exchange (event `index` of the cassette) and keeps its report.
    @discardableResult
    package mutating func check(_ exchange: CassetteEvent.HTTPExchange, index: Int) -> ExchangeReport {
        let method = exchange.request.method
        let path = URLText.path(exchange.request.url)
        let kind = kind(method: method, path: path)
        var findings: [FlowFinding] = []
        func add(_ category: FlowFinding.Category, _ passed: Bool, _ message: String) {
            findings.append(FlowFinding(category, passed, message))
        }
        if kind != .other, kind != .clientSettings, kind != .serviceDetails, !kind.isBrowser, !seenSettings {
            add(.order, false, "the client settings were not fetched before this request (PROTOCOL.md §2)")
        }
        checkRequest(kind, exchange, path: path, add)
        checkStatus(kind, exchange, add)
        if let response = exchange.response, response.status == 200 {
            checkResponse(kind, exchange.request, response, add)
        }
        let report = ExchangeReport(index: index, method: method, path: path, status: exchange.response?.status, kind: kind, findings: findings)
        reports.append(report)
        return report
    }

    /// The summary of every exchange checked so far.
    package var summary: FlowCheckSummary { FlowCheckSummary(reports: reports) }

    // MARK: - Statuses

    private func checkStatus(_ kind: RequestKind, _ exchange: CassetteEvent.HTTPExchange, _ add: (FlowFinding.Category, Bool, String) -> Void) {
        guard let response = exchange.response else {
            let failure = exchange.error.map { "\($0.kind): \($0.message)" } ?? "nothing"
            add(.status, false, "no response (\(failure)): the SDK reports NETWORK_ERROR")
            return
        }
        let status = response.status
        if status == 200 { return add(.status, true, "status 200") }
        if (200..<300).contains(status) {
            return add(.status, false, "status \(status): the SDK takes only 200 as success (PROTOCOL.md §1); answer 200")
        }
        guard let context = kind.context else {
            return add(.status, kind == .other, "status \(status)" + (kind == .other ? "" : " for the \(kind.title)"))
        }
        if kind == .timePermitStorage {
            return add(.status, true, "status \(status): the SDK fetches share 2 from the D-TA instead (PROTOCOL.md §3.4)")
        }
        let sdk = HTTPStatusMapping.status(forHTTPStatus: status, in: context)
        let generic = HTTPStatusMapping.status(forHTTPStatus: status, in: .getClientSettings)
        let listed = sdk != generic || status == 406
        add(.status, listed, "status \(status) → \(sdk)" + (listed ? "" : " (not a status PROTOCOL.md §4 lists for the \(kind.title))"))
    }

    // MARK: - Requests

    private mutating func checkRequest(_ kind: RequestKind, _ exchange: CassetteEvent.HTTPExchange, path: String,
                                       _ add: (FlowFinding.Category, Bool, String) -> Void) {
        let request = exchange.request
        let lastSegment = path.split(separator: "/").last.map(String.init) ?? ""
        switch kind {
        case .clientSecret1:
            if !registered.isEmpty { add(.order, registered.contains(lastSegment), "share 1 for an M-Pin ID registered before") }
        case .clientSecret2:
            add(.order, !shareOne.isEmpty, "share 2 after share 1 (its signed parameters)")
            let hash = URLText.queryItems(request.url).first { $0.0 == "hash_mpin_id" }?.1 ?? ""
            hex("hash_mpin_id", hash, bytes: 32, add)
        case .timePermitStorage:
            let segments = path.split(separator: "/").map(String.init)
            if segments.count >= 3, let date = Int(segments[segments.count - 2]) {
                let expected = lastPermitDate
                add(.timePermitDate, expected == date, "storage path date \(date)" + (expected.map { $0 == date ? " is share 1's" : ", share 1 said \($0)" } ?? ", no share 1 before it"))
            } else {
                add(.body, false, "the storage path is not …/appID/date/storageId")
            }
        case .timePermit2:
            add(.order, lastPermitDate != nil, "share 2 after share 1")
        case .pass1:
            guard let body = json(request.body, "pass 1 request", add) else { return }
            add(.body, body["pass"]?.intValue == 1, "pass is 1")
            let id = body["mpin_id"]?.stringValue ?? ""
            hex("mpin_id", id, bytes: nil, add)
            point("U", body["U"]?.stringValue, add)
            let ut = body["UT"]?.stringValue
            if ut == nil || ut == "" {
                add(.body, !usesPermits, usesPermits ? "UT is empty although the client settings use time permits" : "UT empty (no time permits)")
            } else {
                point("UT", ut, add)
            }
            if usesPermits { add(.order, permitDates[id] != nil, "pass 1 after a time permit for this M-Pin ID (PROTOCOL.md §3.4)") }
            pass1IDs.append(id)
        case .pass2:
            guard let body = json(request.body, "pass 2 request", add) else { return }
            add(.body, body["pass"]?.intValue == 2, "pass is 2")
            let id = body["mpin_id"]?.stringValue ?? ""
            add(.order, pass1IDs.contains(id), "pass 2 after pass 1 of the same M-Pin ID")
            point("V", body["V"]?.stringValue, add)
            let wid = body["WID"]?.stringValue ?? body["WID"].map { JSONWriter.compact($0) } ?? ""
            if wid != "0", !wid.isEmpty { accessNumber("WID", wid, add) }
        case .authenticate:
            guard let body = json(request.body, "login request", add) else { return }
            let authOTT = body["mpinResponse"]?["authOTT"]?.stringValue
            add(.order, authOTT != nil && authOTT == lastAuthOTT, "the login carries the authOTT of the pass 2 before it")
        case .register:
            guard let body = json(request.body, "registration request", add) else { return }
            add(.body, body["userId"]?.stringValue != nil, "userId is a string")
        default:
            break
        }
    }

    // MARK: - Responses

    private mutating func checkResponse(_ kind: RequestKind, _ request: CassetteEvent.HTTPExchange.Request,
                                        _ response: CassetteEvent.HTTPExchange.Response, _ add: (FlowFinding.Category, Bool, String) -> Void) {
        switch kind {
        case .clientSettings:
            guard let body = json(response.body, "client settings", add), let members = body.objectMembers else { return }
            settings = [:]
            for member in members { settings[member.name] = member.value }
            seenSettings = true
            let required = ["registerURL", "signatureURL", "certivoxURL", "mpinAuthServerURL", "authenticateURL", "mobileAuthenticateURL"]
                + (usesPermits ? ["timePermitsURL"] : [])
            let missing = required.filter { settings[$0]?.stringValue == nil }
            add(.body, missing.isEmpty, missing.isEmpty ? "the settings the SDK reads" : "missing \(missing.joined(separator: ", "))")
            if let dta = settings["certivoxURL"]?.stringValue { add(.body, dta.hasSuffix("/"), "certivoxURL ends with /") }
        case .register:
            guard let body = json(response.body, "registration", add) else { return }
            let id = body["mpinId"]?.stringValue ?? ""
            hex("mpinId", id, bytes: nil, add)
            hex("regOTT", body["regOTT"]?.stringValue ?? "", bytes: nil, add)
            add(.body, body["active"]?.boolValue != nil, "active is a boolean")
            registered.insert(id)
        case .clientSecret1:
            guard let body = json(response.body, "share 1", add) else { return }
            point("clientSecretShare", body["clientSecretShare"]?.stringValue, add)
            add(.body, body["params"]?.stringValue != nil, "params is a string")
            shareOne.insert(URLText.path(request.url))
        case .clientSecret2:
            guard let body = json(response.body, "share 2", add) else { return }
            point("clientSecret", body["clientSecret"]?.stringValue, add)
        case .timePermit1:
            guard let body = json(response.body, "time permit share 1", add) else { return }
            point("timePermit", body["timePermit"]?.stringValue, add)
            hex("storageId", body["storageId"]?.stringValue ?? "", bytes: 32, add)
            hex("signature", body["signature"]?.stringValue ?? "", bytes: nil, add)
            guard let date = body["date"]?.intValue else {
                return add(.timePermitDate, false, "date is not an integer day number")
            }
            if let day = Self.day(ofHTTPDate: response.headers["Date"]) {
                add(.timePermitDate, date == day, "date \(date)" + (date == day ? " is the day of the response" : ", the response's Date is day \(day)"))
            } else {
                add(.timePermitDate, date > 0, "date \(date) (no Date field to compare with)")
            }
            let id = URLText.path(request.url).split(separator: "/").last.map(String.init) ?? ""
            permitDates[id] = date
            lastPermitDate = date
        case .timePermitStorage:
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            point("time permit share 2", text, add)
        case .timePermit2:
            guard let body = json(response.body, "time permit share 2", add) else { return }
            point("timePermit", body["timePermit"]?.stringValue, add)
        case .pass1:
            guard let body = json(response.body, "pass 1 response", add) else { return }
            hex("y", body["y"]?.stringValue ?? "", bytes: MPin.scalarSize, add)
        case .pass2:
            guard let body = json(response.body, "pass 2 response", add) else { return }
            let authOTT = body["authOTT"]?.stringValue ?? ""
            hex("authOTT", authOTT, bytes: 16, add)
            lastAuthOTT = authOTT
        case .authenticate:
            guard !response.body.isEmpty, let body = try? JSONParser.parse(response.body) else { return }
            if let url = body["logoutURL"]?.stringValue { logoutPath = URLText.path(url) }
        case .getAccessNumber:
            guard let body = json(response.body, "access number", add) else { return }
            if let number = body["accessNumber"].map({ $0.stringValue ?? JSONWriter.compact($0) }) {
                accessNumber("accessNumber", number, add)
            } else {
                add(.body, false, "no accessNumber")
            }
        default:
            break
        }
    }

    // MARK: - Single values

    /// Parses a JSON body, a finding when it is not JSON (the SDK: RESPONSE_PARSE_ERROR on a response).
    private func json(_ bytes: [UInt8], _ what: String, _ add: (FlowFinding.Category, Bool, String) -> Void) -> JSONValue? {
        do {
            let value = try JSONParser.parse(bytes)
            guard value.objectMembers != nil else {
                add(.body, false, "the \(what) is JSON but not an object")
                return nil
            }
            return value
        } catch {
            add(.body, false, "the \(what) is not JSON (\(error))")
            return nil
        }
    }

    /// Lowercase hex of `bytes` bytes (any even length when nil).
    private func hex(_ name: String, _ text: String, bytes: Int?, _ add: (FlowFinding.Category, Bool, String) -> Void) {
        guard !text.isEmpty, text.count % 2 == 0, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return add(.encoding, false, "\(name): not lowercase hex (\(text.count) characters)")
        }
        if let bytes, text.count != 2 * bytes {
            return add(.encoding, false, "\(name): \(text.count / 2) bytes, not \(bytes)")
        }
        add(.encoding, true, "\(name): \(text.count / 2) bytes of hex")
    }

    /// A G1 point: 65 bytes of lowercase hex that decode on the curve (the crypto core's decoder).
    private func point(_ name: String, _ text: String?, _ add: (FlowFinding.Category, Bool, String) -> Void) {
        guard let text else { return add(.point, false, "\(name): missing") }
        guard text.count == 2 * MPin.g1Size, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let bytes = Hex.decode(text) else {
            return add(.encoding, false, "\(name): not \(MPin.g1Size) bytes of lowercase hex (\(text.count) characters)")
        }
        switch MPin().decodeG1(bytes) {
        case .success: add(.point, true, "\(name): on the curve")
        case .failure(let error): add(.point, false, "\(name): \(error)")
        }
    }

    /// An access number's check digit, when the settings ask for one.
    private func accessNumber(_ name: String, _ number: String, _ add: (FlowFinding.Category, Bool, String) -> Void) {
        guard accessNumbersHaveCheckDigits else {
            return add(.accessNumber, !number.isEmpty, "\(name) \(number) (the settings ask for no check digit)")
        }
        if let problem = AccessNumber.problem(with: number) {
            add(.accessNumber, false, "\(name) \(number): \(problem)")
        } else {
            add(.accessNumber, true, "\(name) \(number): check digit ok")
        }
    }

    /// The day number (days since 1970-01-01) of an HTTP date (`Thu, 01 Jan 2026 00:00:00 GMT`).
    static func day(ofHTTPDate text: String?) -> Int? {
        guard let text, let milliseconds = CivilTime.parseHTTPDate(text) else { return nil }
        return Int(milliseconds / 86_400_000)   // from 1970 on: never negative
    }
}
