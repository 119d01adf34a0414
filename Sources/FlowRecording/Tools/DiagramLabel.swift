/// The short form of a label of the drawn sequence diagram (`SequenceDiagram.svg`); the full text
/// goes to the arrow's or note's hover title and to the page's table.
package enum DiagramLabel {
    /// Hex runs longer than this are shortened.
    package static let hexRunLimit = 16
    /// Labels longer than this (after the hex runs are shortened) end in an ellipsis.
    package static let characterLimit = 96

    /// `text` with every run of more than 16 hex digits (an M-Pin ID, a hash, a time-permit
    /// storage name) cut to its first 8 and last 4 digits around `…`
    /// (`/rps/signature/7b226d6f…227d`), then cut to 96 characters.
    package static func short(_ text: String) -> String {
        var out = "", run = ""
        func flush() {
            if run.count > hexRunLimit {
                out += run.prefix(8) + "…" + run.suffix(4)
            } else {
                out += run
            }
            run = ""
        }
        for character in text {
            if character.isHexDigit && character.isASCII {
                run.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out.count > characterLimit ? String(out.prefix(characterLimit - 1)) + "…" : out
    }
}
