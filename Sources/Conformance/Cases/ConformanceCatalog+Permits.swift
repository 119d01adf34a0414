import CommonFormats
import FlowRecording
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// Time permits (docs/protocol.md §3.4, §8.1, §8.2): share 1 from the RPS, share 2 from D-TA 2 with the
/// RPS's signature, today's date, revocation.
extension ConformanceCatalog {
    static let permitSource = "docs/protocol.md §3.4, §8.2"

    /// Share 1 for a registered user: the answer, or nil when the backend uses no permits.
    static func permitShare1(_ context: ConformanceContext, mpinID: String) async throws(ConformanceError)
        -> HTTPResponse?
    {
        guard try await context.settings().usesPermits else { return nil }
        return try await context.send(.get, try await context.settingURL(.timePermitsURL) + "/" + mpinID)
    }

    /// A case that needs a registered user and time permits.
    static func permitCase(
        _ id: String, _ level: RequirementLevel, title: String, source: String = permitSource, sends: String,
        expects: String,
        _ check:
            @escaping @Sendable (ConformanceContext, ProbeUser, HTTPResponse) async throws(ConformanceError) -> Verdict
    )
        -> ConformanceCase
    {
        ConformanceCase("permits.\(id)", .permits, level, title: title, source: source, sends: sends, expects: expects)
        {
            context async throws(ConformanceError) in
            let user = try await context.registeredUser()
            guard let response = try await permitShare1(context, mpinID: user.mpinID) else {
                return .unimplemented("usePermits is false: the backend uses no time permits")
            }
            return try await check(context, user, response)
        }
    }

