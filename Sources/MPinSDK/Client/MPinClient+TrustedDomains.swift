import CommonFormats

extension MPinClient {
    /// How a request's host is matched against the trusted domains (docs/protocol.md §1, trusted domains).
    public enum TrustedDomainMatching: String, Sendable, Hashable, CaseIterable {
        /// The host is the trusted domain or ends in `.` + the domain: `api.miracl.net` and
        /// `miracl.net` are in `miracl.net`, `evilmiracl.net` is not. The default.
        case hostOrSubdomain
        /// The MFA-platform core's plain suffix match (no dot boundary), so `evilmiracl.net` is in
        /// `miracl.net`; only to reproduce that core's behaviour.
        case legacySuffix
    }

    /// Whether `host` (lowercased, as `URLParts` gives it) is in the trusted `domain`.
    static func host(_ host: String, isIn domain: String, matching: TrustedDomainMatching) -> Bool {
        switch matching {
        case .legacySuffix:
            return host.hasSuffix(domain)
        case .hostOrSubdomain:
            // A fully qualified host's trailing dot names the same host.
            let name = host.hasSuffix(".") ? String(host.dropLast()) : host
            return name == domain || name.hasSuffix("." + domain)
        }
    }

    /// The host a trusted domain stands for: the host of a URL, else the text lowercased, without
    /// a leading or trailing dot (`.miracl.net.` is `miracl.net`).
    static func trustedHost(_ domain: String) -> String {
        var host = Substring(URLParts(domain)?.host ?? domain.lowercased())
        while host.hasPrefix(".") { host = host.dropFirst() }
        while host.hasSuffix(".") { host = host.dropLast() }
        return String(host)
    }
}
