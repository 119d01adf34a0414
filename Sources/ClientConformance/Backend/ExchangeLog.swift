import FlowRecording
import ReferenceBackend
import SDKSeams
import Synchronization

/// A case's record: every exchange the graded backend and the other origins answered, and every
/// call the driver reported, in the order they happened (a run's calls after its exchanges). The
/// suite reads the client's requests from it (U of pass 1, secrets, origins) and writes it as
/// the case's cassette. Thread-safe: the servers add to it from their event loops.
final class ExchangeLog: Sendable {
    /// Who sent a request: the client, or the suite itself playing the browser or the operator
    /// (its requests carry `actorField`).
    enum Entry: Sendable {
        case exchange(actor: EventActor, ObservedExchange)
        case calls(DriverRun)
    }

    /// The header field by which the suite marks its own requests (`browser`, `admin`), so that
    /// the log tells them from the client's.
    static let actorField = "X-Workbench-Actor"

    /// The most bytes of a body kept in the log (and the cassette); the rest is dropped with a note.
    static let bodyLimit = 1 << 20

    private let entries = Mutex<[Entry]>([])

    func add(_ exchange: ObservedExchange) {
        let actor = exchange.request.headers[Self.actorField].map(EventActor.init(rawValue:)) ?? .sdk
        var kept = exchange
        if kept.request.body.count > Self.bodyLimit {
            kept.request.body = Array(kept.request.body.prefix(Self.bodyLimit))
        }
        if kept.answer.body.count > Self.bodyLimit { kept.answer.body = Array(kept.answer.body.prefix(Self.bodyLimit)) }
        entries.withLock { $0.append(.exchange(actor: actor, kept)) }
    }

    func add(_ run: DriverRun) {
        entries.withLock { $0.append(.calls(run)) }
    }

    var all: [Entry] { entries.withLock { $0 } }

    /// The client's requests (not the suite's own), with their answers, in order.
    var clientExchanges: [ObservedExchange] {
        all.compactMap { entry in
            if case .exchange(.sdk, let exchange) = entry { return exchange }
            return nil
        }
    }

    /// The driver's runs, in order.
    var runs: [DriverRun] {
        all.compactMap { entry in
            if case .calls(let run) = entry { return run }
            return nil
        }
    }

    /// The log as a cassette: each exchange an `http` event of its actor (a dropped answer as a
    /// transport error, a cut one with a note), each reported call a `call` event.
    func cassette(header: Cassette) -> Cassette {
        var cassette = header
        for entry in all {
            switch entry {
            case .exchange(let actor, let exchange):
                let request = CassetteEvent.HTTPExchange.Request(
                    method: exchange.request.method, url: exchange.request.url, headers: exchange.request.headers,
                    body: exchange.request.body)
                var http = CassetteEvent.HTTPExchange(request: request)
                switch exchange.answer.delivery {
                case .dropped:
                    http.error = .init(
                        kind: "other", message: "the backend closed the connection without an answer (the case's fault)"
                    )
                case .truncated(let declared):
                    http.response = .init(
                        status: exchange.answer.status, headers: exchange.answer.headers, body: exchange.answer.body)
                    http.context =
                        "the body was cut short: Content-Length \(declared), \(exchange.answer.body.count) bytes sent"
                case .whole:
                    http.response = .init(
                        status: exchange.answer.status, headers: exchange.answer.headers, body: exchange.answer.body)
                    if exchange.answer.delay > 0 { http.context = "answered after \(exchange.answer.delay) s" }
                }
                cassette.events.append(CassetteEvent(actor: actor, .http(http)))
            case .calls(let run):
                for call in run.calls {
                    cassette.events.append(
                        CassetteEvent(
                            actor: .sdk,
                            .call(
                                .init(
                                    name: call.name,
                                    status: .init(code: call.status.name, message: call.message ?? "")))))
                }
            }
        }
        return cassette
    }
}
