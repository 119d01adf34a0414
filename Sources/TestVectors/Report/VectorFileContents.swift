import FileAccess

/// Loads a vector file as UTF-8 text, with errors that name the file.
///
/// Reading goes through `InputFile`: a regular file, or a pipe or device (`/dev/stdin`), at most
/// `maximumBytes`; a directory, a missing file or a read error is reported with the operating
/// system's reason.
public enum VectorFileContents {
    /// The largest vector file read, 256 MiB (the committed files are below 1 MiB).
    public static let maximumBytes = InputFile.defaultLimit

    /// The text of the file at `path`, a leading byte-order mark removed.
    ///
    /// - Throws: `VectorFileError` naming the file and what is wrong.
    public static func read(_ path: String) throws(VectorFileError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: maximumBytes)
        } catch {
            switch error.kind {
            case .missing: throw VectorFileError(file: path, line: nil, message: "no such file")
            case .notRegularFile(let what):
                throw VectorFileError(file: path, line: nil, message: "is \(what), not a vector file")
            default: throw VectorFileError(file: path, line: nil, message: "\(error.action): \(error.reason)")
            }
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw VectorFileError(file: path, line: nil, message: "is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // a byte-order mark
        return text
    }
}
