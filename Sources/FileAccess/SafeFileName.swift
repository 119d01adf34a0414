/// A file name made from a free-form name (a scenario's, a test's), safe to put in a folder: every
/// character other than a letter, a digit, `-` and `_` becomes `_`, so the name cannot climb out
/// of the folder (`../../x` gives `______x`), name a hidden file or hold a separator. An empty
/// name gives `_`. This is the rule `cassette import` names its cassettes by.
public enum SafeFileName {
    /// The safe form of `name`, without an extension.
    public static func make(_ name: String) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return safe.isEmpty ? "_" : safe
    }
}
