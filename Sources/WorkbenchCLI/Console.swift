import Foundation

/// Writes to standard output and standard error without trapping: a closed pipe (`| head`) loses
/// the text instead of stopping the program.
enum Console {
    static func out(_ text: String) { write(text, to: .standardOutput) }

    /// `text` as a line of its own on standard output.
    static func line(_ text: String) { out(text + "\n") }

    static func error(_ text: String) { write(text, to: .standardError) }

    /// `error: <message>` on its own line on standard error.
    static func failure(_ message: String) { error("error: \(message)\n") }

    private static func write(_ text: String, to handle: FileHandle) {
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
