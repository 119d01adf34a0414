import MPinCrypto
import MilagroProtocol
import OrderedJSON

/// A 2xx answer: the response and its body parsed as JSON (nil for an empty body or when
/// JSON was not expected). What the flows read; `MPinClient.request` makes it.
struct Answer: Sendable, Hashable {
    var response: HTTPResponse
    var json: JSONValue?

    func string(_ key: String) -> String? { json?[first: key]?.stringValue }

    /// A value the response must have.
    func required(_ key: String, context: RequestContext) throws(MPinError) -> String {
        guard let value = string(key), !value.isEmpty else {
            throw MPinError(
                .responseParseError, "The response has no '\(key)'",
                context: .init(
                    request: "\(context.rawValue)", httpStatus: response.status,
                    responseBody: response.bodyText.map { String($0.prefix(512)) }))
        }
        return value
    }

    /// A hex value the response must have.
    func requiredHex(_ key: String, context: RequestContext) throws(MPinError) -> [UInt8] {
        let text = try required(key, context: context)
        guard let bytes = Hex.decode(text) else {
            throw MPinError(
                .responseParseError, "'\(key)' in the response is not hex", context: .init(request: context.rawValue))
        }
        return bytes
    }
}
