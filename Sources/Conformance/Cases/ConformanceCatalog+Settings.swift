import MilagroProtocol
import OrderedJSON

/// Client settings (docs/protocol.md §2): what the SDK reads from `GET /<rps>/clientSettings`.
extension ConformanceCatalog {
    static let settingsSource = "docs/protocol.md §2"

    static var settings: [ConformanceCase] {
        [
            ConformanceCase(
                "settings.reachable", .settings, .must, title: "The client settings answer 200 with a JSON object",
                source: settingsSource + ", §1 (the SDK takes only 200)", sends: "GET /rps/clientSettings",
                expects: "200 and a JSON object"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(.get, "/\(context.rpsPrefix)/clientSettings")
                guard response.status == 200 else { return .fail("answered \(response.summary)") }
                guard response.json?.objectMembers != nil else {
                    return .fail("200, but the body is not a JSON object: \(response.excerpt)")
                }
                return .pass("200 with a JSON object")
            },
            ConformanceCase(
                "settings.required-urls", .settings, .must, title: "The URLs every flow needs are present",
                source: settingsSource, sends: "GET /rps/clientSettings",
                expects:
                    "registerURL, signatureURL, certivoxURL, mpinAuthServerURL, authenticateURL and mobileAuthenticateURL as strings"
            ) {
                context async throws(ConformanceError) in
                let settings = try await context.settings()
                let keys: [ClientSettingsKey] = [
                    .registerURL, .signatureURL, .certivoxURL, .mpinAuthServerURL, .authenticateURL,
                    .mobileAuthenticateURL,
                ]
                let missing = keys.filter { (settings[$0]?.stringValue ?? "").isEmpty }.map(\.rawValue)
                return missing.isEmpty
                    ? .pass("all six URLs are present")
                    : .fail("missing or not strings: \(missing.joined(separator: ", "))")
            },
            ConformanceCase(
                "settings.permit-urls", .settings, .must,
                title: "With time permits, their URLs and the app id are present",
                source: settingsSource + " (usePermits, default true)", sends: "GET /rps/clientSettings",
                expects: "timePermitsURL, timePermitsStorageURL and appID when usePermits is true or absent"
            ) { context async throws(ConformanceError) in
                let settings = try await context.settings()
                guard settings.usesPermits else { return .pass("usePermits is false: no permit URLs needed") }
                let missing = [ClientSettingsKey.timePermitsURL, .timePermitsStorageURL, .appID].filter {
                    (settings[$0]?.stringValue ?? "").isEmpty
                }.map(\.rawValue)
                return missing.isEmpty
                    ? .pass("time permits on, and their URLs and appID are present")
                    : .fail("time permits are on but these are missing: \(missing.joined(separator: ", "))")
            },
            ConformanceCase(
                "settings.certivox-slash", .settings, .must, title: "certivoxURL ends with a slash",
                source: settingsSource + " (the SDK appends \"clientSecret?\" with no separator)",
                sends: "GET /rps/clientSettings", expects: "certivoxURL ending in /"
            ) { context async throws(ConformanceError) in
                guard let url = try await context.settings()[.certivoxURL]?.stringValue else {
                    return .fail("no certivoxURL")
                }
                return url.hasSuffix("/")
                    ? .pass("certivoxURL \(url) ends with /") : .fail("certivoxURL \(url) does not end with /")
            },
            ConformanceCase(
                "settings.url-forms", .settings, .must, title: "Every URL is relative or absolute http(s)/ws(s)",
                source: settingsSource + ", §1 (relative URL rewrite)", sends: "GET /rps/clientSettings",
                expects: "every *URL value starts with / or a scheme the SDK knows"
            ) { context async throws(ConformanceError) in
                let members = try await context.settings().json.objectMembers ?? []
                let bad = members.filter { member in
                    guard member.name.hasSuffix("URL") || member.name.hasSuffix("Url"),
                        let text = member.value.stringValue
                    else { return false }
                    return
                        !(text.isEmpty || text.hasPrefix("/")
                        || ["http://", "https://", "ws://", "wss://"].contains { text.hasPrefix($0) })
                }
                return bad.isEmpty
                    ? .pass("\(members.count) members, every URL usable")
                    : .fail(
                        "URLs the SDK cannot use: "
                            + bad.map { "\($0.name)=\($0.value.stringValue ?? "")" }.joined(separator: ", "))
            },
            ConformanceCase(
                "settings.no-double-slash", .settings, .should, title: "Resolved URLs have no empty path segment",
                source:
                    "docs/protocol.md §13 (the open-source default rpsBaseURL yields //rps/… that the RPS answers 404)",
                sends: "GET /rps/clientSettings", expects: "no // in the path of any URL once resolved"
            ) { context async throws(ConformanceError) in
                let settings = try await context.settings()
                let bad = (settings.json.objectMembers ?? []).compactMap { member -> String? in
                    guard member.name.hasSuffix("URL"), let key = ClientSettingsKey(rawValue: member.name),
                        let url = settings.url(key)
                    else { return nil }
                    let path = InterceptingTransport.path(of: url)
                    return path.contains("//") ? "\(member.name)=\(url)" : nil
                }
                return bad.isEmpty
                    ? .pass("no URL has an empty path segment")
                    : .fail("empty path segments: \(bad.joined(separator: ", "))")
            },
            ConformanceCase(
                "settings.value-types", .settings, .should, title: "Flags are booleans and counts are numbers",
                source: settingsSource, sends: "GET /rps/clientSettings",
                expects:
                    "usePermits, accessNumberUseCheckSum, setDeviceName, requestOTP booleans; accessNumberDigits, cSum numbers (when present)"
            ) {
                context async throws(ConformanceError) in
                let settings = try await context.settings()
                var bad: [String] = []
                for key in [
                    ClientSettingsKey.usePermits, .accessNumberUseCheckSum, .setDeviceName, .requestOTP, .useWebSocket,
                    .useNFC,
                ] {
                    if let value = settings[key], value.boolValue == nil {
                        bad.append("\(key.rawValue) is \(value.kindName)")
                    }
                }
                for key in [ClientSettingsKey.accessNumberDigits, .cSum] {
                    if let value = settings[key], value.intValue == nil {
                        bad.append("\(key.rawValue) is \(value.kindName)")
                    }
                }
                return bad.isEmpty
                    ? .pass("every flag and count present has its type") : .fail(bad.joined(separator: "; "))
            },
            ConformanceCase(
                "settings.checksum-consistent", .settings, .should, title: "The access-number settings agree",
                source: settingsSource + ", §5.2 (cSum 0 or absent silently disables the check digit)",
                sends: "GET /rps/clientSettings",
                expects: "with accessNumberUseCheckSum true: accessNumberDigits 7 and cSum non-zero"
            ) { context async throws(ConformanceError) in
                let settings = try await context.settings()
                guard settings[.accessNumberUseCheckSum]?.boolValue ?? true else {
                    return .pass("no check digit is used")
                }
                let digits = settings[.accessNumberDigits]?.intValue ?? 7
                let cSum = settings[.cSum]?.intValue ?? 0
                if digits == 7 && cSum != 0 { return .pass("7 digits with a check digit, cSum \(cSum)") }
                if settings[.getAccessNumberURL] == nil && settings[.accessNumberURL] == nil {
                    return .pass("no access numbers are offered")
                }
                return .fail(
                    "accessNumberUseCheckSum is on but accessNumberDigits is \(digits) and cSum \(cSum): the SDK will not check the digit"
                )
            },
            ConformanceCase(
                "settings.use-permits-explicit", .settings, .may, title: "Whether usePermits is stated",
                source: settingsSource + ", §13 (the open-source server leaves it out)",
                sends: "GET /rps/clientSettings",
                expects: "reported only"
            ) { context async throws(ConformanceError) in
                let settings = try await context.settings()
                guard let value = settings[.usePermits] else {
                    return .informational("usePermits absent: clients assume time permits")
                }
                return .informational("usePermits is \(JSONWriter.compact(value))")
            },
        ]
    }
}
