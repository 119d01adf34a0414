import CommonFormats

/// A scanned MFA-platform QR payload, `<landing-url>#<access-code>` (docs/protocol.md §5.4).
///
/// The URL needs a scheme, an authority and a non-empty fragment; the base URL is
/// `scheme://authority` (any path and query are dropped) and the access code is the fragment.
public struct ScannedCode: Sendable, Hashable {
    public var baseURL: String
    public var accessCode: String

    public init(baseURL: String, accessCode: String) {
        self.baseURL = baseURL
        self.accessCode = accessCode
    }

    /// Parses a QR payload; nil when it lacks a scheme, an authority or a fragment.
    public init?(parsing payload: String) {
        let text = payload.trimmed(of: [" ", "\n", "\r", "\t"])
        guard let hash = text.firstIndex(of: "#") else { return nil }
        let fragment = String(text[text.index(after: hash)...])
        guard !fragment.isEmpty, let parts = URLParts(String(text[..<hash])), !parts.authority.isEmpty else {
            return nil
        }
        self.init(baseURL: parts.scheme + "://" + parts.authority, accessCode: fragment)
    }
}

extension String {
    func trimmed(of set: Set<Character>) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
