/// How to record a cassette again, from its own metadata.
package enum RerecordHint {
    /// The `mpin-workbench record …` command line that re-records `cassette` into `path`.
    ///
    /// The scenario is named by its file when the cassette knows it, else by its name; the backend is
    /// `--embedded` for the in-process reference backend, else `--backend URL`; the seed is repeated.
    package static func command(for cassette: Cassette, path: String?) -> String {
        var words = ["mpin-workbench", "record", shellQuoted(cassette.scenario.path ?? cassette.scenario.name)]
        if cassette.backend.embedded {
            words.append("--embedded")
        } else if !cassette.backend.url.isEmpty {
            words += ["--backend", shellQuoted(cassette.backend.url)]
        }
        if let seed = cassette.scenario.seed { words += ["--seed", shellQuoted(seed)] }
        if let path { words += ["--out", shellQuoted(path)] }
        return words.joined(separator: " ")
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "-_./:=@,+".unicodeScalars.contains($0)
        }
        return safe ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
