import MPinCrypto
import OrderedJSON

/// The `pairing` and `hash-to-g1` suites.
extension VectorGenerator {
    func pairingPlan() -> [GroupPlan] {
        let mpin = self.mpin
        let known = VectorJobs(count: max(1, count / 2)) { _ in
            { rng in
                let a = mpin.randomScalar(using: &rng), b = mpin.randomScalar(using: &rng)
                var f: [String: JSONValue] = [:]
                let aq = mpin.g2Multiple(scalar: a, inverse: false, g: mpin.g2Generator)!
                let bp = mpin.g1Multiple(scalar: b, hashed: false, g: mpin.g1Generator)!
                f.hex("A", a)
                f.hex("B", b)
                f.hex("AQ", aq)
                f.hex("BP", bp)
                f.hex("PAIRING", mpin.pairing(g2: aq, g1: bp)!)
                return VectorTestCase(comment: "e(A·Q, B·P)", flags: ["KnownAnswer"], result: .valid, fields: f)
            }
        }
        let bilinear = VectorJobs(count: max(2, count / 3)) { index in
            { rng in
                let a = mpin.randomScalar(using: &rng), b = mpin.randomScalar(using: &rng)
                let wrong = index % 2 == 1
                var ab = mpin.scalarProduct(a, b)
                if wrong { ab = mpin.scalarSum(ab, [1]) }
                var f: [String: JSONValue] = [:]
                let aq = mpin.g2Multiple(scalar: a, inverse: false, g: mpin.g2Generator)!
                let bp = mpin.g1Multiple(scalar: b, hashed: false, g: mpin.g1Generator)!
                let abq = mpin.g2Multiple(scalar: ab, inverse: false, g: mpin.g2Generator)!
                let abp = mpin.g1Multiple(scalar: ab, hashed: false, g: mpin.g1Generator)!
                f.hex("A", a)
                f.hex("B", b)
                f.hex("AB", ab)
                f.hex("AQ", aq)
                f.hex("BP", bp)
                f.hex("ABQ", abq)
                f.hex("ABP", abp)
                f.hex("PAIRING", mpin.pairing(g2: aq, g1: bp)!)
                f.hex("PAIRING_ABQ_P", mpin.pairing(g2: abq, g1: mpin.g1Generator)!)
                f.hex("PAIRING_Q_ABP", mpin.pairing(g2: mpin.g2Generator, g1: abp)!)
                return VectorTestCase(
                    comment: wrong
                        ? "AB = A·B + 1: e(A·Q, B·P) differs from e(AB·Q, P)" : "e(A·Q, B·P) = e(AB·Q, P) = e(Q, AB·P)",
                    flags: wrong ? ["Bilinearity", "WrongExponent"] : ["Bilinearity"],
                    result: wrong ? .invalid : .valid, expectedError: wrong ? "relationFails" : nil, fields: f)
            }
        }
        let product = VectorJobs(count: max(2, count / 3)) { index in
            { rng in
                let a1 = mpin.randomScalar(using: &rng), b1 = mpin.randomScalar(using: &rng)
                let a2 = mpin.randomScalar(using: &rng)
                let one = index % 2 == 0
                // B2 = −A1·B1/A2 makes A1·B1 + A2·B2 = 0: the product is 1.
                let b2 =
                    one
                    ? mpin.scalarNegation(mpin.scalarProduct(mpin.scalarProduct(a1, b1), mpin.scalarInverse(a2)!))
                    : mpin.randomScalar(using: &rng)
                var f: [String: JSONValue] = [:]
                let aq1 = mpin.g2Multiple(scalar: a1, inverse: false, g: mpin.g2Generator)!
                let bp1 = mpin.g1Multiple(scalar: b1, hashed: false, g: mpin.g1Generator)!
                let aq2 = mpin.g2Multiple(scalar: a2, inverse: false, g: mpin.g2Generator)!
                let bp2 = mpin.g1Multiple(scalar: b2, hashed: false, g: mpin.g1Generator)!
                f.hex("A1", a1)
                f.hex("B1", b1)
                f.hex("A2", a2)
                f.hex("B2", b2)
                f.hex("AQ1", aq1)
                f.hex("BP1", bp1)
                f.hex("AQ2", aq2)
                f.hex("BP2", bp2)
                let g = mpin.pairingProduct([(aq1, bp1), (aq2, bp2)])!
                f.hex("PAIRING_PRODUCT", g)
                f["PRODUCT_IS_ONE"] = .bool(mpin.gtIsOne(g)!)
                return VectorTestCase(
                    comment: one ? "e(A1·Q, B1·P)·e(A2·Q, B2·P) = 1" : "e(A1·Q, B1·P)·e(A2·Q, B2·P)",
                    flags: one ? ["Product", "ProductIsOne"] : ["Product"], result: .valid, fields: f)
            }
        }
        let order = mpin.groupOrder
        let degenerate: VectorJobs = [
            { _ in
                var f: [String: JSONValue] = [:]
                f.hex("A", [1])
                f.hex("B", [1])
                f.hex("AQ", mpin.g2Generator)
                f.hex("BP", mpin.g1Generator)
                f.hex("PAIRING", mpin.pairing(g2: mpin.g2Generator, g1: mpin.g1Generator)!)
                return VectorTestCase(
                    comment: "e(Q, P) for the generators, not 1", flags: ["NonDegenerate"],
                    result: .valid, fields: f)
            },
            { rng in
                var f: [String: JSONValue] = [:]
                let b = mpin.randomScalar(using: &rng)
                f.hex("A", [0])
                f.hex("B", b)
                f.hex("AQ", [UInt8](repeating: 0, count: MPin.g2Size))
                f.hex("BP", mpin.g1Multiple(scalar: b, hashed: false, g: mpin.g1Generator)!)
                return VectorTestCase(
                    comment: "A = 0: A·Q is the point at infinity", flags: ["PointAtInfinity"],
                    result: .invalid, expectedError: "pointAtInfinity", fields: f)
            },
            { rng in
                var f: [String: JSONValue] = [:]
                let a = mpin.randomScalar(using: &rng)
                f.hex("A", a)
                f.hex("B", order)
                f.hex("AQ", mpin.g2Multiple(scalar: a, inverse: false, g: mpin.g2Generator)!)
                f.hex("BP", [0])
                return VectorTestCase(
                    comment: "B = r: B·P is the point at infinity", flags: ["PointAtInfinity"],
                    result: .invalid, expectedError: "pointAtInfinity", fields: f)
            },
        ]
        return [
            GroupPlan(type: "PairingKnownAnswerTest", parameters: [:], jobs: known),
            GroupPlan(type: "PairingBilinearityTest", parameters: [:], jobs: bilinear),
            GroupPlan(type: "PairingProductTest", parameters: [:], jobs: product),
            GroupPlan(type: "PairingDegeneracyTest", parameters: [:], jobs: degenerate),
        ]
    }

