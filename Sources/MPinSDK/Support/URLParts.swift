/// The parts of an absolute URL that the SDK needs: scheme, authority, host (lowercased, without
/// user info, port or IPv6 brackets) and the rest. No percent-decoding, no IDNA.
struct URLParts: Sendable, Hashable {
    var scheme: String
    var authority: String
    var host: String
    var port: Int?
    /// Path, query and fragment, as written (may be empty).
    var rest: String

    init?(_ url: String) {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        self.scheme = scheme.lowercased()
        let afterScheme = url[separator.upperBound...]
        let end = afterScheme.firstIndex { "/?#".contains($0) } ?? afterScheme.endIndex
        authority = String(afterScheme[..<end])
        rest = String(afterScheme[end...])
        var hostPort = Substring(authority)
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
