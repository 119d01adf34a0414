/// `cassette show`: a readable timeline of a cassette.
package enum CassetteTimeline {
    package static func text(_ cassette: Cassette, path: String? = nil) -> String {
        var lines: [String] = []
        let scenario =
            "scenario \"\(cassette.scenario.name)\"" + (cassette.scenario.path.map { " (\($0))" } ?? "")
            + (cassette.scenario.seed.map { ", seed \($0)" } ?? "")
        lines.append((path.map { $0 + ": " } ?? "") + scenario)
        lines.append(
            "  curve \(cassette.curve); backend \(cassette.backend.url) (\(cassette.backend.flavour)"
                + (cassette.backend.embedded ? ", embedded" : "") + ")")
        lines.append("  written by \(cassette.tool.name) \(cassette.tool.version), format \(cassette.formatVersion)")
        if let mode = cassette.replayMode {
            lines.append(
                "  replays in mode \(mode)"
                    + (mode.fresh.isEmpty ? "" : " (fresh randomness in \(mode.fresh.joined(separator: ", ")))"))
        }
        if let origin = cassette.origin {
            lines.append(
                "  imported from \(origin.file) (\(origin.format))" + (origin.test.map { ", test \($0)" } ?? ""))
            for item in origin.unbound {
                lines.append(
                    "  not bound from the recording: $\(item.variable)" + (item.test.map { " of \($0)" } ?? "")
                        + (item.value.map { " (\"\($0)\" used)" } ?? " (no value)") + ": \(item.reason)")
            }
        }
        if !cassette.redactions.isEmpty {
            lines.append(
                "  placeholders: "
                    + cassette.redactions.map {
                        "\(Placeholder.text($0.placeholder)) (\($0.field), \($0.occurrences)×)"
                    }.joined(separator: ", "))
        }
        var counts: [String: Int] = [:]
        for event in cassette.events { counts[event.type, default: 0] += 1 }
        lines.append(
            "  \(cassette.events.count) event\(cassette.events.count == 1 ? "" : "s"): "
                + ["call", "http", "crypto", "random", "clock"]
                .compactMap { type in counts[type].map { "\($0) \(type)" } }.joined(separator: ", "))
        lines.append("")
        var currentStep: ScenarioStep?
        let width = String(max(cassette.events.count - 1, 0)).count
        for (index, event) in cassette.events.enumerated() {
            if event.step != currentStep {
                currentStep = event.step
                lines.append(currentStep.map { "\($0.index). \($0.name)" } ?? "(no step)")
            }
            let number = String(index)
            let padded = String(repeating: " ", count: width - number.count) + number
            let actor = event.actor.rawValue.padding(7)
            lines.append("  #\(padded) \(actor) \(EventSummary.line(event))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
