/// The old spellings of the command line, each rewritten to its new one before parsing, with one
/// warning on standard error that names the new spelling (the one home of backward compatibility):
///
/// * `serve --cassette FILE …` is `cassette serve FILE …`;
/// * `serve --bench …` is `bench backend …`, and there (as under `serve --bench`) `--bench-clients`,
///   `--bench-runs`, `--bench-authentications` and `--bench-json` are `--clients`, `--runs`,
///   `--authentications` and `--json`;
/// * `serve --time S` is `serve --time-seconds S`;
/// * `cassette redact --field NAME` is `--redact NAME`, and `--defaults` is `--redact default`.
///
/// Only options are rewritten, in the words after the command's own name; `--name=value` counts.
struct LegacySpelling {
    /// The arguments to parse.
    var arguments: [String]
    /// One line per old spelling met, `warning: … is now …`.
    var warnings: [String] = []

    init(_ arguments: [String]) {
        self.arguments = arguments
        rewrite()
    }

    private static let benchOptions = [
        "--bench-clients": "--clients", "--bench-runs": "--runs",
        "--bench-authentications": "--authentications", "--bench-json": "--json",
    ]

    private mutating func rewrite() {
        guard let command = arguments.first else { return }
        var rest = Array(arguments.dropFirst())
        switch command {
        case "serve":
            if let (index, file) = Self.option("--cassette", in: rest) {
                rest.removeSubrange(index..<(index + (rest[index].contains("=") ? 1 : min(2, rest.count - index))))
                warnings.append("warning: `serve --cassette FILE` is now `cassette serve FILE`")
                arguments = ["cassette", "serve"] + (file.map { [$0] } ?? []) + rest
            } else if let index = rest.firstIndex(of: "--bench") {
                rest.remove(at: index)
                let (words, met) = Self.rename(rest, Self.benchOptions)
                warnings.append(
                    "warning: `serve --bench` is now `bench backend`"
                        + met.map { ", `\($0)` is `\(Self.benchOptions[$0]!)`" }.joined())
                arguments = ["bench", "backend"] + words
            } else {
                arguments = ["serve"] + rename(rest, ["--time": "--time-seconds"])
            }
        case "bench" where rest.first == "backend":
            arguments = ["bench", "backend"] + rename(Array(rest.dropFirst()), Self.benchOptions)
        case "cassette" where rest.first == "redact":
            var words = rename(Array(rest.dropFirst()), ["--field": "--redact"])
            if let index = words.firstIndex(of: "--defaults") {
                warnings.append("warning: `--defaults` is now `--redact default`")
                words.removeAll { $0 == "--defaults" }
                words.insert(contentsOf: ["--redact", "default"], at: index)
            }
            arguments = ["cassette", "redact"] + words
        default:
            break
        }
    }

    /// `words` with each old option name of `names` replaced by its new one; one warning per name met.
    private mutating func rename(_ words: [String], _ names: [String: String]) -> [String] {
        let (renamed, met) = Self.rename(words, names)
        warnings += met.map { "warning: `\($0)` is now `\(names[$0]!)`" }
        return renamed
    }

    /// `words` with each old option name of `names` replaced by its new one, and the old names met.
    private static func rename(_ words: [String], _ names: [String: String]) -> (words: [String], met: [String]) {
        var met: [String] = []
        let renamed = words.map { word -> String in
            let name = String(word.prefix { $0 != "=" })
            guard let new = names[name] else { return word }
            if !met.contains(name) { met.append(name) }
            return new + word.dropFirst(name.count)
        }
        return (renamed, met)
    }

    /// Where `name` is among `words` and the value given to it (nil when it has none).
    private static func option(_ name: String, in words: [String]) -> (Int, String?)? {
        for (index, word) in words.enumerated() {
            if word == name { return (index, index + 1 < words.count ? words[index + 1] : nil) }
            if word.hasPrefix(name + "=") { return (index, String(word.dropFirst(name.count + 1))) }
        }
        return nil
    }
}
