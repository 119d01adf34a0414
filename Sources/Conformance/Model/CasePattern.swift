/// A `--cases` selection: comma-separated globs over case ids, where `*` matches any run of
/// characters and `?` one character (`pass2.*`, `pin.*,access.held-*`). A glob without wildcards
/// also selects the ids that start with it followed by a dot (`pin` selects `pin.*`).
public struct CasePattern: Sendable, Hashable, CustomStringConvertible {
    public let globs: [String]

    /// Nil for an empty pattern or an empty glob between commas.
    public init?(_ text: String) {
        let globs = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard !globs.isEmpty, !globs.contains(where: \.isEmpty) else { return nil }
        self.globs = globs
    }

    public func matches(_ id: String) -> Bool {
        globs.contains { glob in
            Self.match(Array(glob.unicodeScalars), Array(id.unicodeScalars))
                || (!glob.contains("*") && !glob.contains("?") && id.hasPrefix(glob + "."))
        }
    }

    public var description: String { globs.joined(separator: ",") }

    /// Glob matching without recursion: the last `*` is the one backtracked to.
    static func match(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let s = star {
                p = s + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
