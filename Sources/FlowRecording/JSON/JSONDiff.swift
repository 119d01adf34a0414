import OrderedJSON

/// One difference between two JSON values, at a path such as `$.mpinResponse.authOTT` or `$.items[2]`.
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    public enum Change: Sendable, Hashable {
        /// Present in both with different values (or kinds).
        case changed(expected: JSONValue, actual: JSONValue)
        /// Only in the expected value.
        case missing(expected: JSONValue)
        /// Only in the actual value.
        case added(actual: JSONValue)
    }

    public var path: String
    public var change: Change

    public var description: String {
        switch change {
        case .changed(let expected, let actual):
            // Shortened around the first difference, so that a change inside a long value shows.
            let (e, a) = JSONDiff.briefPair(expected, actual)
            return "\(path): expected \(e), got \(a)"
        case .missing(let expected): return "\(path): missing (expected \(JSONDiff.brief(expected)))"
        case .added(let actual): return "\(path): unexpected (got \(JSONDiff.brief(actual)))"
        }
    }

    /// The difference between two peers rather than an expectation and a result, named by
    /// `first` and `second` (`cassette diff`: "the first", "the second").
    public func description(first: String, second: String) -> String {
        switch change {
        case .changed(let a, let b):
            let (x, y) = JSONDiff.briefPair(a, b)
            return "\(path): \(x) in \(first), \(y) in \(second)"
        case .missing(let a): return "\(path): only in \(first) (\(JSONDiff.brief(a)))"
        case .added(let b): return "\(path): only in \(second) (\(JSONDiff.brief(b)))"
        }
    }
}

/// Path-by-path comparison of JSON values: objects by member name (order ignored), arrays by position.
public enum JSONDiff {
    /// Every difference between `expected` and `actual`, in document order of `expected` then of
    /// `actual`. Numbers compare by value.
    public static func differences(_ expected: JSONValue, _ actual: JSONValue, path: String = "$") -> [JSONDifference] {
        var out: [JSONDifference] = []
        collect(expected, actual, path: path, into: &out)
        return out
    }

    private static func collect(
        _ expected: JSONValue, _ actual: JSONValue, path: String, into out: inout [JSONDifference]
    ) {
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            let mine = expected.uniqueMembers, theirs = actual.uniqueMembers
            var seen = Set<String>()
            for member in e where seen.insert(member.name).inserted {
                let childPath = path + memberPath(member.name)
                if let other = theirs[member.name] {
                    collect(mine[member.name]!, other, path: childPath, into: &out)
                } else {
                    out.append(.init(path: childPath, change: .missing(expected: mine[member.name]!)))
                }
            }
            for member in a where mine[member.name] == nil && seen.insert(member.name).inserted {
                out.append(.init(path: path + memberPath(member.name), change: .added(actual: theirs[member.name]!)))
            }
        case (.array(let e), .array(let a)):
            for position in 0..<max(e.count, a.count) {
                let childPath = path + "[\(position)]"
                if position < e.count, position < a.count {
                    collect(e[position], a[position], path: childPath, into: &out)
                } else if position < e.count {
                    out.append(.init(path: childPath, change: .missing(expected: e[position])))
                } else {
                    out.append(.init(path: childPath, change: .added(actual: a[position])))
                }
            }
        default:
            if !expected.semanticallyEquals(actual) {
                out.append(.init(path: path, change: .changed(expected: expected, actual: actual)))
            }
        }
    }

    private static func memberPath(_ name: String) -> String {
        let simple =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
                    || $0 == "-"
            }
        return simple ? "." + name : "[" + JSONWriter.quoted(name) + "]"
    }

    /// Two values that differ, each on one line: shortened around their first difference beyond
    /// `limit` characters, so that the change is what both show.
    public static func briefPair(_ expected: JSONValue, _ actual: JSONValue, limit: Int = 80) -> (String, String) {
        TextShortening.aroundDifference(JSONWriter.compact(expected), JSONWriter.compact(actual), limit: limit)
    }

    /// A one-line rendering, shortened in the middle beyond `limit` characters.
    public static func brief(_ value: JSONValue, limit: Int = 80) -> String {
        TextShortening.middle(JSONWriter.compact(value), limit: limit)
    }
}

/// Shortening of long texts for one-line messages.
enum TextShortening {
    static func middle(_ text: String, limit: Int) -> String {
        guard text.count > limit, limit > 10 else { return text }
        let keep = (limit - 1) / 2
        return String(text.prefix(keep)) + "…" + String(text.suffix(limit - 1 - keep)) + " (\(text.count) chars)"
    }

    /// Two texts that should be equal, each cut to about `limit` characters around the first
    /// character where they differ (the same window in both), so that the difference is on screen
    /// however long they are; a text within the limit is kept whole, and equal ones are shortened as
    /// `middle` does.
    /// A cut text says how long it is and where the first difference is: `…3f9a0c… (260 chars,
    /// differs from character 131)`.
    static func aroundDifference(_ expected: String, _ actual: String, limit: Int) -> (String, String) {
        guard expected != actual, max(expected.count, actual.count) > limit, limit > 10 else {
            return (middle(expected, limit: limit), middle(actual, limit: limit))
        }
        let e = Array(expected), a = Array(actual)
        var first = 0
        while first < e.count, first < a.count, e[first] == a[first] { first += 1 }
        let start = max(0, first - limit / 3)
        func window(_ text: [Character]) -> String {
            guard text.count > limit else { return String(text) }
            let end = min(text.count, start + limit)
            var out = start > 0 ? "…" : ""
            out += String(text[min(start, text.count)..<end])
            if end < text.count { out += "…" }
            return out + " (\(text.count) chars, differs from character \(first + 1))"
        }
        return (window(e), window(a))
    }
}