    static var permits: [ConformanceCase] {
        [
            permitCase(
                "share1", .must, title: "Share 1 of the time permit", sends: "GET timePermitsURL/<mpinId>",
                expects: "200 {date: number, signature, storageId, timePermit: a point of G1}"
            ) { _, _, response async throws(ConformanceError) in
                guard response.status == 200, let json = response.json else {
                    return .fail("answered \(response.summary)")
                }
                var problems: [String] = []
                if json["date"]?.intValue == nil { problems.append("date is not a number") }
                if (json["signature"]?.stringValue ?? "").isEmpty { problems.append("no signature") }
                if !(Hex.decode(json["timePermit"]?.stringValue ?? "").map {
                    MPin(curve: .bn254cx).isUncompressedG1($0)
                } ?? false) {
                    problems.append("timePermit is not a G1 point")
                }
                return problems.isEmpty
                    ? .pass("date, signature, storageId and a G1 share") : .fail(problems.joined(separator: "; "))
            },
            permitCase(
                "date-today", .must, title: "The permit is for today (UTC days since 1970)",
                source: "docs/protocol.md §6.2, §11.12", sends: "GET timePermitsURL/<mpinId>",
                expects: "date within a day of today"
            ) {
                context, _, response async throws(ConformanceError) in
                guard let date = response.json?["date"]?.intValue else { return .fail("no date: \(response.summary)") }
                let today = Int(context.sdkClock.nowMilliseconds() / 86_400_000)
                return abs(date - today) <= 1
                    ? .pass("date \(date), today \(today)") : .fail("date \(date), but today is \(today)")
            },
            permitCase(
                "storage-id", .must, title: "storageId is SHA-256 of the M-Pin ID",
                source: "docs/protocol.md §3.4, §6.2",
                sends: "GET timePermitsURL/<mpinId>", expects: "storageId = hex(SHA-256(mpinId bytes))"
            ) { _, user, response async throws(ConformanceError) in
                guard let storageID = response.json?["storageId"]?.stringValue else {
                    return .fail("no storageId: \(response.summary)")
                }
                let expected = Hex.encode(MPin(curve: .bn254cx).hashID(Hex.decode(user.mpinID) ?? []))
                return storageID == expected
                    ? .pass("storageId is the hash") : .fail("storageId \(storageID), hash \(expected)")
            },
            permitCase(
                "share2", .must, title: "D-TA 2 gives share 2 for the RPS's signature",
                sends: "GET certivoxURL timePermit?hash_mpin_id&app_id&mobile=1&signature",
                expects: "200 {timePermit: a point of G1}"
            ) { context, _, response async throws(ConformanceError) in
                let share2 = try await permitShare2(context, response, signature: nil)
                guard share2.status == 200, let hex = share2.json?["timePermit"]?.stringValue,
                    let bytes = Hex.decode(hex),
                    MPin(curve: .bn254cx).isUncompressedG1(bytes)
                else { return .fail("D-TA 2 answered \(share2.summary)") }
                return .pass("a G1 share 2")
            },
            permitCase(
                "share2-signature", .must, title: "Share 2 needs the RPS's signature",
                sends: "GET certivoxURL timePermit? with a wrong signature",
                expects: "a 4xx (401) and no timePermit"
            ) { context, _, response async throws(ConformanceError) in
                let share2 = try await permitShare2(
                    context, response, signature: "00" + String(repeating: "1", count: 62))
                if share2.json?["timePermit"] != nil { return .fail("a share 2 came back for a wrong signature") }
                return Expect.refusal(share2, "a wrong signature", preferred: [401])
            },
            permitCase(
                "unknown-user", .should, title: "No permit for an M-Pin ID never issued",
                sends: "GET timePermitsURL/<hex of a made-up ID>", expects: "a 4xx"
            ) { context, _, _ async throws(ConformanceError) in
                let made = Hex.encode(Array("{\"userID\": \"\(context.newUserID())\"}".utf8))
                let response = try await context.send(.get, try await context.settingURL(.timePermitsURL) + "/" + made)
                if response.status == 200 {
                    return .nonStrict("a permit for an ID never issued (it is useless without its client secret)")
                }
                return Expect.refusal(response, "an unknown M-Pin ID")
            },
            permitCase(
                "not-hex", .must, title: "A path that is not hex is refused", sends: "GET timePermitsURL/zz-not-hex",
                expects: "a 4xx"
            ) { context, _, _ async throws(ConformanceError) in
                Expect.refusal(
                    try await context.send(.get, try await context.settingURL(.timePermitsURL) + "/zz-not-hex"),
                    "a non-hex M-Pin ID")
            },
            permitCase(
                "revocation", .must, title: "A revoked user gets 410 for its permit",
                source: permitSource + ", §4 (410: REVOKED)",
                sends: "POST /admin/revoke {mpinId}, GET timePermitsURL/<mpinId>, POST /admin/restore",
                expects: "410 while revoked, 200 once restored"
            ) { context, user, _ async throws(ConformanceError) in
                let revoke = try await context.operatorCall(
                    .post, "revoke", json: object(("mpinId", .string(user.mpinID))))
                guard revoke.status == 200 else { return .skipped("the operator's revoke answered \(revoke.summary)") }
                let revoked = try await context.send(
                    .get, try await context.settingURL(.timePermitsURL) + "/" + user.mpinID)
                _ = try await context.operatorCall(.post, "restore", json: object(("mpinId", .string(user.mpinID))))
                let restored = try await context.send(
                    .get, try await context.settingURL(.timePermitsURL) + "/" + user.mpinID)
                if revoked.status != 410 {
                    return .fail("a revoked user's permit answered \(revoked.summary), not 410")
                }
                return restored.status == 200
                    ? .pass("410 while revoked, 200 after") : .fail("after restoring: \(restored.summary)")
            },
        ]
    }

    /// `GET certivoxURL timePermit?...` for the share-1 answer's storageId, with its signature or `signature`.
    static func permitShare2(_ context: ConformanceContext, _ share1: HTTPResponse, signature: String?)
        async throws(ConformanceError) -> HTTPResponse
    {
        guard let json = share1.json, let storageID = json["storageId"]?.stringValue,
            let signed = json["signature"]?.stringValue
        else { throw .setup("share 1 answered \(share1.summary)") }
        let appID = try await context.settings()[.appID]?.stringValue ?? ""
        let query = [
            ("hash_mpin_id", storageID), ("app_id", appID), ("mobile", "1"), ("signature", signature ?? signed),
        ]
        return try await context.send(
            .get, QueryString.appending(query, to: try await context.settingURL(.certivoxURL) + "timePermit"))
    }
}
