import GMPOracle
import MPinCrypto

/// AMCL's notation in the arithmetic vector files, read and written.
///
/// * a number is hex, printed upper case in whole bytes without leading zero bytes (`03`, `00`);
/// * FP2 `[re,im]`, FP4 `[[..],[..]]` (a + b·s), FP12 `[[[..]]]` (a + b·w + c·w²);
/// * ECP `x:y`, ECP2 `xre:xim&yre:yim`.
enum ArithNotation {
    /// A parsed value: a number or a bracketed list.
    indirect enum Value: Equatable {
        case number(GMPInteger)
        case list([Value])
    }

    // MARK: Writing

    /// Upper-case hex of big-endian bytes, whole bytes, leading zero bytes dropped, `00` for zero.
    static func hex(_ bytes: [UInt8]) -> String {
        let significant = bytes.drop(while: { $0 == 0 })
        return significant.isEmpty ? "00" : Hex.encode(significant).uppercased()
    }

    static func text<C>(_ x: Fp<C>) -> String { hex(x.bytes) }
    static func text<C>(_ x: Fp2<C>) -> String { "[\(text(x.a)),\(text(x.b))]" }
    static func text<C>(_ x: Fp4<C>) -> String { "[\(text(x.a)),\(text(x.b))]" }
    static func text<C>(_ x: Fp12<C>) -> String { "[\(text(x.a)),\(text(x.b)),\(text(x.c))]" }

    /// `x:y`, or `INFINITY`.
    static func text<C>(_ point: G1Point<C>) -> String {
        guard let (x, y) = point.affine else { return "INFINITY" }
        return "\(text(x)):\(text(y))"
    }

    /// `xre:xim&yre:yim`, or `INFINITY`.
    static func text<C>(_ point: G2Point<C>) -> String {
        guard let (x, y) = point.affine else { return "INFINITY" }
        return "\(text(x.a)):\(text(x.b))&\(text(y.a)):\(text(y.b))"
    }

    // MARK: Reading

    /// The most significant bits a number may have: AMCL's BIG for these curves is 256 bits (the
    /// files say `BIGmax: 2^256`), and every input is below it.
    static let maximumBits = 256
    /// The deepest bracket nesting: an FP12 `[[[..]]]`.
    static let maximumDepth = 3

    /// A number or a nested `[..]` list of numbers; nil when malformed, when a number has more than
    /// `maximumBits` significant bits or when brackets nest deeper than `maximumDepth`.
    static func value(_ text: String) -> Value? {
        var parser = Parser(Array(text.utf8))
        guard let value = parser.value(), parser.atEnd else { return nil }
        return value
    }

    /// Why `text` is out of the notation's range (a number too large, brackets too deep), or nil.
    static func exceedsLimits(_ text: String) -> String? {
        var depth = 0
        var deepest = 0
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                digits = 0
            case UInt8(ascii: "]"):
                depth -= 1
                digits = 0
            default:
                if Parser.isHexDigit(byte) {
                    if digits > 0 || byte != UInt8(ascii: "0") { digits += 1 }
                    if digits * 4 > maximumBits { return "a number above 2^\(maximumBits)" }
                } else {
                    digits = 0
                }
            }
        }
        if deepest > maximumDepth { return "brackets nested deeper than \(maximumDepth)" }
        return nil
    }

    static func number(_ text: String) -> GMPInteger? {
        guard case .number(let n)? = value(text) else { return nil }
        return n
    }

    static func fp<C>(_ value: Value) -> Fp<C>? {
        guard case .number(let n) = value else { return nil }
        return Fp<C>(reducing: n.bytes(atLeast: 32))
    }

    static func fp2<C>(_ value: Value) -> Fp2<C>? {
        guard case .list(let items) = value, items.count == 2,
            let a: Fp<C> = fp(items[0]), let b: Fp<C> = fp(items[1])
        else { return nil }
        return Fp2(a, b)
    }

    static func fp4<C>(_ value: Value) -> Fp4<C>? {
        guard case .list(let items) = value, items.count == 2,
            let a: Fp2<C> = fp2(items[0]), let b: Fp2<C> = fp2(items[1])
        else { return nil }
        return ArithTower.fp4(a, b)
    }

    static func fp12<C>(_ value: Value) -> Fp12<C>? {
        guard case .list(let items) = value, items.count == 3,
            let a: Fp4<C> = fp4(items[0]), let b: Fp4<C> = fp4(items[1]), let c: Fp4<C> = fp4(items[2])
        else { return nil }
        return ArithTower.fp12(a, b, c)
    }

    static func fp<C>(_ text: String) -> Fp<C>? { value(text).flatMap { fp($0) } }
    static func fp2<C>(_ text: String) -> Fp2<C>? { value(text).flatMap { fp2($0) } }
    static func fp4<C>(_ text: String) -> Fp4<C>? { value(text).flatMap { fp4($0) } }
    static func fp12<C>(_ text: String) -> Fp12<C>? { value(text).flatMap { fp12($0) } }

    /// The coordinates of `x:y` (reduced mod p), whether or not they are on the curve.
    static func g1Coordinates<C>(_ text: String) -> (x: Fp<C>, y: Fp<C>)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let x: Fp<C> = fp(String(parts[0])), let y: Fp<C> = fp(String(parts[1])) else {
            return nil
        }
        return (x, y)
    }

    /// The coordinates of `xre:xim&yre:yim`, whether or not they are on the twist.
    static func g2Coordinates<C>(_ text: String) -> (x: Fp2<C>, y: Fp2<C>)? {
        let halves = text.split(separator: "&", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        func pair(_ part: Substring) -> Fp2<C>? {
            let items = part.split(separator: ":", omittingEmptySubsequences: false)
            guard items.count == 2, let a: Fp<C> = fp(String(items[0])), let b: Fp<C> = fp(String(items[1])) else {
                return nil
            }
            return Fp2(a, b)
        }
        guard let x = pair(halves[0]), let y = pair(halves[1]) else { return nil }
        return (x, y)
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return index == bytes.count
            }
        }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }

        /// Brackets open around the value being read.
        var depth = 0

        mutating func value() -> Value? {
            skipSpaces()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "[") {
                guard depth < ArithNotation.maximumDepth else { return nil }
                depth += 1
                defer { depth -= 1 }
                index += 1
                var items: [Value] = []
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpaces()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { return nil }
                    index += 1
                    return .list(items)
                }
            }
            let start = index
            while index < bytes.count, Self.isHexDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            let significant = bytes[start..<index].drop(while: { $0 == UInt8(ascii: "0") })
            guard significant.count * 4 <= ArithNotation.maximumBits else { return nil }
            let digits = String(decoding: bytes[start..<index], as: UTF8.self)
            return GMPInteger(hex: digits).map(Value.number)
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        }
    }
}
