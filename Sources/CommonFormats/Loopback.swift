/// The one loopback rule of the workbench: what counts as "this machine" for a host name, a URL
/// or a peer's address.
///
/// A host is loopback when it is `localhost`, an IPv4 literal in 127.0.0.0/8 (four decimal
/// parts, each 0 to 255: RFC 1122 §3.2.1.3 reserves the whole block), the IPv6 loopback `::1`
/// (RFC 4291 §2.5.3, in any of its spellings) or an IPv4-mapped IPv6 literal of a 127.0.0.0/8
/// address (`::ffff:127.0.0.1`, RFC 4291 §2.5.5.2). A name that merely starts with `127.`
/// (`127.evil.example`) is not: only the resolver knows where it points. Used by `record` and
/// `run` (which redact a non-loopback backend by default), `serve`, `cassette serve` and `proxy`
/// (which warn about a non-loopback `--host`), the reference backend (whose operator endpoints
/// answer only loopback peers) and `conform`.
package enum Loopback {
    /// Whether `host` (a URL's host, brackets allowed around an IPv6 literal, any case) is loopback.
    package static func isLoopback(host: String) -> Bool {
        var text = host.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text == "localhost" { return true }
        if let v4 = ipv4(text) { return isLoopback(ipv4: v4) }
        if let v6 = ipv6(text) { return isLoopback(ipv6: v6) }
        return false
    }

    /// Whether the host of the absolute URL `url` is loopback (false for text that is not a URL).
    package static func isLoopback(url: String) -> Bool {
        guard let host = URLParts(url)?.host else { return false }
        return isLoopback(host: host)
    }

    /// Whether an IPv4 address (host order) is in 127.0.0.0/8.
    package static func isLoopback(ipv4 address: UInt32) -> Bool {
        address >> 24 == 127
    }

    /// Whether a 16-byte IPv6 address (network order) is `::1` or IPv4-mapped 127.0.0.0/8.
    package static func isLoopback(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        if bytes.prefix(15).allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }

    /// A dotted-quad IPv4 literal (exactly four decimal parts of 1 to 3 digits, each at most 255).
    static func ipv4(_ text: some StringProtocol) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let byte = UInt8(part)
            else { return nil }
            out = out << 8 | UInt32(byte)
        }
        return out
    }

    /// An IPv6 literal (RFC 4291 §2.2: eight groups of 1 to 4 hex digits, one `::` for a run of
    /// zero groups, the last 32 bits optionally as a dotted quad) as 16 bytes; no zone id.
    static func ipv6(_ text: String) -> [UInt8]? {
        guard text.contains(":"), !text.contains("%") else { return nil }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(piece) {
                    out += [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                out.append(value)
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        var all = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 7 else { return nil }
            all += Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
