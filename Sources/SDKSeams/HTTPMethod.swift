/// The HTTP methods of the Milagro SDK's `IHttpRequest::Method`.
public enum HTTPMethod: String, Sendable, CaseIterable, Hashable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
    case options = "OPTIONS"
    case patch = "PATCH"
}
