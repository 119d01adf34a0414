/// "Did you mean …?" for a name that is not known: the known name closest to it by edit distance.
///
/// The distance is Levenshtein's (insertions, deletions and substitutions of characters, each 1),
/// case ignored; a candidate is suggested only when it is near enough to be a slip of the keyboard:
/// at most a third of the longer name's characters differ, and 2 always may (`wiat`, `wait`). A name
/// of more than 64 characters gets no suggestion, so the work is bounded whatever a file holds.
/// The package's one "did you mean": script values, scenario names, suites, subcommands.
package enum NameSuggestion {
    /// The known name closest to `name`, nil when none is near enough; ties go to the first given.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        guard name.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate.count <= 64 {
            let distance = Self.distance(name.lowercased(), candidate.lowercased())
            guard distance <= max(2, max(name.count, candidate.count) / 3) else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `"; did you mean X?"` for the closest known name, else empty: a suffix for an error message.
    package static func hint(for name: String, among candidates: some Sequence<String>) -> String {
        closest(to: name, among: candidates).map { "; did you mean \($0)?" } ?? ""
    }

    /// The Levenshtein distance of `a` and `b`, by characters.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
