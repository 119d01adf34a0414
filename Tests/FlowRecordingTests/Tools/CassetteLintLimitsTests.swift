import Testing

@testable import FlowRecording

/// `cassette lint` rejects values that cannot be, naming the event index and the field: before, it
/// called such files fine.
@Suite struct CassetteLintLimitsTests {
    func problems(_ change: (inout Cassette) -> Void) async -> [String] {
        var cassette = await Fixtures.record()
        change(&cassette)
        return CassetteLint.check(bytes: cassette.canonicalBytes, path: "x.json").map(\.message)
    }

    func changeRequest(_ cassette: inout Cassette, _ change: (inout CassetteEvent.HTTPExchange.Request) -> Void) {
        guard case .http(var exchange) = cassette.events[1].payload else {
            Issue.record("event 1 is not http")
            return
        }
        change(&exchange.request)
        cassette.events[1].payload = .http(exchange)
    }

    @Test func aCurveTheToolDoesNotKnowIsAProblem() async {
        #expect(
            await problems { $0.curve = "BLS12383" } == [
                "field curve: \"BLS12383\" is not a curve this tool knows (BN254CX, BN254)"
            ])
        #expect(await problems { $0.curve = "bn254" }.isEmpty)
    }

    @Test func anEmptyOrRelativeURLIsAProblem() async {
        #expect(
            await problems { changeRequest(&$0) { $0.url = "" } } == [
                "event 1, field request.url: empty; a request has an absolute URL"
            ])
        #expect(
            await problems { changeRequest(&$0) { $0.url = "/rps/clientSettings" } }
                == ["event 1, field request.url: \"/rps/clientSettings\" is not an absolute URL (scheme://host/path)"])
        #expect(
            await problems { changeRequest(&$0) { $0.url = "http://x/a b" } }
                == ["event 1, field request.url: \"http://x/a b\" holds a space or a control character"])
    }

    @Test func aMethodThatIsNoTokenIsAProblem() async {
        #expect(
            await problems { changeRequest(&$0) { $0.method = "GET /x" } }
                == ["event 1, field request.method: \"GET /x\" is not an HTTP method (a token such as GET)"])
    }

    /// What the reader refuses, lint reports as its one problem, with the event and the field.
    @Test func valuesTheReaderRefusesAreReportedWithEventAndField() async {
        let status = await problems { cassette in
            guard case .http(var exchange) = cassette.events[1].payload else { return }
            exchange.response?.status = 1000
            cassette.events[1].payload = .http(exchange)
        }
        #expect(status == ["event 1, field response.status: 1000 is not an HTTP status (100 to 999)"])
        let header = await problems { changeRequest(&$0) { $0.headers.append(name: "Bad Name", value: "v") } }
        #expect(
            header.count == 1
                && header[0].hasPrefix("event 1, field request.headers[0].name: \"Bad Name\" is not a header name"))
        let clock = await problems { $0.events.append(CassetteEvent(.clock(.init(milliseconds: -1)))) }
        let appended = await Fixtures.record().events.count
        #expect(
            clock == [
                "event \(appended), field milliseconds: -1 is not a time from 0 to 253402300799999 ms since 1970 (1970 to 9999)"
            ])
        let timing = await problems { cassette in
            guard case .http(var exchange) = cassette.events[1].payload else { return }
            exchange.timings?.dns = -0.5
            cassette.events[1].payload = .http(exchange)
        }
        #expect(timing == ["event 1, field timings.dns: -0.5 is not a duration from 0 to 86400 seconds"])
    }
}
