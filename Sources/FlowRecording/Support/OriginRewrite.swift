/// Replaces one origin (`http://host:port`) by another in response bodies and header values: how
/// `serve --cassette` points recorded absolute URLs at itself, and how the recording proxy keeps a
/// client talking through it (client settings with absolute URLs, a `Location`).
///
/// The replacement is of the exact bytes of the origin, as written; other spellings of the same
/// host (`localhost` for `127.0.0.1`, a default port written out) are left alone. With several
/// origins (a proxy covering a backend and a D-TA on its own origin) the text is read once from
/// left to right, the longest origin that matches at a place replacing it, so that one
/// replacement is never rewritten again by another.
package struct OriginRewrite: Sendable, Hashable {
    /// One origin and what replaces it.
    package struct Pair: Sendable, Hashable {
        package let from: String
        package let to: String
    }

    /// The origins replaced, longest first; those that are empty or replaced by themselves left out.
    package let pairs: [Pair]

    package init(from: String, to: String) {
        self.init([(from, to)])
    }

    package init(_ pairs: [(from: String, to: String)]) {
        self.pairs = pairs.filter { !$0.from.isEmpty && $0.from != $0.to }.map { Pair(from: $0.from, to: $0.to) }
            .sorted { $0.from.utf8.count > $1.from.utf8.count }
    }

    /// Whether anything would change: some origin differs from its replacement and is not empty.
    package var isActive: Bool { !pairs.isEmpty }

    package func apply(_ text: String) -> String {
        isActive ? String(decoding: apply(Array(text.utf8)), as: UTF8.self) : text
    }

    package func apply(_ bytes: [UInt8]) -> [UInt8] {
        guard isActive else { return bytes }
        let patterns = pairs.map { (from: Array($0.from.utf8), to: Array($0.to.utf8)) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        scan: while index < bytes.count {
            for pattern in patterns
            where bytes[index] == pattern.from[0] && index + pattern.from.count <= bytes.count
                && bytes[index..<(index + pattern.from.count)].elementsEqual(pattern.from)
            {
                out += pattern.to
                index += pattern.from.count
                continue scan
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }
}
