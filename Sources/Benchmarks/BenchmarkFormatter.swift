import MPinCrypto
import MilagroRecording

/// Prints benchmark results as a table or as the one-object JSON of `bench --json`.
package enum BenchmarkFormatter {
    /// `{"curve": "bn254cx", "results": [{"name": "pairing", "medianNanoseconds": 612345, "runs": 200}, ...]}`
    ///
    /// Medians of a microsecond and more are whole nanoseconds; shorter ones keep one decimal.
    package static func json(curve: CurveID, results: [BenchmarkResult]) -> String {
        let entries = results.map { result in
            "{\"name\": \"\(escaped(result.name))\", \"medianNanoseconds\": \(number(result.medianNanoseconds)), "
                + "\"runs\": \(result.runs)}"
        }
        return "{\"curve\": \"\(curve.rawValue)\", \"results\": [\(entries.joined(separator: ", "))]}"
    }

    package static func table(curve: CurveID, results: [BenchmarkResult]) -> String {
        let nameWidth = max(20, results.map(\.name.count).max() ?? 0)
        var lines = [
            "mpin-workbench \(WorkbenchVersion.current) bench, curve \(curve.rawValue): median per operation",
            pad("operation", nameWidth) + "  " + leftPad("median", 12) + "  " + leftPad("runs", 6),
        ]
        for result in results {
            lines.append(
                pad(result.name, nameWidth) + "  " + leftPad(humanTime(result.medianNanoseconds), 12) + "  "
                    + leftPad(String(result.runs), 6))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ nanoseconds: Double) -> String {
        if nanoseconds >= 1000 { return String(Int(nanoseconds.rounded())) }
        return String((nanoseconds * 10).rounded() / 10)
    }

    static func humanTime(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: fixed(nanoseconds, 1) + " ns"
        case ..<1_000_000: fixed(nanoseconds / 1_000, 2) + " µs"
        case ..<1_000_000_000: fixed(nanoseconds / 1_000_000, 3) + " ms"
        default: fixed(nanoseconds / 1_000_000_000, 3) + " s"
        }
    }

    /// `value` with exactly `digits` decimals (no Foundation formatting).
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return digits == 0 ? String(whole) : "\(whole).\(fraction)"
    }

    static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func leftPad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
