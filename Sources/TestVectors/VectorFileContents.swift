import Foundation

/// Loads a vector file as UTF-8 text, with errors that name the file.
enum VectorFileContents {
    static func read(_ path: String) throws(VectorFileError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw VectorFileError(file: path, line: nil, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw VectorFileError(file: path, line: nil, message: "is a directory, not a vector file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VectorFileError(file: path, line: nil, message: "cannot be read")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw VectorFileError(file: path, line: nil, message: "is not UTF-8 text")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }  // a byte-order mark
        return text
    }
}
