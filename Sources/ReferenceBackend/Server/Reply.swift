import Hummingbird
import OrderedJSON

/// What a handler answers: JSON with a status (200 for every success, as the clients require),
/// or an empty body, with any extra header fields (a `Set-Cookie`, a `WWW-Authenticate`).
enum Reply: Sendable {
    case json(HTTPResponse.Status, JSONValue, headers: HTTPFields = HTTPFields())
    case empty(HTTPResponse.Status, headers: HTTPFields = HTTPFields())

    static func ok(_ members: [(String, JSONValue)]) -> Reply { .json(.ok, .fields(members)) }

    var status: HTTPResponse.Status {
        switch self {
        case .json(let status, _, _), .empty(let status, _): return status
        }
    }

    /// The same answer with one more header field.
    func adding(_ name: HTTPFields.Element.Name, _ value: String) -> Reply {
        switch self {
        case .json(let status, let body, var headers):
            headers.append(HTTPFields.Element(name: name, value: value))
            return .json(status, body, headers: headers)
        case .empty(let status, var headers):
            headers.append(HTTPFields.Element(name: name, value: value))
            return .empty(status, headers: headers)
        }
    }

    /// The answer as the server writes it (JSON as minified UTF-8 with its `Content-Type`).
    var answer: ServerAnswer {
        switch self {
        case .json(let status, let value, var headers):
            headers[.contentType] = "application/json; charset=utf-8"
            return ServerAnswer(status, headers: headers, body: JSONWriter.minified(value))
        case .empty(let status, let headers):
            return ServerAnswer(status, headers: headers)
        }
    }

    static func error(_ error: APIError) -> Reply { .json(error.status, error.body) }
}
