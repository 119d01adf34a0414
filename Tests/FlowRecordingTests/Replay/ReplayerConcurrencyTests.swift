import SDKSeams
import Testing

@testable import FlowRecording

/// A background step's recorded response is held until the other steps have made the events
/// recorded before the step's next one (`Replayer.holdResponse(after:)`), and a hold that nothing
/// releases is reported as a different order of the actors' events.
@Suite struct ReplayerConcurrencyTests {
    static let phone = ScenarioStep(index: 1, name: "the phone logs in")
    static let browser = ScenarioStep(index: 2, name: "the browser logs in")

    /// The phone's login request, the browser's login, then the phone's result: the order of a
    /// login that the server held until the browser came.
    static func cassette() -> Cassette {
        func exchange(_ method: HTTPMethod, _ url: String, status: Int) -> CassetteEvent.Payload {
            .http(.init(request: .init(HTTPRequest(method: method, url: url)), response: .init(status: status)))
        }
        var cassette = Cassette(
            tool: .init(name: "test", version: "0"), curve: "BN254CX", scenario: .init(name: "held"),
            backend: .init(url: "http://127.0.0.1:8005", flavour: "milagro", embedded: true))
        cassette.events = [
            CassetteEvent(
                actor: .sdk, step: phone, exchange(.post, "http://127.0.0.1:8005/rps/authenticate", status: 200)),
            CassetteEvent(
                actor: .browser, step: browser, exchange(.post, "http://127.0.0.1:8005/mpinAuthenticate", status: 200)),
            CassetteEvent(
                actor: .sdk, step: phone,
                .call(.init(name: "finishAuthenticationAN", arguments: [], status: .init(code: "OK", message: "")))),
        ]
        return cassette
    }

    @Test func heldResponseWaitsForTheOtherStep() async throws {
        let replayer = try Replayer(cassette: Self.cassette())
        let phone = Task {
            await ConcurrentStep.$current.withValue(Self.phone) {
                let response = try? await replayer.transport(actor: .sdk).send(
                    HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/authenticate"))
                replayer.check(
                    call: .init(name: "finishAuthenticationAN", arguments: [], status: .init(code: "OK", message: "")))
                return response?.status
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while replayer.heldCount == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(replayer.heldCount == 1)
        #expect(replayer.usedEvents == [0])
        let browser = try await replayer.transport(actor: .browser).send(
            HTTPRequest(method: .post, url: "http://127.0.0.1:8005/mpinAuthenticate"))
        #expect(browser.status == 200)
        #expect(await phone.value == 200)
        #expect(replayer.heldCount == 0)
        try replayer.finish()
    }

    @Test func aStepOutsideABackgroundTaskIsNotHeld() async throws {
        let replayer = try Replayer(cassette: Self.cassette())
        _ = try await replayer.transport(actor: .sdk).send(
            HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/authenticate"))
        #expect(replayer.heldCount == 0)
        // In order, the next recorded event is the browser's, not the phone's result.
        #expect(
            replayer.check(
                call: .init(name: "finishAuthenticationAN", arguments: [], status: .init(code: "OK", message: "")))
                != nil)
    }

    @Test func aHoldNothingReleasesIsAnActorOrderDivergence() async throws {
        let replayer = try Replayer(cassette: Self.cassette(), path: "Recordings/held.json")
        let phone = Task {
            await ConcurrentStep.$current.withValue(Self.phone) {
                _ = try? await replayer.transport(actor: .sdk).send(
                    HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/authenticate"))
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while replayer.heldCount == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        replayer.abandonHolds()
        await phone.value
        let error = try #require(replayer.failure)
        #expect(error.kind == .actorOrder)
        #expect(error.report.eventIndex == 1)
        // The report sits at the first event the held step waited for: the browser's.
        #expect(error.report.step == Self.browser)
        #expect(
            error.description.contains(
                "step 1 \"the phone logs in\" runs in the background and was recorded waiting at #0"))
        #expect(error.description.contains("orders the actors' events otherwise"))
        #expect(error.description.contains("POST http://127.0.0.1:8005/mpinAuthenticate"))
    }

    @Test func aDivergenceReleasesHeldSteps() async throws {
        let replayer = try Replayer(cassette: Self.cassette())
        let phone = Task {
            await ConcurrentStep.$current.withValue(Self.phone) {
                _ = try? await replayer.transport(actor: .sdk).send(
                    HTTPRequest(method: .post, url: "http://127.0.0.1:8005/rps/authenticate"))
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while replayer.heldCount == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        _ = try? await replayer.transport(actor: .browser).send(
            HTTPRequest(method: .post, url: "http://127.0.0.1:8005/wrong"))
        await phone.value
        #expect(replayer.heldCount == 0)
        #expect(replayer.failure?.kind == .requestMismatch)
    }
}
