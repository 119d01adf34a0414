import MPinCrypto
import OrderedJSON
import ReferenceBackend
import SDKSeams
import Synchronization

/// The faults the cases serve, each an `ExchangeFault` for one endpoint (docs/conformance.md,
/// "The client suite"): another status, a redirect, a dropped or cut connection, a slow, oversized
/// or mistyped answer, or the backend's own JSON answer changed. `only` keeps a fault to the
/// requests of its endpoint whose tail segment is one operation (a D-TA's `clientSecret` or
/// `timePermit`); the others get the backend's answer.
package enum Fault {
    /// The endpoints of D-TA 2 in every profile: `/dta2/<operation>`, and the hosted D-TA's v3 API.
    package static let dta2: [Endpoint] = [.dta2, .hostedDTA2]
    /// The plain login in either flavour: the RPA's (Milagro) or the RPS's (the MFA platform's
    /// `authenticateURL`).
    package static let login: [Endpoint] = [.rpaAuthenticate, .mobileAuthenticate]

    /// The answer's body for a refusal the fault makes up.
    static func message(_ text: String) -> [UInt8] {
        Array(JSONWriter.compact(.object([.init("message", .string(text))])).utf8)
    }

    static let json: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]

    /// Wraps `body` so that only requests whose tail is `operation` get it (all when nil).
    static func make(only operation: String?, _ body: @escaping ExchangeFault.Handler) -> ExchangeFault {
        ExchangeFault { request, services, next in
            guard operation == nil || request.tail == operation else { return await next() }
            return await body(request, services, next)
        }
    }

    /// Answers `status` with a JSON `{"message"}` (the backend's own answer is not asked for).
    package static func status(_ status: Int, only operation: String? = nil, message: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, _ in
            FaultAnswer(
                status: status, headers: json, body: Self.message(message ?? "the case's fault: status \(status)"))
        }
    }

    /// The backend's answer, then `status` with it (its body and fields kept).
    package static func restatus(_ status: Int, only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, next in
            var answer = await next()
            answer.status = status
            answer.reasonPhrase = nil
            return answer
        }
    }

    /// A redirect with `status` to the same target on `origin` (no request goes to the backend).
    package static func redirect(_ status: Int, to origin: String, only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { request, _, _ in
            var headers = json
            headers.append(name: "Location", value: origin + request.target)
            return FaultAnswer(status: status, headers: headers, body: message("moved to \(origin)"))
        }
    }

    /// No answer: the connection closes once the request is read.
    package static func drop(only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, next in
            var answer = await next()
            answer.delivery = .dropped
            return answer
        }
    }

    /// The backend's answer with half its body, declaring the whole length, then a close.
    package static func truncate(only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, next in
            var answer = await next()
            let declared = max(answer.body.count, 2)
            answer.body = Array(answer.body.prefix(declared / 2))
            answer.delivery = .truncated(declared: declared)
            return answer
        }
    }

    /// The backend's answer, `seconds` late.
    package static func slow(_ seconds: Double, only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, next in
            var answer = await next()
            answer.delay = seconds
            return answer
        }
    }

    /// The backend's answer with another `Content-Type` (the body unchanged).
    package static func contentType(_ value: String, only operation: String? = nil) -> ExchangeFault {
        make(only: operation) { _, _, next in
            var answer = await next()
            answer.headers.set(name: "Content-Type", value: value)
            return answer
        }
    }

    /// A 200 whose body is `body` in place of the backend's.
    package static func body(_ body: [UInt8], contentType: String = "application/json; charset=utf-8") -> ExchangeFault
    {
        ExchangeFault { _, _, _ in
            FaultAnswer(status: 200, headers: ["Content-Type": contentType], body: body)
        }
    }

    /// A 200 declaring `declared` bytes and sending `sent` of them (whitespace inside a JSON
    /// object), then a close: an answer bigger than a client should hold.
    package static func oversized(declared: Int, sent: Int) -> ExchangeFault {
        ExchangeFault { _, _, _ in
            var body = Array("{\"padding\":\"".utf8)
            body += [UInt8](repeating: UInt8(ascii: " "), count: max(sent - body.count, 0))
            return FaultAnswer(status: 200, headers: json, body: body, delivery: .truncated(declared: declared))
        }
    }

    /// The backend's JSON answer changed by `edit` (given the request and the backend's
    /// services); an answer that is not a JSON object is left alone.
    package static func editJSON(
        only operation: String? = nil,
        _ edit: @escaping @Sendable (inout [JSONValue.Member], FaultRequest, FaultServices) -> Void
    ) -> ExchangeFault {
        make(only: operation) { request, services, next in
            var answer = await next()
            guard answer.status == 200, let value = try? JSONParser.parse(answer.body),
                var members = value.objectMembers
            else { return answer }
            edit(&members, request, services)
            answer.body = Array(JSONWriter.compact(.object(members)).utf8)
            answer.headers.remove(name: "Etag")
            return answer
        }
    }

    /// Sets (or adds) a member.
    static func set(_ members: inout [JSONValue.Member], _ name: String, _ value: JSONValue) {
        if let index = members.lastIndex(where: { $0.name == name }) {
            members[index].value = value
        } else {
            members.append(.init(name, value))
        }
    }

    /// A G1 point's hex (65 bytes `04‖x‖y`) changed into one that is not on the curve: y's lowest
    /// bit flipped, then higher bits until the point is off the curve (docs/protocol.md §6.1).
    static func offCurve(_ hex: String, curve: CurveID) -> String {
        guard var bytes = Hex.decode(hex), bytes.count == 65 else { return hex + "00" }
        let mpin = MPin(curve: curve)
        for bit in 0..<256 {
            bytes[64 - bit / 8] ^= UInt8(1 << (bit % 8))
            if !mpin.isUncompressedG1(bytes) { return Hex.encode(bytes) }
            bytes[64 - bit / 8] ^= UInt8(1 << (bit % 8))
        }
        return Hex.encode(bytes + [0])
    }

    /// A fault for the first `count` requests its endpoint gets (then the backend's own answers).
    package static func first(_ count: Int, _ fault: ExchangeFault) -> ExchangeFault {
        let counter = Counter()
        return ExchangeFault { request, services, next in
            counter.next() <= count ? await fault.handle(request, services, next) : await next()
        }
    }
}

/// A count shared by the requests of one fault.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// One more; the new count.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
