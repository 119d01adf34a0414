import CommonFormats
import FlowRecording
import MPinCrypto
import OrderedJSON

/// What a Milagro cassette gives away: the secrets it holds in clear, and whether the known
/// derivations of the client secret can be made from what it holds (`cassette audit`).
///
/// The derivations, from the M-Pin client of the open-source SDK core (src/mpin_crypto.cpp on
/// the AMCL functions, docs/crypto.md §5) and the workbench's own seeded runs (docs/security.md):
/// * seed → draws → x: a seeded run's draws are FNV-1a then SplitMix64 of the seed
///   (`SeededRandomSource`), so any seed it might have had (the file's, the workbench's defaults,
///   the bundled scenarios', every string of the file) is tried, each x checked against the public
///   U = x·H(ID);
/// * draws → x: RANDOM_GENERATE reads its 64 bytes of draws as one integer modulo r (each 8-byte
///   draw a little-endian word, Sources/MPinSDK/Support/DrawingGenerator.swift);
/// * SEC − TP: CLIENT_1 gives SEC = CS + TP with a time permit (SEC = CS without one, as on the
///   MFA platform), so SEC − TP is the client secret CS;
/// * −(x+y)⁻¹·V: CLIENT_2 sends V = −(x+y)·SEC, so x, y and V give SEC;
/// * the PIN search: with the client secret known, a token in clear (CS − PIN·H(ID)) gives the PIN,
///   and a wrong-PIN attempt's SEC (CS + δ·H(ID) + TP) its PIN difference δ, each by trying all
///   10,000 PINs (δ from −9,999 to 9,999).
public enum MilagroAudit {
    /// One derivation tried at one event.
    public struct Derivation: Sendable, Hashable, CustomStringConvertible {
        /// `seed → draws → x`, `draws → x`, `SEC − TP`, `−(x+y)⁻¹·V`, `PIN search` or `wrong-PIN δ`.
        public var name: String
        /// The index of the event it was tried at (the crypto step).
        public var event: Int
        /// What it gives (the client secret, SEC, x, or the PIN's digits); nil when it could not be made.
        public var result: [UInt8]?
        /// Why it could not be made, or what it gives.
        public var note: String
        /// The events it read, in order.
        public var events: [Int] = []
        /// It worked only through a seed that is not in the file, on a recording of the embedded
        /// backend: what it gives is that throwaway backend's, which no one else has.
        public var throwaway = false

        public var description: String {
            let used = events.isEmpty ? "" : " (from events " + events.map(String.init).joined(separator: ", ") + ")"
            guard result != nil else { return "event \(event): \(name): not possible (\(note))" }
            return "event \(event): \(name): " + (throwaway ? "gives only the throwaway embedded backend's " : "GIVES ")
                + note + used
        }
    }

    /// A secret field whose value is in clear.
    public struct ClearSecret: Sendable, Hashable, CustomStringConvertible {
        public var event: Int
        public var field: String
        public var description: String { "event \(event): \(field) in clear" }
    }

    /// A seed the audit tries, and where it came from.
    public struct SeedCandidate: Sendable, Hashable {
        public var seed: String
        /// `the file's seed`, `the workbench's default seed`, `the bundled scenario authenticate's seed`, ...
        public var source: String
        public init(seed: String, source: String) {
            self.seed = seed
            self.source = source
        }
    }

    /// The full report of `cassette audit`.
    public struct Report: Sendable {
        public var clearSecrets: [ClearSecret]
        public var derivations: [Derivation]
        /// Fields in clear that are neither secret nor in `Redactor.milagroPublic`, sorted.
        public var unclassified: [String]
        /// How many seeds were tried.
        public var seedsTried: Int = 0
        /// The derivations that worked.
        public var possible: [Derivation] { derivations.filter { $0.result != nil } }
        /// Nothing given away: no secret in clear, and no derivation possible but those that give
        /// only a throwaway embedded backend's secrets.
        public var isShareable: Bool {
            clearSecrets.isEmpty && derivations.allSatisfy { $0.result == nil || $0.throwaway }
        }
    }

    /// The most strings of a file tried as seeds, besides the given candidates.
    public static let maximumFileSeeds = 4_096

