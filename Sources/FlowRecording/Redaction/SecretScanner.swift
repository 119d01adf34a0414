/// Finds every occurrence of many secrets in a text in one pass, by their UTF-8 bytes, and
/// replaces each by its placeholder: the redactor's search inside text that is not JSON.
///
/// A real recording holds a few secrets per login (draws, one-time tokens, shares), so a cassette
/// of thousands of logins has thousands of them; searching for each in turn costs the text's
/// length times their number. Here each secret (at least `minimumBytes` long) is indexed by its
/// first 8 bytes: one pass over the text keeps the last 8 bytes as a 64-bit word, a 65,536-bit
/// filter on a hash of that word lets nearly every position go after one load, and the
/// secrets that start with the word are compared in full only where it matches. Time: linear in
/// the text, plus the full comparisons at the positions where a secret's first 8 bytes occur.
///
/// Matches are taken from left to right; where several secrets start at one place, the longest
/// (then the first given) wins, and the search goes on after it. Bytes, not `Character`s, are
/// compared (see `UTF8Search`): a secret followed by a combining mark is found too, and putting the
/// secret back in place of its placeholder gives the exact bytes again.
struct SecretScanner {
    /// The shortest secret the scanner takes: the window it indexes.
    static let minimumBytes = 8

    private let secrets: [[UInt8]]
    private let replacements: [[UInt8]]
    /// Where each of `secrets` is in the list given.
    private let given: [Int]
    /// The secrets starting with each 8-byte word (little-endian), longest first.
    private let byPrefix: [UInt64: [Int]]
    /// One bit per 16-bit hash of the words in `byPrefix`.
    private let filter: [UInt64]

    /// The scanner of `secrets` (each `value` at least `minimumBytes` bytes long; shorter ones
    /// are never found) and their replacements.
    init(_ secrets: [(value: String, replacement: String)]) {
        let taken = secrets.indices.filter { secrets[$0].value.utf8.count >= Self.minimumBytes }
        given = taken
        self.secrets = taken.map { Array(secrets[$0].value.utf8) }
        replacements = taken.map { Array(secrets[$0].replacement.utf8) }
        var byPrefix: [UInt64: [Int]] = [:]
        var filter = [UInt64](repeating: 0, count: 1 << 10)
        for (index, secret) in self.secrets.enumerated() {
            var word: UInt64 = 0
            for offset in 0..<Self.minimumBytes { word |= UInt64(secret[offset]) << (8 * UInt64(offset)) }
            byPrefix[word, default: []].append(index)
            let bit = Self.hash(word)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        let lengths = self.secrets.map(\.count)
        self.byPrefix = byPrefix.mapValues { indices in
            indices.sorted { lengths[$0] != lengths[$1] ? lengths[$0] > lengths[$1] : $0 < $1 }
        }
        self.filter = filter
    }

    private static func hash(_ word: UInt64) -> Int { Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 48) }

    /// `text` with every occurrence of a secret replaced (see the type), calling `found` with the
    /// index of the secret in the list given at each.
    func replace(in text: String, _ found: (Int) -> Void) -> String {
        guard !secrets.isEmpty, text.utf8.count >= Self.minimumBytes else { return text }
        var utf8 = text
        let replaced = utf8.withUTF8 { bytes -> String? in
            var out: [UInt8] = []
            var copied = 0
            var word: UInt64 = 0
            var position = 0
            while position < bytes.count {
                word = word >> 8 | UInt64(bytes[position]) << 56
                position += 1
                let start = position - Self.minimumBytes
                guard start >= copied else { continue }
                let bit = Self.hash(word)
                guard filter[bit >> 6] & (1 << UInt64(bit & 63)) != 0, let candidates = byPrefix[word] else { continue }
                for index in candidates {
                    let secret = secrets[index]
                    guard start + secret.count <= bytes.count else { continue }
                    var matched = Self.minimumBytes
                    while matched < secret.count, bytes[start + matched] == secret[matched] { matched += 1 }
                    guard matched == secret.count else { continue }
                    if out.isEmpty { out.reserveCapacity(bytes.count) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<start]))
                    out.append(contentsOf: replacements[index])
                    found(given[index])
                    copied = start + secret.count
                    // The window starts again after the secret.
                    position = copied
                    word = 0
                    break
                }
            }
            guard copied > 0 else { return nil }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: out, as: UTF8.self)
        }
        return replaced ?? text
    }
}
