import SDKSeams

package typealias HTTPHeadersValue = HTTPHeaders

/// Splitting of URL text into path segments and query items, without decoding, so that rebuilt
/// URLs are byte-identical.
package enum URLText {
    /// `scheme://host[:port]` of an absolute URL (the text itself when it has no scheme).
    package static func origin(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(url[..<end])
    }

    /// The path of an absolute URL (`/rps/user`), without query or fragment.
    package static func path(_ url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            if let slash = rest.firstIndex(of: "/") { rest = rest[slash...] } else { return "/" }
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        return rest.isEmpty ? "/" : String(rest)
    }

    /// The raw `name=value` items of the query, in order.
    package static func queryItems(_ url: String) -> [(String, String)] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        var query = url[url.index(after: mark)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: "=") {
                return (String(item[..<equals]), String(item[item.index(after: equals)...]))
            }
            return (String(item), "")
        }
    }

    /// The URL with `transform` applied to each path segment after the host and each query value.
    package static func mapTokens(_ url: String, _ transform: (String) -> String) -> String {
        var head = "", rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            let afterScheme = rest[scheme.upperBound...]
            let hostEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
            head = String(rest[..<hostEnd])
            rest = rest[hostEnd...]
        }
        var fragment = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[hash...])
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let path = rest.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : transform(String($0)) }.joined(separator: "/")
        var out = head + path
        if let query {
            out += "?" + query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
                guard let equals = item.firstIndex(of: "=") else { return String(item) }
                return String(item[...equals]) + transform(String(item[item.index(after: equals)...]))
            }.joined(separator: "&")
        }
        return out + fragment
    }

    /// The URL without the query items whose names are in `names`.
    package static func removingQueryItems(_ url: String, _ names: Set<String>) -> String {
        guard !names.isEmpty, let mark = url.firstIndex(of: "?") else { return url }
        var query = url[url.index(after: mark)...]
        var fragment = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = String(query[hash...])
            query = query[..<hash]
        }
        let kept = query.split(separator: "&").filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !names.contains(name)
        }
        return String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }
}
