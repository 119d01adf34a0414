import CGMP

/// An arbitrary-precision signed integer held in a GMP `mpz_t`.
///
/// A `GMPInteger` is immutable once built: every operation allocates a fresh result, so a GMP
/// output operand never aliases an input and instances can be shared freely between tasks
/// (GMP only reads its inputs). The `mpz_t` is initialised in `init` and cleared in `deinit`.
///
/// This type is part of the oracle: it shares no code with `MPinCrypto` and relies on GMP alone.
public final class GMPInteger: @unchecked Sendable {
    /// The owned `mpz_t`. Written only while the instance is being built.
    let raw: UnsafeMutablePointer<__mpz_struct>

    /// Creates the integer 0.
    public init() {
        raw = .allocate(capacity: 1)
        __gmpz_init(raw)
    }

    deinit {
        __gmpz_clear(raw)
        raw.deallocate()
    }

    /// Builds a new integer by letting `body` write into its fresh `mpz_t`.
    static func computing(_ body: (UnsafeMutablePointer<__mpz_struct>) -> Void) -> GMPInteger {
        let result = GMPInteger()
        body(result.raw)
        return result
    }

    /// Creates the integer `value`.
    public convenience init(_ value: UInt64) {
        self.init()
        __gmpz_set_ui(raw, UInt(value))
    }

    /// Creates the integer `value`.
    public convenience init(_ value: Int) {
        self.init()
        __gmpz_set_si(raw, value)
    }

