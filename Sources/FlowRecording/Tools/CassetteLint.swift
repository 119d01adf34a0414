import CommonFormats
import OrderedJSON

/// `cassette lint`: checks a cassette file for the schema, the format version and canonical form,
/// the consistency of the `json` views of bodies with their text, and of placeholders with the
/// redaction manifest.
public enum CassetteLint {
    /// One problem found in a file.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The problems of the file at `path` (empty: the file is fine).
    public static func check(path: String) -> [Problem] {
        let bytes: [UInt8]
        do {
            bytes = try CassetteFile.readBytes(path)
        } catch {
            return [Problem(path: path, message: readMessage(error))]
        }
        return check(bytes: bytes, path: path)
    }

    public static func check(bytes: [UInt8], path: String) -> [Problem] {
        let cassette: Cassette
        do {
            cassette = try CassetteFile.decode(bytes)
        } catch {
            return [Problem(path: path, message: readMessage(error))]
        }
        var problems: [String] = []
        // Compared piece by piece as it is made: the file is not held a second time.
        var written = 0, canonical = true
        cassette.writeCanonical { piece in
            if canonical {
                canonical =
                    written + piece.count <= bytes.count
                    && bytes[written..<(written + piece.count)].elementsEqual(piece)
            }
            written += piece.count
        }
        if !canonical || written != bytes.count {
            let canonical = cassette.canonicalBytes
            let mine = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let theirs = String(decoding: canonical, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            var line = 0
            while line < mine.count, line < theirs.count, mine[line] == theirs[line] { line += 1 }
            problems.append(
                "line \(line + 1): not in canonical form (two-space indent, sorted keys, `\"name\": value`, "
                    + "trailing newline); `cassette lint --fix` rewrites it")
        }
        // The reader has refused numbers out of range, bad header fields and `json` views that
        // disagree with their bytes; what it lets through and no cassette should hold:
        if !CassetteLimits.knownCurves.contains(where: { $0.caseInsensitiveCompare(cassette.curve) == .orderedSame }) {
            problems.append(
                "field curve: \"\(cassette.curve)\" is not a curve this tool knows (\(CassetteLimits.knownCurves.joined(separator: ", ")))"
            )
        }
        for (index, event) in cassette.events.enumerated() {
            if !EventActor.known.contains(event.actor) {
                let names = EventActor.known.map(\.rawValue).sorted().joined(separator: ", ")
                problems.append("event \(index), field actor: \"\(event.actor)\" is not one of \(names)")
            }
            if case .http(let exchange) = event.payload {
                if !CassetteLimits.isMethod(exchange.request.method) {
                    problems.append(
                        "event \(index), field request.method: \"\(exchange.request.method)\" is not an HTTP method (a token such as GET)"
                    )
                }
                if let problem = urlProblem(exchange.request.url) {
                    problems.append("event \(index), field request.url: \(problem)")
                }
            }
            if case .random(let draw) = event.payload, Placeholder.whole(draw.hex) == nil,
                draw.hex != draw.hex.lowercased()
            {
                problems.append("event \(index), field bytes: hex should be lowercase")
            }
        }
        let used = Set(Redactor.placeholderNames(in: cassette))
        let declared = Set(cassette.redactions.map(\.placeholder))
        for name in used.subtracting(declared).sorted() {
            problems.append("placeholder \(Placeholder.text(name)) is used but not listed in `redactions`")
        }
        for name in declared.subtracting(used).sorted() {
            problems.append("redactions lists \(Placeholder.text(name)), which no event uses")
        }
        for (name, slot) in Redactor.unlistedPlaceholders(in: cassette) where declared.contains(name) {
            problems.append(
                "placeholder \(Placeholder.text(name)) at \(slot) is not where the redactor put it (its `at` does not list "
                    + "\(slot)): a value given for it is not filled in there")
        }
        return problems.map { Problem(path: path, message: $0) }
    }
}

extension CassetteLint {
    /// What is wrong with a recorded URL: empty, not absolute (`scheme://host…`), or holding spaces
    /// or control characters that no request line can carry. Nil when it is fine.
    package static func urlProblem(_ url: String) -> String? {
        if url.isEmpty { return "empty; a request has an absolute URL" }
        guard let authority = URLText.parts(url).authority, !authority.isEmpty else {
            return "\(JSONDiff.brief(.string(url))) is not an absolute URL (scheme://host/path)"
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "\(JSONDiff.brief(.string(url))) holds a space or a control character"
        }
        return nil
    }

    /// A reading error without the file name: `line 3, column 7: …`, `event 2, field request.url: …`.
    static func readMessage(_ error: CassetteError) -> String {
        var parts: [String] = []
        if let line = error.line { parts.append("line \(line)" + (error.column.map { ", column \($0)" } ?? "")) }
        if let index = error.eventIndex { parts.append("event \(index)") }
        if let field = error.field { parts.append("field \(field)") }
        return (parts.isEmpty ? "" : parts.joined(separator: ", ") + ": ") + error.message
    }
}
