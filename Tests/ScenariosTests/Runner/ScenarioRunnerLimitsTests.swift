import MPinSDK
import MilagroRecording
import SDKSeams
import Scenarios
import Testing

/// Numbers that reach a step through a `$variable` are checked when the step runs, and the frozen
/// clock cannot be moved past the end of year 9999: a failure naming the file, line and step.
@Suite struct ScenarioRunnerLimitsTests {
    /// A backend that is never there: the steps tested here fail before they send anything.
    struct Nowhere: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
            throw TransportError(kind: .connectionRefused, message: "nothing listens", url: request.url)
        }
    }

    /// Runs `text` on a frozen clock with `$seed` set to `seed`; the failure, nil when it passed.
    func failure(_ text: String, seed: String = "7") async throws -> ScenarioFailure? {
        let script = try ScriptParser.parse(text, file: "Scenarios/limits.yaml")
        let clock = FrozenClock(milliseconds: script.startTime)
        do {
            _ = try await ScenarioSession.run(
                script, backendURL: "http://127.0.0.1:1", transport: Nowhere(), random: SeededRandomSource(seed: seed),
                clock: clock, advanceClock: { clock.advance(milliseconds: $0) }, canWait: true, seed: seed)
            return nil
        } catch {
            return error
        }
    }

    /// Before: `seconds * 1000` trapped on overflow.
    @Test func aWaitFromAVariableIsRangeChecked() async throws {
        for seed in ["9223372036854775807", "1e400", "0"] {
            let found = try #require(
                try await failure("name: x\nsteps:\n  - clock: wait\n    with: {seconds: $seed}\n", seed: seed))
            #expect(found.error.line == 3 && found.error.stepIndex == 0, "\(found)")
            #expect(
                found.error.message
                    == "seconds should be a whole number from 1 to 315360000 (ten years), found \"\(seed)\"")
        }
        #expect(try await failure("name: x\nsteps:\n  - clock: wait\n    with: {seconds: $seed}\n", seed: "60") == nil)
    }

    /// Before: a start time near Int64.max plus any wait trapped; now the start time is refused
    /// when read, and waits stop at the end of year 9999.
    @Test func theClockCannotPassTheYear9999() async throws {
        let text =
            "name: x\nstartTime: 253402300000000\nsteps:\n  - clock: wait\n    with: {seconds: 799}\n  - clock: wait\n    with: {seconds: 1}\n"
        let found = try #require(try await failure(text))
        #expect(found.error.stepIndex == 1 && found.error.line == 6, "\(found)")
        #expect(
            found.error.message
                == "the clock would pass 9999-12-31T23:59:59.999Z (start time 253402300000000 ms, 799 s waited before this step)"
        )
        // The clock itself stops at the ends of Int64 instead of trapping.
        let clock = FrozenClock(milliseconds: .max - 5)
        clock.advance(milliseconds: 1_000)
        #expect(clock.nowMilliseconds() == .max)
        clock.advance(milliseconds: .min)
        #expect(clock.nowMilliseconds() == -1)
    }

    /// Before: a huge `attempts` on the frozen clock polled for ever.
    @Test func pollAttemptsFromAVariableAreRangeChecked() async throws {
        let found = try #require(
            try await failure(
                "name: x\nsteps:\n  - browser: poll\n    with: {webOTT: w, attempts: $seed}\n",
                seed: "9223372036854775807"))
        #expect(
            found.error.line == 3 && found.error.message.hasPrefix("attempts should be a whole number from 1 to 1000"),
            "\(found)")
    }

    /// Before: a `timeout` of 1e30 reached the transport, whose milliseconds overflowed.
    @Test func aDeviceTimeoutFromAVariableIsRangeChecked() async throws {
        let found = try #require(
            try await failure("name: x\nsteps:\n  - device: configure\n    with: {timeout: $seed}\n", seed: "1e30"))
        #expect(
            found.error.line == 3
                && found.error.message == "timeout should be a number of seconds from 0.001 to 3600, found \"1e30\"")
    }
}
