import Hummingbird
import MilagroProtocol
import OrderedJSON

/// The `milagro-hosted-v3` profile: the backend the C++ SDK core's unit tests were recorded
/// against (the SDK core's `tests/unit_tests_recorded_data.json`, 99 exchanges; the harness is its
/// `tests/unit_tests.cpp` with `tests/common/access_number_thread.cpp`). That backend was an RPS
/// 0.3 and the demo RPA at one origin (Tornado 4.1), the hosted D-TA's v3 API as the second D-TA
/// (`certivoxURL` `https://…/v3/`) and an S3 bucket as the time-permit storage, which answered 404.
///
/// What the recording shows, and this profile answers:
/// * the client settings' members as recorded (`ClientSettingsLayout`, profile `milagro-hosted-v3`);
/// * the browser helper's poll, `POST /rps/accessnumber {"webOTT"}`: 401 with an empty body until
///   the phone's login is held for the browser, then 200 `{"authOTT"}` (`accessNumberPoll`);
/// * the hosted D-TA at `/dta2/v3/…`, whose answers carry `version` "3" and `message`;
/// * every 400 with an empty body (`PUT /rps/user` without a user id, `/mpinAuthenticate` without
///   an authOTT); every 401 with `WWW-Authenticate: Authenticate`; empty bodies as `text/html`;
/// * the demo RPA's login answers `{"someUserData"}` for 200, 401 and 410 (no `userId`, no
///   cookie, no OTP validity: `requestOTP` is off, so an OTP login ends in RESPONSE_PARSE_ERROR on
///   the client, as `testAuthenticateOTP` expects);
/// * `/rps/authenticate` 412 `{"message": "Invalid or expired access number"}` for an access
///   number no browser shows, whatever the PIN (pass 2 attaches nothing to an unknown WID), 401
///   `{"message": "Wrong PIN."}`, and 200 `{logoutURL, logoutData}`; `/logout` 200 empty;
/// * the registration answer's `expireTime` and `nowTime` with a `T` (`recordedTimes`);
/// * the CORS and cache header fields of every RPS, RPA and D-TA answer (`hostedV3Fields`).
///
/// Left out on purpose: `Server: TornadoServer/4.1`, `ETag` and the demo's `mpindemo_session`
/// cookie (the web framework's, not the protocol's); the S3 error document of the storage's 404
/// (the SDK reads only the status); the order of the signature's `params` (the SDK passes them on
/// as they are); and the recorded access-number lifetime, 60 s, where this backend keeps its
/// configured `accessNumberLifetime` (300 s, the open-source RPS's default). Where the recording
/// is silent (an unknown webOTT, 408s, the D-TA's own refusals) the profile answers as the
/// open-source server does (docs/protocol.md §8).
extension BackendCore {
    /// Whether the backend plays the recording's backend.
    var hostedV3: Bool { configuration.profile == .milagroHostedV3 }

    /// The endpoints this profile answers its own way, over the default profile's (`BackendRoutes`).
    static let hostedV3Routes: [Endpoint: Route] = [
        .clientSettings: Route { core, _, _ throws(APIError) in
            .json(.ok, .fields(core.settingsMembers(seedValue: core.random.hex(100))))
        },
        .register: Route { core, call, id throws(APIError) in
            recordedTimes(try await core.register(call, restarting: id))
        },
        .hostedAccessNumberPoll: Route { core, call, _ throws(APIError) in try await core.accessNumberPoll(call) },
        // Named by the recorded settings; answered as the open-source RPS does.
        .setupDone: Route { core, _, id throws(APIError) in try await core.setupDone(mpinIDHex: id ?? "") },
        .hostedDTA2: Route { core, call, operation throws(APIError) in
            try core.authorityRequest(core.dta2, operation ?? "", call.query)
        },
        .rpaAuthenticate: Route { core, call, _ throws(APIError) in try await core.demoRPALogin(call) },
    ]

    /// A registration answer with `expireTime` and `nowTime` as recorded, `YYYY-MM-DDTHH:MM:SS.ffffff`
    /// (the recording's RPS wrote them with Python's `isoformat()`; the open-source RPS's form, which
    /// the other profiles answer, has a space before the time).
    static func recordedTimes(_ reply: Reply) -> Reply {
        guard case .json(let status, .object(let members), let headers) = reply else { return reply }
        let times = members.map { member -> JSONValue.Member in
            guard ["expireTime", "nowTime"].contains(member.name), case .string(let text) = member.value else {
                return member
            }
            return JSONValue.Member(member.name, .string(text.replacing(" ", with: "T")))
        }
        return .json(status, .object(times), headers: headers)
    }

