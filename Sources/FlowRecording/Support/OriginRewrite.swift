/// Replaces one origin (`http://host:port`) by another in response bodies and header values: how
/// `serve --cassette` points recorded absolute URLs at itself, and how the recording proxy keeps a
/// client talking through it (client settings with absolute URLs, a `Location`).
///
/// The replacement is of the exact bytes of the origin, as written; other spellings of the same
/// host (`localhost` for `127.0.0.1`, a default port written out) are left alone.
package struct OriginRewrite: Sendable, Hashable {
    package let from: String
    package let to: String

    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    /// Whether anything would change: the origins differ and the one replaced is not empty.
    package var isActive: Bool { !from.isEmpty && from != to }

    package func apply(_ text: String) -> String {
        isActive ? text.replacing(from, with: to) : text
    }

    package func apply(_ bytes: [UInt8]) -> [UInt8] {
        guard isActive else { return bytes }
        let from = Array(self.from.utf8), to = Array(self.to.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == from[0], index + from.count <= bytes.count, bytes[index..<(index + from.count)].elementsEqual(from) {
                out += to
                index += from.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
