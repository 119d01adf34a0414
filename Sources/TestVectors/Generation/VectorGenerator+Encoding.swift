import MPinCrypto
import OrderedJSON

/// The `encoding`, `access-number` and `pin-mapping` suites.
extension VectorGenerator {
    /// The error class name of a decoding failure, as written in `expectedError`.
    static func errorClass(_ error: PointDecodingError) -> String {
        switch error {
        case .wrongLength: "wrongLength"
        case .badPrefix: "badPrefix"
        case .coordinateOutOfRange: "coordinateOutOfRange"
        case .notOnCurve: "notOnCurve"
        case .notInSubgroup: "notInSubgroup"
        case .pointAtInfinity: "pointAtInfinity"
        }
    }

    /// A test for one encoding; the verdict and error class come from the decoder itself.
    static func encodingCase(mpin: MPin, g2: Bool, encoding: [UInt8], flag: String, comment: String) -> VectorTestCase {
        var f: [String: JSONValue] = [:]
        f.hex("ENCODING", encoding)
        switch g2 ? mpin.decodeG2(encoding) : mpin.decodeG1(encoding) {
        case .success(let point):
            f.hex("POINT", point)
            return VectorTestCase(comment: comment, flags: [flag], result: .valid, fields: f)
        case .failure(let error):
            return VectorTestCase(
                comment: comment, flags: [flag], result: .invalid, expectedError: errorClass(error), fields: f)
        }
    }

    /// Adds p to a 32-byte big-endian value (the result may need 33 bytes: then p itself).
    static func plusModulus(_ value: [UInt8], _ p: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var carry = 0
        for i in (0..<32).reversed() {
            let s = Int(value[i]) + Int(p[i]) + carry
            out[i] = UInt8(s & 0xff)
            carry = s >> 8
        }
        return carry == 0 ? out : p
    }

    /// value + 1 on 32 bytes (wrapping; a coordinate is below p < 2^254, so it never wraps).
    static func plusOne(_ value: [UInt8]) -> [UInt8] {
        var out = value
        for i in (0..<out.count).reversed() {
            out[i] &+= 1
            if out[i] != 0 { break }
        }
        return out
    }

