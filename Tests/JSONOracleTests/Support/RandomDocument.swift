import TestSupport

/// A seeded writer of random JSON texts for the differential test: nested arrays and objects,
/// every kind of number literal (int64 bounds, beyond 64 bits, reals with exponents, beyond a
/// double, `-0`), strings with every escape (surrogate pairs, `\u0000`), raw UTF-8 of 1 to 4 bytes,
/// names drawn from a small pool so that some repeat, random whitespace, sometimes a scalar at the
/// top or a byte order mark. The same seed writes the same texts.
struct RandomDocument {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A number from 0 to `bound` − 1.
    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One document.
    mutating func next() -> [UInt8] {
        var out: [UInt8] = chance(2) ? [0xEF, 0xBB, 0xBF] : []
        space(&out)
        if chance(8) { scalar(&out) } else if chance(50) { array(&out, depth: 0) } else { object(&out, depth: 0) }
        space(&out)
        return out
    }

    /// The document with one to three random edits (a byte deleted, inserted, replaced, or a span
    /// repeated), which mostly makes it invalid in some way both parsers must agree on.
    mutating func mutate(_ document: [UInt8]) -> [UInt8] {
        var bytes = document
        let interesting =
            Array("[]{}\",:\\/-+.eE0123456789 \ntfnu".utf8) + [0x00, 0xFF, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0x09, 0x0B]
        for _ in 0...below(3) {
            let position = bytes.isEmpty ? 0 : below(bytes.count)
            switch below(4) {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(interesting[below(interesting.count)], at: position)
            case 2 where !bytes.isEmpty: bytes[position] = interesting[below(interesting.count)]
            default:
                let length = min(1 + below(8), bytes.count - position)
                if length > 0 { bytes.insert(contentsOf: bytes[position..<position + length], at: position) }
            }
        }
        return bytes
    }

    private mutating func space(_ out: inout [UInt8]) {
        guard chance(30) else { return }
        for _ in 0...below(3) { out.append([0x20, 0x09, 0x0A, 0x0D][below(4)]) }
    }

    private mutating func value(_ out: inout [UInt8], depth: Int) {
        let containers = depth < 5 ? 30 : 0
        let pick = below(100)
        if pick < containers / 2 {
            array(&out, depth: depth + 1)
        } else if pick < containers {
            object(&out, depth: depth + 1)
        } else {
            scalar(&out)
        }
    }

    private mutating func array(_ out: inout [UInt8], depth: Int) {
        out.append(UInt8(ascii: "["))
        space(&out)
        for index in 0..<below(5) {
            if index > 0 {
                out.append(UInt8(ascii: ","))
                space(&out)
            }
            value(&out, depth: depth)
            space(&out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private mutating func object(_ out: inout [UInt8], depth: Int) {
        out.append(UInt8(ascii: "{"))
        space(&out)
        for index in 0..<below(5) {
            if index > 0 {
                out.append(UInt8(ascii: ","))
                space(&out)
            }
            if chance(60) {
                string(&out, text: ["id", "a", "b", "value", "é", "\u{1F600}"][below(6)])
            } else {
                randomString(&out)
            }
            space(&out)
            out.append(UInt8(ascii: ":"))
            space(&out)
            value(&out, depth: depth)
            space(&out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private mutating func scalar(_ out: inout [UInt8]) {
        switch below(10) {
        case 0: out += Array("null".utf8)
        case 1: out += Array((chance(50) ? "true" : "false").utf8)
        case 2, 3, 4: out += Array(number().utf8)
        default: randomString(&out)
        }
    }

    /// A number literal of one of the kinds the two parsers read differently or alike.
    mutating func number() -> String {
        let sign = chance(30) ? "-" : ""
        switch below(12) {
        case 0: return sign + String(random.next() % 1000)
        case 1: return String(Int64(bitPattern: random.next()))
        case 2:
            return [
                "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "-0", "0",
            ][below(6)]
        case 3: return sign + "1" + String(repeating: "0", count: 15 + below(10))
        case 4: return sign + digits(1 + below(40))
        case 5: return sign + digits(1 + below(5)) + "." + String(random.next() % 100000)
        case 6:
            return sign + digits(1 + below(3)) + ["e", "E"][below(2)] + ["", "+", "-"][below(3)] + String(below(330))
        case 7:
            return sign + digits(1 + below(3)) + "." + digits(1 + below(3)) + "e" + ["", "+", "-"][below(3)]
                + String(300 + below(40))
        case 8: return sign + "1e" + String(400 + below(100000))
        case 9: return sign + "0." + String(repeating: "0", count: below(30)) + digits(1 + below(25))
        case 10: return "1.7976931348623" + String(155 + below(5)) + "e308"
        default: return sign + "0"
        }
    }

    /// Decimal digits without a leading zero.
    private mutating func digits(_ count: Int) -> String {
        var text = String(1 + below(9))
        for _ in 1..<max(count, 1) { text += String(below(10)) }
        return text
    }

    private mutating func string(_ out: inout [UInt8], text: String) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += Array(#"\""#.utf8)
            case "\\": out += Array(#"\\"#.utf8)
            case _ where scalar.value < 0x20: out += Array(uEscape(scalar.value).utf8)
            default: out += Array(String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A string with raw UTF-8, escapes of every kind, sometimes `\u0000`.
    private mutating func randomString(_ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for _ in 0..<below(8) {
            switch below(12) {
            case 0: out += Array(["\\n", "\\t", "\\r", "\\b", "\\f", "\\/", "\\\\", "\\\""][below(8)].utf8)
            case 1: out += Array(uEscape(UInt32(below(0xD800))).utf8)
            case 2:
                let astral = 0x10000 + UInt32(below(0x100000))
                out += Array(
                    (uEscape(0xD800 + ((astral - 0x10000) >> 10)) + uEscape(0xDC00 + ((astral - 0x10000) & 0x3FF))).utf8
                )
            case 3 where chance(15): out += Array(#"\u0000"#.utf8)
            case 4: out += Array(["é", "€", "\u{1D11E}", "\u{7F}", "\u{2028}", "日本"][below(6)].utf8)
            default: out.append(UInt8(ascii: "a") + UInt8(below(26)))
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// `\uXXXX` for a UTF-16 code unit.
private func uEscape(_ unit: UInt32) -> String {
    let hex = String(unit, radix: 16)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
