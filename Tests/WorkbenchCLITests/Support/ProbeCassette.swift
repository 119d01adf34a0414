import FlowRecording
import OrderedJSON
import SDKSeams

/// The real-server probe's output (`../shared/interop/real-server/probe-real-oss-server.json`,
/// `{backend, label, records: [{step, method, url, req_body, status, reason, headers, body, error, …}]}`)
/// as a cassette of its exchanges, in order, for the M-Pin checks.
///
/// * `url` is relative to `backend`, or starts with `<DTA2>/`, the probe's mark for the client
///   settings' `certivoxURL` (D-TA 2 on its own origin): both are made absolute again.
/// * `req_body` is null for no body; the probe kept only bodies of at most 300 characters and wrote
///   `<N bytes>` or the first 300 characters and `...<N chars>` for longer ones: such a body becomes
///   the placeholder `{{elided}}`, which the checks leave alone.
/// * `headers` are `[name, value]` pairs; `error` a transport error's text (no response).
/// * No actor is recorded: the events get the actor `probe`, which the checks do not compare.
enum ProbeCassette {
    static let relativePath = "interop/real-server/probe-real-oss-server.json"

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func cassette(_ bytes: [UInt8], path: String) throws -> Cassette {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch {
            throw Problem(description: "\(path): not JSON: \(error)")
        }
        guard let backend = document["backend"]?.stringValue, case .array(let records)? = document["records"] else {
            throw Problem(description: "\(path): no backend or records")
        }
        // D-TA 2's URL, from the first client settings the probe got.
        let settings = records.first {
            $0["url"]?.stringValue?.hasSuffix("/clientSettings") == true && $0["status"]?.intValue == 200
        }
        let dta = settings.flatMap { try? JSONParser.parse(Array(($0["body"]?.stringValue ?? "").utf8)) }?[
            "certivoxURL"]?.stringValue
        var cassette = Cassette(
            tool: .init(name: "probe.py", version: "0"), curve: "BN254CX",
            scenario: .init(name: "probe-real-oss-server"),
            backend: .init(url: backend, flavour: "milagro"))
        for (number, record) in records.enumerated() {
            let place = "\(path): records[\(number)]"
            guard let method = record["method"]?.stringValue, let url = record["url"]?.stringValue else {
                throw Problem(description: "\(place): no method or url")
            }
            var absolute = backend + url
            if url.hasPrefix("<DTA2>/") {
                guard let dta else { throw Problem(description: "\(place): <DTA2> but no certivoxURL in the settings") }
                absolute = dta + url.dropFirst("<DTA2>/".count)
            }
            let body =
                record["req_body"]?.stringValue.map { text in Self.isElided(text) ? Placeholder.text("elided") : text }
                ?? ""
            var exchange = CassetteEvent.HTTPExchange(
                request: .init(method: method, url: absolute, body: Array(body.utf8)))
            if let error = record["error"]?.stringValue {
                exchange.error = .init(kind: "probe", message: error)
            } else {
                guard let status = record["status"]?.intValue, (100...599).contains(status) else {
                    throw Problem(description: "\(place): status is not a number from 100 to 599")
                }
                var headers = HTTPHeaders()
                if case .array(let pairs)? = record["headers"] {
                    for pair in pairs {
                        guard case .array(let items) = pair, items.count == 2, let name = items[0].stringValue,
                            let value = items[1].stringValue
                        else {
                            throw Problem(description: "\(place): a header is not [name, value]")
                        }
                        headers.append(name: name, value: value)
                    }
                }
                exchange.response = .init(
                    status: status, headers: headers, body: Array((record["body"]?.stringValue ?? "").utf8))
            }
            cassette.events.append(CassetteEvent(actor: EventActor(rawValue: "probe"), .http(exchange)))
        }
        return cassette
    }

    /// `<1048645 bytes>`, `<327 chars>`, or 300 characters and `...<579 chars>`.
    static func isElided(_ text: String) -> Bool {
        guard text.hasSuffix(" bytes>") || text.hasSuffix(" chars>"), let open = text.lastIndex(of: "<") else {
            return false
        }
        return open == text.startIndex || text[..<open].hasSuffix("...")
    }
}