    func encodingPlan() -> [GroupPlan] {
        let mpin = self.mpin
        typealias Job = @Sendable (inout SeededRandom) -> VectorTestCase
        let p = mpin.fieldModulus
        func g1(_ flag: String, _ comment: String, _ make: @escaping @Sendable ([UInt8], inout SeededRandom) -> [UInt8])
            -> Job
        {
            { rng in
                let point = mpin.g1Multiple(scalar: mpin.randomScalar(using: &rng), hashed: false, g: mpin.g1Generator)!
                return Self.encodingCase(
                    mpin: mpin, g2: false, encoding: make(point, &rng), flag: flag, comment: comment)
            }
        }
        func g2(_ flag: String, _ comment: String, _ make: @escaping @Sendable ([UInt8], inout SeededRandom) -> [UInt8])
            -> Job
        {
            { rng in
                let point = mpin.g2Multiple(
                    scalar: mpin.randomScalar(using: &rng), inverse: false, g: mpin.g2Generator)!
                return Self.encodingCase(
                    mpin: mpin, g2: true, encoding: make(point, &rng), flag: flag, comment: comment)
            }
        }
        let compress: @Sendable ([UInt8]) -> [UInt8] = { point in [0x02 | (point[64] & 1)] + point[1..<33] }
        let validG1 = g1("Valid", "a random point, uncompressed") { point, _ in point }
        let compressedG1 = g1("Compressed", "a random point, compressed") { point, _ in compress(point) }
        var g1Jobs = VectorJobs(count: max(1, count)) { _ in validG1 }
        g1Jobs += VectorJobs(count: max(1, count)) { _ in compressedG1 }
        g1Jobs += [
            g1("Valid", "the generator (−1, 1)") { _, _ in mpin.g1Generator },
            g1("BadPrefix", "prefix 05 on 65 bytes") { point, _ in [0x05] + point[1...] },
            g1("BadPrefix", "prefix 00 on 65 bytes") { point, _ in [0x00] + point[1...] },
            g1("BadPrefix", "prefix 02 on 65 bytes") { point, _ in [0x02] + point[1...] },
            g1("BadPrefix", "prefix 04 on 33 bytes") { point, _ in [0x04] + point[1..<33] },
            g1("BadPrefix", "prefix 06 on 33 bytes (hybrid-style)") { point, _ in [0x06] + point[1..<33] },
            g1("WrongLength", "64 bytes: the last byte dropped") { point, _ in Array(point[0..<64]) },
            g1("WrongLength", "66 bytes: a zero byte appended") { point, _ in point + [0] },
            g1("WrongLength", "32 bytes: x without a prefix") { point, _ in Array(point[1..<33]) },
            g1("WrongLength", "empty") { _, _ in [] },
            g1("WrongLength", "34 bytes: compressed plus a byte") { point, _ in compress(point) + [0] },
            g1("CoordinateOutOfRange", "x + p") { point, _ in
                [0x04] + Self.plusModulus(Array(point[1..<33]), p) + point[33...]
            },
            g1("CoordinateOutOfRange", "y + p") { point, _ in
                Array(point[0..<33]) + Self.plusModulus(Array(point[33...]), p)
            },
            g1("CoordinateOutOfRange", "x = p, y = 1") { _, _ in [0x04] + p + [UInt8](repeating: 0, count: 31) + [1] },
            g1("CoordinateOutOfRange", "compressed, x = 2^256 − 1") { _, _ in
                [0x02] + [UInt8](repeating: 0xff, count: 32)
            },
            g1("NotOnCurve", "y + 1") { point, _ in Array(point[0..<33]) + Self.plusOne(Array(point[33...])) },
            g1("NotOnCurve", "x and y swapped") { point, _ in [0x04] + point[33...] + point[1..<33] },
            g1("NotOnCurve", "(0, 0)") { _, _ in [0x04] + [UInt8](repeating: 0, count: 64) },
            g1("NotOnCurve", "compressed x with x³ + 2 not a square") { _, rng in
                [0x03] + mpin.nonResidueAbscissa(from: rng.bytes(32))
            },
            g1("PointAtInfinity", "the point at infinity (the byte 00)") { _, _ in [0] },
        ]
        let validG2 = g2("Valid", "a random point of G2") { point, _ in point }
        var g2Jobs = VectorJobs(count: max(1, count)) { _ in validG2 }
        g2Jobs += [
            g2("Valid", "the generator Q") { _, _ in mpin.g2Generator },
            g2("WrongLength", "127 bytes") { point, _ in Array(point[0..<127]) },
            g2("WrongLength", "129 bytes") { point, _ in point + [0] },
            g2("WrongLength", "65 bytes: a G1 encoding") { _, _ in mpin.g1Generator },
            g2("WrongLength", "empty") { _, _ in [] },
        ]
        for (slot, name) in ["x.re", "x.im", "y.re", "y.im"].enumerated() {
            g2Jobs.append(
                g2("CoordinateOutOfRange", "\(name) + p") { point, _ in
                    var out = point
                    out.replaceSubrange(
                        slot * 32..<(slot + 1) * 32,
                        with: Self.plusModulus(Array(point[slot * 32..<(slot + 1) * 32]), p))
                    return out
                })
        }
        g2Jobs += [
            g2("NotOnCurve", "y.im + 1") { point, _ in Array(point[0..<96]) + Self.plusOne(Array(point[96...])) },
            g2("NotOnCurve", "x and y swapped") { point, _ in Array(point[64...] + point[0..<64]) },
            g2("NotInSubgroup", "a point of the twist outside G2 (AMCL would accept it)") { _, rng in
                mpin.twistPointOutsideG2(from: rng.bytes(32))
            },
            g2("PointAtInfinity", "the point at infinity (128 zero bytes)") { _, _ in [UInt8](repeating: 0, count: 128)
            },
        ]
        return [
            GroupPlan(type: "G1EncodingTest", parameters: ["group": .string("G1")], jobs: g1Jobs),
            GroupPlan(
                type: "G2EncodingTest", parameters: ["group": .string("G2"), "subgroupCheck": .bool(true)], jobs: g2Jobs
            ),
        ]
    }

    // MARK: - Access numbers

