import Hummingbird

/// What a handler answers: JSON with a status (200 for every success, as the clients require),
/// or an empty body.
enum Reply: Sendable {
    case json(HTTPResponse.Status, JSONOut)
    case empty(HTTPResponse.Status)

    static func ok(_ members: [(String, JSONOut)]) -> Reply { .json(.ok, .object(members)) }

    var response: Response {
        switch self {
        case .json(let status, let value):
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: value.text)))
        case .empty(let status):
            return Response(status: status, body: ResponseBody())
        }
    }

    static func error(_ error: APIError) -> Reply { .json(error.status, error.body) }
}
