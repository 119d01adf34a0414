import SDKSeams

/// Collects the status line, header fields and body bytes that libcurl hands to its callbacks.
///
/// An interim response (`100 Continue`) or a proxy's `CONNECT` answer restarts the header list, so
/// only the final response's fields remain.
final class ResponseAccumulator {
    var body: [UInt8] = []
    var headers: [HTTPHeaders.Field] = []

    func appendBody(_ pointer: UnsafeRawBufferPointer) {
        body.append(contentsOf: pointer)
    }

    func appendHeaderLine(_ pointer: UnsafeRawBufferPointer) {
        var bytes = Array(pointer)
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        if bytes.isEmpty { return }
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        if let first = bytes.first, first == 0x20 || first == 0x09, !headers.isEmpty {
            // obs-fold continuation of the previous field
            headers[headers.count - 1].value += " " + line.trimmingSpaces()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon])
        let value = String(line[line.index(after: colon)...]).trimmingSpaces()
        headers.append(HTTPHeaders.Field(name: name, value: value))
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
