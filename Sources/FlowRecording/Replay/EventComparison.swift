import CommonFormats
import OrderedJSON
import SDKSeams

/// Comparison of a re-run's events with recorded ones, under a `ReplayMode`; each difference is a
/// line for the divergence report (empty: they match).
enum EventComparison {
    typealias Request = CassetteEvent.HTTPExchange.Request

    static func request(_ expected: Request, _ actual: Request, mode: ReplayMode) -> [String] {
        var out: [String] = []
        if expected.method != actual.method { out.append("method: expected \(expected.method), got \(actual.method)") }
        let ignored = Set(mode.ignored)
        let expectedURL = mode.matching == .ignore ? URLText.removingQueryItems(expected.url, ignored) : expected.url
        let actualURL = mode.matching == .ignore ? URLText.removingQueryItems(actual.url, ignored) : actual.url
        if expectedURL != actualURL { out.append("url: expected \(expected.url), got \(actual.url)") }
        switch mode.matching {
        case .methodURL, .context:
            break
        case .strict:
            out += headersInOrder(expected.headers, actual.headers)
            out += bodyBytes(expected.body, actual.body)
        case .json, .ignore:
            let ignoredHeaders = Set(mode.ignored.map { $0.lowercased() })
            out += headersAsSet(expected.headers, actual.headers, ignoring: ignoredHeaders)
            out += bodySemantic(expected.body, actual.body, ignoring: ignored)
        }
        return out
    }

    static func headersInOrder(_ expected: HTTPHeaders, _ actual: HTTPHeaders) -> [String] {
        var out: [String] = []
        for position in 0..<max(expected.count, actual.count) {
            let e = position < expected.count ? expected.fields[position] : nil
            let a = position < actual.count ? actual.fields[position] : nil
            if e == a { continue }
            func show(_ field: HTTPHeaders.Field?) -> String {
                field.map { "\"\($0.name): \($0.value)\"" } ?? "nothing"
            }
            out.append("header \(position + 1): expected \(show(e)), got \(show(a))")
        }
        return out
    }

    static func headersAsSet(_ expected: HTTPHeaders, _ actual: HTTPHeaders, ignoring: Set<String>) -> [String] {
        func lines(_ headers: HTTPHeaders) -> [String] {
            headers.fields.filter { !ignoring.contains($0.name.lowercased()) }
                .map { $0.name.lowercased() + ": " + $0.value }.sorted()
        }
        var e = lines(expected), a = lines(actual)
        var out: [String] = []
        for line in e where a.contains(line) {
            a.remove(at: a.firstIndex(of: line)!)
            e.remove(at: e.firstIndex(of: line)!)
        }
        for line in e { out.append("header missing: \(line)") }
        for line in a { out.append("header unexpected: \(line)") }
        return out
    }

    /// `peers`: name the sides as two peers (`cassette diff`) instead of expected and got.
    static func bodyBytes(_ expected: [UInt8], _ actual: [UInt8], peers: (String, String)? = nil) -> [String] {
        guard expected != actual else { return [] }
        if let e = try? JSONParser.parse(expected), let a = try? JSONParser.parse(actual) {
            let paths = JSONDiff.differences(e, a, path: "body $")
            if !paths.isEmpty { return paths.map { peers.map($0.description) ?? $0.description } }
            return ["body: the same JSON written differently; " + firstByteDifference(expected, actual, peers: peers)]
        }
        return ["body: " + firstByteDifference(expected, actual, peers: peers)]
    }

    static func bodySemantic(_ expected: [UInt8], _ actual: [UInt8], ignoring: Set<String>) -> [String] {
        if let e = try? JSONParser.parse(expected), let a = try? JSONParser.parse(actual) {
            return JSONDiff.differences(e.removing(fields: ignoring), a.removing(fields: ignoring), path: "body $").map(
                \.description)
        }
        return expected == actual ? [] : ["body: " + firstByteDifference(expected, actual)]
    }

    /// "first difference at byte 17: expected …"abc"…, got …"abd"…" (with `peers`: "…"abc"… in
    /// the first, …"abd"… in the second").
    static func firstByteDifference(_ expected: [UInt8], _ actual: [UInt8], peers: (String, String)? = nil) -> String {
        var offset = 0
        while offset < expected.count, offset < actual.count, expected[offset] == actual[offset] { offset += 1 }
        func window(_ bytes: [UInt8]) -> String {
            let start = max(0, offset - 12), end = min(bytes.count, offset + 12)
            guard start < end else { return "(end)" }
            let slice = Array(bytes[start..<end])
            let text =
                String(validating: slice, as: UTF8.self).map { JSONWriter.quoted($0) } ?? "0x" + Hex.encode(slice)
            return (start > 0 ? "…" : "") + text + (end < bytes.count ? "…" : "")
        }
        if let (first, second) = peers {
            return
                "\(expected.count) bytes in \(first), \(actual.count) in \(second); first difference at byte \(offset): "
                + "\(window(expected)) in \(first), \(window(actual)) in \(second)"
        }
        return "\(expected.count) bytes expected, \(actual.count) sent; first difference at byte \(offset): "
            + "expected \(window(expected)), got \(window(actual))"
    }

    static func fields(_ label: String, _ expected: [NamedField], _ actual: [NamedField], ignoring: Set<String>)
        -> [String]
    {
        let e = expected.filter { !ignoring.contains($0.name) }, a = actual.filter { !ignoring.contains($0.name) }
        var out: [String] = []
        for position in 0..<max(e.count, a.count) {
            let x = position < e.count ? e[position] : nil, y = position < a.count ? a[position] : nil
            if x == y { continue }
            switch (x, y) {
            case (let x?, let y?) where x.name == y.name:
                let (e, a) = TextShortening.aroundDifference(x.value, y.value, limit: 70)
                out.append("\(label) \(x.name): expected \(e), got \(a)")
            default:
                out.append(
                    "\(label) \(position + 1): expected \(x.map(brief) ?? "nothing"), got \(y.map(brief) ?? "nothing")")
            }
        }
        return out
    }

    private static func brief(_ field: NamedField) -> String {
        field.name + "=" + TextShortening.middle(field.value, limit: 60)
    }

    static func call(_ expected: CassetteEvent.Call, _ actual: CassetteEvent.Call, mode: ReplayMode) -> [String] {
        var out: [String] = []
        let ignored = Set(mode.ignored)
        if expected.name != actual.name { out.append("call: expected \(expected.name), got \(actual.name)") }
        out += fields("argument", expected.arguments, actual.arguments, ignoring: ignored)
        if expected.status != actual.status {
            out.append(
                "status: expected \(expected.status.code) \"\(expected.status.message)\", "
                    + "got \(actual.status.code) \"\(actual.status.message)\"")
        }
        if expected.userState != actual.userState {
            out.append("user state: expected \(expected.userState ?? "none"), got \(actual.userState ?? "none")")
        }
        out += fields("output", expected.outputs, actual.outputs, ignoring: ignored)
        return out
    }

    static func crypto(_ expected: CassetteEvent.CryptoStep, _ actual: CassetteEvent.CryptoStep, mode: ReplayMode)
        -> [String]
    {
        var out: [String] = []
        let ignored = Set(mode.ignored)
        if expected.primitive != actual.primitive {
            out.append("primitive: expected \(expected.primitive), got \(actual.primitive)")
        }
        out += fields("input", expected.inputs, actual.inputs, ignoring: ignored)
        out += fields("output", expected.outputs, actual.outputs, ignoring: ignored)
        return out
    }
}
