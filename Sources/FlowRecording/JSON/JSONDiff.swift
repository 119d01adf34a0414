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
            "\(path): expected \(JSONDiff.brief(expected)), got \(JSONDiff.brief(actual))"
        case .missing(let expected): "\(path): missing (expected \(JSONDiff.brief(expected)))"
        case .added(let actual): "\(path): unexpected (got \(JSONDiff.brief(actual)))"
        }
    }

    /// The difference between two peers rather than an expectation and a result, named by
    /// `first` and `second` (`cassette diff`: "the first", "the second").
    public func description(first: String, second: String) -> String {
        switch change {
        case .changed(let a, let b): "\(path): \(JSONDiff.brief(a)) in \(first), \(JSONDiff.brief(b)) in \(second)"
        case .missing(let a): "\(path): only in \(first) (\(JSONDiff.brief(a)))"
        case .added(let b): "\(path): only in \(second) (\(JSONDiff.brief(b)))"
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
}
