import MPinCrypto
import OrderedJSON
import ReferenceBackend

/// Looks for a secret in the client's requests (URL, header fields, body), and says where it is.
enum SecretSearch {
    /// Where a PIN is: a JSON string or number of a body that is the PIN, a query or header value
    /// that is, or a word of a text body (letters and digits between other characters).
    static func pin(_ pin: String, in exchanges: [ObservedExchange]) -> String? {
        for (index, exchange) in exchanges.enumerated() {
            let request = exchange.request
            let name = "request \(index + 1), \(request.method) \(request.url)"
            if let query = request.url.split(separator: "?", maxSplits: 1).dropFirst().first {
                for pair in query.split(separator: "&")
                where pair.split(separator: "=").dropFirst().first == Substring(pin) {
                    return "\(name): the query parameter \(pair.split(separator: "=").first ?? "")"
                }
            }
            for field in request.headers where words(field.value).contains(pin) {
                return "\(name): the header field \(field.name)"
            }
            if let value = try? JSONParser.parse(request.body), let path = jsonPath(of: pin, in: value, at: "$") {
                return "\(name): the body's \(path)"
            }
            if let text = String(validating: request.body, as: UTF8.self), words(text).contains(pin) {
                return "\(name): a word of the body"
            }
        }
        return nil
    }

    /// Where a G1 point is: its hex (either case) or the hex of its x coordinate, anywhere in a
    /// request's URL, header values or body.
    static func point(_ bytes: [UInt8], in exchanges: [ObservedExchange]) -> String? {
        guard bytes.count == 65 else { return nil }
        let forms = [Hex.encode(bytes), Hex.encode(Array(bytes[1..<33]))]
        for (index, exchange) in exchanges.enumerated() {
            let request = exchange.request
            let text =
                (request.url + "\n" + request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n"
                + String(decoding: request.body, as: UTF8.self)).lowercased()
            for (number, form) in forms.enumerated() where text.contains(form) {
                return "request \(index + 1), \(request.method) \(request.url), holds its "
                    + (number == 0 ? "encoding" : "x coordinate")
            }
        }
        return nil
    }

    /// The runs of letters and digits of a text.
    static func words(_ text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber) }.map(String.init))
    }

    /// The JSON path of a string or number equal to `pin`, if any.
    static func jsonPath(of pin: String, in value: JSONValue, at path: String) -> String? {
        switch value {
        case .string(let text) where text == pin: return path
        case .number(let text) where text == pin: return path
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = jsonPath(of: pin, in: item, at: "\(path)[\(index)]") { return found }
            }
        case .object(let members):
            for member in members {
                if let found = jsonPath(of: pin, in: member.value, at: "\(path).\(member.name)") { return found }
            }
        default: break
        }
        return nil
    }
}
