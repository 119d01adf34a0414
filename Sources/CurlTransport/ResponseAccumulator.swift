import CommonFormats
import SDKSeams

/// Collects the status line, header fields and body bytes that libcurl hands to its callbacks.
///
/// An interim response (`100 Continue`) or a proxy's `CONNECT` answer restarts the header list, so
/// only the final response's fields remain.
///
/// A header line of ASCII bytes (nearly every one) is split and trimmed as bytes, with one string
/// made for the name and one for the value; a line with other bytes goes through `String` as
/// characters. Both give the same fields for an ASCII line: its only multi-byte character would be
/// CR LF, and libcurl ends a line at the first LF.
final class ResponseAccumulator {
    var body: [UInt8] = []
    var headers: [HTTPHeaders.Field] = []
    /// The most body bytes taken (nil: no limit).
    let maximumBody: Int?
    /// Set when the body grew past `maximumBody`; the body is dropped then.
    private(set) var overflowed = false

    init(maximumBody: Int? = nil) {
        self.maximumBody = maximumBody
    }

    /// Takes body bytes; false (and the body dropped) when they take it past `maximumBody`, and
    /// the transfer is to end.
    func appendBody(_ pointer: UnsafeRawBufferPointer) -> Bool {
        if let maximumBody, body.count + pointer.count > maximumBody {
            overflowed = true
            body = []
            return false
        }
        body.append(contentsOf: pointer)
        return true
    }

    func appendHeaderLine(_ pointer: UnsafeRawBufferPointer) {
        var end = pointer.count
        while end > 0, pointer[end - 1] == 0x0A || pointer[end - 1] == 0x0D { end -= 1 }
        if end == 0 { return }
        let line = UnsafeRawBufferPointer(rebasing: pointer[0..<end])
        guard !line.contains(where: { $0 >= 0x80 }) else {
            appendCharacters(Array(line))
            return
        }
        // "HTTP/"
        if end >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F {
            headers.removeAll()
            return
        }
        if line[0] == 0x20 || line[0] == 0x09, !headers.isEmpty {
            // obs-fold continuation of the previous field
            headers[headers.count - 1].value += " " + Self.trimmed(line[...])
            return
        }
        guard let colon = line.firstIndex(of: 0x3A) else { return }
        headers.append(
            HTTPHeaders.Field(
                name: String(decoding: line[..<colon], as: UTF8.self),
                value: Self.trimmed(line[(colon + 1)...])))
    }

    /// `bytes` (ASCII) without leading and trailing spaces and tabs, as a string.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// A header line with bytes beyond ASCII (CR and LF removed from its end), split as characters.
    func appendCharacters(_ bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        if let first = bytes.first, first == 0x20 || first == 0x09, !headers.isEmpty {
            // obs-fold continuation of the previous field
            headers[headers.count - 1].value += " " + line.trimmingOptionalWhitespace
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingOptionalWhitespace
        headers.append(HTTPHeaders.Field(name: name, value: value))
    }
}
