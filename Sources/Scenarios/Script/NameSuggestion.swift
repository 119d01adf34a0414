/// The "did you mean" of a misspelt name: the known name nearest to it, when it is near enough to
/// be a slip (a small edit distance, letters compared without case).
package enum NameSuggestion {
    /// The known name nearest to `name`, nil when none is within a third of its length (at least
    /// 2 edits; a name that differs only in case always counts). Names longer than 64 characters
    /// get no suggestion (the work is bounded whatever a script holds).
    package static func nearest(to name: String, among known: [String]) -> String? {
        guard name.count <= 64 else { return nil }
        let word = Array(name.lowercased())
        let limit = max(2, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `"; did you mean X?"`, or nothing when no known name is near.
    package static func hint(for name: String, among known: [String]) -> String {
        nearest(to: name, among: known).map { "; did you mean \($0)?" } ?? ""
    }

    /// The Levenshtein distance (insertions, deletions and substitutions), with one row of memory.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = a[i - 1] == b[j - 1] ? diagonal : 1 + min(diagonal, above, row[j - 1])
                diagonal = above
            }
        }
        return row[b.count]
    }
}
