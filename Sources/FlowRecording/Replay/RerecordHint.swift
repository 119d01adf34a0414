import FileAccess

/// How to record a cassette again, from its own metadata.
package enum RerecordHint {
    /// The `mpin-workbench record …` command line that re-records `cassette` into `path`.
    ///
    /// The scenario is named by its file when the cassette knows it, else by its name; the backend is
    /// `--embedded` for the in-process reference backend, else `--backend URL`: a recording proxy's
    /// upstream (the proxy's own port is closed once it has written the cassette), else the URL
    /// recorded; the seed is repeated.
    package static func command(for cassette: Cassette, path: String?) -> String {
        var words = ["mpin-workbench", "record", ShellWords.quote(cassette.scenario.path ?? cassette.scenario.name)]
        if cassette.backend.embedded {
            words.append("--embedded")
        } else if let upstream = cassette.backend.upstream {
            words += ["--backend", ShellWords.quote(upstream)]
        } else if !cassette.backend.url.isEmpty {
            words += ["--backend", ShellWords.quote(cassette.backend.url)]
        }
        if let seed = cassette.scenario.seed { words += ["--seed", ShellWords.quote(seed)] }
        if let path { words += ["--out", ShellWords.quote(path)] }
        return words.joined(separator: " ")
    }
}
