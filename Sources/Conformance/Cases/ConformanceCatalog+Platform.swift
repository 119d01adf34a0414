import MilagroProtocol
import OrderedJSON
import SDKSeams

/// The MFA platform's endpoints (docs/protocol.md §3.0, §3.7, §3.8, §10): service details, QR codes,
/// codeStatus. Optional for a Milagro backend: a missing one is `unimplemented`.
extension ConformanceCatalog {
    static let platformSource = "docs/protocol.md §3.0, §3.7, §10"

    /// A QR session: the access code after `#` and the webOTT, or nil when there is no getQrUrl.
    static func qrSession(_ context: ConformanceContext) async throws(ConformanceError) -> (
        code: String, webOTT: String
    )? {
        let url = try await context.settings().url(.getQrUrl) ?? context.url("/\(context.rpsPrefix)/getQrUrl")
        let qr = try await context.send(.post, url, json: .object([]), as: .browser)
        guard qr.status == 200, let link = qr.json?["qrUrl"]?.stringValue, let hash = link.lastIndex(of: "#"),
            let webOTT = qr.json?["webOTT"]?.stringValue
        else { return nil }
        return (String(link[link.index(after: hash)...]), webOTT)
    }

    static func codeStatusURL(_ context: ConformanceContext) async throws(ConformanceError) -> String {
        try await context.settings().url(.codeStatusURL) ?? context.url("/\(context.rpsPrefix)/codeStatus")
    }

    static var platform: [ConformanceCase] {
        [
            ConformanceCase(
                "platform.service", .platform, .may, title: "Service details for a scanned code",
                source: "docs/protocol.md §3.0",
                sends: "GET /service", expects: "200 {name, url, rps_prefix, logo_url, type: online}"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(.get, "/service")
                guard response.status == 200 else { return .unimplemented("GET /service answered \(response.status)") }
                let missing = ["name", "url", "rps_prefix", "logo_url", "type"].filter {
                    response.json?[$0]?.stringValue == nil
                }
                if !missing.isEmpty { return .fail("missing strings: \(missing.joined(separator: ", "))") }
                return response.json?["type"]?.stringValue == "online"
                    ? .pass("all five keys, type online") : .fail("type is not \"online\"")
            },
            ConformanceCase(
                "platform.qr-url", .platform, .may, title: "A QR code for the browser",
                source: "docs/protocol.md §5.4, §8.2",
                sends: "POST getQrUrl {}", expects: "200 {qrUrl: <url>#<code>, webOTT}"
            ) { context async throws(ConformanceError) in
                guard let (code, _) = try await qrSession(context) else {
                    return .unimplemented("no QR code (getQrUrl)")
                }
                return code.isEmpty
                    ? .fail("qrUrl has an empty code after #") : .pass("a code of \(code.count) characters")
            },
            ConformanceCase(
                "platform.code-status-wid", .platform, .may,
                title: "codeStatus wid answers the session details the SDK reads",
                source: "docs/protocol.md §3.7 (the open-source RPS capitalises them, so the SDK reads empty strings)",
                sends: "POST codeStatusURL {status: wid, wid: <QR code>}",
                expects: "200 with prerollId, appName, appLogoURL"
            ) {
                context async throws(ConformanceError) in
                guard let (code, _) = try await qrSession(context) else {
                    return .unimplemented("no QR code (getQrUrl)")
                }
                let response = try await context.send(
                    .post, try await codeStatusURL(context), json: object(("status", "wid"), ("wid", .string(code))))
                guard response.status == 200 else {
                    return response.status == 404
                        ? .unimplemented("codeStatus answered 404") : .fail("answered \(response.summary)")
                }
                if response.json?["appName"] != nil { return .pass("the keys the SDK reads") }
                if response.json?["AppName"] != nil {
                    return .nonStrict("capitalised keys (AppName, PrerollId): the SDK reads empty details")
                }
                return .fail("no session details: \(response.excerpt)")
            },
            ConformanceCase(
                "platform.code-status-unknown", .platform, .should, title: "codeStatus for an unknown code is refused",
                source: platformSource, sends: "POST codeStatusURL {status: wid, wid: made up}", expects: "a 4xx"
            ) { context async throws(ConformanceError) in
                guard try await qrSession(context) != nil else { return .unimplemented("no QR code (getQrUrl)") }
                let response = try await context.send(
                    .post, try await codeStatusURL(context),
                    json: object(("status", "wid"), ("wid", .string(String(repeating: "ef", count: 16)))))
                if response.status == 200 { return .nonStrict("a made-up code answered 200") }
                return Expect.refusal(response, "an unknown code")
            },
            ConformanceCase(
                "platform.code-status-bad-status", .platform, .should,
                title: "codeStatus with an unknown status is refused",
                source: platformSource, sends: "POST codeStatusURL {status: \"conform\", wid}", expects: "a 4xx"
            ) { context async throws(ConformanceError) in
                guard let (code, _) = try await qrSession(context) else {
                    return .unimplemented("no QR code (getQrUrl)")
                }
                let response = try await context.send(
                    .post, try await codeStatusURL(context), json: object(("status", "conform"), ("wid", .string(code)))
                )
                if response.status == 200 { return .nonStrict("an unknown status answered 200") }
                return Expect.refusal(response, "an unknown status")
            },
            ConformanceCase(
                "platform.abort", .platform, .may, title: "An aborted code polls as aborted",
                source: "docs/protocol.md §3.7 (AbortSession)",
                sends: "POST codeStatusURL {status: abort, wid}, then the browser's poll", expects: "status aborted"
            ) {
                context async throws(ConformanceError) in
                guard let (code, webOTT) = try await qrSession(context) else {
                    return .unimplemented("no QR code (getQrUrl)")
                }
                let abort = try await context.send(
                    .post, try await codeStatusURL(context), json: object(("status", "abort"), ("wid", .string(code))))
                guard abort.status == 200 else { return .unimplemented("abort answered \(abort.status)") }
                let poll = try await context.poll(webOTT)
                let status = poll.json?["status"]?.stringValue ?? "HTTP \(poll.status)"
                return status == "aborted"
                    ? .pass("aborted") : .informational("after abort the session polls as \(status)")
            },
            ConformanceCase(
                "platform.authorize", .platform, .may, title: "An OIDC authorize URL gives an access code",
                source: "docs/protocol.md §3.8",
                sends: "POST /authorize?client_id&redirect_uri&response_type=code {} (or --authorize-url)",
                expects: "200 {webOTT, qrURL, accessURL}"
            ) { context async throws(ConformanceError) in
                let url = context.authorizeURL ?? ConformanceSuite.authorizeURL(context.backendURL, clientID: "conform")
                let response = try await context.send(.post, url, json: .object([]), as: .browser)
                if response.status == 404 || response.status == 405 {
                    return .unimplemented("no /authorize (\(response.status))")
                }
                guard response.status == 200 else { return .informational("/authorize answered \(response.summary)") }
                return response.json?["qrURL"]?.stringValue?.contains("#") == true
                    ? .pass("an access code in qrURL") : .fail("no qrURL with a code")
            },
        ]
    }
}
