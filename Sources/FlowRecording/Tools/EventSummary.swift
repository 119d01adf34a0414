import CommonFormats
import SDKSeams

/// One-line descriptions of events, for timelines and reports.
package enum EventSummary {
    package static func line(_ event: CassetteEvent) -> String {
        switch event.payload {
        case .call(let call):
            let arguments = call.arguments.map { "\($0.name): \(short($0.value))" }.joined(separator: ", ")
            var text = "call \(call.name)(\(arguments)) -> \(call.status.code)"
            if !call.status.message.isEmpty { text += " \"\(short(call.status.message))\"" }
            if let state = call.userState { text += ", user \(state)" }
            if !call.outputs.isEmpty {
                text += ", returns " + call.outputs.map { "\($0.name)=\(short($0.value))" }.joined(separator: " ")
            }
            return text
        case .http(let exchange):
            var text = "http \(exchange.request.method) \(exchange.request.url)"
            if !exchange.request.body.isEmpty { text += " (\(exchange.request.body.count) B)" }
            if let response = exchange.response {
                text += " -> \(response.status)" + (response.body.isEmpty ? "" : " (\(response.body.count) B)")
            } else if let error = exchange.error {
                text += " -> transport error \(error.kind): \(short(error.message))"
            }
            if let total = exchange.timings?.total { text += " in " + duration(total) }
            return text
        case .crypto(let step):
            let inputs = step.inputs.map { "\($0.name)=\(short($0.value))" }.joined(separator: " ")
            let outputs = step.outputs.map { "\($0.name)=\(short($0.value))" }.joined(separator: " ")
            return "crypto \(step.primitive) [\(inputs)] -> [\(outputs)]"
        case .random(let draw):
            let size = draw.bytes.map { "\($0.count) random bytes" } ?? "random bytes"
            return "\(size)" + (draw.purpose.map { " for \($0)" } ?? "") + ": \(short(draw.hex))"
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