    func hashToG1Plan() -> [GroupPlan] {
        let mpin = self.mpin
        var ids: VectorJobs = [
            { _ in Self.hashCase(mpin: mpin, id: [], flags: ["HashId", "EmptyId"], comment: "the empty identity") }
        ]
        ids += VectorJobs(count: max(2, count / 2)) { index in
            { rng in
                // Every other test searches for an id whose first candidate x gives no point.
                var id = Array(Self.identity(&rng, index: index).utf8)
                if index % 2 == 0 {
                    while mpin.mapToG1Trace(mpin.hashID(id)).increments == 0 {
                        id = Array(Self.identity(&rng, index: index).utf8)
                    }
                }
                return Self.hashCase(mpin: mpin, id: id, flags: ["HashId"], comment: "an identity")
            }
        }
        let dates: [UInt32] = [1, 16574, 16673, 17333, 19000, 20000, 20411, 65535, 100_000, UInt32.max]
        let permits = VectorJobs(count: max(dates.count, count / 2)) { index in
            { rng in
                let id = Array(Self.identity(&rng, index: index).utf8)
                let date = index < dates.count ? dates[index] : 16574 + UInt32(rng.next() % 20000)
                let hcid = mpin.hashID(id)
                let permitHash = mpin.hashID(
                    [
                        UInt8(date >> 24), UInt8(truncatingIfNeeded: date >> 16),
                        UInt8(truncatingIfNeeded: date >> 8), UInt8(truncatingIfNeeded: date),
                    ] + hcid)
                let trace = mpin.mapToG1Trace(permitHash)
                var f: [String: JSONValue] = [:]
                f.hex("MPIN_ID_HEX", id)
                f.hex("HASH_MPIN_ID_HEX", hcid)
                f["DATE"] = .integer(Int(date))
                f.hex("HASH_DATE_ID", permitHash)
                f.hex("MAP_X0", trace.firstCandidate)
                f["MAP_INCREMENTS"] = .integer(trace.increments)
                f.hex("HT", mpin.timePermitPoint(date: date, hashedID: hcid))
                var flags = ["TimePermitHash"]
                if trace.increments > 0 { flags.append("FirstCandidateNotOnCurve") }
                return VectorTestCase(
                    comment: "time-permit point for day \(date)", flags: flags, result: .valid, fields: f)
            }
        }
        return [
            GroupPlan(
                type: "HashToG1Test", parameters: ["hash": .string("SHA-256"), "map": .string("mapit")], jobs: ids),
            GroupPlan(
                type: "TimePermitHashTest", parameters: ["hash": .string("SHA-256"), "map": .string("mapit")],
                jobs: permits),
        ]
    }

    static func hashCase(mpin: MPin, id: [UInt8], flags: [String], comment: String) -> VectorTestCase {
        let hcid = mpin.hashID(id)
        let trace = mpin.mapToG1Trace(hcid)
        var f: [String: JSONValue] = [:]
        f.hex("MPIN_ID_HEX", id)
        f.hex("HASH_MPIN_ID_HEX", hcid)
        f.hex("MAP_X0", trace.firstCandidate)
        f["MAP_INCREMENTS"] = .integer(trace.increments)
        f.hex("HID", trace.point)
        var flags = flags
        var comment = comment
        if trace.increments > 0 {
            flags.append("FirstCandidateNotOnCurve")
            comment += ", x incremented \(trace.increments) time\(trace.increments == 1 ? "" : "s")"
        }
        return VectorTestCase(comment: comment, flags: flags, result: .valid, fields: f)
    }
}