    func accessNumberPlan() -> [GroupPlan] {
        typealias Job = @Sendable (inout SeededRandom) -> VectorTestCase
        let count = self.count
        func groupJobs(useChecksum: Bool, digits: Int, extraFlag: String?) -> VectorJobs {
            func job(_ flag: String, _ comment: String, _ make: @escaping @Sendable (inout SeededRandom) -> String)
                -> Job
            {
                { rng in
                    let an = make(&rng)
                    return AccessNumberRules.testCase(
                        an, useChecksum: useChecksum, digits: digits,
                        flags: [flag] + (extraFlag.map { [$0] } ?? []), comment: comment)
                }
            }
            let issued = job("Valid", "issued as a server does") { rng in AccessNumberRules.issue(&rng) }
            var jobs = VectorJobs(count: max(1, count)) { _ in issued }
            for position in 0..<7 {
                jobs.append(
                    job("Tampered", "digit \(position + 1) of an issued number changed") { rng in
                        var digits = Array(AccessNumberRules.issue(&rng).utf8)
                        let old = Int(digits[position] - 48)
                        digits[position] = UInt8(48 + (old + 1 + Int(rng.next() % 9)) % 10)
                        return String(decoding: digits, as: UTF8.self)
                    })
            }
            let fixed: [(String, String, String)] = [
                ("WorkedExample", "4241703", "server-issued, valid (PROTOCOL §5.3)"),
                ("WorkedExample", "6418791", "server-issued, valid (PROTOCOL §5.3)"),
                ("WorkedExample", "6419791", "tampered: the check digit should be 8 (PROTOCOL §5.3)"),
                ("WorkedExample", "1234560", "S mod 11 = 0 gives check digit 0"),
                ("WorkedExample", "0000000", "all zeros"),
                ("WorkedExample", "1000004", "check digit 4"),
                ("WorkedExample", "0000019", "check digit 9"),
                ("CheckValue10", "9999990", "raw checksum 10 taken as 0"),
                ("CheckValue10", "9999991", "raw checksum 10: check digit 1 is wrong"),
                ("WrongLength", "424170", "six digits"),
                ("WrongLength", "42417031", "eight digits"),
                ("WrongLength", "4", "one digit"),
                ("Empty", "", "empty"),
                ("NotDigits", "42a1703", "a letter"),
                ("NotDigits", "4241-03", "a dash"),
                ("NotDigits", " 4241703", "a leading space"),
                ("NotDigits", "4241703\n", "a trailing newline"),
                ("NotDigits", "٤٢٤١٧٠٣", "Arabic-Indic digits"),
                ("NotDigits", "４２４１７０３", "full-width digits"),
            ]
            for (flag, an, comment) in fixed { jobs.append(job(flag, comment) { _ in an }) }
            jobs.append(
                job("CheckValue10", "six random digits whose raw checksum is 10, check digit 0") { rng in
                    while true {
                        let six = AccessNumberRules.sixDigits(&rng)
                        if AccessNumber.rawChecksum(of: six) == 10 { return six + "0" }
                    }
                })
            return jobs
        }
        return [
            GroupPlan(
                type: "AccessNumberTest",
                parameters: ["accessNumberUseCheckSum": .bool(true), "accessNumberDigits": .integer(7)],
                jobs: groupJobs(useChecksum: true, digits: 7, extraFlag: nil)),
            GroupPlan(
                type: "AccessNumberTest",
                parameters: ["accessNumberUseCheckSum": .bool(false), "accessNumberDigits": .integer(7)],
                jobs: groupJobs(useChecksum: false, digits: 7, extraFlag: "ChecksumDisabled")),
            GroupPlan(
                type: "AccessNumberTest",
                parameters: ["accessNumberUseCheckSum": .bool(true), "accessNumberDigits": .integer(6)],
                jobs: groupJobs(useChecksum: true, digits: 6, extraFlag: "SixDigitMode")),
        ]
    }

    // MARK: - PIN mapping