    /// Audits `cassette`, trying `seeds` (the caller's defaults) besides the file's own seed and
    /// its strings.
    public static func audit(_ cassette: Cassette, seeds: [SeedCandidate] = []) -> Report {
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
        if let seed = cassette.scenario.seed, !seed.isEmpty, Placeholder.whole(seed) == nil {
            clear.insert(ClearSecret(event: -1, field: "scenario.seed"), at: 0)
        }
        let candidates = seedCandidates(cassette, given: seeds)
        var report = Report(
            clearSecrets: clear, derivations: derivations(cassette, seeds: candidates),
            unclassified: unclassified.sorted())
        report.seedsTried = candidates.count
        return report
    }

    /// The seeds to try: the file's (`scenario.seed`, the script's `seed`), then `given`, then
    /// every distinct string of the file of 1 to 64 characters (at most `maximumFileSeeds`).
    public static func seedCandidates(_ cassette: Cassette, given: [SeedCandidate]) -> [SeedCandidate] {
        var out: [SeedCandidate] = []
        var seen: Set<String> = []
        func add(_ seed: String, _ source: String) {
            guard !seed.isEmpty, seed.count <= 64, Placeholder.whole(seed) == nil, seen.insert(seed).inserted else {
                return
            }
            out.append(SeedCandidate(seed: seed, source: source))
        }
        if let seed = cassette.scenario.seed { add(seed, "the file's seed") }
        if case .object(let members)? = cassette.scenario.script {
            for member in members where member.name.lowercased() == "seed" {
                if case .string(let text) = member.value { add(text, "the file's seed (in its script)") }
                if case .number(let text) = member.value { add(text, "the file's seed (in its script)") }
            }
        }
        for candidate in given { add(candidate.seed, candidate.source) }
        var strings = 0
        func take(_ text: String, _ event: Int?) {
            guard strings < maximumFileSeeds, !seen.contains(text) else { return }
            strings += 1
            add(text, "a string of the file" + (event.map { " (event \($0))" } ?? " (its script)"))
        }
        if let script = cassette.scenario.script {
            _ = Redactor.mapScript(script, secretFields: []) { literal, _ in
                take(literal, nil)
                return nil
            }
        }
        for (index, _, value) in fields(cassette) { take(value, index) }
        for (index, event) in cassette.events.enumerated() {
            guard case .http(let exchange) = event.payload else { continue }
            for segment in URLText.parts(exchange.request.url).path.split(separator: "/") {
                take(String(segment), index)
            }
        }
        return out
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

    /// Each known derivation tried at each event where it applies, in event order, then the PIN
    /// searches. `seeds` are the seeds to try (nil: the file's own and its strings,
    /// `seedCandidates(_:given:)` with none given).
    public static func derivations(_ cassette: Cassette, seeds: [SeedCandidate]? = nil) -> [Derivation] {
        let seeds = seeds ?? seedCandidates(cassette, given: [])
        let maths: Maths = cassette.curve.uppercased() == "BN254" ? Curve<BN254>() : Curve<BN254CX>()
        let found = seedSearch(cassette, seeds: seeds, maths: maths)
        let embedded = cassette.backend.embedded
        let seedThrowaway = found.map { embedded && !$0.candidate.source.hasPrefix("the file's seed") } ?? false
        var out: [Derivation] = []
        var draws: [(index: Int, hex: String)] = []
        var permit = Permit.none  // the last CLIENT_1's time permit
        var derivedX: (x: [UInt8], events: [Int], throwaway: Bool)?
        var clientSecrets: [(cs: [UInt8], event: Int, throwaway: Bool)] = []
        var secs: [(sec: [UInt8], permit: Permit, event: Int, throwaway: Bool)] = []
        var tokens: [(token: [UInt8], id: [UInt8], event: Int)] = []
        var lastID: [UInt8]?
        for (index, event) in cassette.events.enumerated() {
            switch event.payload {
            case .random(let draw):
                draws.append((index, draw.hex))
            case .crypto(let step) where step.primitive == "randomScalar":
                let used = draws.suffix(8)
                let bytes = used.map { Hex.decode($0.hex) }
                if used.count == 8, bytes.allSatisfy({ $0 != nil }) {
                    // Each 8-byte draw is one 64-bit word read little-endian (the SDK's
                    // DrawingGenerator); RANDOM_GENERATE writes the words big-endian.
                    let x = maths.reduce(bytes.flatMap { $0!.reversed() })
                    derivedX = (x, used.map(\.index), false)
                    out.append(
                        Derivation(name: "draws → x", event: index, result: x, note: "x", events: used.map(\.index)))
                } else {
                    derivedX = nil
                    out.append(
                        Derivation(name: "draws → x", event: index, result: nil, note: "the random draws are redacted"))
                }
                if let found, let x = found.xs[index] {
                    if derivedX == nil { derivedX = (x, [found.checkedAt], seedThrowaway) }
                    out.append(
                        Derivation(
                            name: "seed → draws → x", event: index, result: x,
                            note: "x, from \(found.candidate.source) \(JSONWriter.quoted(found.candidate.seed)) "
                                + "(x·H(ID) = U checked at event \(found.checkedAt))",
                            events: [found.checkedAt], throwaway: seedThrowaway))
                } else {
                    out.append(
                        Derivation(
                            name: "seed → draws → x", event: index, result: nil,
                            note: "none of \(seeds.count) seeds tried gives x·H(ID) = U"))
                }
                draws = []
            case .crypto(let step) where step.primitive == "extractPIN":
                if let token = step.outputs.first(where: { $0.name == "token" }).flatMap({ Hex.decode($0.value) }),
                    let id = step.inputs.first(where: { $0.name == "mpinId" }).flatMap({ Hex.decode($0.value) })
                {
                    tokens.append((token, id, index))
                }
            case .crypto(let step) where step.primitive == "client1":
                lastID = step.inputs.first { $0.name == "mpinId" }.flatMap { Hex.decode($0.value) }
                if let token = step.inputs.first(where: { $0.name == "token" }).flatMap({ Hex.decode($0.value) }),
                    let lastID
                {
                    tokens.append((token, lastID, index))
                }
                let tp = step.inputs.first { $0.name == "timePermit" }.map { Hex.decode($0.value) }
                permit =
                    switch tp {
                    case nil: .none
                    case .some(nil): .redacted
                    case .some(.some(let bytes)): .clear(bytes)
                    }
                let sec = step.outputs.first { $0.name == "sec" }.flatMap { Hex.decode($0.value) }
                switch (sec, tp) {
                case (nil, _):
                    out.append(Derivation(name: "SEC − TP", event: index, result: nil, note: "SEC is redacted"))
                case (let sec?, nil):
                    clientSecrets.append((sec, index, false))
                    out.append(
                        Derivation(
                            name: "SEC − TP", event: index, result: sec,
                            note: "the client secret (SEC, no time permit)",
                            events: [index]))
                case (let sec?, let tp?):
                    let cs = tp.flatMap { maths.subtract(sec, $0) }
                    if let cs { clientSecrets.append((cs, index, false)) }
                    out.append(
                        Derivation(
                            name: "SEC − TP", event: index, result: cs,
                            note: cs == nil ? "the time permit is redacted or not a point" : "the client secret",
                            events: [index]))
                }
            case .crypto(let step) where step.primitive == "client2":
                let clearX = step.inputs.first { $0.name == "x" }.flatMap { Hex.decode($0.value) }
                let x = clearX ?? derivedX?.x
                let throwaway = clearX == nil && (derivedX?.throwaway ?? false)
                let y = step.inputs.first { $0.name == "y" }.flatMap { Hex.decode($0.value) }
                let v = step.outputs.first { $0.name == "v" }.flatMap { Hex.decode($0.value) }
                guard let x, let y, let v, let sec = maths.secFromV(x: x, y: y, v: v) else {
                    let missing =
                        x == nil
                        ? "x, its draws and the seed are redacted"
                        : y == nil ? "y is redacted" : "V is redacted or not a point"
                    out.append(Derivation(name: "−(x+y)⁻¹·V", event: index, result: nil, note: missing))
                    continue
                }
                let used = (clearX == nil ? derivedX?.events ?? [] : []) + [index]
                secs.append((sec, permit, index, throwaway))
                switch permit {
                case .clear(let tp):
                    let cs = maths.subtract(sec, tp)
                    if let cs { clientSecrets.append((cs, index, throwaway)) }
                    out.append(
                        Derivation(
                            name: "−(x+y)⁻¹·V", event: index, result: cs,
                            note: "SEC, and with the time permit the client secret "
                                + "(or, after a wrong PIN, the client secret + δ·H(ID))", events: used,
                            throwaway: throwaway))
                case .redacted:
                    out.append(
                        Derivation(
                            name: "−(x+y)⁻¹·V", event: index, result: sec, note: "SEC (the time permit is redacted)",
                            events: used, throwaway: throwaway))
                case .none:
                    clientSecrets.append((sec, index, throwaway))
                    out.append(
                        Derivation(
                            name: "−(x+y)⁻¹·V", event: index, result: sec, note: "the client secret (no time permit)",
                            events: used, throwaway: throwaway))
                }
            default:
                break
            }
        }
        out += pinSearches(
            tokens: tokens, secs: secs, clientSecrets: clientSecrets, id: lastID, maths: maths, mpin: maths.mpin)
        return out
    }

    /// The PIN searches, once some client secret is known: each token in clear against it
    /// (token + PIN·H(ID) = CS, PIN from 0 to 9,999), and each SEC found (minus its time permit)
    /// that is not the client secret, the δ of a wrong PIN (SEC − TP − CS = δ·H(ID), |δ| ≤ 9,999).
    static func pinSearches(
        tokens: [(token: [UInt8], id: [UInt8], event: Int)],
        secs: [(sec: [UInt8], permit: Permit, event: Int, throwaway: Bool)],
        clientSecrets: [(cs: [UInt8], event: Int, throwaway: Bool)], id: [UInt8]?, maths: Maths, mpin: MPin
    )
        -> [Derivation]
    {
        var out: [Derivation] = []
        // The client secret that most attempts agree on is the right PIN's.
        var votes: [[UInt8]: Int] = [:]
        for entry in clientSecrets { votes[entry.cs, default: 0] += 1 }
        guard
            let known = clientSecrets.max(by: {
                votes[$0.cs]! < votes[$1.cs]! || (votes[$0.cs]! == votes[$1.cs]! && $0.event > $1.event)
            })
        else {
            return tokens.isEmpty
                ? []
                : [
                    Derivation(
                        name: "PIN search", event: tokens[0].event, result: nil,
                        note: "a token is in clear, but no client secret to check the 10,000 PINs against")
                ]
        }
        for token in tokens {
            let a = mpin.mapToG1(mpin.hashID(token.id))
            if let pin = maths.smallMultiple(
                of: a, equalTo: maths.subtract(known.cs, token.token), upTo: 9_999, signed: false)
            {
                out.append(
                    Derivation(
                        name: "PIN search", event: token.event, result: Array(String(pin).utf8),
                        note: "the PIN \(pin)", events: [known.event, token.event], throwaway: known.throwaway))
            } else {
                out.append(
                    Derivation(
                        name: "PIN search", event: token.event, result: nil,
                        note: "no PIN from 0 to 9,999 turns the token into the client secret of event \(known.event)"))
            }
        }
        guard let id else { return out }
        let a = mpin.mapToG1(mpin.hashID(id))
        for entry in secs {
            guard case .clear(let tp) = entry.permit, let less = maths.subtract(entry.sec, tp), less != known.cs else {
                continue
            }
            if let delta = maths.smallMultiple(
                of: a, equalTo: maths.subtract(less, known.cs), upTo: 9_999, signed: true)
            {
                out.append(
                    Derivation(
                        name: "wrong-PIN δ", event: entry.event, result: Array(String(delta).utf8),
                        note:
                            "this attempt's PIN differs from the right one by \(delta), so its SEC − TP \(delta < 0 ? "+" : "−") "
                            + "\(abs(delta))·H(ID) is the client secret",
                        events: [known.event, entry.event], throwaway: known.throwaway || entry.throwaway))
            }
        }
        return out
    }

    /// The seed, among `seeds`, whose draws give an x with x·H(ID) = U at the first login whose U
    /// and M-Pin ID are in clear, with the x of every `randomScalar` step it then gives.
    static func seedSearch(_ cassette: Cassette, seeds: [SeedCandidate], maths: Maths)
        -> (candidate: SeedCandidate, checkedAt: Int, xs: [Int: [UInt8]])?
    {
        // The draws' sizes (a redacted one is taken as the SDK's 8-byte word), and the first
        // randomScalar step followed by a CLIENT_1 step with U and the M-Pin ID.
        var sizes: [(index: Int, count: Int)] = []
        var scalars: [Int] = []
        var check: (scalar: Int, client1: Int, a: [UInt8], u: [UInt8])?
        for (index, event) in cassette.events.enumerated() {
            switch event.payload {
            case .random(let draw):
                sizes.append((index, Hex.decode(draw.hex)?.count ?? 8))
            case .crypto(let step) where step.primitive == "randomScalar":
                scalars.append(index)
            case .crypto(let step) where step.primitive == "client1" && check == nil && !scalars.isEmpty:
                if let id = step.inputs.first(where: { $0.name == "mpinId" }).flatMap({ Hex.decode($0.value) }),
                    let u = step.outputs.first(where: { $0.name == "u" }).flatMap({ Hex.decode($0.value) })
                {
                    check = (scalars.last!, index, maths.mpin.mapToG1(maths.mpin.hashID(id)), u)
                }
            default:
                break
            }
        }
        guard let check else { return nil }
        func xs(_ seed: String, through last: Int) -> [Int: [UInt8]] {
            let source = SeededRandomSource(seed: seed)
            var words: [[UInt8]] = []
            var out: [Int: [UInt8]] = [:]
            var next = sizes.startIndex
            for scalar in scalars where scalar <= last {
                while next < sizes.endIndex, sizes[next].index < scalar {
                    words.append(source.randomBytes(count: sizes[next].count))
                    next += 1
                }
                let used = words.suffix(8)
                guard used.count == 8, used.allSatisfy({ $0.count == 8 }) else { continue }
                out[scalar] = maths.reduce(used.flatMap { $0.reversed() })
                words = []
            }
            return out
        }
        for candidate in seeds {
            guard let x = xs(candidate.seed, through: check.scalar)[check.scalar], maths.multiply(check.a, x) == check.u
            else { continue }
            return (candidate, check.client1, xs(candidate.seed, through: Int.max))
        }
        return nil
    }

    /// The time permit of the last CLIENT_1 step.
    enum Permit { case none, redacted, clear([UInt8]) }

    /// The curve arithmetic the derivations need, on the cassette's curve.
    protocol Maths: Sendable {
        var mpin: MPin { get }
        func reduce(_ wide: [UInt8]) -> [UInt8]
        func subtract(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]?
        func multiply(_ p: [UInt8], _ k: [UInt8]) -> [UInt8]?
        func secFromV(x: [UInt8], y: [UInt8], v: [UInt8]) -> [UInt8]?
        /// The k in 1...`limit` (or −`limit`...`limit` but 0, `signed`) with k·P = Q; nil for none.
        func smallMultiple(of p: [UInt8], equalTo q: [UInt8]?, upTo limit: Int, signed: Bool) -> Int?
    }

    struct Curve<C: PairingCurve>: Maths {
        var mpin: MPin { MPin(curve: ObjectIdentifier(C.self) == ObjectIdentifier(BN254.self) ? .bn254 : .bn254cx) }

        func reduce(_ wide: [UInt8]) -> [UInt8] { Fr<C>(reducing: wide).bytes }

        func multiply(_ p: [UInt8], _ k: [UInt8]) -> [UInt8]? {
            G1Point<C>(encoded: p)?.multiplied(by: k).encoded()
        }

        func smallMultiple(of p: [UInt8], equalTo q: [UInt8]?, upTo limit: Int, signed: Bool) -> Int? {
            guard let q, let point = G1Point<C>(encoded: p), let target = G1Point<C>(encoded: q) else { return nil }
            var multiple = G1Point<C>.infinity
            for k in 1...max(1, limit) {
                multiple = multiple + point
                if multiple == target { return k }
                if signed, -multiple == target { return -k }
            }
            return nil
        }

        func subtract(_ p: [UInt8], _ q: [UInt8]) -> [UInt8]? {
            guard let a = G1Point<C>(encoded: p), let b = G1Point<C>(encoded: q) else { return nil }
            return (a - b).encoded()
        }

        func secFromV(x: [UInt8], y: [UInt8], v: [UInt8]) -> [UInt8]? {
            guard let point = G1Point<C>(encoded: v), let inverse = (Fr<C>(reducing: x) + Fr<C>(reducing: y)).inverse()
            else { return nil }
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
                    if case .string(let text) = member.value {
                        out.append((member.name, text))
                    } else {
                        walk(member.value)
                    }
                }
            default: break
            }
        }
        walk(value)
        return out
    }
}
