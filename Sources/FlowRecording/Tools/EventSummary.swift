import CommonFormats
import SDKSeams

/// One-line descriptions of events, for timelines and reports.
package enum EventSummary {
    package static func line(_ event: CassetteEvent) -> String {
        line(event) { _, value in short(value) }
    }

    /// The lines of a recorded event and of the re-run's event in its place: a value the two
    /// events both name (an argument, an input, an output, a draw) and hold differently is shortened
    /// around its first difference in both, so that the change shows on the first lines of a
    /// divergence report; every other value as `line` shortens it.
    package static func pair(_ expected: CassetteEvent, _ actual: CassetteEvent) -> (expected: String, actual: String) {
        let e = values(expected), a = values(actual)
        func shorten(mine: [String: String], theirs: [String: String]) -> (String, String) -> String {
            { name, value in
                guard let other = theirs[name], other != value, mine[name] == value else { return short(value) }
                return TextShortening.aroundDifference(value, other, limit: 48).0
            }
        }
        return (
            line(expected, shorten: shorten(mine: e, theirs: a)), line(actual, shorten: shorten(mine: a, theirs: e))
        )
    }

    /// The named values of an event, by the names `line` gives them (`argument:`, `input:`, ...);
    /// a name that comes twice is left out.
    private static func values(_ event: CassetteEvent) -> [String: String] {
        var named: [(String, String)] = []
        switch event.payload {
        case .call(let call):
            named =
                call.arguments.map { ("argument:" + $0.name, $0.value) }
                + call.outputs.map { ("output:" + $0.name, $0.value) } + [("message", call.status.message)]
        case .crypto(let step):
            named =
                step.inputs.map { ("input:" + $0.name, $0.value) }
                + step.outputs.map { ("output:" + $0.name, $0.value) }
        case .random(let draw): named = [("draw", draw.hex)]
        case .http(let exchange): named = [("error", exchange.error?.message ?? "")]
        case .clock: break
        }
        var out: [String: String] = [:], twice: Set<String> = []
        for (name, value) in named {
            if out.updateValue(value, forKey: name) != nil { twice.insert(name) }
        }
        for name in twice { out[name] = nil }
        return out
    }

    /// The line of `event`, each value shortened by `shorten(name, value)` (names as `values` gives them).
    private static func line(_ event: CassetteEvent, shorten: (String, String) -> String) -> String {
        switch event.payload {
        case .call(let call):
            let arguments = call.arguments.map { "\($0.name): \(shorten("argument:" + $0.name, $0.value))" }.joined(
                separator: ", ")
            var text = "call \(call.name)(\(arguments)) -> \(call.status.code)"
            if !call.status.message.isEmpty { text += " \"\(shorten("message", call.status.message))\"" }
            if let state = call.userState { text += ", user \(state)" }
            if !call.outputs.isEmpty {
                text +=
                    ", returns "
                    + call.outputs.map { "\($0.name)=\(shorten("output:" + $0.name, $0.value))" }.joined(separator: " ")
            }
            return text
        case .http(let exchange):
            var text = "http \(exchange.request.method) \(exchange.request.url)"
            if !exchange.request.body.isEmpty { text += " (\(exchange.request.body.count) B)" }
            if let response = exchange.response {
                text += " -> \(response.status)" + (response.body.isEmpty ? "" : " (\(response.body.count) B)")
            } else if let error = exchange.error {
                text += " -> transport error \(error.kind): \(shorten("error", error.message))"
            }
            if let total = exchange.timings?.total { text += " in " + duration(total) }
            return text
        case .crypto(let step):
            let inputs = step.inputs.map { "\($0.name)=\(shorten("input:" + $0.name, $0.value))" }.joined(
                separator: " ")
            let outputs = step.outputs.map { "\($0.name)=\(shorten("output:" + $0.name, $0.value))" }.joined(
                separator: " ")
            return "crypto \(step.primitive) [\(inputs)] -> [\(outputs)]"
        case .random(let draw):
            let size = draw.bytes.map { "\($0.count) random bytes" } ?? "random bytes"
            return "\(size)" + (draw.purpose.map { " for \($0)" } ?? "") + ": \(shorten("draw", draw.hex))"
        case .clock(let read):
            return "clock \(read.milliseconds) (\(CivilTime.iso8601WithMilliseconds(milliseconds: read.milliseconds)))"
                + (read.purpose.map { " for \($0)" } ?? "")
        }
    }

    /// The event's place: `event 5 (sdk, step 2 "finish registration")`.
    package static func place(_ index: Int, _ event: CassetteEvent) -> String {
        "event \(index) (\(event.actor)" + (event.step.map { ", \($0)" } ?? "") + ")"
    }

    static func short(_ text: String) -> String { TextShortening.middle(text, limit: 24) }

    /// `12 ms` for a duration in seconds; one that is not a plain number of milliseconds (a cassette
    /// built in code may hold anything: negative, huge, not a number) is shown as it is.
    static func duration(_ seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "\(seconds) s" }
        return "\(Int64(milliseconds)) ms"
    }
}