    func pinMappingPlan() -> [GroupPlan] {
        typealias Job = @Sendable (inout SeededRandom) -> VectorTestCase
        let count = self.count
        func jobs(_ mapping: PINMapping) -> VectorJobs {
            let flag = mapping == .integer ? "Integer" : "LegacyStringHash"
            @Sendable func job(
                _ flags: [String], _ comment: String, _ make: @escaping @Sendable (inout SeededRandom) -> String
            ) -> Job {
                { rng in PINMappingRules.testCase(make(&rng), mapping: mapping, flags: [flag] + flags, comment: comment)
                }
            }
            var jobs = VectorJobs(count: max(1, count)) { index in
                job([], "a random PIN") { rng in
                    let length = [4, 4, 4, 5, 6, 8][index % 6]
                    return String((0..<length).map { _ in Character(Unicode.Scalar(UInt8(48 + rng.next() % 10))) })
                }
            }
            let fixed: [(String, String, [String])] = [
                ("1234", "PROTOCOL §6.3", ["WorkedExample"]), ("1235", "PROTOCOL §6.3", ["WorkedExample"]),
                ("0000", "PROTOCOL §6.3", ["WorkedExample"]), ("9999", "PROTOCOL §6.3", ["WorkedExample"]),
                ("123456", "PROTOCOL §6.3", ["WorkedExample"]), ("12345678", "PROTOCOL §6.3", ["WorkedExample"]),
                ("0", "one digit", []), ("10000", "10000 reduces to 0", []), ("999999999", "nine digits", []),
                ("1234567890", "ten digits", []), ("", "empty", []), ("12a4", "a letter", []),
                ("١٢٣٤", "Arabic-Indic digits", []), ("-123", "a sign", []),
            ]
            for (pin, comment, flags) in fixed { jobs.append(job(flags, comment) { _ in pin }) }
            return jobs
        }
        return PINMapping.allCases.map { mapping in
            GroupPlan(type: "PINMappingTest", parameters: ["mapping": .string(mapping.rawValue)], jobs: jobs(mapping))
        }
    }
}

/// CheckAccessNumber (docs/protocol.md §5.2) and the server's issuing rule (§5.1), shared by the generator
/// and the checker.
enum AccessNumberRules {
    /// The verdict: nil when accepted, else the error class.
    static func verdict(_ an: String, useChecksum: Bool, digits: Int) -> String? {
        if an.isEmpty { return "empty" }
        if !useChecksum || digits != 7 { return nil }
        switch AccessNumber.problem(with: an) {
        case nil: return nil
        case .empty: return "empty"
        case .notDigits: return "notDigits"
        case .wrongLength: return "wrongLength"
        case .wrongCheckDigit: return "wrongCheckDigit"
        }
    }

    /// The client's check digit of the first six characters, when they are six ASCII digits.
    static func checkDigit(_ an: String) -> Int? {
        let scalars = Array(an.unicodeScalars)
        guard scalars.count >= 6 else { return nil }
        return AccessNumber.checkDigit(of: String(String.UnicodeScalarView(scalars[0..<6])))
    }

    static func sixDigits(_ rng: inout SeededRandom) -> String {
        String((0..<6).map { _ in Character(Unicode.Scalar(UInt8(48 + rng.next() % 10))) })
    }

    /// As the server: six random digits, drawn again while the raw checksum is 10.
    static func issue(_ rng: inout SeededRandom) -> String {
        while true {
            let six = sixDigits(&rng)
            if let raw = AccessNumber.rawChecksum(of: six), raw != 10 { return six + String(raw) }
        }
    }

    static func testCase(_ an: String, useChecksum: Bool, digits: Int, flags: [String], comment: String)
        -> VectorTestCase
    {
        var f: [String: JSONValue] = ["ACCESS_NUMBER": .string(an)]
        if let check = checkDigit(an) { f["CHECK_DIGIT"] = .integer(check) }
        let error = verdict(an, useChecksum: useChecksum, digits: digits)
        return VectorTestCase(
            comment: comment, flags: flags, result: error == nil ? .valid : .invalid,
            expectedError: error, fields: f)
    }
}

/// PIN strings to PIN integers and the 14-bit multiplier CLIENT_1 uses (docs/protocol.md §6.3).
enum PINMappingRules {
    /// (pin mod 10000, C remainder) on its low 14 bits, two's complement.
    static func multiplier(_ pin: Int32) -> Int {
        Int(UInt32(bitPattern: pin % Int32(MPin.maxPIN)) & UInt32((1 << MPin.pinBits) - 1))
    }

    static func testCase(_ pin: String, mapping: PINMapping, flags: [String], comment: String) -> VectorTestCase {
        var f: [String: JSONValue] = ["PIN": .string(pin)]
        guard let value = mapping.scalar(for: pin) else {
            return VectorTestCase(
                comment: comment, flags: flags + ["Unmappable"], result: .invalid,
                expectedError: "unmappable", fields: f)
        }
        f["PIN_VALUE"] = .integer(Int(value))
        f["MULTIPLIER"] = .integer(multiplier(value))
        var flags = flags
        if value < 0 { flags.append("NegativeHash") }
        return VectorTestCase(comment: comment, flags: flags, result: .valid, fields: f)
    }
}
