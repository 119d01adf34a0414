import CommonFormats
import FlowRecording
import MPinCrypto
import OrderedJSON

/// What a Milagro cassette gives away: the secrets it holds in clear, and whether the known
/// derivations of the client secret can be made from what it holds (`cassette audit`).
///
/// The derivations, from the M-Pin client of the open-source SDK core (src/mpin_crypto.cpp on
/// the AMCL functions, docs/crypto.md §5): CLIENT_1 gives SEC = CS + TP with a time permit (SEC = CS
/// without one, as on the MFA platform), so SEC − TP is the client secret CS; CLIENT_2 sends
/// V = −(x+y)·SEC, so x, y and V give SEC as −(x+y)⁻¹·V; RANDOM_GENERATE reads its 64 bytes of
/// draws as one integer modulo r, so the raw draws give x (each 8-byte draw
/// a little-endian word, Sources/MPinSDK/Support/DrawingGenerator.swift).
public enum MilagroAudit {
    /// One derivation tried at one event.
    public struct Derivation: Sendable, Hashable, CustomStringConvertible {
        /// `SEC − TP`, `−(x+y)⁻¹·V` or `draws → x`.
        public var name: String
        /// The index of the event it was tried at (the crypto step).
        public var event: Int
        /// What it gives (the client secret, or x for `draws → x`); nil when it could not be made.
        public var result: [UInt8]?
        /// Why it could not be made, or what it gives.
        public var note: String

        public var description: String {
            "event \(event): \(name): " + (result == nil ? "not possible (\(note))" : "GIVES \(note)")
        }
    }

    /// A secret field whose value is in clear.
    public struct ClearSecret: Sendable, Hashable, CustomStringConvertible {
        public var event: Int
        public var field: String
        public var description: String { "event \(event): \(field) in clear" }
    }

    /// The full report of `cassette audit`.
    public struct Report: Sendable {
        public var clearSecrets: [ClearSecret]
        public var derivations: [Derivation]
        /// Fields in clear that are neither secret nor in `Redactor.milagroPublic`, sorted.
        public var unclassified: [String]
        /// Nothing given away: no secret in clear and no derivation possible.
        public var isShareable: Bool { clearSecrets.isEmpty && derivations.allSatisfy { $0.result == nil } }
    }

    public static func audit(_ cassette: Cassette) -> Report {
        let secret = Set(Redactor.milagroFields.map { $0.lowercased() })
        var clear: [ClearSecret] = []
        var unclassified: Set<String> = []
        for (index, field, value) in fields(cassette) where !value.isEmpty && Placeholder.whole(value) == nil {
            if secret.contains(field.lowercased()) {
                clear.append(ClearSecret(event: index, field: field))
            } else if Redactor.milagroPublic[field] == nil {
                unclassified.insert(field)
            }
        }
        return Report(clearSecrets: clear, derivations: derivations(cassette), unclassified: unclassified.sorted())
    }

    /// Every named value of the cassette with its event index: call and crypto fields, random draws
    /// (as `random`), header values, query parameters and string members of JSON bodies.
    public static func fields(_ cassette: Cassette) -> [(event: Int, field: String, value: String)] {
        var out: [(Int, String, String)] = []
        for (index, event) in cassette.events.enumerated() {
            switch event.payload {
            case .call(let call):
                for field in call.arguments + call.outputs { out.append((index, field.name, field.value)) }
            case .crypto(let step):
                for field in step.inputs + step.outputs { out.append((index, field.name, field.value)) }
            case .random(let draw):
                out.append((index, draw.purpose ?? Redactor.drawField, draw.hex))
            case .clock:
                break
            case .http(let exchange):
                for field in exchange.request.headers.fields { out.append((index, field.name, field.value)) }
                for (name, value) in URLText.queryItems(exchange.request.url) { out.append((index, name, value)) }
                out += JSONStrings.members(exchange.request.body).map { (index, $0.0, $0.1) }
                if let response = exchange.response {
                    for field in response.headers.fields { out.append((index, field.name, field.value)) }
                    out += JSONStrings.members(response.body).map { (index, $0.0, $0.1) }
                }
            }
        }
        return out
    }

