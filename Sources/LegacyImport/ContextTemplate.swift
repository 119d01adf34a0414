/// A step's request-context template of a harness suite (`context: "${user}-${pin}@${test}"`), and
/// how it is matched against the contexts a recording holds.
///
/// The Milagro SDK core's harness names each request `<call arguments>@<test><suffix>`
/// (`tests/common/test_mpin_sdk.cpp` joins a call's arguments with `-`; `test_context.cpp` appends
/// `@`, the test's name and the additional context data). Matching a template against a recorded
/// context binds the template's free variables to the values that run used (its user ids, PINs),
/// so that a suite description replays recordings of other runs of the same harness.
struct ContextTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        /// Literal text (`$$` read as `$`), and as it was written.
        case text(String, source: String)
        /// A variable; `filtered` when it carries a filter (`${an|tamper:4}`), whose value the
        /// recording cannot give back; `source` as written (`$an`, `${an|tamper:4}`).
        case variable(String, filtered: Bool, source: String)

        /// The part as it was written.
        var source: String {
            switch self {
            case .text(_, let source), .variable(_, _, let source): source
            }
        }
    }

    var parts: [Part]

    /// Parses `$name`, `${name}` and `${name|filter…}`; `$$` is a dollar sign.
    init(_ text: String) {
        var parts: [Part] = []
        var literal = "", literalSource = ""
        var rest = Substring(text)
        func isNameCharacter(_ character: Character) -> Bool {
            character.isASCII && (character.isLetter || character.isNumber || character == "_")
        }
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            literalSource += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.first == "$" {
                literal += "$"
                literalSource += "$$"
                rest = after.dropFirst()
                continue
            }
            var name: Substring, filtered = false, remainder: Substring
            if after.first == "{", let close = after.firstIndex(of: "}") {
                let inner = after[after.index(after: after.startIndex)..<close]
                name = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                filtered = inner.contains("|")
                remainder = after[after.index(after: close)...]
            } else {
                let end = after.firstIndex { !isNameCharacter($0) } ?? after.endIndex
                name = after[..<end]
                remainder = after[end...]
            }
            guard !name.isEmpty else {
                literal += "$"
                literalSource += "$"
                rest = after
                continue
            }
            if !literalSource.isEmpty { parts.append(.text(literal, source: literalSource)) }
            literal = ""
            literalSource = ""
            parts.append(
                .variable(String(name), filtered: filtered, source: String(rest[dollar..<remainder.startIndex])))
            rest = remainder
        }
        literal += rest
        literalSource += rest
        if !literalSource.isEmpty { parts.append(.text(literal, source: literalSource)) }
        self.parts = parts
    }

    /// The longest recorded context a template is matched against (the harness's are under 100).
    static let maximumContextLength = 1_024
    /// The most steps one match may take.
    static let searchBudget = 200_000

    /// The variables the template names.
    var variables: [String] {
        parts.compactMap { if case .variable(let name, _, _) = $0 { name } else { nil } }
    }

    /// The bindings under which the template spells `context` exactly, extending `bound`: a bound
    /// variable must have its value; a `wildcard` variable (set while the run goes, or filtered)
    /// matches any text and is not bound; a free one takes the shortest text that lets the rest
    /// match, and the same value wherever it comes again. Nil when no bindings spell it.
    func match(_ context: String, bound: [String: String], wildcards: Set<String>) -> [String: String]? {
        let characters = Array(context)
        guard characters.count <= Self.maximumContextLength else { return nil }
        // The search tries every split of the context among the free variables: bounded by a budget
        // of steps, so that no recorded context makes it slow (the suite's templates need a few
        // hundred at most).
        var budget = Self.searchBudget
        func search(_ part: Int, _ position: Int, _ bindings: [String: String]) -> [String: String]? {
            budget -= 1
            guard budget > 0 else { return nil }
            guard part < parts.count else { return position == characters.count ? bindings : nil }
            switch parts[part] {
            case .text(let text, _):
                let wanted = Array(text)
                guard position + wanted.count <= characters.count,
                    Array(characters[position..<position + wanted.count]) == wanted
                else {
                    return nil
                }
                return search(part + 1, position + wanted.count, bindings)
            case .variable(let name, let filtered, _):
                if !filtered, !wildcards.contains(name), let value = bindings[name] {
                    let wanted = Array(value)
                    guard position + wanted.count <= characters.count,
                        Array(characters[position..<position + wanted.count]) == wanted
                    else { return nil }
                    return search(part + 1, position + wanted.count, bindings)
                }
                for end in position...characters.count {
                    var next = bindings
                    if !filtered && !wildcards.contains(name) { next[name] = String(characters[position..<end]) }
                    if let found = search(part + 1, end, next) { return found }
                }
                return nil
            }
        }
        return search(0, 0, bound)
    }
}
