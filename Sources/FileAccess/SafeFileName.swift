/// A file name made from a free-form name (a scenario's, a test's), safe to put in a folder: every
/// character other than a letter, a digit, `-` and `_` becomes `_`, so the name cannot climb out
/// of the folder (`../../x` gives `______x`), name a hidden file or hold a separator. An empty
/// name gives `_`. This is the rule `cassette import` names its cassettes by.
///
/// A name stays within `maximumBytes` (255, what Linux and macOS file systems take) less the bytes
/// the caller reserves for what it adds (`.json`, `-2`): a longer one keeps as many whole
/// characters as fit before `-` and 16 hex digits of a hash of the whole name (FNV-1a, 64 bits),
/// so that two long names sharing a beginning stay apart and the same name always gives the same
/// file name.
public enum SafeFileName {
    /// The most bytes of a file name (one path component).
    public static let maximumBytes = 255

    /// The safe form of `name`, without an extension, at most `maximumBytes - reserving` bytes
    /// of UTF-8 (at least 18 are always left for a shortened one).
    public static func make(_ name: String, reserving: Int = 0) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        if safe.isEmpty { return "_" }
        let limit = max(maximumBytes - reserving, 18)
        guard safe.utf8.count > limit else { return safe }
        let tag = "-" + hash(name)
        return prefix(safe, maximumBytes: limit - tag.utf8.count) + tag
    }

    /// The longest run of whole characters at the start of `text` that takes at most
    /// `maximumBytes` bytes of UTF-8.
    static func prefix(_ text: String, maximumBytes: Int) -> String {
        var kept = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            guard bytes + size <= maximumBytes else { break }
            kept.append(character)
            bytes += size
        }
        return kept
    }

    /// 16 lowercase hex digits of FNV-1a (64 bits) over the UTF-8 of `name`.
    static func hash(_ name: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