    /// Each known derivation tried at each event where it applies, in event order.
    public static func derivations(_ cassette: Cassette) -> [Derivation] {
        let maths: Maths = cassette.curve.uppercased() == "BN254" ? Curve<BN254>() : Curve<BN254CX>()
        var out: [Derivation] = []
        var draws: [String] = []
        var permit = Permit.none  // the last CLIENT_1's time permit
        var derivedX: [UInt8]?
        for (index, event) in cassette.events.enumerated() {
            switch event.payload {
            case .random(let draw):
                draws.append(draw.hex)
            case .crypto(let step) where step.primitive == "randomScalar":
                let bytes = draws.suffix(8).map(Hex.decode)
                if draws.count >= 8, bytes.allSatisfy({ $0 != nil }) {
                    // Each 8-byte draw is one 64-bit word read little-endian (the SDK's
                    // DrawingGenerator); RANDOM_GENERATE writes the words big-endian.
                    derivedX = maths.reduce(bytes.flatMap { $0!.reversed() })
                    out.append(Derivation(name: "draws → x", event: index, result: derivedX, note: "x"))
                } else {
                    derivedX = nil
                    out.append(Derivation(name: "draws → x", event: index, result: nil, note: "the random draws are redacted"))
                }
                draws = []
            case .crypto(let step) where step.primitive == "client1":
                let tp = step.inputs.first { $0.name == "timePermit" }.map { Hex.decode($0.value) }
                permit = switch tp { case nil: .none; case .some(nil): .redacted; case .some(.some(let bytes)): .clear(bytes) }
                let sec = step.outputs.first { $0.name == "sec" }.flatMap { Hex.decode($0.value) }
                switch (sec, tp) {
                case (nil, _):
                    out.append(Derivation(name: "SEC − TP", event: index, result: nil, note: "SEC is redacted"))
                case (let sec?, nil):
                    out.append(Derivation(name: "SEC − TP", event: index, result: sec, note: "the client secret (SEC, no time permit)"))
                case (let sec?, let tp?):
                    let cs = tp.flatMap { maths.subtract(sec, $0) }
                    out.append(Derivation(name: "SEC − TP", event: index, result: cs,
                                          note: cs == nil ? "the time permit is redacted or not a point" : "the client secret"))
                }
            case .crypto(let step) where step.primitive == "client2":
                let x = step.inputs.first { $0.name == "x" }.flatMap { Hex.decode($0.value) } ?? derivedX
                let y = step.inputs.first { $0.name == "y" }.flatMap { Hex.decode($0.value) }
                let v = step.outputs.first { $0.name == "v" }.flatMap { Hex.decode($0.value) }
                guard let x, let y, let v, let sec = maths.secFromV(x: x, y: y, v: v) else {
                    let missing = x == nil ? "x and its draws are redacted" : y == nil ? "y is redacted" : "V is redacted or not a point"
                    out.append(Derivation(name: "−(x+y)⁻¹·V", event: index, result: nil, note: missing))
                    continue
                }
                switch permit {
                case .clear(let tp):
                    let cs = maths.subtract(sec, tp)
                    out.append(Derivation(name: "−(x+y)⁻¹·V", event: index, result: cs, note: "SEC, and with the time permit the client secret"))
                case .redacted:
                    out.append(Derivation(name: "−(x+y)⁻¹·V", event: index, result: sec, note: "SEC (the time permit is redacted)"))
                case .none:
                    out.append(Derivation(name: "−(x+y)⁻¹·V", event: index, result: sec, note: "the client secret (no time permit)"))
                }
            default:
                break
            }
        }
        return out
    }

    /// The time permit of the last CLIENT_1 step.
    private enum Permit { case none, redacted, clear([UInt8]) }

    /// The curve arithmetic the derivations need, on the cassette's curve.
    private protocol Maths: Sendable {
        func reduce(_ wide: [UInt8]) -> [UInt8]
        func subtract(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]?
        func secFromV(x: [UInt8], y: [UInt8], v: [UInt8]) -> [UInt8]?
    }

    private struct Curve<C: PairingCurve>: Maths {
        func reduce(_ wide: [UInt8]) -> [UInt8] { Fr<C>(reducing: wide).bytes }

        func subtract(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]? {
            guard let a = G1Point<C>(encoded: p), let b = G1Point<C>(encoded: q) else { return nil }
            return (a - b).encoded()
        }

        func secFromV(x: [UInt8], y: [UInt8], v: [UInt8]) -> [UInt8]? {
            guard let point = G1Point<C>(encoded: v), let inverse = (Fr<C>(reducing: x) + Fr<C>(reducing: y)).inverse() else { return nil }
            return point.multiplied(by: (-inverse).bytes).encoded()
        }
    }
}

/// The string members of a JSON body, by member name, at any depth.
private enum JSONStrings {
    static func members(_ body: [UInt8]) -> [(String, String)] {
        guard let value = try? JSONParser.parse(body, duplicateMembers: .keep) else { return [] }
        var out: [(String, String)] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .array(let items): items.forEach(walk)
            case .object(let members):
                for member in members {
                    if case .string(let text) = member.value { out.append((member.name, text)) } else { walk(member.value) }
                }
            default: break
            }
        }
        walk(value)
        return out
    }
}