    /// The browser's poll, `POST /rps/accessnumber {"webOTT"}`: 200 `{"authOTT"}` once the phone's
    /// login with a right PIN is held for this session, 401 with an empty body before that (as
    /// recorded) and after it (the browser has logged in, or the session ended). An unknown webOTT
    /// also gets 401: the open-source RPS's poll answers it as an expired session, not as an error.
    func accessNumberPoll(_ call: Call) async throws(APIError) -> Reply {
        let webOTT = try call.json().string("webOTT", maxLength: 256)
        if case .live(let session) = await store.session(webOTT: webOTT, now: now), session.status == .authenticate,
            !session.authOTT.isEmpty
        {
            return .ok([("authOTT", .string(session.authOTT))])
        }
        return .empty(.unauthorized)
    }

    /// The demo RPA's login, `POST /mpinAuthenticate`: the default profile's verdicts (a held
    /// phone login released, a direct login's pass 2), answered with user data only for 200, 401
    /// and 410, as recorded. Other refusals keep their status (400 empty, 408 `{"message"}`).
    func demoRPALogin(_ call: Call) async throws(APIError) -> Reply {
        let userData: [(String, JSONValue)] = [("someUserData", Self.someUserData)]
        do {
            _ = try await rpaAuthenticate(call)
            return .ok(userData)
        } catch  where error.status == .unauthorized || error.status == .gone {
            return .json(error.status, .fields(userData))
        }
    }

    /// What the profile adds to every answer of the RPS, the demo RPA and the D-TA (not the
    /// DeviceSecurity service's or the operator's): a 400 loses its body, a 401 gets
    /// `WWW-Authenticate: Authenticate`, an empty body is `text/html; charset=UTF-8`, and the
    /// recorded CORS and cache fields (`hostedV3Fields`).
    func hostedV3Profiled(_ reply: Reply, segments: [String]) -> Reply {
        let first = segments.first ?? ""
        guard !["devicesecurity", "admin"].contains(first) else { return reply }
        var shaped = reply.status == .badRequest ? .empty(.badRequest) : reply
        if shaped.status == .unauthorized { shaped = shaped.adding(.wwwAuthenticate, "Authenticate") }
        if case .empty = shaped { shaped = shaped.adding(.contentType, "text/html; charset=UTF-8") }
        for (name, value) in Self.hostedV3Fields(for: segments) { shaped = shaped.adding(name, value) }
        return shaped
    }

    /// The recorded CORS and cache fields, which differ by server: the D-TA's (`dta1`, `dta2`),
    /// the demo RPA's own paths (`/mpinAuthenticate`, `/logout`, …), and the RPS's (`/rps/…`;
    /// its time permit is cached with `no-cache` only). None for the time-permit storage, whose
    /// recorded 404 came from S3.
    static func hostedV3Fields(for segments: [String]) -> [(HTTPFields.Element.Name, String)] {
        let first = segments.first ?? ""
        guard first != timePermitsStorageSegment else { return [] }
        let allowed =
            "Content-Type, Depth, User-Agent, X-File-Size, X-Requested-With, X-Requested-By, If-Modified-Since, X-File-Name, Cache-Control"
        let headers: String
        let methods: String
        var cache = "no-cache, no-store, max-age=0, must-revalidate"
        switch first {
        case "dta1", "dta2":
            headers = allowed + ", Pragma, Expires"
            methods = "GET,OPTIONS"
        case "rps":
            headers = allowed + ", WWW-Authenticate"
            methods = "GET,PUT,POST,DELETE,OPTIONS"
            if segments.count > 1 && segments[1] == "timePermit" { cache = "no-cache" }
        default:
            headers = allowed + ", Pragma, Expires, WWW-Authenticate"
            methods = "GET,POST,HEAD,OPTIONS"
        }
        return [
            (.accessControlAllowCredentials, "true"), (.accessControlAllowHeaders, headers),
            (.accessControlAllowMethods, methods),
            (.accessControlAllowOrigin, "*"), (.cacheControl, cache), (.expires, "Sat, 26 Jul 1997 05:00:00 GMT"),
            (pragma, "no-cache"),
        ]
    }

    /// `Pragma` (RFC 9111 §5.4), which the HTTP field names of Hummingbird do not predefine.
    private static let pragma = HTTPFields.Element.Name("Pragma")!
}
