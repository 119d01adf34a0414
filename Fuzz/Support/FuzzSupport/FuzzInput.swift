/// A fuzz input: the bytes libFuzzer hands over, and their split into parts for the targets that
/// take a sequence (responses, requests, storage files).
public struct FuzzInput: Sendable {
    public let bytes: [UInt8]

    /// The separator of parts: a line `%%`. Text, so that the seeds stay readable and the
    /// mutations that insert dictionary words or copy parts across keep the structure.
    public static let separator: [UInt8] = Array("\n%%\n".utf8)

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// The input as UTF-8 text; nil when it is not valid UTF-8.
    public var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The parts between separators, at most `limit` (the rest stays in the last one).
    public func parts(limit: Int = 64) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        var index = 0
        let separator = Self.separator
        while index + separator.count <= bytes.count, result.count < limit - 1 {
            if bytes[index] == separator[0] && Array(bytes[index..<index + separator.count]) == separator {
                result.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        result.append(Array(bytes[start...]))
        return result
    }

    /// Splits a part at its first line: (the line without its newline, the rest).
    public static func firstLine(_ part: [UInt8]) -> (line: String, rest: [UInt8]) {
        guard let newline = part.firstIndex(of: UInt8(ascii: "\n")) else {
            return (String(decoding: part, as: UTF8.self), [])
        }
        return (String(decoding: part[..<newline], as: UTF8.self), Array(part[(newline + 1)...]))
    }
}
