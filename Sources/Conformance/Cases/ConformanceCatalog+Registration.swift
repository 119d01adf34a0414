import CommonFormats
import FlowRecording
import MPinCrypto
import MilagroProtocol
import OrderedJSON
import SDKSeams

/// A registration started with raw requests: the answer's M-Pin ID and regOTT.
struct StartedRegistration {
    var userID: String
    var mpinID: String
    var regOTT: String
    var answer: JSONValue
    var active: Bool
}

/// Registration and restart (docs/protocol.md §3.1, §3.2, §7.1, §8.2): the answer's shape, the regOTT's
/// single use, a wrong regOTT cancelling the registration, restarts, expiry.
extension ConformanceCatalog {
    static let registrationSource = "docs/protocol.md §3.1, §8.2"

    /// `PUT registerURL {"userId", "mobile": 1}` for a new user of the case.
    static func startRegistration(_ context: ConformanceContext) async throws(ConformanceError) -> StartedRegistration {
        let userID = context.newUserID()
        let wid = try await context.registrationAccessCode()
        func body(_ code: String?) -> JSONValue {
            var members: [JSONValue.Member] = [.init("userId", .string(userID)), .init("mobile", 1)]
            if let code { members.append(.init("activateCode", .string(code))) }
            if let wid { members.append(.init("wid", .string(wid))) }
            return .object(members)
        }
        let url = try await context.settingURL(.registerURL)
        var response = try await context.send(.put, url, json: body(context.activationCode))
        if response.status == 403 && context.activationCode == nil {
            response = try await context.send(
                .put, url, json: body(try await context.operatorActivationCode(userID: userID)))
        }
        guard response.status == 200, let json = response.json, let mpinID = json["mpinId"]?.stringValue,
            let regOTT = json["regOTT"]?.stringValue
        else {
            throw .setup("PUT registerURL for \(userID) answered \(response.summary)")
        }
        return StartedRegistration(
            userID: userID, mpinID: mpinID, regOTT: regOTT, answer: json, active: json["active"]?.boolValue ?? false)
    }

    /// `GET signatureURL/<mpinId>?regOTT=…`.
    static func signature(_ context: ConformanceContext, _ mpinID: String, regOTT: String?)
        async throws(ConformanceError) -> HTTPResponse
    {
        let base = try await context.settingURL(.signatureURL) + "/" + mpinID
        return try await context.send(.get, QueryString.appending(regOTT.map { [("regOTT", $0)] } ?? [], to: base))
    }

    /// A started registration that is active (the operator's link opened when needed).
    static func activeRegistration(_ context: ConformanceContext) async throws(ConformanceError) -> StartedRegistration
    {
        let started = try await startRegistration(context)
        if started.active { return started }
        let response = try await context.operatorCall(
            .get, "mailbox", query: QueryString.build([("userId", started.userID)]))
        guard
            let link = response.json?["messages"]?.arrayValue?.last(where: { $0["kind"]?.stringValue == "link" })?[
                "value"]?.stringValue
        else {
            throw .needsOperator("the registration is not active and the operator's mailbox has no link for it")
        }
        let opened = try await context.send(.get, link, as: .browser)
        guard opened.status == 200 else { throw .setup("the activation link answered \(opened.summary)") }
        return started
    }

