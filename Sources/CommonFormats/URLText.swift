/// URL text split into its parts without decoding (RFC 3986 §3), so that a URL rebuilt from the
/// parts is byte-identical to the one recorded. It reads absolute URLs (`http://host:8005/rps/user?x=1`)
/// and request targets of the origin form (`/rps/user?x=1`, RFC 9112 §3.2.1) alike. The one place
/// in the package that splits URLs: the recorder, the replayer, the checks, the backend's router,
/// the SDK's `URLParts` and the runner all read them through it.
package enum URLText {
    /// The parts of a URL or a request target, as slices of its text: `origin` + `path` +
    /// (`?` + `query`) + (`#` + `fragment`) is the text again.
    package struct Parts {
        /// The scheme, without `://`: nil when the text does not start with one (a request target
        /// such as `/x?u=http://y` has none: a scheme holds no `/`, `?` or `#`).
        package var scheme: Substring?
        /// The authority after `://` (`user@host:port`), up to the first `/`, `?` or `#`; nil without a scheme.
        package var authority: Substring?
        /// `scheme://authority`, or empty without a scheme.
        package var origin: Substring
        /// Up to the first `?` or `#`; may be empty.
        package var path: Substring
        /// After the first `?`, up to a `#`; nil when the text has no `?` before its fragment.
        package var query: Substring?
        /// After the first `#`; nil when there is none.
        package var fragment: Substring?
    }

    /// `scheme://host[:port]` of `text` (a trailing `/` dropped): nil unless the scheme is http or
    /// https, with a host (no userinfo, no space) and no path, query or fragment. The form of an
    /// upstream or an allowed origin on the command line (`proxy --upstream`, `conform --allow-origin`).
    package static func origin(_ text: String) -> String? {
        let origin = text.hasSuffix("/") ? String(text.dropLast()) : text
        let parts = parts(origin)
        guard let scheme = parts.scheme, ["http", "https"].contains(scheme.lowercased()),
            let authority = parts.authority,
            !authority.isEmpty, !authority.contains(where: { "@ ".contains($0) }),
            parts.path.isEmpty, parts.query == nil, parts.fragment == nil
        else { return nil }
        return origin
    }

    /// The parts of `text`. Works on the UTF-8 view: `:`, `/`, `?` and `#` are ASCII, so their
    /// indices are those of the string too.
    package static func parts(_ text: String) -> Parts {
        let bytes = text.utf8
        let isDelimiter = { (byte: UInt8) in
            byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }
        var start = bytes.startIndex
        var scheme: Substring?, authority: Substring?
        // `scheme://`: the first delimiter is the first `/` of a `://` that does not start the text
        // (a byte loop: the generic `firstRange(of:)` costs a hundred times more per URL).
        if let slash = bytes.firstIndex(where: isDelimiter), bytes[slash] == UInt8(ascii: "/"),
            slash != bytes.startIndex, case let colon = bytes.index(before: slash), colon != bytes.startIndex,
            bytes[colon] == UInt8(ascii: ":"), case let second = bytes.index(after: slash), second != bytes.endIndex,
            bytes[second] == UInt8(ascii: "/")
        {
            let separator = colon..<bytes.index(after: second)
            let end = bytes[separator.upperBound...].firstIndex(where: isDelimiter) ?? bytes.endIndex
            scheme = text[..<separator.lowerBound]
            authority = text[separator.upperBound..<end]
            start = end
        }
        let fragmentMark = bytes[start...].firstIndex(of: UInt8(ascii: "#"))
        let beforeFragment = fragmentMark ?? bytes.endIndex
        let queryMark = bytes[start..<beforeFragment].firstIndex(of: UInt8(ascii: "?"))
        return Parts(
            scheme: scheme, authority: authority, origin: text[..<start],
            path: text[start..<(queryMark ?? beforeFragment)],
            query: queryMark.map { text[bytes.index(after: $0)..<beforeFragment] },
            fragment: fragmentMark.map { text[bytes.index(after: $0)...] })
    }

    /// `scheme://host[:port]` of an absolute URL (the text itself when it has no scheme).
    package static func origin(of url: String) -> String {
        let origin = parts(url).origin
        return origin.isEmpty ? url : String(origin)
    }

    /// The path of a URL or a request target (`/rps/user`), without query or fragment; `/` when it has none.
    package static func path(_ url: String) -> String {
        let path = parts(url).path
        return path.isEmpty ? "/" : String(path)
    }

    /// The raw `name=value` items of the query, in order (an item without `=` has the value "";
    /// `QueryString.items`).
    package static func queryItems(_ url: String) -> [(String, String)] {
        guard let query = parts(url).query else { return [] }
        return QueryString.items(query).map { (String($0.name), String($0.value)) }
    }

    /// The URL with `transform` applied to each non-empty path segment after the origin and to
    /// each query value; the rest as written.
    package static func mapTokens(_ url: String, _ transform: (String) -> String) -> String {
        let parts = parts(url)
        var out = String(parts.origin)
        out += parts.path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : transform(String($0)) }.joined(separator: "/")
        if let query = parts.query {
            out +=
                "?"
                + query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                    guard let equals = item.firstIndex(of: "=") else { return String(item) }
                    return String(item[...equals]) + transform(String(item[item.index(after: equals)...]))
                }.joined(separator: "&")
        }
        return out + (parts.fragment.map { "#" + $0 } ?? "")
    }

    /// The URL without the query items whose names are in `names` (and without its `?` when none is left).
    package static func removingQueryItems(_ url: String, _ names: Set<String>) -> String {
        let parts = parts(url)
        guard !names.isEmpty, let query = parts.query else { return url }
        let kept = query.split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !names.contains(name)
        }
        return String(parts.origin) + parts.path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
            + (parts.fragment.map { "#" + $0 } ?? "")
    }
}
