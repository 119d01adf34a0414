import FlowRecording
import Foundation
import ScenarioTestSupport
import Scenarios
import TestSupport
import Testing

/// Steps at the same time: the phone's access-number login runs in the background, the server
/// holds it until the browser has logged in with the authOTT (docs/protocol.md §8.2), and the cassette's
/// timeline orders the two actors' events the same way every time.
@Suite struct ConcurrentStepsTests {
    static func record(_ name: String) async throws -> Cassette {
        try await recordEmbedded(try ScriptParser.parse(file: RepoPaths.scenarios + "/" + name), seed: "concurrent")
    }

    static func index(_ cassette: Cassette, _ what: String, _ predicate: (CassetteEvent) -> Bool) throws -> Int {
        let found = cassette.events.firstIndex(where: predicate)
        return try #require(found, "no event \(what)")
    }

    static func http(_ actor: EventActor, _ path: String) -> (CassetteEvent) -> Bool {
        { event in
            guard event.actor == actor, case .http(let exchange) = event.payload else { return false }
            return exchange.request.url.hasSuffix(path)
        }
    }

    static func call(_ name: String) -> (CassetteEvent) -> Bool {
        { event in
            guard case .call(let call) = event.payload else { return false }
            return call.name == name
        }
    }

    @Test func theHeldLoginReturnsAfterTheBrowserLoggedIn() async throws {
        let cassette = try await Self.record("access-number-logout.yaml")
        let events = cassette.events
        let held = try Self.index(cassette, "phone login", Self.http(.sdk, "/rps/authenticate"))
        let rpa = try Self.index(cassette, "browser login", Self.http(.browser, "/mpinAuthenticate"))
        let result = try Self.index(cassette, "phone result", Self.call("finishAuthenticationAN"))
        #expect(held < rpa && rpa < result)
        // Every event of the background step carries that step, wherever it sits in the timeline.
        let phoneStep = try #require(events[held].step)
        #expect(events[result].step == phoneStep)
        #expect(events[held + 1..<result].contains { $0.step != phoneStep })
        guard case .http(let exchange) = events[held].payload, let response = exchange.response else {
            Issue.record("the phone's login has no response")
            return
        }
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("logoutData"))
        // The browser saw the authOTT only once the phone's login was verified: one poll, not a race.
        let polls = events[held..<rpa].filter { Self.http(.browser, "/rps/access")($0) }
        #expect(polls.count == 1)
    }

    @Test func theSameSeedGivesTheSameTimeline() async throws {
        for name in ["access-number-logout.yaml", "mfa-qr-login.yaml", "access-number-no-browser.yaml"] {
            let first = try await Self.record(name)
            let second = try await Self.record(name)
            #expect(first.canonicalBytes == second.canonicalBytes, "\(name)")
            let outcome = await ScenarioSession.replay(first, path: name, library: RepoPaths.library)
            #expect(outcome.passed, "\(outcome)")
        }
    }

    @Test func aLoginNoBrowserPicksUpTimesOut() async throws {
        let cassette = try await Self.record("access-number-no-browser.yaml")
        let result = try Self.index(cassette, "phone result", Self.call("finishAuthenticationAN"))
        guard case .call(let call) = cassette.events[result].payload else { return }
        #expect(call.status.code == "REQUEST_EXPIRED")
    }

    /// The legacy harness wrote the held login after the browser's exchanges; a cassette in that
    /// order cannot be what our runner does, and strict replay says where and why.
    @Test func reorderedActorsFailWithAClearReport() async throws {
        var cassette = try await Self.record("access-number-logout.yaml")
        let held = try Self.index(cassette, "phone login", Self.http(.sdk, "/rps/authenticate"))
        let rpa = try Self.index(cassette, "browser login", Self.http(.browser, "/mpinAuthenticate"))
        let event = cassette.events.remove(at: held)
        cassette.events.insert(event, at: rpa)
        let outcome = await ScenarioSession.replay(cassette, path: "reordered.json", library: RepoPaths.library)
        let failure = try #require(outcome.failure)
        // The replayed phone is held after pass 2 (its next recorded event now comes after the
        // browser's), the browser logs in, and its result meets the phone's moved login.
        #expect(outcome.kind == "unexpectedEvent")
        #expect(failure.contains("diverged at event \(rpa) (sdk, step"))
        #expect(
            failure.contains(
                "the re-run made a call authenticate (browser) where the cassette has sdk's http POST http://127.0.0.1:8005/rps/authenticate"
            ))
        #expect(failure.contains("the actors' events come in another order than in the recording"))
    }

    /// The browser's login moved after the phone's result: the replayed phone waits at its login for
    /// events the foreground makes only later, and awaiting it is reported as an actor-order divergence.
    @Test func aHeldStepAwaitedBeforeItsEventsIsReported() async throws {
        var cassette = try await Self.record("access-number-logout.yaml")
        let poll = try Self.index(
            cassette, "browser poll step",
            { event in
                event.step?.name == "the browser's poll sees the phone's login and its authOTT"
            })
        let result = try Self.index(cassette, "phone result", Self.call("finishAuthenticationAN"))
        // Put the phone's result after the events of the step after the await (the access session is gone).
        let after = try Self.index(cassette, "expired poll", { $0.step?.name == "the access-number session is gone" })
        let last = cassette.events.lastIndex { $0.step?.name == "the access-number session is gone" }
        let afterEnd = try #require(last)
        #expect(poll < result && result < after)
        let moved = cassette.events.remove(at: result)
        cassette.events.insert(moved, at: afterEnd)
        let outcome = await ScenarioSession.replay(cassette, path: "reordered.json", library: RepoPaths.library)
        let failure = try #require(outcome.failure)
        #expect(outcome.kind == "actorOrder", "\(failure)")
        #expect(failure.contains("runs in the background and was recorded waiting"))
    }

    @Test func backgroundStepsMustBeAwaited() {
        #expect(throws: ScriptError.self) {
            try ScriptParser.parse(
                """
                steps:
                  - sdk: initialize
                    background: phone
                """, file: "never-awaited.yaml")
        }
        do {
            _ = try ScriptParser.parse(
                """
                steps:
                  - await: phone
                """, file: "unknown.yaml")
            Issue.record("an await of no background step parsed")
        } catch {
            #expect(
                error.description
                    == "unknown.yaml:2: step 0 \"await phone\": await phone: no step runs in the background under that name here"
            )
        }
        do {
            _ = try ScriptParser.parse(
                """
                steps:
                  - sdk: initialize
                    background: phone
                  - sdk: destroy
                    background: phone
                  - await: phone
                """, file: "twice.yaml")
            Issue.record("two running background steps of one name parsed")
        } catch {
            #expect(error.description.contains("twice.yaml:4: step 1"))
            #expect(error.description.contains("step 0 (line 2) runs under that name and is not awaited yet"))
        }
        do {
            _ = try ScriptParser.parse(
                """
                steps:
                  - await: phone
                    with: {x: 1}
                """, file: "with.yaml")
            Issue.record("an await with arguments parsed")
        } catch {
            #expect(error.description.contains("an await step takes only name, expect, capture and note"))
        }
    }
}
