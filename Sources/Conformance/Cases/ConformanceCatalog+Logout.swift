import MPinSDK
import OrderedJSON

/// Logout (docs/protocol.md §3.9, §8.3): the phone logs the browser out with its logout data, once; a
/// wrong token or user is refused.
extension ConformanceCatalog {
    static let logoutSource = "docs/protocol.md §3.9, §8.3"

    /// A held login's logout data: user id, session token and the logout URL.
    static func loggedIn(_ context: ConformanceContext) async throws(ConformanceError) -> (
        ProbeUser, String, String, String
    )? {
        let user = try await context.registeredUser()
        let held = try await context.heldLogin(user, session: try await context.newAccessNumber())
        guard held.phone.isOK else { throw .setup("the held login failed: \(held.phone)") }
        guard let answer = user.wire.last("/authenticate")?.response?.json, let url = answer["logoutURL"]?.stringValue,
            let data = answer["logoutData"], let token = data["sessionToken"]?.stringValue,
            let id = data["userId"]?.stringValue
        else {
            return nil
        }
        return (user, url, id, token)
    }

    static func logoutCase(
        _ id: String, _ level: RequirementLevel, title: String, sends: String, expects: String,
        _ check:
            @escaping @Sendable (ConformanceContext, ProbeUser, String, String, String) async throws(ConformanceError)
            -> Verdict
    )
        -> ConformanceCase
    {
        ConformanceCase(
            "logout.\(id)", .logout, level, title: title, source: logoutSource, sends: sends, expects: expects
        ) {
            context async throws(ConformanceError) in
            guard let found = try await loggedIn(context) else {
                return .unimplemented("the held login gave no logoutData/logoutURL")
            }
            let (user, url, userID, token) = found
            return try await check(context, user, url, userID, token)
        }
    }

    static var logout: [ConformanceCase] {
        [
            logoutCase(
                "after-held-login", .must, title: "The phone logs the browser out",
                sends: "a held login, then POST logoutURL {userId, sessionToken}",
                expects: "200"
            ) { _, user, _, _, _ async throws(ConformanceError) in
                await user.client.logout(user.user)
                    ? .pass("logged out")
                    : .fail("the logout failed: \(user.wire.last("/logout")?.response?.summary ?? "no answer")")
            },
            logoutCase(
                "twice", .should, title: "A second logout with the same data is refused", sends: "the logout twice",
                expects: "200, then a 4xx"
            ) { context, _, url, userID, token async throws(ConformanceError) in
                let body = object(("userId", .string(userID)), ("sessionToken", .string(token)))
                let first = try await context.send(.post, url, json: body)
                guard first.status == 200 else { return .fail("the first logout answered \(first.summary)") }
                return Expect.refusal(try await context.send(.post, url, json: body), "a second logout")
            },
            logoutCase(
                "wrong-token", .must, title: "A logout with a wrong session token is refused",
                sends: "POST logoutURL with another sessionToken",
                expects: "a 4xx (400 upstream)"
            ) { context, _, url, userID, token async throws(ConformanceError) in
                let body = object(("userId", .string(userID)), ("sessionToken", .string(flipLastHex(token))))
                return Expect.refusal(
                    try await context.send(.post, url, json: body), "a wrong session token", preferred: [400])
            },
            logoutCase(
                "other-user", .must, title: "A logout naming another user is refused",
                sends: "POST logoutURL with the token and another userId",
                expects: "a 4xx (400 upstream)"
            ) { context, _, url, _, token async throws(ConformanceError) in
                let body = object(("userId", .string(context.newUserID())), ("sessionToken", .string(token)))
                return Expect.refusal(
                    try await context.send(.post, url, json: body), "another user's logout", preferred: [400])
            },
            logoutCase(
                "missing-fields", .must, title: "A logout without its fields is refused", sends: "POST logoutURL {}",
                expects: "a 4xx, never a 5xx"
            ) { context, _, url, _, _ async throws(ConformanceError) in
                Expect.refusal(try await context.send(.post, url, json: .object([])), "an empty logout")
            },
        ]
    }
}