    /// Reads a big-endian unsigned integer of any length: Σ bytes[i]·256^(n−1−i). Empty means 0.
    public convenience init(bigEndian bytes: [UInt8]) {
        self.init()
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            __gmpz_import(raw, buffer.count, 1, 1, 1, 0, buffer.baseAddress)
        }
    }

    /// Parses hexadecimal digits, with an optional leading `-` and an optional `0x`/`0X` prefix.
    /// Returns nil when there are no digits or when anything else is present.
    public convenience init?(hex: String) {
        var text = Substring(hex)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { text = text.dropFirst(2) }
        let isHexDigit: (UInt8) -> Bool = { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
        }
        guard !text.isEmpty, text.utf8.allSatisfy(isHexDigit) else { return nil }
        self.init()
        let status = String(text).withCString { __gmpz_set_str(raw, $0, 16) }
        guard status == 0 else { return nil }
        if negative { __gmpz_neg(raw, raw) }
    }

    // MARK: - Inspection

    /// −1, 0 or 1 according to the sign.
    public var signum: Int {
        let size = raw.pointee._mp_size
        return size < 0 ? -1 : (size > 0 ? 1 : 0)
    }

    /// True when the integer is 0.
    public var isZero: Bool { raw.pointee._mp_size == 0 }

    /// True when the integer is odd.
    public var isOdd: Bool { __gmpz_tstbit(raw, 0) == 1 }

    /// The number of bits of |n| (0 for 0), i.e. ⌊log₂|n|⌋ + 1.
    public var bitWidth: Int { isZero ? 0 : Int(__gmpz_sizeinbase(raw, 2)) }

    /// Bit `index` of n in two's complement (bit 0 is the least significant).
    public func bit(_ index: Int) -> Bool {
        precondition(index >= 0, "bit index must be non-negative")
        return __gmpz_tstbit(raw, UInt(index)) == 1
    }

    /// The digits in lower-case hexadecimal without prefix, with a leading `-` when negative.
    public var hex: String {
        var buffer = [CChar](repeating: 0, count: Int(__gmpz_sizeinbase(raw, 16)) + 2)
        return buffer.withUnsafeMutableBufferPointer { chars in
            _ = __gmpz_get_str(chars.baseAddress, 16, raw)
            return String(cString: chars.baseAddress!)
        }
    }

    /// |n| ≥ 0 as exactly `count` big-endian bytes, left-padded with zeros.
    /// Returns nil when n is negative or needs more than `count` bytes.
    public func bigEndianBytes(count: Int = 32) -> [UInt8]? {
        guard signum >= 0 else { return nil }
        let needed = (bitWidth + 7) / 8
        guard needed <= count else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        guard needed > 0 else { return out }
        out.withUnsafeMutableBytes { buffer in
            var written = 0
            _ = __gmpz_export(buffer.baseAddress! + (count - needed), &written, 1, 1, 1, 0, raw)
            precondition(written == needed, "mpz_export wrote an unexpected number of bytes")
        }
        return out
    }

    // MARK: - Arithmetic (every result is a new integer)

    /// a + b.
    public static func + (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        computing { __gmpz_add($0, a.raw, b.raw) }
    }

    /// a − b.
    public static func - (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        computing { __gmpz_sub($0, a.raw, b.raw) }
    }

    /// a · b.
    public static func * (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        computing { __gmpz_mul($0, a.raw, b.raw) }
    }

    /// −a.
    public static prefix func - (a: GMPInteger) -> GMPInteger {
        computing { __gmpz_neg($0, a.raw) }
    }

    /// ⌊a / b⌋ (rounding towards −∞); b ≠ 0.
    public static func / (a: GMPInteger, b: GMPInteger) -> GMPInteger {
        precondition(!b.isZero, "division by zero")
        return computing { __gmpz_fdiv_q($0, a.raw, b.raw) }
    }

    /// nᵏ for a machine-word exponent k (with 0⁰ = 1).
    public func power(_ k: UInt) -> GMPInteger {
        Self.computing { __gmpz_pow_ui($0, raw, k) }
    }

    /// The least non-negative residue n mod m, in [0, m); m > 0.
    public func modulo(_ m: GMPInteger) -> GMPInteger {
        precondition(m.signum > 0, "modulus must be positive")
        return Self.computing { __gmpz_mod($0, raw, m.raw) }
    }

    /// nᵉ mod m in [0, m) for e ≥ 0 and m > 0 (0⁰ = 1, reduced mod m).
    public func power(_ e: GMPInteger, modulo m: GMPInteger) -> GMPInteger {
        precondition(e.signum >= 0, "exponent must be non-negative")
        precondition(m.signum > 0, "modulus must be positive")
        return Self.computing { __gmpz_powm($0, raw, e.raw, m.raw) }
    }

    /// The x in [0, m) with n·x ≡ 1 (mod m), or nil when gcd(n, m) ≠ 1; m > 1.
    public func inverse(modulo m: GMPInteger) -> GMPInteger? {
        precondition(m > GMPInteger(1), "modulus must exceed 1")
        let result = GMPInteger()
        guard __gmpz_invert(result.raw, raw, m.raw) != 0 else { return nil }
        return result
    }

    /// The Jacobi symbol (n / m) ∈ {−1, 0, 1} for an odd positive m; for a prime m this is
    /// the Legendre symbol: 0 when m | n, 1 when n is a non-zero square mod m, −1 otherwise.
    public func jacobi(_ m: GMPInteger) -> Int {
        precondition(m.signum > 0 && m.isOdd, "the Jacobi symbol needs an odd positive modulus")
        return Int(__gmpz_jacobi(raw, m.raw))
    }

    /// True when n is prime, or very probably prime (GMP's `mpz_probab_prime_p` with `rounds`
    /// Miller-Rabin rounds after trial division and a Baillie-PSW test).
    public func isProbablePrime(rounds: Int = 30) -> Bool {
        __gmpz_probab_prime_p(raw, Int32(rounds)) != 0
    }
}

extension GMPInteger: Comparable, Hashable, CustomStringConvertible {
    /// Integer equality.
    public static func == (a: GMPInteger, b: GMPInteger) -> Bool { __gmpz_cmp(a.raw, b.raw) == 0 }

    /// Integer order.
    public static func < (a: GMPInteger, b: GMPInteger) -> Bool { __gmpz_cmp(a.raw, b.raw) < 0 }

    public func hash(into hasher: inout Hasher) { hasher.combine(hex) }

    /// `0x…` in lower-case hexadecimal (`-0x…` when negative).
    public var description: String {
        signum < 0 ? "-0x" + String(hex.dropFirst()) : "0x" + hex
    }
}
