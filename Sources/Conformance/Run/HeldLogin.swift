import MPinSDK
import MilagroProtocol
import OrderedJSON
import SDKSeams
import Synchronization

/// A login the phone makes with an access number (or access code) while a browser waits on it,
/// as the open-source server's flow goes (docs/protocol.md §8.2, §13): the browser gets the number, the
/// phone logs in with it (its answer held by the RPS), the browser's poll sees the authOTT and
/// the browser logs in at the RPA with it, which releases the phone.
public struct HeldLogin: Sendable {
    /// The phone's outcome.
    public var phone: ProbeOutcome
    /// The authOTT the browser's poll saw (nil when none came).
    public var browserAuthOTT: String?
    /// The RPA's answer to the browser's login (nil when the browser never got an authOTT).
    public var rpa: HTTPResponse?
    /// The statuses the browser's poll went through.
    public var pollStates: [String]
}

/// A browser session: the access number (or code) and the webOTT the browser polls with.
public struct BrowserSession: Sendable {
    public var accessNumber: String
    public var webOTT: String
    public var answer: JSONValue
}

extension ConformanceContext {
    /// `POST getAccessNumberURL {}` as the browser.
    public func newAccessNumber() async throws(ConformanceError) -> BrowserSession {
        let url = try await settingURL(.getAccessNumberURL, optional: true)
        let response = try await send(.post, url, json: .object([]), as: .browser)
        guard response.status == 200, let json = response.json, let number = json["accessNumber"]?.stringValue,
            let webOTT = json["webOTT"]?.stringValue
        else {
            throw .setup("getAccessNumber answered \(response.summary)")
        }
        return BrowserSession(accessNumber: number, webOTT: webOTT, answer: json)
    }

    /// `POST accessNumberURL {"webOTT"}` as the browser.
    public func poll(_ webOTT: String) async throws(ConformanceError) -> HTTPResponse {
        try await send(
            .post, try await settingURL(.accessNumberURL, optional: true),
            json: .object([.init("webOTT", .string(webOTT))]), as: .browser)
    }

    /// The held login: the phone logs in with `session`'s number while the browser polls (every
    /// half second, at most `polls` times) and, once it sees an authOTT, logs in at the RPA.
    public func heldLogin(_ user: ProbeUser, session: BrowserSession, pin: String? = nil, polls: Int = 24)
        async throws(ConformanceError) -> HeldLogin
    {
        let phoneDone = DoneFlag()
        let phone = Task { () -> Result<ProbeOutcome, ConformanceError> in
            defer { phoneDone.set() }
            do throws(ConformanceError) {
                return .success(try await self.loginAccessNumber(user, accessNumber: session.accessNumber, pin: pin))
            } catch {
                return .failure(error)
            }
        }
        var states: [String] = []
        var authOTT: String?
        var rpa: HTTPResponse?
        do {
            for _ in 0..<polls {
                await clock.sleep(seconds: 0.5)
                if phoneDone.isSet { break }
                let answer = try await poll(session.webOTT)
                let status = answer.json?["status"]?.stringValue ?? "HTTP \(answer.status)"
                if states.last != status { states.append(status) }
                if let found = answer.json?["authOTT"]?.stringValue, !found.isEmpty {
                    authOTT = found
                    rpa = try await send(
                        .post, try await settingURL(.authenticateURL),
                        json: .object([.init("mpinResponse", .object([.init("authOTT", .string(found))]))]),
                        as: .browser)
                    break
                }
            }
        } catch {
            _ = await phone.value
            throw error
        }
        let outcome = try await phone.value.get()
        return HeldLogin(phone: outcome, browserAuthOTT: authOTT, rpa: rpa, pollStates: states)
    }
}

/// A flag one task sets and another reads.
final class DoneFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

extension ConformanceContext {
    /// Runs two parts of a case at the same time; the first error (in order) stops the case.
    public func inParallel<T: Sendable>(
        _ first: @escaping @Sendable () async throws(ConformanceError) -> T,
        _ second: @escaping @Sendable () async throws(ConformanceError) -> T
    ) async throws(ConformanceError) -> (T, T) {
        let a = Task { () -> Result<T, ConformanceError> in
            do throws(ConformanceError) { return .success(try await first()) } catch { return .failure(error) }
        }
        let b = Task { () -> Result<T, ConformanceError> in
            do throws(ConformanceError) { return .success(try await second()) } catch { return .failure(error) }
        }
        let (x, y) = (await a.value, await b.value)
        return (try x.get(), try y.get())
    }
}