    static var registration: [ConformanceCase] {
        [
            ConformanceCase(
                "registration.answer", .registration, .must,
                title: "A registration answers the M-Pin ID, regOTT and active",
                source: registrationSource, sends: "PUT registerURL {userId, mobile: 1}",
                expects: "200 {mpinId: hex, regOTT: hex, active: bool}"
            ) { context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                var problems: [String] = []
                if !Expect.isHex(started.answer["mpinId"]) { problems.append("mpinId is not lowercase hex") }
                if !Expect.isHex(started.answer["regOTT"]) { problems.append("regOTT is not lowercase hex") }
                if started.answer["active"]?.boolValue == nil { problems.append("active is not a boolean") }
                return problems.isEmpty
                    ? .pass("mpinId, regOTT and active as the SDK reads them") : .fail(problems.joined(separator: "; "))
            },
            ConformanceCase(
                "registration.mpin-id-names-user", .registration, .must,
                title: "The M-Pin ID is the hex of JSON naming the user",
                source: "docs/protocol.md §3.1 (the SDK restores the user id from mpinId's userID)",
                sends: "PUT registerURL", expects: "hex-decoded mpinId is a JSON object whose userID is the user id"
            ) {
                context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                guard let decoded = Hex.decode(started.mpinID), let json = try? JSONParser.parse(decoded) else {
                    return .fail("mpinId does not decode to JSON")
                }
                return json["userID"]?.stringValue == started.userID
                    ? .pass("userID \(started.userID) inside the M-Pin ID")
                    : .fail(
                        "the M-Pin ID's userID is \(json["userID"].map { JSONWriter.compact($0) } ?? "absent"), not \(started.userID)"
                    )
            },
            ConformanceCase(
                "registration.missing-user-id", .registration, .must, title: "A registration without userId is refused",
                source: registrationSource + " (400 \"UserId required\")", sends: "PUT registerURL {\"mobile\": 1}",
                expects: "400"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(
                    .put, try await context.settingURL(.registerURL), json: object(("mobile", 1)))
                return Expect.refusal(response, "no userId", preferred: [400])
            },
            ConformanceCase(
                "registration.empty-user-id", .registration, .must,
                title: "A registration with an empty userId is refused",
                source: "docs/protocol.md §9 (testRegister3: 400)",
                sends: "PUT registerURL {\"userId\": \"\", \"mobile\": 1}",
                expects: "400"
            ) { context async throws(ConformanceError) in
                let response = try await context.send(
                    .put, try await context.settingURL(.registerURL),
                    json: object(("userId", ""), ("mobile", 1)))
                return Expect.refusal(response, "an empty userId", preferred: [400])
            },
            ConformanceCase(
                "registration.sdk-flow", .registration, .must, title: "The SDK registers a user end to end",
                source: "docs/protocol.md §3.1-§3.3",
                sends: "register, signature, D-TA 2 client secret, through the SDK",
                expects: "the user REGISTERED"
            ) { context async throws(ConformanceError) in
                let user = try await context.registeredUser()
                return user.user.state == .registered
                    ? .pass("\(user.id) registered in \(user.wire.exchanges.count) requests")
                    : .fail("the user ended \(user.user.state)")
            },
            ConformanceCase(
                "registration.signature-single-use", .registration, .must,
                title: "The signature is given once per regOTT",
                source: "docs/protocol.md §7.1, §11.7 (the RPS deletes the registration after the first /signature)",
                sends: "GET signatureURL twice with the right regOTT",
                expects: "200, then 400 or 401 (404 on the MFA platform) without a share"
            ) {
                context async throws(ConformanceError) in
                let started = try await activeRegistration(context)
                let first = try await signature(context, started.mpinID, regOTT: started.regOTT)
                guard first.status == 200 else { return .fail("the first signature answered \(first.summary)") }
                let second = try await signature(context, started.mpinID, regOTT: started.regOTT)
                if second.json?["clientSecretShare"] != nil {
                    return .fail("the second request got another client-secret share")
                }
                return Expect.refusal(second, "a second signature", preferred: [400, 401, 404])
            },
            ConformanceCase(
                "registration.wrong-reg-ott", .registration, .must, title: "A wrong regOTT gets no share",
                source: registrationSource, sends: "GET signatureURL with a wrong regOTT", expects: "400 or 401"
            ) {
                context async throws(ConformanceError) in
                let started = try await activeRegistration(context)
                let response = try await signature(
                    context, started.mpinID, regOTT: String(repeating: "0", count: started.regOTT.count))
                if response.json?["clientSecretShare"] != nil {
                    return .fail("a wrong regOTT got a client-secret share")
                }
                return Expect.refusal(response, "a wrong regOTT", preferred: [400, 401])
            },
            ConformanceCase(
                "registration.wrong-reg-ott-cancels", .registration, .should,
                title: "A wrong regOTT cancels the registration",
                source: registrationSource + " (regOTT mismatch: 400 and the record is deleted)",
                sends: "GET signatureURL with a wrong regOTT, then with the right one",
                expects: "the right one refused too"
            ) {
                context async throws(ConformanceError) in
                let started = try await activeRegistration(context)
                _ = try await signature(
                    context, started.mpinID, regOTT: String(repeating: "0", count: started.regOTT.count))
                let right = try await signature(context, started.mpinID, regOTT: started.regOTT)
                if right.status == 200 {
                    return .fail("the right regOTT still got a share after a wrong one: a guesser may keep trying")
                }
                return Expect.refusal(right, "the right regOTT after a wrong one")
            },
            ConformanceCase(
                "registration.missing-reg-ott", .registration, .must,
                title: "A signature request without regOTT is refused",
                source: registrationSource, sends: "GET signatureURL/<mpinId> with no query", expects: "a 4xx"
            ) {
                context async throws(ConformanceError) in
                let started = try await activeRegistration(context)
                let response = try await signature(context, started.mpinID, regOTT: nil)
                if response.json?["clientSecretShare"] != nil { return .fail("no regOTT, and a share came back") }
                return Expect.refusal(response, "no regOTT")
            },
            ConformanceCase(
                "registration.unknown-mpin-id", .registration, .must,
                title: "A signature for an M-Pin ID never issued is refused",
                source: registrationSource, sends: "GET signatureURL/<hex of a made-up ID>?regOTT=…", expects: "a 4xx"
            ) {
                context async throws(ConformanceError) in
                let made = Hex.encode(Array("{\"userID\": \"\(context.newUserID())\", \"mobile\": 1}".utf8))
                let response = try await signature(context, made, regOTT: String(repeating: "ab", count: 16))
                return Expect.refusal(response, "an unknown M-Pin ID")
            },
            ConformanceCase(
                "registration.restart", .registration, .should, title: "A restart with the regOTT keeps the M-Pin ID",
                source: "docs/protocol.md §3.1 (RestartRegistration)",
                sends: "PUT registerURL/<mpinId> {userId, mobile, regOTT}",
                expects: "200 with the same mpinId"
            ) { context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                let response = try await context.send(
                    .put, try await context.settingURL(.registerURL) + "/" + started.mpinID,
                    json: object(
                        ("userId", .string(started.userID)), ("mobile", 1),
                        ("regOTT", .string(started.regOTT))))
                guard response.status == 200 else { return .fail("the restart answered \(response.summary)") }
                return response.json?["mpinId"]?.stringValue == started.mpinID
                    ? .pass("the same M-Pin ID")
                    : .fail("the restart answered another M-Pin ID")
            },
            ConformanceCase(
                "registration.restart-wrong-reg-ott", .registration, .must,
                title: "A restart with a wrong regOTT is refused",
                source: registrationSource + " (the record must exist with the same regOTT)",
                sends: "PUT registerURL/<mpinId> with a wrong regOTT", expects: "a 4xx and no regOTT"
            ) {
                context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                let response = try await context.send(
                    .put, try await context.settingURL(.registerURL) + "/" + started.mpinID,
                    json: object(
                        ("userId", .string(started.userID)), ("mobile", 1),
                        ("regOTT", .string(String(repeating: "0", count: started.regOTT.count)))))
                if response.status == 200, response.json?["mpinId"]?.stringValue == started.mpinID {
                    return .fail("a wrong regOTT restarted the registration of \(started.userID)")
                }
                return Expect.refusal(response, "a restart with a wrong regOTT")
            },
            ConformanceCase(
                "registration.restart-other-user", .registration, .must,
                title: "A restart cannot move an M-Pin ID to another user",
                source: "docs/protocol.md §3.1", sends: "PUT registerURL/<mpinId> with the regOTT but another userId",
                expects: "a 4xx, or a new M-Pin ID"
            ) { context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                let response = try await context.send(
                    .put, try await context.settingURL(.registerURL) + "/" + started.mpinID,
                    json: object(
                        ("userId", .string(context.newUserID())), ("mobile", 1),
                        ("regOTT", .string(started.regOTT))))
                if response.status == 200, response.json?["mpinId"]?.stringValue == started.mpinID {
                    return .fail("the registration of \(started.userID) answered for another user id")
                }
                return response.status == 200
                    ? .pass("a new M-Pin ID for the other user") : Expect.refusal(response, "another user's restart")
            },
            ConformanceCase(
                "registration.expiry-stated", .registration, .should, title: "The registration says when it expires",
                source: registrationSource + " (VerifyUserExpireSeconds, 3600)", sends: "PUT registerURL",
                expects: "expireTime later than nowTime (compared as sent)"
            ) { context async throws(ConformanceError) in
                let started = try await startRegistration(context)
                guard let expire = started.answer["expireTime"], let now = started.answer["nowTime"] else {
                    return .nonStrict("no expireTime/nowTime: the app cannot tell when to restart")
                }
                if let e = expire.doubleValue, let n = now.doubleValue {
                    return e > n ? .pass("expires \(e - n) after now") : .fail("expireTime is not after nowTime")
                }
                if let e = expire.stringValue, let n = now.stringValue, !e.isEmpty, !n.isEmpty {
                    return e > n ? .pass("expires \(e), now \(n)") : .fail("expireTime \(e) is not after nowTime \(n)")
                }
                return .nonStrict("expireTime and nowTime are empty")
            },
        ]
    }
}
