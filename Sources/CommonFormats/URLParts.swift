/// The parts of an absolute URL that the SDK needs: scheme, authority, host (lowercased, without
/// user info, port or IPv6 brackets), port and the rest, split by `URLText` (RFC 3986 §3.1,
/// §3.2.2, §3.2.3). Nil when the text has no valid scheme, or its port is not a number. No
/// percent-decoding, no IDNA.
package struct URLParts: Sendable, Hashable {
    /// Lowercased.
    package var scheme: String
    package var authority: String
    package var host: String
    package var port: Int?
    /// Path, query and fragment, as written (may be empty).
    package var rest: String

    package init?(_ url: String) {
        let parts = URLText.parts(url)
        guard let scheme = parts.scheme, let authority = parts.authority, let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        self.scheme = scheme.lowercased()
        self.authority = String(authority)
        rest = String(url[parts.origin.endIndex...])
        var hostPort = authority
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close]).lowercased()
            let tail = hostPort[hostPort.index(after: close)...]
            if tail.hasPrefix(":") {
                guard let number = Int(tail.dropFirst()) else { return nil }
                port = number
            } else if !tail.isEmpty {
                return nil
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon]).lowercased()
            let digits = hostPort[hostPort.index(after: colon)...]
            if digits.isEmpty {
                port = nil
            } else {
                guard let number = Int(digits) else { return nil }
                port = number
            }
        } else {
            host = String(hostPort).lowercased()
        }
    }
}
