import CJansson

/// Reads JSON texts with jansson (`json_loadb`), the independent oracle of OrderedJSON's parser, as
/// GMP is the oracle of the field arithmetic: the differential tests parse the same documents with
/// both and compare verdicts and values, and `cassette lint --portable` says what a C consumer on
/// jansson would read differently (docs/architecture.md, "Dependencies").
///
/// The reader keeps nothing between calls: every call loads, converts and releases one document.
public enum JanssonReader {
    /// `json_loadb`'s decoding flags.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `JSON_REJECT_DUPLICATES`: a repeated member name refuses the document.
        public static let rejectDuplicates = Options(rawValue: Int(JSON_REJECT_DUPLICATES))
        /// `JSON_DECODE_ANY`: any value at the top, not only an array or an object.
        public static let decodeAny = Options(rawValue: Int(JSON_DECODE_ANY))
        /// `JSON_ALLOW_NUL`: `\u0000` in strings (never in member names).
        public static let allowNul = Options(rawValue: Int(JSON_ALLOW_NUL))
        /// `JSON_DECODE_INT_AS_REAL`: every number is a `double`.
        public static let decodeIntAsReal = Options(rawValue: Int(JSON_DECODE_INT_AS_REAL))
    }

    /// jansson's reading of `bytes` with `options` (no options: what `json_loadb(buffer, length, 0,
    /// &error)` in a C consumer reads).
    ///
    /// - Throws: `JanssonError` with jansson's message, place and code when it refuses the document.
    public static func read(_ bytes: [UInt8], options: Options = []) throws(JanssonError) -> JanssonValue {
        var error = json_error_t()
        let loaded: UnsafeMutablePointer<json_t>? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // json_loadb reads `buflen` bytes and never dereferences the pointer when it is 0.
                json_loadb(
                    chars.baseAddress ?? UnsafePointer(bitPattern: 1), chars.count, Int(options.rawValue), &error)
            }
        }
        guard let root = loaded else { throw Self.error(error) }
        defer { cjansson_release(root) }
        return value(of: root)
    }

    /// The Swift value of a loaded jansson value.
    private static func value(of json: UnsafeMutablePointer<json_t>) -> JanssonValue {
        switch cjansson_type(json) {
        case JSON_NULL: return .null
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        case JSON_INTEGER: return .integer(Int64(json_integer_value(json)))
        case JSON_REAL: return .real(json_real_value(json))
        case JSON_STRING:
            let count = json_string_length(json)
            guard count > 0, let start = json_string_value(json) else { return .string([]) }
            return .string(
                start.withMemoryRebound(to: UInt8.self, capacity: count) {
                    Array(UnsafeBufferPointer(start: $0, count: count))
                })
        case JSON_ARRAY:
            return .array((0..<json_array_size(json)).compactMap { json_array_get(json, $0).map(value(of:)) })
        case JSON_OBJECT:
            var members: [JanssonValue.Member] = []
            var iterator = json_object_iter(json)
            while let current = iterator {
                if let key = json_object_iter_key(current), let member = json_object_iter_value(current) {
                    let length = json_object_iter_key_len(current)
                    let name = key.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                    members.append(JanssonValue.Member(name: name, value: value(of: member)))
                }
                iterator = json_object_iter_next(json, current)
            }
            return .object(members)
        default: return .null
        }
    }

    /// The Swift error of a failed load.
    private static func error(_ error: json_error_t) -> JanssonError {
        var error = error
        let raw = UInt32(cjansson_error_code(&error))
        let code: JanssonError.Code =
            switch raw {
            case json_error_invalid_utf8.rawValue: .invalidUTF8
            case json_error_premature_end_of_input.rawValue: .prematureEndOfInput
            case json_error_end_of_input_expected.rawValue: .endOfInputExpected
            case json_error_invalid_syntax.rawValue: .invalidSyntax
            case json_error_null_character.rawValue: .nullCharacter
            case json_error_null_byte_in_key.rawValue: .nullByteInKey
            case json_error_duplicate_key.rawValue: .duplicateKey
            case json_error_numeric_overflow.rawValue: .numericOverflow
            case json_error_stack_overflow.rawValue: .stackOverflow
            default: .other(Int(raw))
            }
        // The text is NUL-terminated within its array; its last byte holds the code.
        let text = withUnsafeBytes(of: error.text) { raw in
            let bytes = raw.prefix(Int(JSON_ERROR_TEXT_LENGTH) - 1)
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return JanssonError(
            text: text, code: code, line: Int(error.line), column: Int(error.column), position: Int(error.position))
    }
}
