/// A JSON value as jansson reads it, in a form Swift can compare: what a C program on jansson
/// sees after `json_loadb`.
///
/// It keeps jansson's own model, not ours: a number is a 64-bit `integer` (`json_int_t`) when its
/// literal has no fraction and no exponent and a `real` (`double`) otherwise, so a literal is not
/// kept; strings are their UTF-8 bytes with their length (`json_string_length`, so a NUL read with
/// `JSON_ALLOW_NUL` is kept, where `json_string_value` would end the C string there); an object's
/// members come in jansson's iteration order, one per name (a repeated name keeps the last value
/// unless `JSON_REJECT_DUPLICATES` refused the document).
///
/// This type is part of the oracle: it shares no code with OrderedJSON and relies on jansson alone.
public indirect enum JanssonValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// `json_integer_value`.
    case integer(Int64)
    /// `json_real_value`.
    case real(Double)
    /// The string's bytes, `json_string_length` of them.
    case string([UInt8])
    case array([JanssonValue])
    /// Members in jansson's iteration order.
    case object([Member])

    /// One member of an object: its name's bytes and its value.
    public struct Member: Sendable, Hashable {
        public var name: [UInt8]
        public var value: JanssonValue

        public init(name: [UInt8], value: JanssonValue) {
            self.name = name
            self.value = value
        }
    }
}
