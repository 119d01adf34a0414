/// Command lines as a POSIX shell reads them, for the commands the workbench writes down for a
/// user to run again (a re-record hint, the `vectors generate` line in a vector file's header):
/// each word quoted so that `sh` gives back exactly that word, and the reverse, so that such a
/// line can be checked against what it should say.
package enum ShellWords {
    /// `word` as a shell needs it: unchanged when it is only letters, digits and `-_./:=@,+`, else
    /// in single quotes, each `'` written `'\''` (POSIX sh, "Quoting"). An empty word is `''`.
    package static func quote(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9")
                    || "-_./:=@,+".unicodeScalars.contains($0)
            }
        return safe ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// The words a shell makes of `line`: split at unquoted spaces and tabs, with single quotes
    /// (everything literal up to the next `'`), double quotes (`\` escapes only `$`, `` ` ``, `"`,
    /// `\` and a newline) and a backslash outside quotes (the next character literal). Nil when a
    /// quote is not closed, the line ends in a lone backslash, or it holds what a shell would
    /// expand or treat as an operator (`$`, `` ` ``, `;`, `&`, `|`, `<`, `>`, `(`, `)`, `*`, `?`,
    /// `[`, `{`, `#`, `~` outside quotes): such a line is not one plain command.
    package static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var scalars = line.unicodeScalars.makeIterator()
        while let c = scalars.next() {
            switch c {
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "'":
                inWord = true
                while true {
                    guard let q = scalars.next() else { return nil }
                    if q == "'" { break }
                    current.unicodeScalars.append(q)
                }
            case "\"":
                inWord = true
                while true {
                    guard let q = scalars.next() else { return nil }
                    if q == "\"" { break }
                    if q == "$" || q == "`" { return nil }
                    if q == "\\" {
                        guard let next = scalars.next() else { return nil }
                        if !"$`\"\\\n".unicodeScalars.contains(next) { current.unicodeScalars.append(q) }
                        if next != "\n" { current.unicodeScalars.append(next) }
                        continue
                    }
                    current.unicodeScalars.append(q)
                }
            case "\\":
                guard let next = scalars.next() else { return nil }
                inWord = true
                if next != "\n" { current.unicodeScalars.append(next) }
            case "$", "`", ";", "&", "|", "<", ">", "(", ")", "*", "?", "[", "{", "#", "~", "\n":
                return nil
            default:
                inWord = true
                current.unicodeScalars.append(c)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
